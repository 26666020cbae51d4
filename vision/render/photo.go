package render

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/disintegration/imaging"
)

// Photo parameters: how far each screen corner may move (share of the side), how much of the
// frame the screen fills, the moiré's period and strength, the glare spot's opacity.
var (
	photoTilt     = 0.06
	photoFill     = [2]float64{0.78, 0.92}
	moirePeriod   = [2]float64{2.5, 6}
	moireStrength = [2]float64{3, 12}
	glareOpacity  = [2]float64{0.1, 0.3}
)

// photograph turns a screenshot into a phone photo of the screen showing it: the screen seen
// at a slight perspective inside a phone's bezel on a table, with moiré, a glare spot, a
// colour cast and a little defocus. The truth's boxes become the bounding boxes of their
// transformed corners.
func photograph(r *rand.Rand, src *image.RGBA, t Truth) (*image.RGBA, Truth) {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	fill := between(r, photoFill)
	sw, sh := float64(w)*fill, float64(h)*fill
	x0, y0 := (float64(w)-sw)/2, (float64(h)-sh)/2
	jit := func(v, side float64) float64 { return v + (r.Float64()*2-1)*photoTilt*side }
	dst := [4][2]float64{
		{jit(x0, sw), jit(y0, sh)}, {jit(x0+sw, sw), jit(y0, sh)},
		{jit(x0+sw, sw), jit(y0+sh, sh)}, {jit(x0, sw), jit(y0+sh, sh)},
	}
	srcQ := [4][2]float64{{0, 0}, {float64(w), 0}, {float64(w), float64(h)}, {0, float64(h)}}
	fwd := homography(srcQ, dst)
	inv := homography(dst, srcQ)
	bezel := hsv(r.Float64()*360, 0.1*r.Float64(), 0.05+0.08*r.Float64())
	table := hsv(r.Float64()*360, 0.1+0.3*r.Float64(), 0.3+0.5*r.Float64())
	margin := 0.04 * math.Max(sw, sh)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	cast := [3]float64{0.92 + 0.16*r.Float64(), 0.92 + 0.16*r.Float64(), 0.92 + 0.16*r.Float64()}
	for y := range h {
		for x := range w {
			sx, sy := apply(inv, float64(x)+0.5, float64(y)+0.5)
			switch {
			case sx >= 0 && sy >= 0 && sx < float64(w) && sy < float64(h):
				c := bilinear(src, sx-0.5, sy-0.5)
				out.SetRGBA(x, y, color.RGBA{ch(float64(c.R) * cast[0]), ch(float64(c.G) * cast[1]), ch(float64(c.B) * cast[2]), 255})
			case sx >= -margin && sy >= -margin*2 && sx < float64(w)+margin && sy < float64(h)+margin*2:
				out.SetRGBA(x, y, bezel)
			default:
				out.SetRGBA(x, y, scale(table, 0.9+0.2*float64(y)/float64(h)))
			}
		}
	}
	moire(r, out)
	c := rgb(255, 255, 255)
	c.A = uint8(255 * between(r, glareOpacity))
	softDisc(out, float64(w)*r.Float64(), float64(h)*r.Float64(), float64(w)*(0.1+0.2*r.Float64()), c)
	for range 1 + r.IntN(3) { // defocus: σ 0.5 to 0.9
		soften(out)
	}

	tt := Truth{Level: t.Level, Width: w, Height: h, NoPuzzle: t.NoPuzzle}
	for _, tube := range t.Tubes {
		nt := TubeTruth{Box: warpBox(fwd, tube.Box, w, h)}
		for _, u := range tube.Units {
			nt.Units = append(nt.Units, warpBox(fwd, u, w, h))
		}
		tt.Tubes = append(tt.Tubes, nt)
	}
	return out, tt
}

func ch(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }

// moire overlays two close sinusoidal gratings, whose beat is the moiré a camera sees on a
// screen's pixel grid.
func moire(r *rand.Rand, img *image.RGBA) {
	p := between(r, moirePeriod)
	amp := between(r, moireStrength)
	a1 := r.Float64() * math.Pi
	a2 := a1 + 0.03 + 0.08*r.Float64()
	c1, s1, c2, s2 := math.Cos(a1), math.Sin(a1), math.Cos(a2), math.Sin(a2)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			fx, fy := float64(x), float64(y)
			v := amp * 0.5 * (math.Sin(2*math.Pi*(fx*c1+fy*s1)/p) + math.Sin(2*math.Pi*(fx*c2+fy*s2)/(p*1.03)))
			c := img.RGBAAt(x, y)
			img.SetRGBA(x, y, color.RGBA{ch(float64(c.R) + v), ch(float64(c.G) + v), ch(float64(c.B) + v), 255})
		}
	}
}

// bilinear samples img at a real-valued position.
func bilinear(img *image.RGBA, x, y float64) color.RGBA {
	x = math.Max(0, math.Min(float64(img.Rect.Dx()-1), x))
	y = math.Max(0, math.Min(float64(img.Rect.Dy()-1), y))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, img.Rect.Dx()-1), min(y0+1, img.Rect.Dy()-1)
	tx, ty := x-float64(x0), y-float64(y0)
	a, b := img.RGBAAt(x0, y0), img.RGBAAt(x1, y0)
	c, d := img.RGBAAt(x0, y1), img.RGBAAt(x1, y1)
	f := func(p, q, r, s uint8) uint8 {
		return ch((float64(p)*(1-tx)+float64(q)*tx)*(1-ty) + (float64(r)*(1-tx)+float64(s)*tx)*ty)
	}
	return color.RGBA{f(a.R, b.R, c.R, d.R), f(a.G, b.G, c.G, d.G), f(a.B, b.B, c.B, d.B), 255}
}

// homography is the 3×3 projective map (h33 = 1) taking the four src points to dst.
func homography(src, dst [4][2]float64) [9]float64 {
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := src[i][0], src[i][1], dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for c := range 8 { // Gauss-Jordan with partial pivoting
		p := c
		for i := c + 1; i < 8; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		a[c], a[p] = a[p], a[c]
		for i := range 8 {
			if i != c && a[c][c] != 0 {
				f := a[i][c] / a[c][c]
				for j := c; j < 9; j++ {
					a[i][j] -= f * a[c][j]
				}
			}
		}
	}
	var hm [9]float64
	for i := range 8 {
		hm[i] = a[i][8] / a[i][i]
	}
	hm[8] = 1
	return hm
}

func apply(hm [9]float64, x, y float64) (float64, float64) {
	z := hm[6]*x + hm[7]*y + hm[8]
	return (hm[0]*x + hm[1]*y + hm[2]) / z, (hm[3]*x + hm[4]*y + hm[5]) / z
}

// warpBox is the bounding box of b's corners under hm, clipped to w×h.
func warpBox(hm [9]float64, b image.Rectangle, w, h int) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]int{{b.Min.X, b.Min.Y}, {b.Max.X, b.Min.Y}, {b.Max.X, b.Max.Y}, {b.Min.X, b.Max.Y}} {
		x, y := apply(hm, float64(p[0]), float64(p[1]))
		minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(image.Rect(0, 0, w, h))
}

// exifTag is the EXIF orientation a camera writes for each "exif" factor value: the stored
// pixels are the upright picture turned the other way, and a viewer turns them back.
var exifTag = map[string]uint16{"90": 6, "180": 3, "270": 8}

// rotateForEXIF returns the pixels a camera stores for the orientation drawn: tag 6 (display
// turned 90° clockwise) stores the picture turned 90° counter-clockwise, and so on.
func rotateForEXIF(img *image.RGBA, kind string) image.Image {
	switch kind {
	case "90":
		return imaging.Rotate90(img) // counter-clockwise
	case "180":
		return imaging.Rotate180(img)
	case "270":
		return imaging.Rotate270(img)
	}
	return img
}

// WithOrientation inserts an EXIF APP1 segment carrying orientation o (1–8) right after the
// JPEG's SOI marker, as a phone camera writes it: a reader must turn the picture upright.
func WithOrientation(jpg []byte, o uint16) []byte {
	tiff := []byte{'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, byte(o >> 8), byte(o), 0, 0, 0, 0, 0, 0}
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}
