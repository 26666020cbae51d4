package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
)

// inkOn is a text colour that reads on bg.
func inkOn(bg color.RGBA) color.RGBA {
	if labOf(bg).L < 60 {
		return rgb(245, 245, 245)
	}
	return rgb(35, 35, 45)
}

// drawClutter draws the screen's furniture around the board: always a header, and the
// clutter drawn, all outside the tubes' boxes (labels go in the gap under each tube).
func drawClutter(img *image.RGBA, r *rand.Rand, kind string, p placed, top, bottom float64, under []color.RGBA) {
	w, h := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	unit := math.Min(w, h) // sizes relative to the short side
	has := func(k string) bool { return kind == k || kind == "all" }
	hy := top * 0.45
	titleBG := meanColor(img, image.Rect(int(w*0.3), int(hy-unit*0.03), int(w*0.7), int(hy+unit*0.03)))
	drawText(img, fmt.Sprintf("LEVEL %d", 1+r.IntN(2000)), unit*0.055, inkOn(titleBG), image.Pt(int(w/2), int(hy)), true)
	if has("buttons") {
		c := hsv(r.Float64()*360, 0.6, 0.9)
		for _, x := range []float64{w * 0.1, w * 0.9} {
			disc(img, x, hy, unit*0.045, c)
			drawText(img, "II", unit*0.035, inkOn(c), image.Pt(int(x), int(hy)), true)
		}
	}
	if has("coins") {
		x := w * 0.72
		if has("buttons") {
			x = w * 0.7
		}
		disc(img, x, top*0.8, unit*0.025, rgb(245, 190, 40))
		disc(img, x, top*0.8, unit*0.016, rgb(250, 215, 90))
		drawText(img, fmt.Sprint(r.IntN(99999)), unit*0.035, inkOn(titleBG), image.Pt(int(x+unit*0.04), int(top*0.8)), false)
	}
	if has("progress") {
		bar := image.Rect(int(w*0.2), int(top*0.75), int(w*0.6), int(top*0.75+unit*0.025))
		roundRect(img, bar, unit*0.012, rgb(70, 70, 80))
		done := bar
		done.Max.X = bar.Min.X + int(float64(bar.Dx())*r.Float64())
		roundRect(img, done, unit*0.012, hsv(r.Float64()*360, 0.7, 0.9))
	}
	if has("toast") {
		y0 := math.Max(top*0.1, h*0.035) // below a status bar
		t := image.Rect(int(w*0.25), int(y0), int(w*0.75), int(math.Max(top*0.35, y0+unit*0.05)))
		roundRect(img, t, unit*0.02, color.RGBA{250, 250, 250, 230})
		drawText(img, "Great!", float64(t.Dy())*0.5, rgb(40, 150, 70), image.Pt((t.Min.X+t.Max.X)/2, (t.Min.Y+t.Max.Y)/2), true)
	}
	foot := h - bottom
	if has("banner") {
		b := image.Rect(0, int(h-foot*0.55), int(w), int(h))
		fillRect(img, b, rgb(250, 250, 250))
		fillRect(img, image.Rect(int(w/30), b.Min.Y+b.Dy()/5, int(w/30)+b.Dy()*3/5, b.Max.Y-b.Dy()/5), rgb(250, 200, 0))
		drawText(img, "Play now - free!", float64(b.Dy())*0.3, rgb(40, 40, 40), image.Pt(int(w*0.45), (b.Min.Y+b.Max.Y)/2), true)
	}
	if has("hints") {
		y := bottom + foot*0.25
		for i, label := range []string{"+", "<", "?"} {
			x := w * (0.3 + 0.2*float64(i))
			c := hsv(float64(i)*110+r.Float64()*40, 0.6, 0.85)
			disc(img, x, y, foot*0.16, c)
			drawText(img, label, foot*0.18, inkOn(c), image.Pt(int(x), int(y)), true)
			disc(img, x+foot*0.13, y-foot*0.12, foot*0.07, rgb(230, 40, 40))
			drawText(img, fmt.Sprint(r.IntN(9)), foot*0.09, rgb(255, 255, 255), image.Pt(int(x+foot*0.13), int(y-foot*0.12)), true)
		}
	}
	if has("labels") {
		for i, g := range p.geoms {
			size := math.Max(7, g.hw*0.9)
			y := g.bottom + g.stroke + size*0.9
			drawText(img, fmt.Sprint(i+1), size, inkOn(under[i]), image.Pt(int(g.cx), int(y)), true)
		}
	}
}
