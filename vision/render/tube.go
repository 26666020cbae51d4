package render

import (
	"image"
	"image/color"
	"math"

	"github.com/decant/decant/solver"
)

// look is how a random scene draws its tubes: the factors drawn, turned into colours and sizes.
type look struct {
	shape, rim, stand, glass, glare, edge, hidden, cover, tone string
	shadow                                                     bool

	outline color.RGBA
	stroke  float64 // outline width in pixels; 0 for none
	tint    color.RGBA
	tintA   float64 // glass opacity over the background
	cylA    float64 // strength of the left-to-right shading that makes liquid look round

	glareX, glareW, glareA float64 // glare stripe: centre and width as shares of the cavity, opacity

	hiddenFill, hiddenInk color.RGBA // hidden units: box and glyph colours
	rimColor              color.RGBA
	curtain, standColor   color.RGBA // a curtain's cloth; a shelf's or holder's colour
}

// tubeGeom is one tube's geometry: a cavity that liquid fills from its lowest point up, with an
// outline around it and an open top.
type tubeGeom struct {
	cx     float64
	top    float64 // top of the tube's box (rim included)
	cavTop float64 // where the cavity starts below the rim
	bottom float64 // the cavity's lowest point: where the first unit rests
	hw     float64 // the cavity's half width
	neckY  float64 // flask: where the narrow neck meets the body
	uh     float64 // unit height
	stroke float64
	shape  string
}

// Silhouette proportions.
const (
	flatCorner  = 0.3  // flat bottom: corner radius as a share of the half width
	flaskCorner = 0.45 // flask body: corner radius
	neckShare   = 0.68 // flask neck: half width as a share of the body's
	bulbShare   = 1.25 // bulb: radius as a share of the tube's half width
)

// sd is a signed distance to the cavity's wall (negative inside), ignoring the open top.
func (g tubeGeom) sd(x, y float64) float64 {
	dx := math.Abs(x - g.cx)
	switch g.shape {
	case "flat":
		return roundedBottom(dx, y, g.hw, g.bottom, flatCorner*g.hw)
	case "flask":
		body := math.Max(roundedBottom(dx, y, g.hw, g.bottom, flaskCorner*g.hw), g.neckY-y)
		neck := math.Max(dx-neckShare*g.hw, y-g.neckY-g.hw)
		return math.Min(body, neck)
	case "bulb":
		rb := bulbShare * g.hw
		yc := g.bottom - rb
		return math.Min(math.Max(dx-g.hw, y-yc), math.Hypot(dx, y-yc)-rb)
	}
	yc := g.bottom - g.hw // round
	if y <= yc {
		return dx - g.hw
	}
	return math.Hypot(dx, y-yc) - g.hw
}

// roundedBottom is the distance to a box of half width hw with bottom corners of radius rc.
func roundedBottom(dx, y, hw, bottom, rc float64) float64 {
	ex, ey := dx-(hw-rc), y-(bottom-rc)
	if ex > 0 && ey > 0 {
		return math.Hypot(ex, ey) - rc
	}
	return math.Max(dx-hw, y-bottom)
}

// maxHW is the widest half width of the cavity.
func (g tubeGeom) maxHW() float64 {
	if g.shape == "bulb" {
		return bulbShare * g.hw
	}
	return g.hw
}

// box is the tube's outer box: cavity and outline, rim included.
func (g tubeGeom) box() image.Rectangle {
	w := g.maxHW() + g.stroke
	return image.Rect(int(math.Floor(g.cx-w)), int(math.Floor(g.top)), int(math.Ceil(g.cx+w)), int(math.Ceil(g.bottom+g.stroke)))
}

// unitBox is the box of unit j: one unit's height, the cavity's width there.
func (g tubeGeom) unitBox(j int) image.Rectangle {
	y0, y1 := g.bottom-float64(j+1)*g.uh, g.bottom-float64(j)*g.uh
	minX, maxX := math.Inf(1), math.Inf(-1)
	for y := math.Floor(y0) + 0.5; y < y1; y++ {
		for x := math.Floor(g.cx-g.maxHW()) + 0.5; x < g.cx+g.maxHW()+1; x++ {
			if g.sd(x, y) <= 0 {
				minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			}
		}
	}
	if minX > maxX {
		minX, maxX = g.cx-g.hw, g.cx+g.hw
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(y0)), int(math.Ceil(maxX)), int(math.Ceil(y1)))
}

// drawShadow darkens a soft copy of the tube's silhouette below and right of it.
func drawShadow(img *image.RGBA, g tubeGeom) {
	off := math.Max(2, g.hw*0.18)
	soft := math.Max(1.5, g.hw*0.15)
	b := g.box().Inset(-int(off + soft + 2)).Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			fx, fy := float64(x)+0.5-off, float64(y)+0.5-off
			if fy < g.top {
				continue
			}
			d := g.sd(fx, fy) - g.stroke
			if a := clamp01(-d / soft); a > 0 {
				img.SetRGBA(x, y, scale(img.RGBAAt(x, y), 1-0.35*a))
			}
		}
	}
}

// drawRandomTube draws one tube and its units, and returns the truth of it.
func drawRandomTube(img *image.RGBA, lk *look, g tubeGeom, units []solver.Color, colors []color.RGBA, seed uint64) TubeTruth {
	box := g.box()
	truth := TubeTruth{Box: box}
	for j := range units {
		truth.Units = append(truth.Units, g.unitBox(j))
	}
	if lk.shadow {
		drawShadow(img, g)
	}
	w := 2 * g.maxHW()
	bubbles := bubbleSpots(units, g, seed)
	b := box.Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		fy := float64(y) + 0.5
		if fy < g.cavTop {
			continue
		}
		for x := b.Min.X; x < b.Max.X; x++ {
			fx := float64(x) + 0.5
			d := g.sd(fx, fy)
			if d > g.stroke {
				continue
			}
			if d > 0 {
				a := clamp01(g.stroke - d + 0.5)
				img.SetRGBA(x, y, mix(img.RGBAAt(x, y), lk.outline, a))
				continue
			}
			xs := (fx - (g.cx - g.maxHW())) / w // 0 at the left wall, 1 at the right
			c, ok := lk.liquidAt(g, units, colors, fx, fy, xs, bubbles)
			if !ok {
				c = lk.glassOver(img.RGBAAt(x, y))
			}
			if lk.glare != "none" && math.Abs(xs-lk.glareX) < lk.glareW/2 && fy > g.cavTop+g.hw*0.4 && fy < g.bottom-g.hw*0.6 {
				c = mix(c, rgb(255, 255, 255), lk.glareA)
			}
			if d > -1 { // antialias the inner edge against the outline
				c = mix(c, lk.outline, (d+1)*0.5*clamp01(g.stroke))
			}
			img.SetRGBA(x, y, c)
		}
	}
	for j, u := range units {
		if u == solver.Hidden {
			drawHiddenMark(img, lk, truth.Units[j], j, seed)
		}
	}
	return truth
}

// liquidAt is the colour of the liquid at a point of the cavity, or false above the liquid.
func (lk *look) liquidAt(g tubeGeom, units []solver.Color, colors []color.RGBA, fx, fy, xs float64, bubbles [][3]float64) (color.RGBA, bool) {
	h := g.bottom - fy // height above the bottom
	if lk.edge == "meniscus" {
		dx := (fx - g.cx) / g.hw
		h -= 0.14 * g.uh * dx * dx // the surface climbs the walls
	}
	u := h / g.uh
	j := int(math.Floor(u))
	if j < 0 {
		j = 0
	}
	if j >= len(units) {
		return color.RGBA{}, false
	}
	if units[j] == solver.Hidden {
		if lk.hidden == "hatched" && int(fx+fy)/max(3, int(g.hw/3))%2 == 0 {
			return scale(lk.hiddenFill, 1.35), true
		}
		return lk.hiddenFill, true
	}
	c := colors[units[j]]
	frac := u - float64(j) // 0 at the unit's bottom, 1 at its top
	switch lk.edge {
	case "separator":
		if j > 0 && units[j-1] != units[j] && frac*g.uh < math.Max(1, g.uh*0.06) {
			return scale(c, 0.55), true
		}
	case "shaded":
		c = scale(c, 0.9+0.18*frac)
	case "bubbles":
		for _, b := range bubbles {
			if math.Hypot(fx-b[0], fy-b[1]) < b[2] {
				c = mix(c, rgb(255, 255, 255), 0.35)
			}
		}
	}
	return scale(c, 1+lk.cylA*(0.5-xs)), true
}

// glassOver is what an empty part of the tube shows over the background colour bg.
func (lk *look) glassOver(bg color.RGBA) color.RGBA {
	return mix(bg, lk.tint, lk.tintA)
}

// bubbleSpots places a few small bubbles in each visible unit (x, y, radius).
func bubbleSpots(units []solver.Color, g tubeGeom, seed uint64) [][3]float64 {
	var out [][3]float64
	h := seed
	next := func() float64 {
		h = h*6364136223846793005 + 1442695040888963407
		return float64(h>>11) / (1 << 53)
	}
	for j, u := range units {
		if u == solver.Hidden {
			continue
		}
		for range 2 {
			rad := math.Max(1, g.hw*(0.06+0.08*next()))
			x := g.cx + (next()-0.5)*g.hw
			y := g.bottom - (float64(j)+0.25+0.5*next())*g.uh
			out = append(out, [3]float64{x, y, rad})
		}
	}
	return out
}

// drawHiddenMark draws a hidden unit's glyph in its box.
func drawHiddenMark(img *image.RGBA, lk *look, ub image.Rectangle, j int, seed uint64) {
	c := image.Pt((ub.Min.X+ub.Max.X)/2, (ub.Min.Y+ub.Max.Y)/2)
	size := 0.6 * float64(min(ub.Dx(), ub.Dy()))
	switch lk.hidden {
	case "dark-q", "grey-q":
		drawText(img, "?", size*1.1, lk.hiddenInk, c, true)
	case "glyph-circle":
		rad := 0.42 * float64(min(ub.Dx(), ub.Dy()))
		disc(img, float64(c.X), float64(c.Y), rad, lk.hiddenInk)
		drawText(img, "?", size*0.8, lk.hiddenFill, c, true)
	}
}

// drawRim draws the tube's top: a lip wider than the tube, in the outline's colour.
func drawRim(img *image.RGBA, lk *look, g tubeGeom) {
	if lk.rim == "none" {
		return
	}
	hw := g.hw
	if g.shape == "flask" {
		hw *= neckShare
	}
	over := math.Max(1, g.stroke) + hw*0.12
	r := image.Rect(int(g.cx-hw-over), int(g.top), int(math.Ceil(g.cx+hw+over)), int(math.Ceil(g.cavTop)))
	fillRect(img, r, lk.rimColor)
}

// drawCork plugs a finished tube (full of one colour) with a cork above its liquid.
func drawCork(img *image.RGBA, lk *look, g tubeGeom, units []solver.Color, capacity int) {
	if lk.rim != "cork" || len(units) != capacity || units[0] == solver.Hidden {
		return
	}
	for _, u := range units {
		if u != units[0] {
			return
		}
	}
	hw := g.hw
	if g.shape == "flask" {
		hw *= neckShare
	}
	top := g.top - g.hw*0.3
	liquidTop := g.bottom - float64(capacity)*g.uh
	bot := math.Min(g.cavTop+g.hw*0.5, liquidTop-1)
	cork := rgb(181, 134, 84)
	for y := int(top); y < int(bot); y++ {
		k := 1.0
		if (y-int(top))%max(3, int(g.hw/3)) == 0 {
			k = 0.85
		}
		fillRect(img, image.Rect(int(g.cx-hw*0.95), y, int(math.Ceil(g.cx+hw*0.95)), y+1), scale(cork, k))
	}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// disc fills a circle.
func disc(img *image.RGBA, cx, cy, rad float64, c color.RGBA) {
	b := image.Rect(int(cx-rad-1), int(cy-rad-1), int(cx+rad+2), int(cy+rad+2)).Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) - rad
			if a := clamp01(0.5 - d); a > 0 {
				img.SetRGBA(x, y, mix(img.RGBAAt(x, y), c, a))
			}
		}
	}
}

// fillRect fills r (clipped to the image) with an opaque colour, or blends a translucent one.
func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c.A == 255 {
				img.SetRGBA(x, y, c)
			} else {
				img.SetRGBA(x, y, mix(img.RGBAAt(x, y), color.RGBA{c.R, c.G, c.B, 255}, float64(c.A)/255))
			}
		}
	}
}

// roundRect fills a rectangle with rounded corners of radius rad.
func roundRect(img *image.RGBA, r image.Rectangle, rad float64, c color.RGBA) {
	b := r.Intersect(img.Rect)
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			dx := math.Max(0, math.Max(x0+rad-fx, fx-(x1-rad)))
			dy := math.Max(0, math.Max(y0+rad-fy, fy-(y1-rad)))
			if a := clamp01(rad - math.Hypot(dx, dy) + 0.5); a > 0 {
				img.SetRGBA(x, y, mix(img.RGBAAt(x, y), color.RGBA{c.R, c.G, c.B, 255}, a*float64(c.A)/255))
			}
		}
	}
}

// soften blurs img in place with the separable kernel [1 6 1]/8 (a Gaussian of σ ≈ 0.5): the
// antialiasing a phone's renderer gives edges, at a fraction of a general blur's cost.
func soften(img *image.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w < 3 || h < 3 {
		return
	}
	row := make([]uint8, w*4)
	for y := range h {
		p := img.Pix[y*img.Stride : y*img.Stride+w*4]
		copy(row, p)
		for x := 1; x < w-1; x++ {
			for c := range 3 {
				i := x*4 + c
				p[i] = uint8((int(row[i-4]) + 6*int(row[i]) + int(row[i+4]) + 4) >> 3)
			}
		}
	}
	prev := make([]uint8, w*4)
	cur := make([]uint8, w*4)
	copy(prev, img.Pix[0:w*4])
	for y := 1; y < h-1; y++ {
		p := img.Pix[y*img.Stride : y*img.Stride+w*4]
		copy(cur, p)
		next := img.Pix[(y+1)*img.Stride : (y+1)*img.Stride+w*4]
		for i := range w * 4 {
			if i%4 != 3 {
				p[i] = uint8((int(prev[i]) + 6*int(cur[i]) + int(next[i]) + 4) >> 3)
			}
		}
		prev, cur = cur, prev
	}
}
