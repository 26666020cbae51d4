package vision

import (
	"math"
	"slices"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/cielab"
)

// Glass is drawn translucent over what lies behind it: where the background changes colour
// (a gradient, blobs, bokeh), so does the empty glass in front of it, and no one colour
// tells the glass. Alpha blending ties the two, channel by channel in sRGB:
//
//	glass = s·behind + u    (s = 1 − opacity, u = opacity·tint)
//
// one law for every tube of a board. Fitted where the glass shows (the room above a tube's
// liquid, an empty tube's inside) against the background beside it, the law tells the glass
// over any other background: a run up to a tube's top that looks like it is the glass read as
// liquid, however unlike the glass shown elsewhere (a tube over a green blob beside tubes
// over a magenta one, 20261328783804).

// glassLaw is a fitted glass: what shows through it over a background, per sRGB channel.
type glassLaw struct {
	s float64
	u [3]float64
}

// over is the colour of the glass over background bg.
func (g glassLaw) over(bg lab) lab {
	b := rgbOf(bg)
	var c [3]uint8
	for k := range b {
		c[k] = uint8(math.Round(math.Max(0, math.Min(255, g.s*b[k]+g.u[k]))))
	}
	return labFromRGB(c[0], c[1], c[2])
}

func rgbOf(c lab) [3]float64 {
	x, _ := cielab.ToRGB(c)
	return [3]float64{float64(x.R), float64(x.G), float64(x.B)}
}

// The law is fitted only where the backgrounds behind the glass samples spread
// glassLawSpread sRGB levels or more (root mean square over the channels; less tells no
// opacity), where it leaves the samples within glassLawMiss levels (root mean square) and
// where its opacity is a glass's: s from glassLawMinS (a glass that hides most of what lies
// behind) to 1 and a little over (noise). Each band of glass is sampled in glassLawSlices
// slices of its height, each paired with the background beside it. Over blobs the
// background beside a tube is not quite what lies behind it, less so on a small screen:
// frosted glass over a blotched background strays 9 levels from its law (20261347784084;
// within 5 until session 46, no reading changed on the tuning seeds or the corner sets).
const (
	glassLawSpread = 12
	glassLawMiss   = 10
	glassLawMinS   = 0.15
	glassLawMaxS   = 1.05
	glassLawSlices = 6
)

// fitGlass fits the glass law to the bands where the columns show the glass: the room above
// a tube's liquid (glassRoom of its height or more, its rim left out) and an empty tube's
// inside. rooms are the free room beside each column (see beside). It reports false where the
// law cannot be told (see glassLawSpread).
func (f *frame) fitGlass(cols []column, rooms [][2]int) (glassLaw, bool) {
	var all glassBand
	for i, c := range cols {
		if c.curtain {
			continue
		}
		var y0, y1 int
		switch {
		case c.empty():
			y0, y1 = insideBand(c.box)
		case float64(c.top-c.box.Min.Y) >= glassRoom*float64(c.box.Dy()):
			y0, y1 = c.roomBand()
		default:
			continue
		}
		all = joinBands(all, f.sampleBand(c, rooms[i], y0, y1))
	}
	return fitLaw(all.glass, all.behind)
}

// glassBand is a band of a column sampled for the glass law: glassLawSlices slices of its
// height, each paired with the background beside it (sRGB).
type glassBand struct {
	col           int // the column's index
	glass, behind [][3]float64
}

// joinBands is the bands' samples together, as one band.
func joinBands(bs ...glassBand) glassBand {
	var all glassBand
	for _, b := range bs {
		all.glass, all.behind = append(all.glass, b.glass...), append(all.behind, b.behind...)
	}
	return all
}

// sampleBand samples rows y0..y1 of column c, whose free room beside it is room.
func (f *frame) sampleBand(c column, room [2]int, y0, y1 int) glassBand {
	var b glassBand
	step := max(2, (y1-y0)/glassLawSlices)
	for y := y0; y+step <= y1; y += step {
		g, ok1 := f.medianLab(centreStrip(c.box, y, y+step))
		bg, ok2 := f.beside(c.box, room, y, y+step)
		if ok1 && ok2 {
			b.glass, b.behind = append(b.glass, rgbOf(g)), append(b.behind, rgbOf(bg))
		}
	}
	return b
}

// miss is how far band b's samples stray from the law: the root mean square, in sRGB
// levels, over its slices and channels.
func (g glassLaw) miss(b glassBand) float64 {
	var m float64
	for k := range b.glass {
		for ch := range 3 {
			d := b.glass[k][ch] - (g.s*b.behind[k][ch] + g.u[ch])
			m += d * d
		}
	}
	return math.Sqrt(m / float64(3*len(b.glass)))
}

// lawUnlessHidden is the glass law (fitGlass) for a level with no hidden unit, where
// glassColour looks; it reports false beside hidden units, fitting nothing.
func (f *frame) lawUnlessHidden(level *solver.Level, cols []column, rooms [][2]int) (glassLaw, bool) {
	if level.HasHidden() {
		return glassLaw{}, false
	}
	return f.fitGlass(cols, rooms)
}

// fitLaw fits the glass law to glass samples and the backgrounds behind them, pair by pair,
// by least squares (see fitGlass), and reports false where the samples stray from it by more
// than glassLawMiss.
func fitLaw(glass, behind [][3]float64) (glassLaw, bool) {
	law, ok := bestLaw(glass, behind)
	if !ok || law.miss(glassBand{glass: glass, behind: behind}) > glassLawMiss {
		return glassLaw{}, false
	}
	return law, true
}

// bestLaw is the law that fits the samples best, by least squares. It reports false where the
// backgrounds spread too little to tell an opacity (glassLawSpread), or where its opacity is
// no glass's (glassLawMinS..glassLawMaxS).
func bestLaw(glass, behind [][3]float64) (glassLaw, bool) {
	n := float64(len(glass))
	if n < 2 {
		return glassLaw{}, false
	}
	var mg, mb [3]float64
	for k := range glass {
		for ch := range 3 {
			mg[ch] += glass[k][ch] / n
			mb[ch] += behind[k][ch] / n
		}
	}
	var cov, vb float64
	for k := range glass {
		for ch := range 3 {
			cov += (behind[k][ch] - mb[ch]) * (glass[k][ch] - mg[ch])
			vb += (behind[k][ch] - mb[ch]) * (behind[k][ch] - mb[ch])
		}
	}
	if math.Sqrt(vb/n) < glassLawSpread {
		return glassLaw{}, false
	}
	law := glassLaw{s: cov / vb}
	if law.s < glassLawMinS || law.s > glassLawMaxS {
		return glassLaw{}, false
	}
	for ch := range 3 {
		law.u[ch] = mg[ch] - law.s*mb[ch]
	}
	return law, true
}

// inGamut reports whether the law keeps the glass in the sRGB range, within
// glassGamutSlack: over black a glass shows its tint at its opacity, and white it can only
// darken.
func (g glassLaw) inGamut() bool {
	for ch := range 3 {
		if g.u[ch] < -glassGamutSlack || g.s*255+g.u[ch] > 255+glassGamutSlack {
			return false
		}
	}
	return true
}

// Glass read as liquid up to the tubes' tops shows no room where the law could be fitted,
// and over a background that changes from tube to tube no one colour of it repeats
// (dropGlassTops): tinted glass over blobs read as one or two runs of a colour of its own on
// every tube's top, each unit then taken for two (91000357). Those runs are where the glass
// shows, if anywhere: the law that most of them follow is the glass's, and the runs that
// follow it are glass. Liquid follows no law of its background: a law two runs follow by
// chance, few others follow.
//
// A band agrees with a law where it strays from it by lawBandMiss or less (more than a
// fitted law's own miss: the background beside a tube is not quite what lies behind it),
// and a law is kept where minLawBands agree with it.
const (
	lawBandMiss = 15
	minLawBands = 3
)

// consensusLaw is the law most of bands follow: of the laws fitted to each two bands, the
// one the most bands agree with, fitted again to those. Only laws in the sRGB range count
// (inGamut: two liquids' runs can follow a law that no glass does). It reports the law and
// the bands that agree with it, false where fewer than minLawBands do.
func consensusLaw(bands []glassBand) (glassLaw, []glassBand, bool) {
	fit := func(bs ...glassBand) (glassLaw, bool) {
		all := joinBands(bs...)
		law, ok := bestLaw(all.glass, all.behind)
		return law, ok && law.inGamut()
	}
	strays := func(law glassLaw) func(glassBand) bool {
		return func(b glassBand) bool { return law.miss(b) > lawBandMiss }
	}
	agreeing := func(law glassLaw) []glassBand {
		return slices.DeleteFunc(slices.Clone(bands), strays(law))
	}
	var best glassLaw
	most := 0
	for i := range bands {
		for j := range i {
			if law, ok := fit(bands[i], bands[j]); ok {
				if n := len(bands) - countFunc(bands, strays(law)); n > most {
					best, most = law, n
				}
			}
		}
	}
	if most < minLawBands {
		return glassLaw{}, nil, false
	}
	law, ok := fit(agreeing(best)...)
	if !ok {
		return glassLaw{}, nil, false
	}
	in := agreeing(law)
	if len(in) < minLawBands {
		return glassLaw{}, nil, false
	}
	return law, in, true
}

// dropLawGlass takes out of the columns the glass consensusLaw finds in their top runs up to
// their top (column.reachesTop), over a layer below: the top runs that follow the law, and
// the runs under them while they do; a column all of one run that follows it is an empty
// tube. Only where the law's glass stands glassDE or more from the background beside the run
// (clear glass over a liquid near the background's colour tells nothing).
func (f *frame) dropLawGlass(cols []column, rooms [][2]int) {
	var tops []glassBand
	for i, c := range cols {
		if c.curtain || c.empty() || len(c.bounds) == 0 || !c.reachesTop() {
			continue
		}
		b := f.sampleBand(c, rooms[i], c.top, c.bounds[len(c.bounds)-1])
		b.col = i
		if len(b.glass) > 0 {
			tops = append(tops, b)
		}
	}
	law, in, ok := consensusLaw(tops)
	if !ok {
		return
	}
	glassy := func(i, y0, y1 int) bool {
		b := f.sampleBand(cols[i], rooms[i], y0, y1)
		bg, ok := f.beside(cols[i].box, rooms[i], y0, y1)
		return len(b.glass) > 0 && law.miss(b) <= lawBandMiss && ok && deltaE(law.over(bg), bg) >= glassDE
	}
	for i, c := range cols {
		if !c.curtain && !c.empty() && len(c.bounds) == 0 && c.reachesTop() && glassy(i, c.top, c.bottom) {
			cols[i] = column{box: c.box}
		}
	}
	for _, b := range in {
		c := &cols[b.col]
		for !c.empty() {
			y1 := c.bottom
			if n := len(c.bounds); n > 0 {
				y1 = c.bounds[n-1]
			}
			if !glassy(b.col, c.top, y1) {
				break
			}
			if len(c.bounds) == 0 {
				*c = column{box: c.box}
				break
			}
			c.dropTop()
		}
	}
}

// glassyTops are the columns whose top run, over a layer below it and up to the box's top
// (see column.reachesTop), looks like (glassDE) the glass the law tells over the background
// beside that run, where that glass stands glassDE or more from the background (clear glass
// over a liquid near the background's colour tells nothing).
func (f *frame) glassyTops(cols []column, rooms [][2]int, law glassLaw) []int {
	var out []int
	for i, c := range cols {
		n := len(c.bounds)
		if c.curtain || c.empty() || n == 0 || len(c.runs) == 0 || !c.reachesTop() {
			continue
		}
		top := c.runs[len(c.runs)-1]
		bg, ok := f.beside(c.box, rooms[i], c.top, c.bounds[n-1])
		if !ok {
			continue
		}
		if g := law.over(bg); deltaE(g, bg) >= glassDE && deltaE(top, g) < lawTopDE {
			out = append(out, i)
		}
	}
	return out
}

// lawTopDE is how near (CIEDE2000) a top run must come to the glass the law tells over the
// background beside it to look like that glass: more than glassDE, as a law fitted over a
// few backgrounds strays where it tells the glass over another (fitted over pink, a tinted
// glass over a dark blob came within 8.6 of it, 84000508).
const lawTopDE = 10

// glassColour is the tubes whose top run is in a colour every unit of which lies in such
// runs of the glassy tubes (glassyTops): the glass over them read as a colour of its own
// (one tube's glass, too little to make a tube's worth, or two tubes' glass making one
// whole, 84000508). A liquid may look like the glass by chance, a light grey like frosted
// glass: it shows lower in some tube too, or on top of a tube the glass does not explain.
// Not beside hidden units, which leave most colours a unit or two in view on the tubes'
// tops (a blue under blue-tinted glass, 20261326784381). Nil where no colour is so.
func glassColour(tubes [][]string, glassy []int) []int {
	if slices.ContainsFunc(tubes, func(t []string) bool { return slices.Contains(t, "?") }) {
		return nil
	}
	for _, i := range glassy {
		t := tubes[i]
		k := t[len(t)-1]
		if covered(t) {
			continue
		}
		var out []int
		n := 0
		for _, j := range glassy {
			if o := tubes[j]; o[len(o)-1] == k {
				out = append(out, j)
				n += topRun(o)
			}
		}
		if n == unitsOf(tubes, k) {
			return out
		}
	}
	return nil
}
