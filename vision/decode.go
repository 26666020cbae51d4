package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/draw"
	_ "image/gif" // image.DecodeConfig formats
	"image/jpeg"
	_ "image/png"

	"gocv.io/x/gocv"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/webp"

	"github.com/decant/decant/solver"
)

// Limits on what Read accepts.
const (
	MaxBytes  = 40 << 20   // encoded size
	MaxPixels = 25_000_000 // decoded width × height, checked before decoding
	maxScans  = 64         // JPEG scans: each one is a pass over the whole image
	maxAspect = 4          // long side over short side: phones are about 2.2, tablets 1.3
	MinSide   = 240        // shortest side: smaller images cannot show a level legibly
)

// decode checks the bytes' header and limits, then decodes them to a BGR Mat; OpenCV applies
// a JPEG's EXIF orientation. The caller closes the Mat.
func decode(data []byte) (gocv.Mat, error) {
	if len(data) == 0 {
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "no image: the upload is empty")
	}
	if len(data) > MaxBytes {
		return gocv.Mat{}, solver.Errorf(solver.CodeImageTooLarge, "image is %d MiB; the limit is %d MiB", len(data)>>20, MaxBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "not a PNG, JPEG, WebP, GIF or BMP image (%v)", err)
	}
	switch w, h := cfg.Width, cfg.Height; {
	case w <= 0 || h <= 0:
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "%s header gives a %d×%d image", format, w, h)
	case w*h > MaxPixels || w > 20000 || h > 20000:
		return gocv.Mat{}, solver.Errorf(solver.CodeImageTooLarge, "image is %d×%d pixels; the limit is %d megapixels", w, h, MaxPixels/1_000_000)
	case min(w, h) < MinSide:
		return gocv.Mat{}, solver.Errorf(solver.CodeImageTooSmall, "image is %d×%d pixels; a screenshot needs at least %d on each side", w, h, MinSide)
	case max(w, h) > maxAspect*min(w, h):
		return gocv.Mat{}, solver.Errorf(solver.CodeNoPuzzle, "image is %d×%d pixels: no screen is that long and thin (at most %d:1)", w, h, maxAspect)
	}
	if !complete(data, format) {
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "the %s file is truncated", format)
	}
	// A progressive JPEG can repeat tiny scans thousands of times, each decoded over the whole
	// image: a few kilobytes that take minutes. Entropy-coded data never holds FF DA, so this
	// counts scans (or overcounts).
	if n := bytes.Count(data, []byte{0xFF, 0xDA}); format == "jpeg" && n > maxScans {
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "the JPEG has %d scans; more than %d is not a screenshot", n, maxScans)
	}
	if format == "jpeg" {
		if err := wholeJPEG(data); err != nil {
			return gocv.Mat{}, err
		}
	}
	var mat gocv.Mat
	if format == "gif" {
		// OpenCV 4.6 has no GIF codec: decode in Go (first frame).
		mat, err = decodeGo(data)
	} else {
		mat, err = gocv.IMDecode(data, gocv.IMReadColor)
	}
	if err != nil || mat.Empty() {
		mat.Close()
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "the %s data could not be decoded", format)
	}
	// OpenCV applies a JPEG's EXIF orientation, which may swap the sides.
	sameSize := mat.Cols() == cfg.Width && mat.Rows() == cfg.Height
	turned := mat.Cols() == cfg.Height && mat.Rows() == cfg.Width && format == "jpeg"
	if !(sameSize || turned) || mat.Type() != gocv.MatTypeCV8UC3 {
		mat.Close()
		return gocv.Mat{}, solver.Errorf(solver.CodeUnreadableImage, "the %s data decodes to a different size than its header says", format)
	}
	return mat, nil
}

// decodeGo decodes with Go's decoders and copies the pixels into a new BGR Mat.
func decodeGo(data []byte) (gocv.Mat, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return gocv.NewMat(), err
	}
	return imageToMat(img)
}

// imageToMat converts any image to a BGR Mat that owns its pixels.
func imageToMat(img image.Image) (gocv.Mat, error) {
	rgba, ok := img.(*image.RGBA)
	if !ok || rgba.Rect.Min != (image.Point{}) || rgba.Stride != 4*rgba.Rect.Dx() {
		rgba = image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
		draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	}
	return gocv.ImageToMatRGB(rgba) // copies: RGBA → BGR conversion into a new Mat
}

// wholeJPEG decodes a JPEG's entropy-coded data in Go: a file cut short and given an end
// marker back passes complete's check, and OpenCV decodes it with a grey band and no error.
// Formats Go does not decode (arithmetic coding, 12-bit samples) are left to OpenCV.
func wholeJPEG(data []byte) error {
	_, err := jpeg.Decode(bytes.NewReader(data))
	var unsupported jpeg.UnsupportedError
	if err == nil || errors.As(err, &unsupported) {
		return nil
	}
	return solver.Errorf(solver.CodeUnreadableImage, "the JPEG data is truncated or corrupt (%v)", err)
}

// complete reports whether an image file has its end marker, so truncated uploads are refused
// instead of being read with a grey or black band.
func complete(data []byte, format string) bool {
	switch format {
	case "png":
		return bytes.Contains(data[max(0, len(data)-64):], []byte("IEND"))
	case "jpeg":
		return bytes.Contains(data[max(0, len(data)-4096):], []byte{0xFF, 0xD9})
	case "webp":
		return len(data) >= 8 && int(binary.LittleEndian.Uint32(data[4:8]))+8 <= len(data)
	}
	return true
}
