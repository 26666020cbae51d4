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
// slices of its height, each paired with the background beside it.
const (
	glassLawSpread = 12
	glassLawMiss   = 5
	glassLawMinS   = 0.15
	glassLawMaxS   = 1.05
	glassLawSlices = 6
)

// fitGlass fits the glass law to the bands where the columns show the glass: the room above
// a tube's liquid (glassRoom of its height or more, its rim left out) and an empty tube's
// inside. rooms are the free room beside each column (see beside). It reports false where the
// law cannot be told (see glassLawSpread).
func (f *frame) fitGlass(cols []column, rooms [][2]int) (glassLaw, bool) {
	var glass, behind [][3]float64
	for i, c := range cols {
		if c.curtain {
			continue
		}
		b := c.box
		var y0, y1 int
		switch {
		case c.empty():
			y0, y1 = insideBand(b)
		case float64(c.top-b.Min.Y) >= glassRoom*float64(b.Dy()):
			y0, y1 = c.roomBand()
		default:
			continue
		}
		step := max(2, (y1-y0)/glassLawSlices)
		for y := y0; y+step <= y1; y += step {
			g, ok1 := f.medianLab(centreStrip(b, y, y+step))
			bg, ok2 := f.beside(b, rooms[i], y, y+step)
			if ok1 && ok2 {
				glass, behind = append(glass, rgbOf(g)), append(behind, rgbOf(bg))
			}
		}
	}
	return fitLaw(glass, behind)
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
// by least squares (see fitGlass).
func fitLaw(glass, behind [][3]float64) (glassLaw, bool) {
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
	var miss float64
	for k := range glass {
		for ch := range 3 {
			d := glass[k][ch] - (law.s*behind[k][ch] + law.u[ch])
			miss += d * d
		}
	}
	if math.Sqrt(miss/(3*n)) > glassLawMiss {
		return glassLaw{}, false
	}
	return law, true
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
		if g := law.over(bg); deltaE(g, bg) >= glassDE && deltaE(top, g) < glassDE {
			out = append(out, i)
		}
	}
	return out
}

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
