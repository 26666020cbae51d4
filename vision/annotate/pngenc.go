package annotate

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/draw"

	"github.com/decant/decant/solver"
)

// EncodePNG writes img as an RGB PNG (alpha dropped: annotations are opaque): every row
// Sub-filtered, the whole deflated at zlib's fastest level. For screenshots this is about
// three times faster than adaptive filtering (18 ms against 53 ms with libpng for 1080×2400)
// for a file under twice the size; annotating is dominated by it. *image.RGBA and *BGR are
// read directly, other images are copied first.
func EncodePNG(img image.Image) ([]byte, error) {
	var cv canvas
	switch img.(type) {
	case *image.RGBA, *BGR:
		cv, _ = canvasOf(img.(draw.Image))
	default:
		cv, _ = canvasOf(Copy(img))
	}
	w, h := cv.rect.Dx(), cv.rect.Dy()
	if w <= 0 || h <= 0 {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "cannot encode an empty %d×%d image", w, h)
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits, truecolour; compression, filter, interlace 0
	writeChunk(&out, "IHDR", ihdr)

	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
	}
	row := make([]byte, 1+3*w)
	row[0] = 1 // Sub: each byte less the same channel of the pixel to its left
	for y := range h {
		off := cv.offset(cv.rect.Min.X, cv.rect.Min.Y+y)
		subFilter(row[1:], cv.pix[off:off+cv.bpp*w], cv.bpp == 3)
		if _, err := zw.Write(row); err != nil {
			return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
	}
	writeChunk(&out, "IDAT", idat.Bytes())
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// subFilter writes one row of RGB bytes, each less the same channel of the pixel to its left,
// from BGR (bgr) or RGBA pixels.
func subFilter(dst, src []byte, bgr bool) {
	var pr, pg, pb byte
	if bgr {
		for x := 0; x+3 <= len(src) && x+3 <= len(dst); x += 3 {
			s, d := src[x:x+3:x+3], dst[x:x+3:x+3]
			r, g, b := s[2], s[1], s[0]
			d[0], d[1], d[2] = r-pr, g-pg, b-pb
			pr, pg, pb = r, g, b
		}
		return
	}
	for i, j := 0, 0; i+4 <= len(src) && j+3 <= len(dst); i, j = i+4, j+3 {
		s, d := src[i:i+3:i+3], dst[j:j+3:j+3]
		r, g, b := s[0], s[1], s[2]
		d[0], d[1], d[2] = r-pr, g-pg, b-pb
		pr, pg, pb = r, g, b
	}
}

func writeChunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
