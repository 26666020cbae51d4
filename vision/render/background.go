package render

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/disintegration/imaging"
)

// randomColor draws a background colour: mostly dark or muted, as game backgrounds are, some
// light and some saturated.
func randomBackdrop(r *rand.Rand) color.RGBA {
	switch r.IntN(4) {
	case 0: // dark
		return hsv(r.Float64()*360, 0.2+0.5*r.Float64(), 0.08+0.22*r.Float64())
	case 1: // light
		return hsv(r.Float64()*360, 0.05+0.3*r.Float64(), 0.8+0.2*r.Float64())
	case 2: // saturated
		return hsv(r.Float64()*360, 0.5+0.5*r.Float64(), 0.4+0.5*r.Float64())
	}
	return hsv(r.Float64()*360, 0.1+0.4*r.Float64(), 0.25+0.5*r.Float64()) // muted
}

// hsv converts hue (degrees), saturation and value (0..1) to a colour.
func hsv(h, s, v float64) color.RGBA {
	h = math.Mod(h, 360) / 60
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h, 2)-1))
	var r, g, b float64
	switch int(h) {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := v - c
	f := func(t float64) uint8 { return uint8(math.Round(255 * clamp01(t+m))) }
	return color.RGBA{f(r), f(g), f(b), 255}
}

// near returns a colour a little lighter or darker than c, for a background's second tone.
func nearTone(r *rand.Rand, c color.RGBA) color.RGBA {
	k := 0.55 + 0.3*r.Float64()
	if r.IntN(2) == 0 {
		k = 1.25 + 0.4*r.Float64()
	}
	d := scale(c, k)
	if k > 1 && c.R+c.G+c.B < 30 {
		d = color.RGBA{c.R + 25, c.G + 25, c.B + 30, 255}
	}
	return d
}

// paintBackground fills img with a background of the kind drawn.
func paintBackground(img *image.RGBA, r *rand.Rand, kind string) *image.RGBA {
	a := randomBackdrop(r)
	b := nearTone(r, a)
	if r.IntN(3) == 0 {
		b = randomBackdrop(r)
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	switch kind {
	case "flat":
		fillRect(img, img.Rect, a)
	case "vgradient":
		for y := range h {
			fillRect(img, image.Rect(0, y, w, y+1), mix(a, b, float64(y)/float64(max(1, h-1))))
		}
	case "radial":
		cx, cy := float64(w)*(0.3+0.4*r.Float64()), float64(h)*(0.2+0.5*r.Float64())
		far := math.Hypot(math.Max(cx, float64(w)-cx), math.Max(cy, float64(h)-cy))
		for y := range h {
			for x := range w {
				img.SetRGBA(x, y, mix(a, b, math.Hypot(float64(x)-cx, float64(y)-cy)/far))
			}
		}
	case "wood":
		woodGrain(img, r)
	case "noise":
		noise(img, r, a, b)
	case "blobs":
		return blobs(img, r, a)
	case "doodles":
		fillRect(img, img.Rect, a)
		doodles(img, r, nearTone(r, a))
	case "bokeh":
		fillRect(img, img.Rect, a)
		for range 12 + r.IntN(25) {
			rad := float64(w) * (0.02 + 0.08*r.Float64())
			c := hsv(r.Float64()*360, 0.3+0.5*r.Float64(), 0.5+0.5*r.Float64())
			c.A = uint8(25 + r.IntN(60))
			softDisc(img, float64(r.IntN(w)), float64(r.IntN(h)), rad, c)
		}
	}
	return img
}

// woodGrain is planks of a random brown with sinuous grain.
func woodGrain(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	base := hsv(18+20*r.Float64(), 0.45+0.3*r.Float64(), 0.25+0.45*r.Float64())
	phase, freq := r.Float64()*10, 25+35*r.Float64()
	plank := max(8, int(float64(w)*(0.15+0.2*r.Float64())))
	vertical := r.IntN(2) == 0
	for y := range h {
		for x := range w {
			u, v := float64(x)/float64(w), float64(y)/float64(h)
			p := x / plank
			if !vertical {
				u, v = v, u
				p = y / plank
			}
			grain := 0.5 + 0.5*math.Sin(u*freq+math.Sin(v*6+phase+float64(p))*3)
			k := 0.85 + 0.25*grain + 0.06*float64(p%3)
			if (vertical && x%plank == 0) || (!vertical && y%plank == 0) {
				k = 0.6
			}
			img.SetRGBA(x, y, scale(base, k))
		}
	}
}

// noise is a two-tone value noise, smooth at a random scale.
func noise(img *image.RGBA, r *rand.Rand, a, b color.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	cell := max(2, int(float64(w)*(0.005+0.04*r.Float64())))
	gw, gh := w/cell+2, h/cell+2
	grid := make([]float64, gw*gh)
	for i := range grid {
		grid[i] = r.Float64()
	}
	amp := 0.25 + 0.5*r.Float64()
	for y := range h {
		for x := range w {
			fx, fy := float64(x)/float64(cell), float64(y)/float64(cell)
			ix, iy := int(fx), int(fy)
			tx, ty := fx-float64(ix), fy-float64(iy)
			v00, v10 := grid[iy*gw+ix], grid[iy*gw+ix+1]
			v01, v11 := grid[(iy+1)*gw+ix], grid[(iy+1)*gw+ix+1]
			v := (v00*(1-tx)+v10*tx)*(1-ty) + (v01*(1-tx)+v11*tx)*ty
			img.SetRGBA(x, y, mix(a, b, 0.5+amp*(v-0.5)))
		}
	}
}

// blobs is a blurred photo-like picture: large soft shapes of several colours.
func blobs(img *image.RGBA, r *rand.Rand, a color.RGBA) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	small := image.NewRGBA(image.Rect(0, 0, max(8, w/8), max(8, h/8)))
	fillRect(small, small.Rect, a)
	sw, sh := small.Rect.Dx(), small.Rect.Dy()
	for range 6 + r.IntN(10) {
		c := nearTone(r, a)
		if r.IntN(2) == 0 {
			c = randomBackdrop(r)
		}
		disc(small, float64(r.IntN(sw)), float64(r.IntN(sh)), float64(sw)*(0.1+0.4*r.Float64()), c)
	}
	blurred := imaging.Blur(small, float64(sw)*0.06)
	return toRGBA(imaging.Resize(blurred, w, h, imaging.Linear))
}

// doodles are faint outline shapes scattered over the screen, as several games draw.
func doodles(img *image.RGBA, r *rand.Rand, line color.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	width := math.Max(1, float64(w)/400)
	for range w * h / 12000 {
		cx, cy := float64(r.IntN(w)), float64(r.IntN(h))
		rad := float64(w) * (0.01 + 0.035*r.Float64())
		switch r.IntN(4) {
		case 0:
			ring(img, cx, cy, rad, width, line)
		case 1: // a star
			for k := range 5 {
				a1, a2 := float64(k)*4*math.Pi/5, float64(k+1)*4*math.Pi/5
				segmentLine(img, int(cx+rad*math.Sin(a1)), int(cy-rad*math.Cos(a1)), int(cx+rad*math.Sin(a2)), int(cy-rad*math.Cos(a2)), int(width), line)
			}
		default:
			x2, y2 := cx+rad*2*(r.Float64()-0.5), cy+rad*2*(r.Float64()-0.5)
			segmentLine(img, int(cx), int(cy), int(x2), int(y2), int(width), line)
		}
	}
}

// softDisc blends a translucent circle with a soft edge.
func softDisc(img *image.RGBA, cx, cy, rad float64, c color.RGBA) {
	b := image.Rect(int(cx-rad-2), int(cy-rad-2), int(cx+rad+3), int(cy+rad+3)).Intersect(img.Rect)
	op := color.RGBA{c.R, c.G, c.B, 255}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			if a := clamp01((rad - d) / (rad * 0.25)); a > 0 {
				img.SetRGBA(x, y, mix(img.RGBAAt(x, y), op, a*float64(c.A)/255))
			}
		}
	}
}

// meanColor is the mean colour of r in img.
func meanColor(img *image.RGBA, r image.Rectangle) color.RGBA {
	r = r.Intersect(img.Rect)
	var s [3]float64
	n := 0
	step := max(1, r.Dx()*r.Dy()/4000)
	for i := 0; i < r.Dx()*r.Dy(); i += step {
		c := img.RGBAAt(r.Min.X+i%r.Dx(), r.Min.Y+i/r.Dx())
		s[0], s[1], s[2] = s[0]+float64(c.R), s[1]+float64(c.G), s[2]+float64(c.B)
		n++
	}
	if n == 0 {
		return rgb(0, 0, 0)
	}
	return rgb(uint8(s[0]/float64(n)), uint8(s[1]/float64(n)), uint8(s[2]/float64(n)))
}
