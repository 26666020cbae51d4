package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnitHeight: the unit is the largest height that explains the gaps between colour
// changes, the columns' heights and the top runs; a top run is a unit of its own colour, never
// the meniscus of the run below it.
func TestUnitHeight(t *testing.T) {
	col := func(bottom int, bounds []int, top int) column {
		return column{box: image.Rect(0, 0, 40, 400), bottom: bottom, bounds: bounds, top: top}
	}
	for _, tc := range []struct {
		name string
		cols []column
		want float64
	}{
		// A mystery board: one unit of colour on a hidden run of four, in every tube.
		{"one unit on a hidden run of four", []column{
			col(333, []int{233}, 207), col(333, []int{233}, 208), col(332, []int{233}, 207),
		}, 25},
		{"one unit on a hidden run of five", []column{
			col(330, []int{205}, 179), col(330, []int{205}, 180), col(331, []int{205}, 179),
		}, 25},
		// Two tubes' top runs do not vote (a button over a tube cuts a run of one colour):
		// nothing tells this from two tall units under a meniscus.
		{"two tubes of one unit on a run of four", []column{
			col(333, []int{233}, 207), col(333, []int{233}, 208),
		}, 100},
		// A top unit with a meniscus a third of a unit tall over two units of one colour.
		{"meniscus on the top unit", []column{
			col(300, []int{250}, 217), col(300, []int{275}, 242),
		}, 25},
		{"whole tubes, no colour change", []column{
			col(300, nil, 200), col(300, nil, 250),
		}, 50},
		// Tubes of 6 holding 4, 1+5, 1 and 1 units of 56 pixels: a unit of 68 fits every
		// height too (3.3, 5.0, 0.8 units, each top short or tall by its own share) and the
		// one gap at 0.82; the true unit fits them all alike.
		{"a unit a fifth too tall fits loosely", []column{
			col(720, nil, 494), col(720, []int{664}, 380), col(720, nil, 663), col(720, nil, 664),
		}, 56},
	} {
		got, _ := unitHeight(tc.cols)
		if math.Abs(got-tc.want) > 1.5 {
			t.Errorf("%s: got unit %.1f, want %.0f", tc.name, got, tc.want)
		}
	}
}

// TestInnerUnit: tubes whose lowest run, down into a rounded foot, stands a pixel or two
// taller than the runs between two colour changes (87000531: runs of 16–17 at the foot, 15
// elsewhere) refine the unit on every gap to 15.9, which reads a full tube of 4 (60 pixels)
// as 3; the unit refined on the inner gaps alone, 15, is the next one tried.
func TestInnerUnit(t *testing.T) {
	col := func(bottom int, bounds []int, top int) column {
		return column{box: image.Rect(0, 0, 40, 100), bottom: bottom, bounds: bounds, top: top}
	}
	cols := []column{
		col(663, []int{646, 631}, 617), col(663, []int{646, 631}, 601), col(662, []int{646, 631, 616}, 602),
		col(663, []int{646, 631}, 602), col(662, []int{646, 631}, 602), col(663, []int{647, 632}, 601),
		col(663, []int{646, 631}, 617), col(662, []int{646, 632, 616}, 601),
	}
	fits := unitHeights(cols)
	if len(fits) < 2 || math.Abs(fits[0].unit-15) < 0.5 {
		t.Fatalf("got units %+v: want the unit refined on every gap first, 15 not first", fits)
	}
	if math.Abs(fits[1].unit-15) > 0.3 {
		t.Errorf("got units %+v: want the unit refined on the inner gaps, 15, second", fits)
	}
	if n := unitsIn(col(662, []int{646, 631, 616}, 602), fits[1].unit); n != 4 {
		t.Errorf("a full tube of 4 at the inner unit holds %d units, want 4", n)
	}
}

// TestUnitsIn: a column's units are its height in units less topBias, or, where each run
// under the top falls a little short of whole units and the top run hardly at all, the runs
// counted one by one: one more.
func TestUnitsIn(t *testing.T) {
	col := func(bottom int, bounds []int, top int) column {
		return column{box: image.Rect(0, 0, 40, 400), bottom: bottom, bounds: bounds, top: top}
	}
	for _, tc := range []struct {
		name string
		c    column
		unit float64
		want int
	}{
		// Four units of 13, each run a pixel short (a foot's outline cut from the lowest,
		// meniscus lines between the others): 49 pixels are 3.46 units less topBias.
		{"four runs each a little short", col(507, []int{495, 483, 470}, 458), 13.03, 4},
		// Five whole runs under a band of glass 0.8 of a unit tall (a tube's room read as a
		// run): the top run alone is short, and the height rule leaves it out.
		{"whole runs under a short band of glass", col(588, []int{562, 536, 510, 484}, 458), 26.25, 5},
		{"the same with the band read as the top run", col(588, []int{562, 536, 510, 484, 458}, 437), 26.25, 5},
		// A run a pixel taller than its units under the top: the count run by run does not
		// hold, and the height decides.
		{"a run under the top taller than its units", col(507, []int{493, 482, 471}, 458), 13.03, 3},
		// A lid read as a tube: its panel, 1.86 units, under its lantern, 0.86.
		{"a lid's lantern over its panel", col(479, []int{438}, 419), 22.09, 2},
		{"one run, no colour change", col(300, nil, 250), 25, 2},
	} {
		if got := unitsIn(tc.c, tc.unit); got != tc.want {
			t.Errorf("%s: got %d units, want %d", tc.name, got, tc.want)
		}
	}
}

// TestMedian checks the selection against sorting, on values with many repeats (pixels of
// flat colour) and without.
func TestMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 300; n++ {
		for _, spread := range []int{2, 5, 1000} {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(rng.IntN(spread))
			}
			want := slices.Sorted(slices.Values(v))[n/2]
			if got := median(slices.Clone(v)); got != want {
				t.Fatalf("n=%d spread=%d: median %v, want %v (%v)", n, spread, got, want, v)
			}
		}
	}
}

// TestBlurredDarkInk: on a mid-grey run, a dark glyph blurred to L 31 under a box of L 52
// (20261348783991) counts where the run's darkest pixels fall minGlyphDepth below it but not
// glyphLift; not where they fall less, nor further (the dark ink of inks tells those), nor on
// a dark or a coloured run.
func TestBlurredDarkInk(t *testing.T) {
	trough := func(l float64) func() float64 { return func() float64 { return l } }
	if ink := blurredDarkInk(lab{L: 52}, trough(31)); ink == nil || !ink(lab{L: 40}) || ink(lab{L: 45}) {
		t.Errorf("a box of L 52 falling to 31: want strokes of L 40 inked, of L 45 not")
	}
	for _, tc := range []struct {
		name   string
		box    lab
		trough float64
	}{
		{"too shallow", lab{L: 52}, 40},
		{"deep enough for glyphLift", lab{L: 52}, 20},
		{"a dark box", lab{L: 30}, 12},
		{"a coloured box", lab{L: 52, A: 30}, 31},
		{"a light box", lab{L: 80}, 60},
	} {
		if blurredDarkInk(tc.box, trough(tc.trough)) != nil {
			t.Errorf("%s: an ink, want none", tc.name)
		}
	}
}

// TestInks: a glyph is lighter than a dark hidden box, lighter or darker than a mid-grey one;
// a light or coloured box carries none the reader tells.
func TestInks(t *testing.T) {
	// On a light grey box, a faint glyph's stroke counts where the box's lightest pixels come
	// near white, as a glyph's do; not where they rise as a glare stripe's do.
	faint := lab{L: 84}
	if !slices.ContainsFunc(inks(lab{L: 66}, func() float64 { return 90 }), func(ink func(lab) bool) bool { return ink(faint) }) {
		t.Errorf("a stroke of L 84 on a box of L 66 peaking at 90: no ink; want ink")
	}
	if slices.ContainsFunc(inks(lab{L: 66}, func() float64 { return 85 }), func(ink func(lab) bool) bool { return ink(faint) }) {
		t.Errorf("a stroke of L 84 on a box of L 66 peaking at 85: ink; want none")
	}
	for _, tc := range []struct {
		name       string
		box        lab
		white, ink bool // whether a white and a near-black pixel count as ink
	}{
		{"dark box", lab{L: 25}, true, false},
		{"mid-grey box", lab{L: 62, A: 1, B: 2}, true, true},
		{"light grey box", lab{L: 85}, false, false},
		{"coloured box", lab{L: 50, A: 40, B: 20}, false, false},
	} {
		white, black := false, false
		for _, ink := range inks(tc.box, func() float64 { return 100 }) {
			white = white || ink(lab{L: 98})
			black = black || ink(lab{L: 15})
		}
		if white != tc.white || black != tc.ink {
			t.Errorf("%s: white ink %v, dark ink %v; want %v, %v", tc.name, white, black, tc.white, tc.ink)
		}
	}
}

// fillLab paints rectangle r of frame f's CIELAB pixels in colour c.
func fillLab(f *frame, r image.Rectangle, c lab) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			copy(f.lab[3*(y*f.w+x):], []float32{float32(c.L), float32(c.A), float32(c.B)})
		}
	}
}

// TestGlyphsShortRun: two hidden units whose run measures 1.9 of their glyphs' period (cut
// short at the layer above) are counted; a run of one glyph is not.
func TestGlyphsShortRun(t *testing.T) {
	const w, h, period = 30, 100, 53
	f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
	paint := func(r image.Rectangle, c lab) { fillLab(f, r, c) }
	box := image.Rect(0, 0, w, h)
	paint(box, lab{L: 20, A: -3, B: 2})
	for _, y := range []int{6, 6 + period} {
		// A "?": a wide arc, a narrow stem, a gap and a dot.
		paint(image.Rect(10, y, 20, y+4), lab{L: 95})
		paint(image.Rect(14, y+4, 17, y+20), lab{L: 95})
		paint(image.Rect(14, y+24, 17, y+28), lab{L: 95})
	}
	if got := f.glyphs(box, 0, h); got != 2 {
		t.Errorf("two glyphs %d rows apart in %d rows: counted %d, want 2", period, h, got)
	}
	if got := f.glyphs(box, 0, period); got != 0 {
		t.Errorf("one glyph: counted %d, want 0", got)
	}
	// Four small glyphs in 44 rows (20261293783711's light pixels per row of an 11-pixel
	// strip), their rhythm blurred: the profile repeats better over two units than one, and
	// the run must not be counted as two.
	const sw = 11
	inked := []int{0, 0, 2, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 4, 1, 1, 2, 0, 1, 0}
	small := image.Rect(0, 0, sw*10/4, len(inked)) // its centre strip 11 pixels wide
	paint(image.Rect(0, 0, w, h), lab{L: 20, A: -3, B: 2})
	strip := centreStrip(small, 0, len(inked))
	for y, n := range inked {
		paint(image.Rect(strip.Min.X, y, strip.Min.X+n, y+1), lab{L: 95})
	}
	if got := f.glyphs(small, 0, len(inked)); got == 2 {
		t.Errorf("four glyphs blurred: counted 2")
	}
	// A few rows at a tube's foot (a curtain's cloth, 86000435) repeat at a short shift:
	// no two units in nine rows.
	paint(image.Rect(0, 0, w, h), lab{L: 20, A: -3, B: 2})
	foot := image.Rect(0, 0, w, 9)
	for _, y := range []int{1, 6} {
		paint(image.Rect(0, y, w, y+1), lab{L: 95})
	}
	if got := f.glyphs(foot, 0, 9); got != 0 {
		t.Errorf("nine rows at a foot: counted %d, want 0", got)
	}
	// Two grey boxes with a dark "?", period 45, over a round foot filled with the boxes'
	// grey: the run is 105 rows, 2.3 periods (20261324784153). The blank rows past the last
	// glyph beyond the 11 over the first belong to no unit.
	grey, dark := lab{L: 67, A: 2, B: -4}, lab{L: 15, B: -10}
	paint(image.Rect(0, 0, w, h), grey)
	run := image.Rect(0, 0, w, 105)
	f = &frame{w: w, h: 105, lab: make([]float32, 3*w*105)}
	paint(run, grey)
	for _, y := range []int{11, 11 + 45} {
		paint(image.Rect(10, y, 20, y+4), dark)
		paint(image.Rect(14, y+4, 17, y+16), dark)
		paint(image.Rect(14, y+18, 17, y+21), dark)
	}
	if got := f.glyphs(run, 0, 105); got != 2 {
		t.Errorf("two glyphs over a round foot: counted %d, want 2", got)
	}
}

// TestGlyphsStripeFoot: two hidden units, period 32, a glare stripe down the boxes from the
// run's top to a little past the last glyph, the layer above's light rim in the run's first
// row, and a thick dark outline under the boxes (rows of the boxes' colour closed by a light
// line across): no blank row stands above the first glyph or past the last unless the stripe
// is left out and the rim taken for an edge (20261338784291).
func TestGlyphsStripeFoot(t *testing.T) {
	const w, h, period = 30, 75, 32
	f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
	paint := func(r image.Rectangle, c lab) { fillLab(f, r, c) }
	box, white := image.Rect(0, 0, w, h), lab{L: 95}
	paint(box, lab{L: 20, A: -3, B: 2})
	for _, y := range []int{9, 9 + period} {
		paint(image.Rect(10, y, 20, y+3), white)
		paint(image.Rect(14, y+3, 17, y+11), white)
		paint(image.Rect(14, y+13, 17, y+15), white)
	}
	paint(image.Rect(8, 0, 14, 1), white)   // the rim of the layer above
	paint(image.Rect(19, 1, 20, 57), white) // the glare stripe
	paint(image.Rect(0, h-1, w, h), white)  // a line across under the outline
	if n := f.glyphs(box, 0, h); n != 2 {
		t.Errorf("two glyphs under a stripe over a dark outline: counted %d, want 2", n)
	}
}

// TestInkBands counts a profile's glyphs: a "?"'s hook and dot, a few blank rows apart, are
// one glyph; glyphs stand further apart.
func TestInkBands(t *testing.T) {
	q := []float64{0, 0, .3, .3, .1, .1, 0, 0, .1, 0, 0, 0, 0, 0, 0, 0}
	for _, tc := range []struct {
		name string
		prof []float64
		want int
	}{
		{"none", make([]float64, 10), 0},
		{"two glyphs", append(slices.Clone(q), q...), 2},
		{"three glyphs", append(append(slices.Clone(q), q...), q...), 3},
	} {
		if got := inkBands(tc.prof); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestBadgeOnPanel: a run at a box's top like the liquid under a band thinner than a unit is
// a cover's panel round its badge; a cork has a colour of its own, and a layer is a unit.
func TestBadgeOnPanel(t *testing.T) {
	grey, white, cork := lab{L: 56, B: -8}, lab{L: 90}, lab{L: 55, A: 15, B: 40}
	panel := func(lid lab, band int) column {
		return column{box: image.Rect(0, 0, 40, 100), bottom: 100, top: 40 - band, bounds: []int{40}, runs: []lab{grey, white}, lid: segment{y0: 0, y1: 40 - band, color: lid}}
	}
	for _, tc := range []struct {
		name string
		col  column
		want int
	}{
		{"a padlock on a lid's panel", panel(grey, 10), 0},
		{"a cork over a white top layer", panel(cork, 10), -1},
		{"a whole unit between", panel(grey, 24), -1},
		{"no run at the top", column{box: image.Rect(0, 0, 40, 100), bottom: 100, top: 30, bounds: []int{40}, runs: []lab{grey, white}}, -1},
	} {
		if got := badgeOnPanel([]column{tc.col}, 24); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestRaiseLidsFuller: a run at a box's top over less liquid than a column of the row holds
// with no run at its top is no cork (a cork stands on a complete tube, the fullest): it is
// raised, as a hypothesis, only with byFillToo, and not where that column's top run is
// another's too (the glass, read as liquid so far, looks alike in every tube).
func TestRaiseLidsFuller(t *testing.T) {
	red, blue, green, cyan := lab{L: 50, A: 60, B: 40}, lab{L: 40, A: 20, B: -60}, lab{L: 60, A: -50, B: 40}, lab{L: 80, A: -30, B: -10}
	row := func(fullerTop, otherTop lab) []column {
		box := func(x int) image.Rectangle { return image.Rect(x, 0, x+20, 100) }
		return []column{
			{box: box(0), bottom: 100, top: 50, bounds: []int{75}, runs: []lab{red, fullerTop}},
			{box: box(30), bottom: 100, top: 75, runs: []lab{blue}, lid: segment{y0: 0, y1: 75, color: cyan}},
			{box: box(60), bottom: 100, top: 75, runs: []lab{red}, lid: segment{}},
			{box: box(90), bottom: 100, top: 60, bounds: []int{80}, runs: []lab{blue, otherTop}},
		}
	}
	var f frame
	for _, tc := range []struct {
		name          string
		cols          []column
		byFillToo     bool
		found, byFill int
		raised        bool
	}{
		{"told by a fuller column, not raised without byFillToo", row(green, red), false, 1, 1, false},
		{"raised with byFillToo", row(green, red), true, 1, 1, true},
		{"the fuller column's top is another's: glass", row(green, green), true, 0, 0, false},
	} {
		found, byFill := f.raiseLids(tc.cols, []int{4}, true, tc.byFillToo, false)
		if found != tc.found || byFill != tc.byFill {
			t.Errorf("%s: found %d, by fill %d; want %d, %d", tc.name, found, byFill, tc.found, tc.byFill)
		}
		if raised := tc.cols[1].top == 0; raised != tc.raised {
			t.Errorf("%s: raised %v, want %v", tc.name, raised, tc.raised)
		}
	}
}

// TestInkShare: a glyph's share of a grey box leaves out the rows a line crosses whole (a
// separator between layers, a box's edge) and a glare stripe's columns.
func TestInkShare(t *testing.T) {
	const w, h = 30, 30
	paint := func(dark func(x, y int) bool) *frame {
		f := &frame{w: w, h: h, scale: 1, lab: make([]float32, 3*w*h)}
		for y := range h {
			for x := range w {
				l := float32(62) // a mid-grey box
				if dark(x, y) {
					l = 15
				}
				f.lab[3*(y*w+x)] = l
			}
		}
		return f
	}
	glyph := func(x, y int) bool { return x >= 12 && x < 18 && y >= 8 && y < 22 && (x+y)%3 != 0 }
	separator := func(x, y int) bool { return y < 2 }
	dark := inks(lab{L: 62}, func() float64 { return 62 })[1]
	r := image.Rect(0, 0, w, h)
	for _, tc := range []struct {
		name      string
		dark      func(x, y int) bool
		glyphLike bool
	}{
		{"a dark glyph", glyph, true},
		{"a separator alone", separator, false},
		{"a glyph under a separator", func(x, y int) bool { return glyph(x, y) || separator(x, y) }, true},
	} {
		share, ok := paint(tc.dark).inkShare(r, dark)
		if got := ok && share > minGlyphShare && share < maxGlyphShare; got != tc.glyphLike {
			t.Errorf("%s: share %.3f (ok %v), glyph-like %v, want %v", tc.name, share, ok, got, tc.glyphLike)
		}
	}
}

// TestGlareSplitUnit checks that two short pieces of one unit, split where a glare stripe
// ends, make one run, the lighter above; and that the shaded glass under a rim, lighter
// below, or a hatch line a pixel or two tall over a piece, stays in pieces.
func TestGlareSplitUnit(t *testing.T) {
	blue := lab{L: 55, A: -10, B: -19}
	olive, glared := lab{L: 39, A: -16, B: 40}, lab{L: 52, A: -17, B: 37}
	bg := lab{L: 15, A: 2, B: -15}
	// Rows top to bottom: 17 rows of blue, then the unit split in two pieces.
	profile := func(upper, lower lab, nu, nl int) (in, out []lab) {
		for range 17 {
			in = append(in, blue)
		}
		for range nu {
			in = append(in, upper)
		}
		for range nl {
			in = append(in, lower)
		}
		for range in {
			out = append(out, bg)
		}
		return in, out
	}
	for _, tc := range []struct {
		name         string
		upper, lower lab
		nu, nl       int
		runs         int
	}{
		{"glared part above: one unit", glared, olive, 8, 8, 2},
		{"lighter part below: two pieces", olive, glared, 8, 8, 3},
		{"a line of two pixels above: two pieces", glared, olive, 2, 8, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, out := profile(tc.upper, tc.lower, tc.nu, tc.nl)
			segs := segments(image.Rect(0, 0, 40, len(in)), in, out, 10)
			if len(segs) != tc.runs {
				t.Errorf("got %d runs %v, want %d", len(segs), segs, tc.runs)
			}
		})
	}
}

// TestToneRhythm: a run down a tube's centre line that repeats once per unit (a light disc
// round a dark glyph on a dark box, drawn alike on each hidden unit) is counted by its period;
// layers of liquid, each one colour, repeat at no period, nor does a run of one colour.
func TestToneRhythm(t *testing.T) {
	const unit = 16
	box, disc, glyph := lab{L: 25, A: 5, B: -5}, lab{L: 85, A: -2, B: 50}, lab{L: 30, A: 0, B: 10}
	marks := func(n int) []lab {
		var p []lab
		for range n {
			for y := range unit {
				switch {
				case y < 2 || y >= unit-2:
					p = append(p, box)
				case y >= 7 && y < 10:
					p = append(p, glyph)
				default:
					p = append(p, disc)
				}
			}
		}
		return p
	}
	layers := func(cs ...lab) []lab {
		var p []lab
		for _, c := range cs {
			for range unit {
				p = append(p, c)
			}
		}
		return p
	}
	red, blue, green, pink := lab{L: 50, A: 70, B: 50}, lab{L: 35, A: 20, B: -60}, lab{L: 60, A: -60, B: 50}, lab{L: 75, A: 30, B: 0}
	for _, tc := range []struct {
		name string
		p    []lab
		want int
	}{
		{"five marked units", marks(5), 5},
		{"three marked units", marks(3), 3},
		{"four layers of four colours", layers(red, blue, green, pink), 0},
		{"layers lightening upwards", layers(blue, red, green, pink, lab{L: 90}), 0},
		{"one colour", layers(red, red, red), 0},
		// Two colours alternating repeat every two units: too few periods for the caller,
		// which counts minRhythmUnits or more.
		{"two colours alternating", layers(red, blue, red, blue), 2},
	} {
		if got := toneRhythm(tc.p); got != tc.want {
			t.Errorf("%s: toneRhythm = %d, want %d", tc.name, got, tc.want)
		}
	}
	// A run of discs falls into two tones; a run of one colour whose units a separator
	// parts repeats as well, but in one tone.
	var parted []lab
	for range 4 {
		for y := range unit {
			if y == 0 {
				parted = append(parted, lab{L: 20})
			} else {
				parted = append(parted, red)
			}
		}
	}
	if n := toneRhythm(parted); n != 4 {
		t.Errorf("units of one colour parted by separators: toneRhythm = %d, want 4", n)
	}
	if !twoToned(marks(4)) || twoToned(parted) {
		t.Errorf("twoToned: discs %v, units parted by separators %v; want true, false", twoToned(marks(4)), twoToned(parted))
	}
}

// TestMarkedRunRhythm: a mystery board's hidden units drawn as yellow discs round a "?" on
// a dark box split into short runs at odd places (the disc's edges, the glyph), so the layers'
// heights fitted no unit well: tubes of 7 for 6, refused. Counted by their rhythm, the discs
// make one run of five units.
func TestMarkedRunRhythm(t *testing.T) {
	readExactlyOrDead(t, 20261293783944)
}

// TestMarksMisread: scenes of hidden units drawn as yellow discs round a "?" on dark boxes
// (drawn with that style fixed), once read wrong with no error, each now refused or read
// exactly.
func TestMarksMisread(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		kind string
	}{
		{95000492, "on a board of five tubes, two holding liquid, the discs read as a colour, four of them a whole colour with the units in view, keeping the counts (unreadMarks)"},
		{95000332, "a tube of discs under a colour read as a curtain, the dark boxes its cloth and a disc its lantern (curtainOfMarks)"},
		{95000430, "discs told by their glyphs beside a curtain, two tubes of a row missed, their colours and hidden units unseen by the counts (refused: discs tell hidden units as the rules alone do beside curtains)"},
		{95000475, "the same beside a lid, a tube's unit over its discs missed"},
		{95000543, "the same beside sheets, two of them read as tubes of liquid"},
	} {
		refusedOrExact(t, tc.seed, map[string]string{"hidden": "glyph-circle"}, tc.kind)
	}
}

// TestLookMisfit checks that a look of hidden units makes each tube's hidden run one run for
// the unit's evidence: bounds inside it (marks that part it) and a rhythm of its marks
// counted at a multiple of their period no longer misfit; bounds above it, and a rhythm
// that counts the run otherwise, still do.
func TestLookMisfit(t *testing.T) {
	const unit = 17.67
	// Two tubes of 7: one unit in view on six hidden, the run parted by marks at odd places
	// in the first, its marks' rhythm counted at twice their period in the second.
	col := func(bounds []int, runs ...glyphRun) column {
		return column{box: image.Rect(0, 0, 26, 140), bottom: 123, top: 0, bounds: bounds, glyphGaps: runs}
	}
	hidden := func(hs ...int) ([]int, []unitSample) {
		var counts []int
		var samples []unitSample
		for _, h := range hs {
			counts = append(counts, 7)
			for j := range 7 {
				samples = append(samples, unitSample{hidden: j < h})
			}
		}
		return counts, samples
	}
	for _, tc := range []struct {
		name  string
		cols  []column
		hs    []int
		whole bool // the look leaves no misfit
	}{
		{"marks part the hidden runs", []column{col([]int{100, 73, 17}), col([]int{91, 17})}, []int{6, 6}, true},
		{"rhythm at twice the period", []column{col([]int{17}, glyphRun{height: 106, n: 3}), col([]int{17}, glyphRun{height: 106, n: 3})}, []int{6, 6}, true},
		{"no unit hidden", []column{col([]int{100, 73, 17}), col([]int{91, 17})}, []int{0, 0}, false},
		{"a bound above the hidden run", []column{col([]int{100, 73, 17}), col([]int{91, 17})}, []int{2, 2}, false},
		{"rhythm counting the run otherwise", []column{col([]int{17}, glyphRun{height: 106, n: 4}), col([]int{17}, glyphRun{height: 106, n: 4})}, []int{6, 6}, false},
	} {
		counts, samples := hidden(tc.hs...)
		before := evidenceOf(tc.cols).misfit(unit)
		got := lookMisfit(tc.cols, counts, samples, unit)
		if before <= maxMisfit {
			t.Errorf("%s: the columns misfit %.2f before the look, want more than %.2f", tc.name, before, maxMisfit)
		}
		if (got == 0) != tc.whole {
			t.Errorf("%s: misfit %.2f with the look, want none: %v", tc.name, got, tc.whole)
		}
	}
}

// TestRhythmBeat: glyphs every 17 rows over a run of 106 (six units and a foot's rows below
// them) repeat at 34 rows as well, which divides the run into three: no count of its own.
// The same glyphs over 102 rows count six.
func TestRhythmBeat(t *testing.T) {
	prof := func(h int) []float64 {
		p := make([]float64, h)
		for y := 5; y+7 < 102; y += 17 {
			copy(p[y:], []float64{0.3, 0.1, 0.2, 0.2, 0.1, 0, 0.1})
		}
		if h > 103 {
			copy(p[102:], []float64{0.2, 0.5})
		}
		return p
	}
	if n := rhythm(prof(106)); n != 0 {
		t.Errorf("106 rows: %d units; want none", n)
	}
	if n := rhythm(prof(102)); n != 6 {
		t.Errorf("102 rows: %d units; want 6", n)
	}
}

// TestStripeFoot: a light band over a third of a dark run, ending at a row, is a glare
// stripe's foot there, and the run on both sides one; a change across the whole width (a
// layer's edge), two bands, a band darker above, a disc's round foot or a change beside the
// band too is not.
func TestStripeFoot(t *testing.T) {
	const w, h, mid = 40, 100, 60
	dark, glared := lab{L: 30, A: 1, B: -1}, lab{L: 48, A: 1, B: -1}
	box := image.Rect(0, 0, w, h)
	for _, tc := range []struct {
		name  string
		paint func(f *frame)
		want  bool
	}{
		{"a stripe's foot", func(f *frame) { fillLab(f, image.Rect(15, 0, 24, mid), glared) }, true},
		{"a layer's edge", func(f *frame) { fillLab(f, image.Rect(0, 0, w, mid), lab{L: 60, A: 40, B: 20}) }, false},
		{"two bands", func(f *frame) {
			fillLab(f, image.Rect(9, 0, 14, mid), glared)
			fillLab(f, image.Rect(24, 0, 29, mid), glared)
		}, false},
		{"darker above", func(f *frame) { fillLab(f, image.Rect(14, 0, 25, mid), lab{L: 12}) }, false},
		{"a disc's foot", func(f *frame) {
			// A light disc of radius 6 ending at mid: its rows narrow towards mid.
			for y := mid - 12; y < mid; y++ {
				dy := float64(y-(mid-6)) + 0.5
				hw := int(math.Sqrt(max(0, 36-dy*dy)))
				fillLab(f, image.Rect(20-hw, y, 20+hw, y+1), lab{L: 75, A: 5, B: 60})
			}
		}, false},
		{"the rest changes too", func(f *frame) {
			fillLab(f, image.Rect(0, 0, w, mid), lab{L: 40, A: 1, B: -1})
			fillLab(f, image.Rect(14, 0, 25, mid), glared)
		}, false},
	} {
		f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
		fillLab(f, box, dark)
		tc.paint(f)
		if got := f.stripeFoot(box, 0, mid, h); got != tc.want {
			t.Errorf("%s: stripeFoot = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDiscGlyph: a dark "?" on a light disc in a dark box tells a hidden unit; a light liquid,
// a boundary to a dark layer crossing it, a dark box with a light glyph (the inks' case) and
// a patch too small to hold a glyph do not.
func TestDiscGlyph(t *testing.T) {
	navy, yellow, ink := lab{L: 20, A: 2, B: -20}, lab{L: 85, A: -2, B: 70}, lab{L: 25, A: 1, B: 2}
	// The glyph: a hook and a dot, strokes two pixels wide, inside a disc of radius 10
	// centred in a 30×26 patch.
	glyph := func(x, y int) bool {
		hook := (y >= 6 && y < 8 && x >= 12 && x < 18) || (x >= 16 && x < 18 && y >= 6 && y < 13) || (x >= 14 && x < 16 && y >= 12 && y < 16)
		return hook || (x >= 14 && x < 16 && y >= 18 && y < 20)
	}
	disc := func(x, y int) bool { dx, dy := x-15, y-13; return dx*dx+dy*dy <= 100 }
	for _, tc := range []struct {
		name  string
		w, h  int
		paint func(x, y int) lab
		want  bool
	}{
		{"a glyph on a disc in a dark box", 30, 26, func(x, y int) lab {
			switch {
			case disc(x, y) && glyph(x, y):
				return ink
			case disc(x, y):
				return yellow
			}
			return navy
		}, true},
		{"a yellow liquid", 30, 26, func(x, y int) lab { return yellow }, false},
		{"a yellow liquid over a navy layer, the boundary across the middle", 30, 26, func(x, y int) lab {
			if y >= 13 {
				return navy
			}
			return yellow
		}, false},
		{"a light glyph on a dark box", 30, 26, func(x, y int) lab {
			if glyph(x, y) {
				return lab{L: 90}
			}
			return navy
		}, false},
		{"a disc too small for its glyph", 11, 11, func(x, y int) lab {
			if x == 5 && y >= 3 && y < 8 {
				return ink
			}
			return yellow
		}, false},
	} {
		f := paintedFrame(tc.w, tc.h, tc.paint)
		if got := f.discGlyph(image.Rect(0, 0, tc.w, tc.h)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDiscsRead: boards whose hidden units are drawn as yellow discs round a dark "?" read
// exactly, the discs told by their glyphs (discGlyph): four tubes of 7 holding 10 discs
// (95000479), and ten tubes of 4 whose outlines part at the lowest disc (95000312, with
// lowerToFeet). Where some discs tell no glyph (one on a tube's flat foot, 85000275), the
// discs are read by their looks, as no glyph told them. A run at a box's top raised beside
// them is kept where no tube is then full of a colour no other shows (95000467).
func TestDiscsRead(t *testing.T) {
	discs := map[string]string{"hidden": "glyph-circle"}
	readsExactly(t, 95000479, discs, "four tubes of 7, ten discs under grey and teal units")
	readsExactly(t, 95000312, discs, "ten tubes of 4, three discs under each tube's unit")
	readsExactly(t, 85000275, nil, "six tubes of 6, the lowest of a tube's three discs on its flat foot telling no glyph")
	readsExactly(t, 95000467, discs, "five tubes of 5, a yellow top unit at its box's top raised beside yellow discs (no tube full of a lone colour: loneFullTube)")
}
