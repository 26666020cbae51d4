package render

import (
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/decant/decant/solver"
)

// Themes Render can draw.
var Themes = []string{"dark", "light", "wood", "gradient"}

// Options shape a screenshot in one of the fixed themes. The zero value is a 1080×2400
// dark-theme PNG.
type Options struct {
	Theme         string // one of Themes; "" is "dark"
	Width, Height int    // pixels; 0 means 1080×2400
	Rows          int    // rows of tubes; 0 chooses (at most 7 tubes a row)
	StatusBar     bool   // a phone status bar at the top
	Banner        bool   // an ad banner at the bottom
	JPEGQuality   int    // 1..100 encodes a JPEG; 0 a PNG
	Seed          uint64 // varies the background pattern
	Title         string // the header text; "" is "LEVEL"
}

// theme holds the colours of one look.
type theme struct {
	outline, rim, text color.RGBA
	backdrops          []color.RGBA // the background's main colours: liquids must stand out
	glass              bool         // tubes tint what is behind them and carry a highlight
	background         func(img *image.RGBA, r *rand.Rand)
}

func themeByName(name string) (theme, error) {
	switch name {
	case "", "dark":
		return theme{outline: rgb(190, 190, 195), rim: rgb(190, 190, 195), text: rgb(240, 240, 240), backdrops: []color.RGBA{rgb(30, 30, 34)}, background: darkPattern}, nil
	case "light":
		return theme{outline: rgb(255, 255, 255), rim: rgb(255, 255, 255), text: rgb(30, 60, 90), backdrops: []color.RGBA{rgb(104, 206, 236)}, background: flat(rgb(104, 206, 236))}, nil
	case "wood":
		return theme{outline: rgb(225, 215, 205), rim: rgb(235, 225, 215), text: rgb(250, 235, 200), glass: true, backdrops: []color.RGBA{rgb(120, 62, 40), rgb(70, 34, 22)}, background: wood}, nil
	case "gradient":
		return theme{outline: rgb(170, 175, 210), rim: rgb(200, 205, 235), text: rgb(250, 250, 255), backdrops: []color.RGBA{rgb(70, 35, 120), rgb(20, 70, 140), rgb(45, 52, 130)}, background: gradient(rgb(70, 35, 120), rgb(20, 70, 140))}, nil
	}
	return theme{}, solver.Errorf(solver.CodeInvalidArgument, "unknown theme %q: want one of %v", name, Themes)
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

func flat(c color.RGBA) func(*image.RGBA, *rand.Rand) {
	return func(img *image.RGBA, _ *rand.Rand) {
		draw.Draw(img, img.Rect, image.NewUniform(c), image.Point{}, draw.Src)
	}
}

func gradient(top, bottom color.RGBA) func(*image.RGBA, *rand.Rand) {
	return func(img *image.RGBA, _ *rand.Rand) {
		h := img.Rect.Dy()
		for y := 0; y < h; y++ {
			t := float64(y) / float64(max(1, h-1))
			c := mix(top, bottom, t)
			draw.Draw(img, image.Rect(0, y, img.Rect.Dx(), y+1), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
}

// darkPattern is a near-black background with faint outline doodles, as many games use.
func darkPattern(img *image.RGBA, r *rand.Rand) {
	flat(rgb(30, 30, 34))(img, r)
	w, h := img.Rect.Dx(), img.Rect.Dy()
	line := rgb(52, 52, 58)
	for range w * h / 9000 {
		cx, cy := r.IntN(w), r.IntN(h)
		rad := float64(w) * (0.01 + 0.03*r.Float64())
		switch r.IntN(3) {
		case 0:
			ring(img, float64(cx), float64(cy), rad, math.Max(1, float64(w)/540), line)
		default:
			x2, y2 := cx+int(rad*2*(r.Float64()-0.5)), cy+int(rad*2*(r.Float64()-0.5))
			segmentLine(img, cx, cy, x2, y2, max(1, w/540), line)
		}
	}
}

// wood is a brown vertical gradient with grain.
func wood(img *image.RGBA, r *rand.Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	phase := r.Float64() * 10
	for y := 0; y < h; y++ {
		t := float64(y) / float64(h)
		base := mix(rgb(120, 62, 40), rgb(70, 34, 22), t)
		for x := 0; x < w; x++ {
			grain := 0.5 + 0.5*math.Sin(float64(x)/float64(w)*40+math.Sin(float64(y)/float64(h)*6+phase)*3)
			img.SetRGBA(x, y, scale(base, 0.85+0.25*grain))
		}
	}
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}

func scale(c color.RGBA, k float64) color.RGBA {
	f := func(x uint8) uint8 { return uint8(math.Min(255, math.Round(float64(x)*k))) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), 255}
}

func ring(img *image.RGBA, cx, cy, rad, width float64, c color.RGBA) {
	for y := int(cy - rad - width); y <= int(cy+rad+width); y++ {
		for x := int(cx - rad - width); x <= int(cx+rad+width); x++ {
			if d := math.Hypot(float64(x)-cx, float64(y)-cy); math.Abs(d-rad) <= width/2 && image.Pt(x, y).In(img.Rect) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func segmentLine(img *image.RGBA, x1, y1, x2, y2, width int, c color.RGBA) {
	n := max(abs(x2-x1), abs(y2-y1), 1)
	for i := 0; i <= n; i++ {
		x := x1 + (x2-x1)*i/n
		y := y1 + (y2-y1)*i/n
		draw.Draw(img, image.Rect(x, y, x+width, y+width).Intersect(img.Rect), image.NewUniform(c), image.Point{}, draw.Src)
	}
}

// liquidColors are the colours levels are drawn in: the generator's names get their own, and
// any other name takes the next unused one in order of first appearance.
var liquidColors = []struct {
	name string
	c    color.RGBA
}{
	{"red", rgb(230, 45, 45)}, {"blue", rgb(45, 90, 230)}, {"green", rgb(40, 175, 70)},
	{"yellow", rgb(250, 225, 50)}, {"orange", rgb(250, 140, 30)}, {"purple", rgb(125, 50, 170)},
	{"pink", rgb(250, 135, 185)}, {"cyan", rgb(70, 220, 235)}, {"brown", rgb(125, 75, 35)},
	{"grey", rgb(120, 120, 125)}, {"lime", rgb(170, 235, 60)}, {"navy", rgb(30, 35, 110)},
	{"olive", rgb(120, 125, 30)}, {"teal", rgb(20, 130, 125)}, {"maroon", rgb(120, 20, 45)},
	{"violet", rgb(185, 140, 245)}, {"beige", rgb(230, 210, 160)}, {"mint", rgb(160, 240, 195)},
	{"coral", rgb(245, 110, 90)}, {"sky", rgb(120, 185, 245)}, {"gold", rgb(200, 160, 20)},
	{"plum", rgb(90, 30, 80)}, {"rose", rgb(215, 40, 120)}, {"sand", rgb(195, 165, 110)},
	{"jade", rgb(0, 95, 60)}, {"ruby", rgb(165, 0, 20)}, {"slate", rgb(75, 95, 125)},
	{"peach", rgb(255, 205, 170)}, {"lilac", rgb(200, 160, 200)}, {"moss", rgb(80, 100, 50)},
	{"ink", rgb(20, 20, 30)},
}

// levelColors assigns a drawing colour to each of the level's colours, as a game would: none
// close to the theme's background. The generator's names get their own colour where it
// stands out; other names take the next unused colour in order of first appearance.
func levelColors(l *solver.Level, th theme) []color.RGBA {
	clashes := func(c color.RGBA) bool {
		for _, b := range th.backdrops {
			if deltaE(labFromRGB(c.R, c.G, c.B), labFromRGB(b.R, b.G, b.B)) < 25 {
				return true
			}
		}
		return false
	}
	out := make([]color.RGBA, len(l.Names))
	used := map[int]bool{}
	byName := map[string]int{}
	for i, lc := range liquidColors {
		byName[lc.name] = i
		if clashes(lc.c) {
			used[i] = true
		}
	}
	var rest []int
	for c := 1; c < len(l.Names); c++ {
		if i, ok := byName[l.Names[c]]; ok && !used[i] {
			out[c], used[i] = liquidColors[i].c, true
		} else {
			rest = append(rest, c)
		}
	}
	next := 0
	for _, c := range rest {
		for next < len(liquidColors) && used[next] {
			next++
		}
		if next < len(liquidColors) {
			out[c], used[next] = liquidColors[next].c, true
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(l.Names[c]))
		v := h.Sum32()
		out[c] = rgb(uint8(v), uint8(v>>8), uint8(v>>16))
	}
	return out
}

// layout places tubes: rows centred in the play area, unit height a little under tube width.
type layout struct {
	tw, uh, th, stroke int
	boxes              []image.Rectangle // outer boxes, reading order
}

func planLayout(n, capacity, rows, w, top, bottom int) layout {
	if rows <= 0 {
		rows = (n + 6) / 7
	}
	rows = max(1, min(rows, n))
	perRow := (n + rows - 1) / rows
	tw := int(math.Min(0.9*float64(w)/(float64(perRow)+0.6*float64(perRow-1)), 0.11*float64(w)))
	avail := float64(bottom - top)
	for {
		uh := int(0.95 * float64(tw))
		th := capacity*uh + uh/2 + tw/8
		if float64(rows*th)+0.25*float64((rows-1)*th) <= avail || tw < 8 {
			break
		}
		tw = tw * 95 / 100
	}
	lay := layout{tw: tw, uh: int(0.95 * float64(tw)), stroke: max(2, tw/14)}
	lay.th = capacity*lay.uh + lay.uh/2 + tw/8
	gapY := lay.th / 4
	blockH := rows*lay.th + (rows-1)*gapY
	y := top + (bottom-top-blockH)/2
	left := n
	for r := 0; r < rows; r++ {
		k := min(perRow, left)
		left -= k
		gapX := int(0.6 * float64(tw))
		x := (w - (k*tw + (k-1)*gapX)) / 2
		for i := 0; i < k; i++ {
			lay.boxes = append(lay.boxes, image.Rect(x, y, x+tw, y+lay.th))
			x += tw + gapX
		}
		y += lay.th + gapY
	}
	return lay
}

// Render draws l as a phone screenshot in one of the fixed Themes and returns it with the
// geometry it was drawn with.
func Render(l *solver.Level, opts Options) (*Scene, error) {
	img, truth, err := drawLevel(l, opts)
	if err != nil {
		return nil, err
	}
	data, err := encode(img, opts.JPEGQuality)
	if err != nil {
		return nil, err
	}
	theme := opts.Theme
	if theme == "" {
		theme = "dark"
	}
	return &Scene{Data: data, Image: img, Truth: truth, Factors: map[string]string{"theme": theme}}, nil
}

// drawLevel draws what Render encodes: the screenshot's pixels and their truth.
func drawLevel(l *solver.Level, opts Options) (*image.RGBA, Truth, error) {
	if err := l.Validate(); err != nil {
		return nil, Truth{}, err
	}
	th, err := themeByName(opts.Theme)
	if err != nil {
		return nil, Truth{}, err
	}
	w, h := opts.Width, opts.Height
	if w == 0 && h == 0 {
		w, h = 1080, 2400
	}
	if err := checkSize(w, h); err != nil {
		return nil, Truth{}, err
	}
	if opts.JPEGQuality < 0 || opts.JPEGQuality > 100 {
		return nil, Truth{}, solver.Errorf(solver.CodeInvalidArgument, "JPEG quality %d: want 1..100", opts.JPEGQuality)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(opts.Seed, 0xdeca))
	th.background(img, rng)
	top, bottom := int(0.2*float64(h)), int(0.86*float64(h))
	if opts.StatusBar {
		drawStatusBar(img, th)
	}
	drawHeader(img, th, opts.Title, h)
	if opts.Banner {
		bottom = int(0.8 * float64(h))
		drawBanner(img)
	}
	lay := planLayout(len(l.Tubes), l.Capacity, opts.Rows, w, top, bottom)
	if lay.tw < 12 {
		return nil, Truth{}, solver.Errorf(solver.CodeInvalidArgument, "%d tubes do not fit legibly in %d×%d", len(l.Tubes), w, h)
	}
	colors := levelColors(l, th)
	truth := Truth{Level: l.Clone(), Width: w, Height: h}
	for i, t := range l.Tubes {
		tube := drawTube(img, th, lay, lay.boxes[i], t, colors)
		if l.Curtained(i) {
			drawCurtain(img, lay, lay.boxes[i], colors[l.Curtains[i]])
		}
		truth.Tubes = append(truth.Tubes, tube)
	}
	// Phones draw with antialiasing; soften the hard edges the same way.
	return toRGBA(imaging.Blur(img, 0.5)), truth, nil
}

// drawTube draws one tube in box: liquid units from the bottom, a rounded bottom, an outline
// and a rim; hidden units as a dark box with a "?".
func drawTube(img *image.RGBA, th theme, lay layout, box image.Rectangle, units []solver.Color, colors []color.RGBA) TubeTruth {
	tw, s := lay.tw, lay.stroke
	r := float64(tw) / 2
	cx := float64(box.Min.X) + r
	rimH := max(2, tw/8)
	innerTop := box.Min.Y + rimH
	bottom := box.Max.Y // outer bottom
	inBottom := float64(bottom - s)
	// inside reports whether (x, y) lies inside the tube shape inset by d.
	inside := func(x, y int, d float64) bool {
		fx, fy := float64(x)+0.5, float64(y)+0.5
		rr := r - d
		if fy < float64(innerTop) || math.Abs(fx-cx) > rr {
			return false
		}
		cy := float64(bottom) - r
		return fy <= cy || math.Hypot(fx-cx, fy-cy) <= rr
	}
	liquidBottom := inBottom
	tube := TubeTruth{Box: box}
	unitTop := func(j int) float64 { return liquidBottom - float64(j)*float64(lay.uh) }
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if !image.Pt(x, y).In(img.Rect) || !inside(x, y, 0) {
				continue
			}
			if !inside(x, y, float64(s)) {
				img.SetRGBA(x, y, th.outline)
				continue
			}
			j := int((liquidBottom - float64(y)) / float64(lay.uh))
			switch {
			case float64(y) < liquidBottom && j < len(units) && units[j] == solver.Hidden:
				img.SetRGBA(x, y, rgb(48, 50, 54))
			case float64(y) < liquidBottom && j < len(units):
				c := colors[units[j]]
				shade := 1.08 - 0.16*(float64(x)-float64(box.Min.X))/float64(tw)
				img.SetRGBA(x, y, scale(c, shade))
			case th.glass:
				img.SetRGBA(x, y, scale(img.RGBAAt(x, y), 1.1))
			}
		}
	}
	if th.glass { // a highlight down the left side
		hl := image.Rect(box.Min.X+s+tw/10, innerTop+tw/4, box.Min.X+s+tw/10+max(1, tw/14), bottom-tw/2)
		draw.Draw(img, hl, image.NewUniform(color.RGBA{255, 255, 255, 90}), image.Point{}, draw.Over)
	}
	rim := image.Rect(box.Min.X-s, box.Min.Y, box.Max.X+s, box.Min.Y+rimH)
	draw.Draw(img, rim.Intersect(img.Rect), image.NewUniform(th.rim), image.Point{}, draw.Src)
	for j, u := range units {
		ur := image.Rect(box.Min.X, int(unitTop(j+1)), box.Max.X, int(unitTop(j)))
		tube.Units = append(tube.Units, ur)
		if u == solver.Hidden {
			drawText(img, "?", float64(lay.uh)*0.55, rgb(245, 245, 245), image.Pt((ur.Min.X+ur.Max.X)/2, (ur.Min.Y+ur.Max.Y)/2), true)
		}
	}
	return tube
}

// drawCurtain hangs a curtain over a tube: folded cloth on a rod, with a lantern showing the
// colour that opens it.
func drawCurtain(img *image.RGBA, lay layout, box image.Rectangle, c color.RGBA) {
	tw, s := lay.tw, lay.stroke
	cloth := image.Rect(box.Min.X-2*s, box.Min.Y, box.Max.X+2*s, box.Max.Y-box.Dy()/8)
	fold := max(2, tw/5)
	for x := cloth.Min.X; x < cloth.Max.X; x++ {
		shade := 0.8 + 0.3*math.Abs(math.Sin(math.Pi*float64(x-cloth.Min.X)/float64(fold)))
		col := scale(rgb(20, 110, 100), shade)
		draw.Draw(img, image.Rect(x, cloth.Min.Y, x+1, cloth.Max.Y).Intersect(img.Rect), image.NewUniform(col), image.Point{}, draw.Src)
	}
	gold := rgb(215, 170, 60)
	rod := image.Rect(cloth.Min.X-s, cloth.Min.Y, cloth.Max.X+s, cloth.Min.Y+max(2, tw/8))
	draw.Draw(img, rod.Intersect(img.Rect), image.NewUniform(gold), image.Point{}, draw.Src)
	cx, cy := (box.Min.X+box.Max.X)/2, box.Min.Y+box.Dy()/3
	lw, lh := max(3, tw/4), max(6, tw*3/4)
	frame := image.Rect(cx-lw/2-s, cy-lh/2-s, cx+lw/2+s, cy+lh/2+s)
	draw.Draw(img, frame.Intersect(img.Rect), image.NewUniform(gold), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(cx-lw/2, cy-lh/2, cx+lw/2, cy+lh/2).Intersect(img.Rect), image.NewUniform(c), image.Point{}, draw.Src)
	segmentLine(img, cx, rod.Max.Y, cx, frame.Min.Y, max(1, s/2), gold)
}

func drawStatusBar(img *image.RGBA, th theme) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	bar := int(0.03 * float64(h))
	drawText(img, "12:30", float64(bar)*0.55, th.text, image.Pt(w/14, bar/2), false)
	batt := image.Rect(w-w/8, bar/3, w-w/20, bar*2/3)
	draw.Draw(img, batt, image.NewUniform(th.text), image.Point{}, draw.Src)
	for i := range 4 {
		x := w - w/5 - i*w/60
		draw.Draw(img, image.Rect(x, bar*2/3-(4-i)*bar/12, x+w/90, bar*2/3), image.NewUniform(th.text), image.Point{}, draw.Src)
	}
}

func drawHeader(img *image.RGBA, th theme, title string, h int) {
	w := img.Rect.Dx()
	if title == "" {
		title = "LEVEL"
	}
	drawText(img, title, 0.028*float64(h), th.text, image.Pt(w/2, int(0.1*float64(h))), true)
	for _, x := range []int{w / 10, w - w/10} { // round buttons
		c := image.Pt(x, int(0.1*float64(h)))
		rad := float64(w) / 22
		for y := c.Y - int(rad); y <= c.Y+int(rad); y++ {
			for xx := c.X - int(rad); xx <= c.X+int(rad); xx++ {
				if math.Hypot(float64(xx-c.X), float64(y-c.Y)) <= rad && image.Pt(xx, y).In(img.Rect) {
					img.SetRGBA(xx, y, rgb(250, 200, 60))
				}
			}
		}
	}
}

func drawBanner(img *image.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	b := image.Rect(0, h-int(0.08*float64(h)), w, h)
	draw.Draw(img, b, image.NewUniform(rgb(250, 250, 250)), image.Point{}, draw.Src)
	logo := image.Rect(w/30, b.Min.Y+b.Dy()/5, w/30+b.Dy()*3/5, b.Max.Y-b.Dy()/5)
	draw.Draw(img, logo, image.NewUniform(rgb(250, 200, 0)), image.Point{}, draw.Src)
	drawText(img, "Best app of the year", float64(b.Dy())*0.25, rgb(40, 40, 40), image.Pt(w*2/5, (b.Min.Y+b.Max.Y)/2), true)
	btn := image.Rect(w-w/4, b.Min.Y+b.Dy()/4, w-w/25, b.Max.Y-b.Dy()/4)
	draw.Draw(img, btn, image.NewUniform(rgb(20, 140, 80)), image.Point{}, draw.Src)
	drawText(img, "Open", float64(b.Dy())*0.22, rgb(255, 255, 255), image.Pt((btn.Min.X+btn.Max.X)/2, (btn.Min.Y+btn.Max.Y)/2), true)
}

// toRGBA returns img as *image.RGBA without copying when it already is one.
func toRGBA(img *image.NRGBA) *image.RGBA {
	return &image.RGBA{Pix: img.Pix, Stride: img.Stride, Rect: img.Rect} // opaque: NRGBA = RGBA
}

var (
	fontOnce sync.Once
	boldFont *opentype.Font
)

// face returns the bold Go font at a pixel size.
func face(size float64) font.Face {
	fontOnce.Do(func() { boldFont, _ = opentype.Parse(gobold.TTF) })
	f, err := opentype.NewFace(boldFont, &opentype.FaceOptions{Size: math.Max(6, size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return basicfont.Face7x13 // not reached: the embedded font parses
	}
	return f
}

// drawText draws s with its centre (centred) or its left middle at p.
func drawText(img draw.Image, s string, size float64, c color.Color, p image.Point, centred bool) {
	f := face(size)
	defer f.Close()
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f}
	adv := d.MeasureString(s).Ceil()
	m := f.Metrics()
	x := p.X
	if centred {
		x -= adv / 2
	}
	y := p.Y + (m.Ascent.Ceil()-m.Descent.Ceil())/2
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
