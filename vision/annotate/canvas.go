package annotate

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"

	"github.com/decant/decant/solver"
)

// BGR is an image held as OpenCV holds it: three bytes per pixel, blue, green, red. Drawing
// on a decoded screenshot's own bytes spares converting 2.6 million pixels to RGBA and back.
type BGR struct {
	Pix    []uint8
	Stride int // bytes between rows
	Rect   image.Rectangle
}

// NewBGR returns a black image with the given bounds.
func NewBGR(r image.Rectangle) *BGR {
	return &BGR{Pix: make([]uint8, 3*r.Dx()*r.Dy()), Stride: 3 * r.Dx(), Rect: r}
}

func (m *BGR) ColorModel() color.Model { return color.RGBAModel }
func (m *BGR) Bounds() image.Rectangle { return m.Rect }

// PixOffset is the index of the pixel at (x, y)'s blue byte.
func (m *BGR) PixOffset(x, y int) int { return (y-m.Rect.Min.Y)*m.Stride + 3*(x-m.Rect.Min.X) }

func (m *BGR) At(x, y int) color.Color {
	if !image.Pt(x, y).In(m.Rect) {
		return color.RGBA{}
	}
	p := m.Pix[m.PixOffset(x, y):]
	return color.RGBA{p[2], p[1], p[0], 255}
}

func (m *BGR) Set(x, y int, c color.Color) {
	if !image.Pt(x, y).In(m.Rect) {
		return
	}
	rgba := color.RGBAModel.Convert(c).(color.RGBA)
	p := m.Pix[m.PixOffset(x, y):]
	p[0], p[1], p[2] = rgba.B, rgba.G, rgba.R
}

// Clone returns a copy of m.
func (m *BGR) Clone() *BGR {
	return &BGR{Pix: append([]uint8(nil), m.Pix...), Stride: m.Stride, Rect: m.Rect}
}

// canvas is the bytes Draw writes, RGBA or BGR.
type canvas struct {
	pix     []byte
	stride  int
	rect    image.Rectangle
	bpp     int  // bytes per pixel
	r, g, b int  // each channel's byte within a pixel
	alpha   bool // the fourth byte is alpha
}

// canvasOf returns the pixels of img to draw on.
func canvasOf(img draw.Image) (canvas, error) {
	switch m := img.(type) {
	case *image.RGBA:
		return canvas{pix: m.Pix, stride: m.Stride, rect: m.Rect, bpp: 4, r: 0, g: 1, b: 2, alpha: true}, nil
	case *BGR:
		return canvas{pix: m.Pix, stride: m.Stride, rect: m.Rect, bpp: 3, r: 2, g: 1, b: 0}, nil
	}
	return canvas{}, solver.Errorf(solver.CodeInternal, "annotate draws on *image.RGBA or *annotate.BGR, not %T", img)
}

func (cv canvas) offset(x, y int) int {
	return (y-cv.rect.Min.Y)*cv.stride + cv.bpp*(x-cv.rect.Min.X)
}

// blend paints c over the canvas in box through a coverage mask: mask[y*stride+x] covers
// the pixel at box.Min+(x, y).
func (cv canvas) blend(box image.Rectangle, mask []byte, stride int, c color.RGBA) {
	ca := uint32(c.A)
	// The paint's channels in the canvas's byte order.
	var p [3]uint32
	p[cv.r], p[cv.g], p[cv.b] = uint32(c.R), uint32(c.G), uint32(c.B)
	p0, p1, p2 := p[0], p[1], p[2]
	b0, b1, b2 := uint8(p0), uint8(p1), uint8(p2)
	for y := range box.Dy() {
		m := mask[y*stride : y*stride+box.Dx()]
		row := cv.pix[cv.offset(box.Min.X, box.Min.Y+y):]
		for x := 0; x < len(m); x++ {
			if x+8 <= len(m) && binary.LittleEndian.Uint64(m[x:]) == 0 {
				x += 7 // eight uncovered pixels at once
				continue
			}
			if m[x] == 0 {
				continue
			}
			i := cv.bpp * x
			d := row[i : i+3 : i+3]
			a := div255(uint32(m[x]) * ca) // the paint's opacity here, 0..255
			if a == 255 {
				d[0], d[1], d[2] = b0, b1, b2
			} else {
				k := 255 - a
				d[0] = uint8(div255(uint32(d[0])*k + p0*a))
				d[1] = uint8(div255(uint32(d[1])*k + p1*a))
				d[2] = uint8(div255(uint32(d[2])*k + p2*a))
			}
			if cv.alpha {
				row[i+3] = uint8(div255(uint32(row[i+3])*(255-a) + 255*a))
			}
		}
	}
}

// div255 is v/255 rounded, for v up to 255·255, without a division.
func div255(v uint32) uint32 {
	v += 128
	return (v + v>>8) >> 8
}

// dim scales the colour of every pixel in box by k/256.
func (cv canvas) dim(box image.Rectangle, k uint) {
	box = box.Intersect(cv.rect)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		row := cv.pix[cv.offset(box.Min.X, y):cv.offset(box.Max.X, y)]
		if !cv.alpha {
			for i, v := range row {
				row[i] = byte(uint(v) * k >> 8)
			}
			continue
		}
		for i := 0; i+3 < len(row); i += 4 {
			row[i] = byte(uint(row[i]) * k >> 8)
			row[i+1] = byte(uint(row[i+1]) * k >> 8)
			row[i+2] = byte(uint(row[i+2]) * k >> 8)
		}
	}
}

// drawMask paints c through an alpha mask placed with its top-left at p.
func (cv canvas) drawMask(mask *image.Alpha, p image.Point, c color.RGBA) {
	at := mask.Rect.Sub(mask.Rect.Min).Add(p)
	box := at.Intersect(cv.rect)
	if box.Empty() {
		return
	}
	off := mask.PixOffset(mask.Rect.Min.X+box.Min.X-at.Min.X, mask.Rect.Min.Y+box.Min.Y-at.Min.Y)
	cv.blend(box, mask.Pix[off:], mask.Stride, c)
}
