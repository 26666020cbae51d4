package render

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/disintegration/imaging"

	"github.com/decant/decant/solver"
)

// Screen bands: the share of the height above the board (header, status bar, clutter) and
// below it (buttons, banner).
var (
	headerBand = [2]float64{0.1, 0.2}
	footerBand = [2]float64{0.06, 0.16}
)

// screenSize draws the final image size for the "size" factor.
func screenSize(r *rand.Rand, kind string) (int, int) {
	if kind == "landscape" {
		src := sizes["phone"]
		if r.IntN(2) == 0 {
			src = sizes["tablet"]
		}
		s := src[r.IntN(len(src))]
		return s[1], s[0]
	}
	s := sizes[kind][r.IntN(len(sizes[kind]))]
	return s[0], s[1]
}

// drawScale is how much larger than the final image a scene is drawn, for the "resize" factor.
func drawScale(r *rand.Rand, kind string) float64 {
	switch kind {
	case "down":
		return 1.3 + 0.9*r.Float64()
	case "up":
		return 0.55 + 0.3*r.Float64()
	}
	return 1
}

// paint draws the scene for the factors drawn and the level.
func paint(r *rand.Rand, d draws, l *solver.Level) (*Scene, error) {
	if d["style"] == "theme" {
		if s, err := paintTheme(r, d, l); err == nil {
			return s, nil
		}
		d["style"] = "random" // no fixed theme fits these tubes on this screen: draw it freely
	}
	w, h := screenSize(r, d["size"])
	k := drawScale(r, d["resize"])
	dw, dh := int(float64(w)*k), int(float64(h)*k)
	if min(dw, dh) < minSide || dw*dh > maxPixels {
		k, dw, dh, d["resize"] = 1, w, h, "none"
	}
	img := image.NewRGBA(image.Rect(0, 0, dw, dh))
	img = paintBackground(img, r, d["background"])
	lk := newLook(r, d)
	sh := shapeDraws{
		unitAspect: between(r, unitAspectRange),
		headroom:   between(r, headroomRange),
		gap:        between(r, gapRange),
		rowGap:     between(r, rowGapRange),
	}
	switch d["outline"] {
	case "thin":
		sh.strokeK = 0.02 + 0.03*r.Float64()
	case "thick":
		sh.strokeK = 0.07 + 0.06*r.Float64()
	}
	if d["shape"] == "flask" {
		sh.headroom = math.Max(sh.headroom, 0.6)
	}
	if d["shape"] == "bulb" {
		sh.unitAspect = math.Max(sh.unitAspect, 0.9)
	}
	if d["clutter"] == "labels" || d["clutter"] == "all" {
		sh.rowGap += 0.12
	}
	for range 16 {
		sh.jitter = append(sh.jitter, minJitter+(maxJitter-minJitter)*r.Float64())
	}
	top := float64(dh) * between(r, headerBand)
	bottom := float64(dh) * (1 - between(r, footerBand))
	if d["size"] == "landscape" {
		top, bottom = float64(dh)*0.14, float64(dh)*0.93
	}
	side := float64(dw) * (0.02 + 0.06*r.Float64())
	rows, _ := strconv.Atoi(d["rows"])
	minW, minUH := minTubeWidth*k, minUnitH*k
	var p placed
	ok := false
	for _, try := range rowTries(rows, len(l.Tubes)) {
		counts := rowCounts(len(l.Tubes), try)
		if p, ok = placeTubes(counts, l.Capacity, sh, d["layout"], d["shape"], d["rim"], side, top, float64(dw)-side, bottom, minW, minUH); ok {
			d["rows"], d["per-row"] = strconv.Itoa(try), perRowBucket(counts[0])
			break
		}
	}
	if !ok && d["size"] != "phone" { // too many tubes for a small or landscape screen
		d["size"], d["rows"] = "phone", strconv.Itoa(rows)
		return paint(r, d, l)
	}
	if !ok {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "%d tubes of %d units do not fit legibly in %d×%d", len(l.Tubes), l.Capacity, w, h)
	}
	lk.fitTo(r, img, p)
	d["outline-tone"], d["glass"] = lk.tone, lk.glass
	if lk.stroke == 0 {
		d["outline-tone"] = "none" // no outline to have a tone
	}

	// Colours: every liquid apart from the background under the tubes, the glass, the
	// outline and the hidden-unit box.
	var avoid []color.RGBA
	var under []color.RGBA
	for _, g := range p.geoms {
		bg := meanColor(img, g.box())
		under = append(under, bg)
		avoid = append(avoid, bg, lk.glassOver(bg))
	}
	bgMean := meanColor(img, image.Rect(int(side), int(top), dw-int(side), int(bottom)))
	avoid = append(avoid, bgMean, lk.outline)
	if d["hidden"] != "none" {
		avoid = append(avoid, lk.hiddenFill)
	}
	if d["hidden"] == "glyph-circle" { // the disc fills most of the unit
		avoid = append(avoid, lk.hiddenInk)
	}
	pal, kind := palette(r, d["palette"], l.Colors(), avoid, []color.RGBA{bgMean})
	d["palette"] = kind
	colors := append([]color.RGBA{{}}, pal...)

	if d["stand"] == "shelf" {
		for _, y := range p.rowBottoms {
			drawShelf(img, lk, p, y)
		}
	}
	truth := Truth{Level: l, Width: dw, Height: dh}
	for i, g := range p.geoms {
		if d["stand"] == "holder" {
			drawHolder(img, lk, g)
		}
		t := drawRandomTube(img, lk, g, l.Tubes[i], colors, r.Uint64())
		drawRim(img, lk, g)
		drawCork(img, lk, g, l.Tubes[i], l.Capacity)
		if l.Curtained(i) {
			drawCover(img, lk, g, colors[l.Curtains[i]])
		}
		truth.Tubes = append(truth.Tubes, t)
	}
	if d["status-bar"] == "yes" {
		drawStatusBar(img, theme{text: inkOn(meanColor(img, image.Rect(0, 0, dw, dh/30)))})
	}
	drawClutter(img, r, d["clutter"], p, top, bottom, under)

	soften(img) // antialiasing, as phones draw
	var im image.Image = img
	if k != 1 {
		im = toRGBA(imaging.Resize(img, w, h, imaging.Linear))
		truth = truth.scaled(float64(w)/float64(dw), float64(h)/float64(dh), w, h)
	}
	return finish(r, d, im.(*image.RGBA), truth)
}

// rowTries lists the row counts to try: the one drawn, then more rows, then fewer.
func rowTries(rows, n int) []int {
	var out []int
	for k := rows; k <= 6; k++ {
		out = append(out, k)
	}
	for k := rows - 1; k >= 1; k-- {
		out = append(out, k)
	}
	var fit []int
	for _, k := range out {
		if k <= n {
			fit = append(fit, k)
		}
	}
	return fit
}

// scaled maps the truth to an image resized by (sx, sy) to w×h.
func (t Truth) scaled(sx, sy float64, w, h int) Truth {
	f := func(b image.Rectangle) image.Rectangle {
		return image.Rect(int(math.Floor(float64(b.Min.X)*sx)), int(math.Floor(float64(b.Min.Y)*sy)),
			int(math.Ceil(float64(b.Max.X)*sx)), int(math.Ceil(float64(b.Max.Y)*sy))).Intersect(image.Rect(0, 0, w, h))
	}
	out := Truth{Level: t.Level, Width: w, Height: h, NoPuzzle: t.NoPuzzle}
	for _, tube := range t.Tubes {
		tt := TubeTruth{Box: f(tube.Box)}
		for _, u := range tube.Units {
			tt.Units = append(tt.Units, f(u))
		}
		out.Tubes = append(out.Tubes, tt)
	}
	return out
}

// newLook turns the drawn factors into the tubes' drawing parameters (colours that depend on
// the background are set by fitTo).
func newLook(r *rand.Rand, d draws) *look {
	lk := &look{
		shape: d["shape"], rim: d["rim"], stand: d["stand"], glass: d["glass"], glare: d["glare"],
		edge: d["edge"], hidden: d["hidden"], cover: d["cover"], shadow: d["shadow"] == "drop",
		tone:       d["outline-tone"],
		cylA:       0.2 * r.Float64(),
		curtain:    hsv(r.Float64()*360, 0.4+0.4*r.Float64(), 0.3+0.3*r.Float64()),
		standColor: hsv(20+20*r.Float64(), 0.3+0.4*r.Float64(), 0.3+0.5*r.Float64()),
	}
	switch d["glare"] {
	case "stripe":
		lk.glareX, lk.glareW, lk.glareA = 0.15+0.6*r.Float64(), 0.05+0.1*r.Float64(), 0.2+0.35*r.Float64()
	case "wide":
		lk.glareX, lk.glareW, lk.glareA = 0.25+0.5*r.Float64(), 0.18+0.15*r.Float64(), 0.12+0.2*r.Float64()
	}
	switch d["hidden"] {
	case "dark-q":
		lk.hiddenFill, lk.hiddenInk = hsv(r.Float64()*360, 0.15*r.Float64(), 0.15+0.12*r.Float64()), rgb(245, 245, 245)
	case "grey-box", "grey-q":
		v := 0.5 + 0.2*r.Float64()
		lk.hiddenFill, lk.hiddenInk = hsv(r.Float64()*360, 0.06*r.Float64(), v), rgb(250, 250, 250)
		if r.IntN(2) == 0 {
			lk.hiddenInk = rgb(40, 40, 45)
		}
	case "glyph-circle":
		lk.hiddenFill, lk.hiddenInk = hsv(200+60*r.Float64(), 0.3+0.3*r.Float64(), 0.2+0.15*r.Float64()), rgb(250, 220, 90)
	case "hatched":
		lk.hiddenFill = hsv(r.Float64()*360, 0.1*r.Float64(), 0.22+0.12*r.Float64())
	}
	return lk
}

// fitTo sets the look's colours against the background behind the tubes: an outline that
// stands out, glass that shows an empty tube even without an outline.
func (lk *look) fitTo(r *rand.Rand, img *image.RGBA, p placed) {
	bg := meanColor(img, p.geoms[0].box().Union(p.geoms[len(p.geoms)-1].box()))
	dark := labOf(bg).L < 55
	lk.stroke = p.geoms[0].stroke
	tones := map[string]func() color.RGBA{
		"light":  func() color.RGBA { return hsv(r.Float64()*360, 0.1*r.Float64(), 0.8+0.2*r.Float64()) },
		"dark":   func() color.RGBA { return hsv(r.Float64()*360, 0.2*r.Float64(), 0.08+0.25*r.Float64()) },
		"colour": func() color.RGBA { return hsv(r.Float64()*360, 0.4+0.4*r.Float64(), 0.5+0.5*r.Float64()) },
	}
	lk.outline = tones[lk.tone]()
	if dE(lk.outline, bg) < surroundDE { // an outline must show: take the other tone
		lk.tone = "light"
		if !dark {
			lk.tone = "dark"
		}
		lk.outline = tones[lk.tone]()
	}
	lk.rimColor = lk.outline
	if lk.stroke == 0 {
		lk.rimColor = scale(bg, 1.5)
		if !dark {
			lk.rimColor = scale(bg, 0.7)
		}
	}
	switch lk.glass {
	case "clear":
		lk.tint, lk.tintA = rgb(255, 255, 255), 0.06
	case "tinted":
		lk.tint, lk.tintA = hsv(r.Float64()*360, 0.3+0.5*r.Float64(), 0.5+0.5*r.Float64()), 0.15+0.25*r.Float64()
	case "frosted":
		lk.tint, lk.tintA = rgb(250, 250, 255), 0.2+0.25*r.Float64()
	}
	if lk.stroke == 0 { // no outline: the glass alone must show an empty tube
		for dE(lk.glassOver(bg), bg) < 12 && lk.tintA < 0.9 {
			lk.tintA += 0.05
			if !dark && lk.tint == rgb(250, 250, 255) || !dark && lk.tint == rgb(255, 255, 255) {
				lk.tint = rgb(30, 30, 40)
			}
		}
		if lk.glass == "clear" && lk.tintA > 0.1 {
			lk.glass = "frosted" // what it now looks like
		}
	}
}

// finish applies the photo factors, encodes the image and records the factors.
func finish(r *rand.Rand, d draws, img *image.RGBA, truth Truth) (*Scene, error) {
	stored := image.Image(img)
	if d["photo"] == "yes" {
		img, truth = photograph(r, img, truth)
		stored = rotateForEXIF(img, d["exif"])
	} else {
		d["exif"] = "none"
	}
	q := 0
	switch d["jpeg"] {
	case "40-60":
		q = 40 + r.IntN(21)
	case "60-80":
		q = 60 + r.IntN(21)
	case "80-95":
		q = 80 + r.IntN(16)
	}
	if d["photo"] == "yes" && q == 0 { // a camera writes JPEG
		q, d["jpeg"] = 80+r.IntN(16), "80-95"
	}
	data, err := encode(stored, q)
	if err != nil {
		return nil, err
	}
	if d["exif"] != "none" {
		data = WithOrientation(data, exifTag[d["exif"]])
	}
	return &Scene{Data: data, Image: img, Truth: truth, Factors: map[string]string(d)}, nil
}

// themeFactors are the drawing factors a fixed-theme scene does not draw: they are recorded
// as "theme" so that tables by factor keep those scenes apart.
var themeFactors = []string{"status-bar", "layout", "shape", "rim", "stand", "outline", "outline-tone", "glass", "glare", "shadow", "edge", "palette", "clutter", "resize"}

// paintTheme draws the level in one of Render's fixed themes, at a size and encoding drawn.
func paintTheme(r *rand.Rand, d draws, l *solver.Level) (*Scene, error) {
	w, h := screenSize(r, d["size"])
	rows, _ := strconv.Atoi(d["rows"])
	theme := Themes[r.IntN(len(Themes))]
	rows = max(min(rows, len(l.Tubes)), (len(l.Tubes)+6)/7) // the themes hold 7 tubes a row
	opts := Options{Theme: theme, Width: w, Height: h, Rows: rows, StatusBar: r.IntN(2) == 0, Banner: r.IntN(2) == 0, Seed: r.Uint64()}
	s, err := Render(l, opts)
	if err != nil {
		return nil, err
	}
	d["rows"], d["per-row"] = strconv.Itoa(rows), perRowBucket((len(l.Tubes)+rows-1)/rows)
	for _, k := range themeFactors {
		d[k] = "theme"
	}
	d["background"] = "theme-" + theme
	if d["hidden"] != "none" {
		d["hidden"] = "theme"
	}
	if d["cover"] != "none" {
		d["cover"] = "theme"
	}
	return finish(r, d, s.Image.(*image.RGBA), s.Truth)
}
