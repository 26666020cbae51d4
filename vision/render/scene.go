package render

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/decant/decant/solver"
)

// Truth is the exact ground truth of a drawn image, in the coordinates of the image as a
// reader sees it (after any EXIF orientation is applied).
type Truth struct {
	// Level is the position drawn, tubes in reading order (rows top to bottom, left to right);
	// nil when NoPuzzle.
	Level *solver.Level
	// Tubes holds each tube's geometry in the level's reading order.
	Tubes         []TubeTruth
	Width, Height int
	// NoPuzzle marks a screen with no readable level on it (a menu, a shop, a pop-up over the
	// board): a reader must refuse it.
	NoPuzzle bool
}

// TubeTruth is the geometry of one drawn tube: its outer box (the glass and its outline, from
// the top of the rim to the bottom; a lip's overhang, a cork, a stand and a cover's overhang
// lie outside it) and the boxes of the units it holds, bottom first (none for an empty or
// covered tube). A unit's box spans the cavity's width at that height (the tube's, in Render's
// fixed themes) and one unit's height; under a perspective transform each box is the bounding
// box of the transformed quad.
type TubeTruth struct {
	Box   image.Rectangle
	Units []image.Rectangle
}

// Scene is one drawn screenshot: its encoded bytes, its pixels and its truth.
type Scene struct {
	// Data is the encoded PNG or JPEG, as a user would upload it. A JPEG may carry an EXIF
	// orientation: then Image and Truth are the upright picture a reader must reconstruct.
	Data []byte
	// Image is the upright picture before encoding (an *image.RGBA).
	Image image.Image
	Truth Truth
	// Factors names the draws that made the scene, factor by factor (see Factors in
	// random.go): "background":"wood", "outline":"none", ...; Render's scenes carry "theme".
	Factors map[string]string
}

// Limits of a drawn image: the reader refuses anything smaller or larger.
const (
	minSide   = 240
	maxPixels = 25_000_000
)

func checkSize(w, h int) error {
	if w < minSide || h < minSide || w*h > maxPixels {
		return solver.Errorf(solver.CodeInvalidArgument, "render size %d×%d: each side at least %d, at most %d megapixels", w, h, minSide, maxPixels/1_000_000)
	}
	return nil
}

// encode writes img as a PNG (quality 0) or a JPEG of that quality.
func encode(img image.Image, quality int) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if quality > 0 {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
