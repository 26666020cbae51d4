package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/decant/decant/solver"
)

// NonPuzzleFactors are the draws of NonPuzzle: the kind of screen, and the background, size,
// encoding and photo factors shared with Random.
var NonPuzzleFactors = map[string]choice{
	// screen: a main menu (buttons, a lone decorative tube), a victory screen (stars,
	// progress bars, a next button), a shop (priced cards), a level map (a path of numbered
	// circles), a level-complete pop-up drawn over a whole board (dimmed and hidden), a bare
	// texture, random tube-like shapes and bars that follow no level's rules, a phone's home
	// screen (a grid of app icons).
	"screen": {{"menu", 1}, {"victory", 1}, {"shop", 1}, {"map", 1}, {"popup", 1}, {"texture", 1}, {"shapes", 1}, {"home", 1}},
}

// NonPuzzle draws a screen with no level on it: Truth.NoPuzzle is set, Truth.Level is nil. The
// same seed always gives the same scene.
func NonPuzzle(seed uint64) (*Scene, error) {
	r := rand.New(rand.NewPCG(seed, 0x90b1e))
	d := draws{"screen": NonPuzzleFactors["screen"].pick(r)}
	for _, k := range []string{"background", "size", "jpeg", "photo", "exif"} {
		d[k] = Factors[k].pick(r)
	}
	if d["screen"] == "popup" {
		return popupOverBoard(r, seed, d)
	}
	if d["screen"] == "texture" && (d["background"] == "flat" || d["background"] == "vgradient") {
		d["background"] = []string{"wood", "noise", "blobs", "doodles", "bokeh"}[r.IntN(5)] // a texture, not a plain fill
	}
	w, h := screenSize(r, d["size"])
	img := paintBackground(image.NewRGBA(image.Rect(0, 0, w, h)), r, d["background"])
	switch d["screen"] {
	case "menu":
		drawMenu(img, r)
	case "victory":
		drawVictory(img, r)
	case "shop":
		drawShop(img, r)
	case "map":
		drawMap(img, r)
	case "shapes":
		drawShapes(img, r)
	case "home":
		drawHome(img, r)
	}
	soften(img)
	return finish(r, d, img, Truth{Width: w, Height: h, NoPuzzle: true})
}

// popupOverBoard draws a puzzle scene, then dims it and covers the whole board with a
// level-complete panel: no level can be read from it.
func popupOverBoard(r *rand.Rand, seed uint64, d draws) (*Scene, error) {
	rr := rand.New(rand.NewPCG(seed, 0x7a2d00))
	pd := sample(rr)
	pd["photo"], pd["jpeg"], pd["resize"], pd["style"] = "no", "png", "none", "random"
	pd["background"], pd["size"] = d["background"], d["size"]
	s, err := paint(rr, pd, dealLevel(rr, pd, seed))
	if err != nil {
		return nil, err
	}
	img := s.Image.(*image.RGBA)
	board := image.Rectangle{}
	for _, t := range s.Truth.Tubes {
		board = board.Union(t.Box)
	}
	fillRect(img, img.Rect, color.RGBA{0, 0, 0, uint8(150 + r.IntN(80))})
	w, h := img.Rect.Dx(), img.Rect.Dy()
	pad := min(w, h) / 20
	panel := image.Rect(min(board.Min.X-pad, w/10), board.Min.Y-pad, max(board.Max.X+pad, w-w/10), board.Max.Y+pad).Intersect(img.Rect)
	fill := hsv(r.Float64()*360, 0.3+0.4*r.Float64(), 0.5+0.4*r.Float64())
	roundRect(img, panel, float64(pad), fill)
	unit := float64(min(w, h))
	drawText(img, "LEVEL COMPLETE", unit*0.06, inkOn(fill), image.Pt(w/2, panel.Min.Y+panel.Dy()/5), true)
	drawStars(img, r, float64(w)/2, float64(panel.Min.Y)+float64(panel.Dy())*0.45, unit*0.08)
	btn := image.Rect(w/2-int(unit*0.2), panel.Max.Y-panel.Dy()/4, w/2+int(unit*0.2), panel.Max.Y-panel.Dy()/4+int(unit*0.1))
	roundRect(img, btn, unit*0.04, rgb(60, 190, 90))
	drawText(img, "NEXT", unit*0.05, rgb(255, 255, 255), image.Pt(w/2, (btn.Min.Y+btn.Max.Y)/2), true)
	return finish(r, d, img, Truth{Width: w, Height: h, NoPuzzle: true})
}

// button draws a rounded button with a label.
func button(img *image.RGBA, r image.Rectangle, c color.RGBA, label string) {
	roundRect(img, r, float64(r.Dy())*0.35, c)
	drawText(img, label, float64(r.Dy())*0.45, inkOn(c), image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2), true)
}

func drawMenu(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	title := meanColor(img, image.Rect(0, h/8, w, h/4))
	drawText(img, []string{"WATER SORT", "COLOR SORT", "LIQUID PUZZLE"}[r.IntN(3)], unit*0.09, inkOn(title), image.Pt(w/2, h/6), true)
	labels := []string{"PLAY", "LEVELS", "DAILY", "SHOP", "SETTINGS"}
	n := 3 + r.IntN(3)
	c := hsv(r.Float64()*360, 0.6, 0.85)
	for i := range n {
		y := h*2/5 + i*int(unit*0.16)
		button(img, image.Rect(w/2-int(unit*0.3), y, w/2+int(unit*0.3), y+int(unit*0.12)), c, labels[i])
	}
	// A decorative tube: a few colours, one unit each, which is no level.
	g := tubeGeom{cx: float64(w) * 0.85, top: float64(h) * 0.25, hw: unit * 0.05, uh: unit * 0.08, stroke: math.Max(1, unit*0.008), shape: "round"}
	g.cavTop, g.bottom = g.top, g.top+4.4*g.uh
	lk := &look{outline: rgb(230, 230, 235), tint: rgb(255, 255, 255), tintA: 0.1, hidden: "none", edge: "flat", glare: "none"}
	cols := []color.RGBA{{}, hsv(0, 0.8, 0.9), hsv(120, 0.8, 0.8), hsv(220, 0.8, 0.9), hsv(50, 0.8, 0.95)}
	drawRandomTube(img, lk, g, []solver.Color{1, 2, 3, 4}, cols, r.Uint64())
}

func drawStars(img *image.RGBA, r *rand.Rand, cx, cy, rad float64) {
	n := 1 + r.IntN(3)
	for i := range 3 {
		c := rgb(90, 90, 100)
		if i < n {
			c = rgb(250, 200, 40)
		}
		star(img, cx+float64(i-1)*rad*2.3, cy, rad, c)
	}
}

// star fills a five-pointed star.
func star(img *image.RGBA, cx, cy, rad float64, c color.RGBA) {
	var pts [10][2]float64
	for k := range 10 {
		a := float64(k) * math.Pi / 5
		rr := rad
		if k%2 == 1 {
			rr = rad * 0.45
		}
		pts[k] = [2]float64{cx + rr*math.Sin(a), cy - rr*math.Cos(a)}
	}
	b := image.Rect(int(cx-rad), int(cy-rad), int(cx+rad+1), int(cy+rad+1)).Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if inPolygon(pts[:], float64(x)+0.5, float64(y)+0.5) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func inPolygon(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// drawVictory is a level-complete screen: stars, and progress bars (vertical or horizontal)
// that look like tubes but are none.
func drawVictory(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	bg := meanColor(img, image.Rect(0, h/6, w, h/3))
	drawText(img, []string{"LEVEL COMPLETE!", "YOU WIN!", "EXCELLENT!"}[r.IntN(3)], unit*0.08, inkOn(bg), image.Pt(w/2, h/6), true)
	drawStars(img, r, float64(w)/2, float64(h)*0.3, unit*0.09)
	n := 1 + r.IntN(4)
	vertical := r.IntN(2) == 0
	for i := range n {
		fill := hsv(r.Float64()*360, 0.7, 0.9)
		if vertical {
			x := w/2 + int((float64(i)-float64(n-1)/2)*unit*0.18)
			bar := image.Rect(x-int(unit*0.05), int(float64(h)*0.42), x+int(unit*0.05), int(float64(h)*0.68))
			roundRect(img, bar, unit*0.05, rgb(235, 235, 240))
			in := bar.Inset(int(unit * 0.012))
			in.Min.Y = in.Max.Y - int(float64(in.Dy())*(0.2+0.8*r.Float64()))
			roundRect(img, in, unit*0.04, fill)
		} else {
			y := int(float64(h)*0.45) + i*int(unit*0.1)
			bar := image.Rect(w/5, y, w*4/5, y+int(unit*0.05))
			roundRect(img, bar, unit*0.025, rgb(60, 60, 70))
			in := bar
			in.Max.X = in.Min.X + int(float64(in.Dx())*(0.2+0.8*r.Float64()))
			roundRect(img, in, unit*0.025, fill)
		}
	}
	y := int(float64(h) * 0.78)
	button(img, image.Rect(w/2-int(unit*0.25), y, w/2+int(unit*0.25), y+int(unit*0.12)), rgb(60, 190, 90), "NEXT")
}

// drawShop is a grid of priced item cards.
func drawShop(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	bg := meanColor(img, image.Rect(0, 0, w, h/6))
	drawText(img, "SHOP", unit*0.08, inkOn(bg), image.Pt(w/2, h/10), true)
	cols, rows := 2+r.IntN(2), 2+r.IntN(3)
	cw, ch := w*8/10/cols, h*6/10/rows
	card := hsv(r.Float64()*360, 0.2, 0.95)
	for i := range rows {
		for j := range cols {
			c := image.Rect(w/10+j*cw+cw/20, h/4+i*ch+ch/20, w/10+(j+1)*cw-cw/20, h/4+(i+1)*ch-ch/20)
			roundRect(img, c, float64(cw)*0.08, card)
			cx, cy := float64(c.Min.X+c.Max.X)/2, float64(c.Min.Y)+float64(c.Dy())*0.4
			switch r.IntN(3) {
			case 0:
				disc(img, cx, cy, float64(cw)*0.2, rgb(245, 190, 40))
			case 1:
				star(img, cx, cy, float64(cw)*0.22, hsv(r.Float64()*360, 0.7, 0.9))
			default:
				roundRect(img, image.Rect(int(cx-float64(cw)*0.2), int(cy-float64(cw)*0.15), int(cx+float64(cw)*0.2), int(cy+float64(cw)*0.15)), float64(cw)*0.05, hsv(r.Float64()*360, 0.6, 0.8))
			}
			btn := image.Rect(c.Min.X+c.Dx()/6, c.Max.Y-c.Dy()/4, c.Max.X-c.Dx()/6, c.Max.Y-c.Dy()/12)
			button(img, btn, rgb(60, 170, 90), []string{"$0.99", "$1.99", "500", "FREE"}[r.IntN(4)])
		}
	}
}

// drawMap is a winding path of numbered level circles.
func drawMap(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	n := 8 + r.IntN(8)
	first := 1 + r.IntN(500)
	done := r.IntN(n)
	phase := r.Float64() * math.Pi
	for i := range n {
		t := float64(i) / float64(n-1)
		x := float64(w)/2 + float64(w)*0.3*math.Sin(t*3*math.Pi+phase)
		y := float64(h)*0.9 - t*float64(h)*0.8
		c := rgb(250, 200, 50)
		if i > done {
			c = rgb(150, 150, 160)
		}
		disc(img, x, y, unit*0.06, rgb(255, 255, 255))
		disc(img, x, y, unit*0.05, c)
		drawText(img, strconv.Itoa(first+i), unit*0.04, rgb(40, 40, 40), image.Pt(int(x), int(y)), true)
	}
}

// drawShapes draws tube-like shapes and bars that follow no level's rules: tubes of different
// sizes filled with smooth gradients, and bar charts.
func drawShapes(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	n := 2 + r.IntN(7)
	for i := range n {
		cx := float64(w) * (float64(i) + 0.5) / float64(n)
		hw := unit * (0.02 + 0.04*r.Float64())
		top := float64(h) * (0.2 + 0.3*r.Float64())
		bot := top + float64(h)*(0.1+0.3*r.Float64())
		a, b2 := hsv(r.Float64()*360, 0.7, 0.9), hsv(r.Float64()*360, 0.7, 0.9)
		if r.IntN(2) == 0 { // a bar chart's bar: a plain rounded bar
			roundRect(img, image.Rect(int(cx-hw), int(top), int(cx+hw), int(bot)), hw*0.3, a)
			continue
		}
		// An outlined vial filled to any height with a smooth gradient: no units to count.
		g := tubeGeom{cx: cx, top: top, cavTop: top, bottom: bot, hw: hw, uh: bot - top, stroke: math.Max(1, hw*0.12), shape: "round"}
		lk := &look{outline: rgb(230, 230, 235), tint: rgb(255, 255, 255), tintA: 0.1, hidden: "none", edge: "flat", glare: "none"}
		drawRandomTube(img, lk, g, nil, nil, 0)
		level := top + (bot-top)*r.Float64()
		b := g.box().Intersect(img.Rect)
		for y := max(b.Min.Y, int(level)); y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if g.sd(float64(x)+0.5, float64(y)+0.5) <= 0 {
					img.SetRGBA(x, y, mix(a, b2, (float64(y)-level)/(bot-level+1)))
				}
			}
		}
	}
}

// drawHome is a phone's home screen: a clock and a grid of app icons with names.
func drawHome(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	unit := float64(min(w, h))
	bg := meanColor(img, img.Rect)
	drawText(img, fmt.Sprintf("%d:%02d", 1+r.IntN(12), r.IntN(60)), unit*0.15, inkOn(bg), image.Pt(w/2, h/7), true)
	cols := 4 + r.IntN(2)
	cell := w / cols
	icon := cell * 6 / 10
	names := []string{"Mail", "Maps", "Photos", "Music", "Clock", "Notes", "Games", "Shop", "Chat", "News"}
	for i := range cols * (3 + r.IntN(3)) {
		x := (i%cols)*cell + (cell-icon)/2
		y := h/4 + (i/cols)*cell*13/10
		if y+icon > h*9/10 {
			break
		}
		c := hsv(r.Float64()*360, 0.5+0.5*r.Float64(), 0.6+0.4*r.Float64())
		roundRect(img, image.Rect(x, y, x+icon, y+icon), float64(icon)*0.22, c)
		switch r.IntN(3) {
		case 0:
			disc(img, float64(x+icon/2), float64(y+icon/2), float64(icon)*0.25, rgb(255, 255, 255))
		case 1:
			star(img, float64(x+icon/2), float64(y+icon/2), float64(icon)*0.3, rgb(255, 255, 255))
		}
		drawText(img, names[r.IntN(len(names))], float64(icon)*0.22, inkOn(bg), image.Pt(x+icon/2, y+icon+icon/4), true)
	}
}
