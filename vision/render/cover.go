package render

import (
	"image"
	"image/color"
	"math"
)

// drawCover hides a tube until the colour c is complete, in the look's cover style: folded
// curtains with a lantern in the colour, a lid panel with a padlock in the colour, or a plain
// sheet with a round badge in the colour.
func drawCover(img *image.RGBA, lk *look, g tubeGeom, c color.RGBA) {
	b := g.box()
	s := int(math.Max(1, g.stroke))
	hw := g.maxHW()
	switch lk.cover {
	case "lid":
		panel := image.Rect(b.Min.X-s, b.Min.Y, b.Max.X+s, b.Max.Y)
		roundRect(img, panel, hw*0.4, rgb(92, 98, 112))
		roundRect(img, panel.Inset(max(2, int(hw*0.15))), hw*0.3, rgb(128, 136, 150))
		cx, cy := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y)+float64(b.Dy())*0.4
		ring(img, cx, cy-hw*0.35, hw*0.35, math.Max(2, hw*0.14), rgb(60, 60, 66))
		body := image.Rect(int(cx-hw*0.55), int(cy-hw*0.15), int(cx+hw*0.55), int(cy+hw*0.7))
		roundRect(img, body, hw*0.15, c)
	case "sheet":
		sheet := image.Rect(b.Min.X-2*s, b.Min.Y, b.Max.X+2*s, b.Max.Y-b.Dy()/10)
		col := rgb(235, 225, 200)
		for y := sheet.Min.Y; y < sheet.Max.Y; y++ {
			k := 0.9 + 0.1*math.Sin(float64(y-sheet.Min.Y)/math.Max(2, hw*0.6))
			fillRect(img, image.Rect(sheet.Min.X, y, sheet.Max.X, y+1), scale(col, k))
		}
		cx, cy := float64(b.Min.X+b.Max.X)/2, float64(sheet.Min.Y)+float64(sheet.Dy())*0.3
		disc(img, cx, cy, hw*0.75, rgb(70, 60, 50))
		disc(img, cx, cy, hw*0.6, c)
	default: // curtain
		tw := int(2 * hw)
		cloth := image.Rect(b.Min.X-2*s, b.Min.Y, b.Max.X+2*s, b.Max.Y-b.Dy()/8)
		fold := max(2, tw/5)
		for x := cloth.Min.X; x < cloth.Max.X; x++ {
			shade := 0.8 + 0.3*math.Abs(math.Sin(math.Pi*float64(x-cloth.Min.X)/float64(fold)))
			fillRect(img, image.Rect(x, cloth.Min.Y, x+1, cloth.Max.Y), scale(lk.curtain, shade))
		}
		gold := rgb(215, 170, 60)
		rod := image.Rect(cloth.Min.X-s, cloth.Min.Y, cloth.Max.X+s, cloth.Min.Y+max(2, tw/8))
		fillRect(img, rod, gold)
		cx, cy := (b.Min.X+b.Max.X)/2, b.Min.Y+b.Dy()/3
		lw, lh := max(3, tw/3), max(6, tw*3/4)
		fillRect(img, image.Rect(cx-lw/2-s, cy-lh/2-s, cx+lw/2+s, cy+lh/2+s), gold)
		fillRect(img, image.Rect(cx-lw/2, cy-lh/2, cx+lw/2, cy+lh/2), c)
		segmentLine(img, cx, rod.Max.Y, cx, cy-lh/2-s, max(1, s/2), gold)
	}
}

// drawShelf draws a shelf under the row of tubes whose bottoms are at y.
func drawShelf(img *image.RGBA, lk *look, p placed, y float64) {
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, g := range p.geoms {
		if math.Abs(g.bottom+g.stroke-y) < 1 {
			minX, maxX = math.Min(minX, g.cx-g.maxHW()), math.Max(maxX, g.cx+g.maxHW())
		}
	}
	th := math.Max(3, p.hw*0.35)
	r := image.Rect(int(minX-p.hw), int(y+2), int(maxX+p.hw), int(y+2+th))
	roundRect(img, r, th/3, lk.standColor)
	fillRect(img, image.Rect(r.Min.X, r.Max.Y-int(th/3), r.Max.X, r.Max.Y), scale(lk.standColor, 0.7))
}

// drawHolder draws a small base a tube stands in.
func drawHolder(img *image.RGBA, lk *look, g tubeGeom) {
	hw := g.maxHW() + g.stroke
	y := g.bottom + g.stroke
	base := image.Rect(int(g.cx-hw*1.4), int(y-g.hw*0.3), int(g.cx+hw*1.4), int(y+g.hw*0.35))
	roundRect(img, base, g.hw*0.2, lk.standColor)
}
