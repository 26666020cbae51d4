package vision

import (
	"encoding/binary"
	"image"
	"image/color"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/annotate"
)

// Annotate draws on the screenshot r was read from: each tube's number (1..N, as in text
// output), the next pours of the plan as numbered arrows from tube to tube, and a legend with
// the whole plan (see package annotate). It returns a PNG. The reading must come from Read,
// which keeps the decoded pixels; a rendered level is annotated with annotate.PNG on its image.
func Annotate(r *Reading, plan solver.Plan) ([]byte, error) {
	img, err := r.annotated(plan)
	if err != nil {
		return nil, err
	}
	return annotate.EncodePNG(img)
}

// annotated returns a copy of the reading's pixels with the plan drawn on it.
func (r *Reading) annotated(plan solver.Plan) (*image.RGBA, error) {
	if r == nil || r.Level == nil || r.pixels == nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "the reading holds no screenshot to draw on")
	}
	if b := r.pixels.Bounds(); b.Dx() != r.Width || b.Dy() != r.Height || len(r.Tubes) != len(r.Level.Tubes) {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "the reading does not match its %d×%d image", b.Dx(), b.Dy())
	}
	boxes := make([]image.Rectangle, len(r.Tubes))
	for i, t := range r.Tubes {
		boxes[i] = t.Box
	}
	img := r.pixels.rgba()
	if err := annotate.Draw(img, boxes, plan); err != nil {
		return nil, err
	}
	return img, nil
}

// bgrImage is an image held as OpenCV keeps it: 8-bit BGR rows, no padding. Read keeps the
// decoded screenshot this way (one copy out of the Mat) for Annotate.
type bgrImage struct {
	pix  []byte
	w, h int
}

func (m *bgrImage) ColorModel() color.Model { return color.RGBAModel }
func (m *bgrImage) Bounds() image.Rectangle { return image.Rect(0, 0, m.w, m.h) }
func (m *bgrImage) At(x, y int) color.Color {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return color.RGBA{}
	}
	p := m.pix[3*(y*m.w+x):]
	return color.RGBA{p[2], p[1], p[0], 255}
}

// rgba converts the pixels to a new RGBA image.
func (m *bgrImage) rgba() *image.RGBA {
	img := image.NewRGBA(m.Bounds())
	dst, src := img.Pix, m.pix[:3*m.w*m.h]
	// Four pixels at a time: twelve bytes in as three words, sixteen out as four.
	i, j := 0, 0
	for ; i+12 <= len(src); i, j = i+12, j+16 {
		s, d := src[i:i+12:i+12], dst[j:j+16:j+16]
		a := binary.LittleEndian.Uint32(s[0:]) // b0 g0 r0 b1
		b := binary.LittleEndian.Uint32(s[4:]) // g1 r1 b2 g2
		c := binary.LittleEndian.Uint32(s[8:]) // r2 b3 g3 r3
		binary.LittleEndian.PutUint32(d[0:], 0xff000000|a>>16&0xff|a&0xff00|(a&0xff)<<16)
		binary.LittleEndian.PutUint32(d[4:], 0xff000000|b>>8&0xff|(b&0xff)<<8|(a>>24)<<16)
		binary.LittleEndian.PutUint32(d[8:], 0xff000000|c&0xff|(b>>16&0xff00)|(b>>16&0xff)<<16)
		binary.LittleEndian.PutUint32(d[12:], 0xff000000|c>>24|(c>>8&0xff00)|(c>>8&0xff)<<16)
	}
	for ; i+2 < len(src); i, j = i+3, j+4 {
		s, d := src[i:i+3:i+3], dst[j:j+4:j+4]
		d[0], d[1], d[2], d[3] = s[2], s[1], s[0], 255
	}
	return img
}
