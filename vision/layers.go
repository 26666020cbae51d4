package vision

import (
	"image"

	"github.com/decant/decant/solver"
	"math"
	"sort"
)

// Thresholds in CIEDE2000 units.
const (
	changeDE   = 7  // a colour change along a tube's centre line
	liquidDE   = 12 // liquid (or a hidden box) against what surrounds the tube
	meniscusDE = 20 // a thin band this close to the liquid below it belongs to it
)

// segment is a run of rows of one colour along a tube's centre line (work coordinates,
// y0 < y1, bottom is y1).
type segment struct {
	y0, y1 int
	color  lab
	liquid bool
	short  bool
}

func (s segment) len() int { return s.y1 - s.y0 }

// column is what a tube holds along its centre line.
type column struct {
	box    image.Rectangle
	bottom int   // the liquid's bottom edge (exclusive row), 0 when empty
	top    int   // the liquid's top edge
	bounds []int // colour changes between bottom and top, bottom first
}

func (c column) empty() bool { return c.bottom == 0 }

// medianLab is the per-channel median of the frame's pixels in r (clipped to the frame).
func (f *frame) medianLab(r image.Rectangle) (lab, bool) {
	r = r.Intersect(image.Rect(0, 0, f.w, f.h))
	if r.Empty() {
		return lab{}, false
	}
	n := r.Dx() * r.Dy()
	ls, as, bs := make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := f.at(x, y)
			ls, as, bs = append(ls, c.L), append(as, c.A), append(bs, c.B)
		}
	}
	return lab{median(ls), median(as), median(bs)}, true
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// profile returns, for each row of the tube's box, the median colour of its centre strip and
// of the background just outside the tube.
func (f *frame) profile(b image.Rectangle) (in, out []lab) {
	w := b.Dx()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		c, _ := f.medianLab(image.Rect(b.Min.X+w*3/10, y, b.Max.X-w*3/10, y+1))
		in = append(in, c)
		l, okL := f.medianLab(image.Rect(b.Min.X-w/5, y, b.Min.X-max(1, w/20), y+1))
		r, okR := f.medianLab(image.Rect(b.Max.X+max(1, w/20), y, b.Max.X+w/5, y+1))
		switch {
		case okL && okR:
			out = append(out, lab{(l.L + r.L) / 2, (l.A + r.A) / 2, (l.B + r.B) / 2})
		case okL:
			out = append(out, l)
		default:
			out = append(out, r)
		}
	}
	return smooth(in, 2), out
}

// smooth applies a running median of 2·r+1 rows per channel, removing the spikes of glyph
// strokes, highlights and JPEG noise.
func smooth(p []lab, r int) []lab {
	out := make([]lab, len(p))
	l, a, b := make([]float64, 0, 2*r+1), make([]float64, 0, 2*r+1), make([]float64, 0, 2*r+1)
	for i := range p {
		l, a, b = l[:0], a[:0], b[:0]
		for j := max(0, i-r); j <= min(len(p)-1, i+r); j++ {
			l, a, b = append(l, p[j].L), append(a, p[j].A), append(b, p[j].B)
		}
		out[i] = lab{median(l), median(a), median(b)}
	}
	return out
}

// segments splits the profile into runs of one colour, bottom to top. Runs shorter than minLen
// (outlines, rims, glyph strokes, meniscus highlights) are marked short; a short run close in
// colour to a long neighbour (a meniscus) is merged into it.
func segments(b image.Rectangle, in, out []lab, minLen int) []segment {
	var segs []segment
	n := len(in)
	start := n - 1
	sum := in[start]
	count := 1.0
	for i := n - 2; i >= 0; i-- {
		ref := lab{sum.L / count, sum.A / count, sum.B / count}
		if deltaE(in[i], ref) > changeDE && (i == 0 || deltaE(in[i-1], ref) > changeDE) {
			segs = append(segs, segment{y0: b.Min.Y + i + 1, y1: b.Min.Y + start + 1})
			start, sum, count = i, in[i], 1
			continue
		}
		sum.L, sum.A, sum.B = sum.L+in[i].L, sum.A+in[i].A, sum.B+in[i].B
		count++
	}
	segs = append(segs, segment{y0: b.Min.Y, y1: b.Min.Y + start + 1})
	colorOf := func(s segment) lab { return meanLab(in[s.y0-b.Min.Y : s.y1-b.Min.Y]) }
	for i := range segs {
		segs[i].color = colorOf(segs[i])
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(segs) && !merged; i++ {
			if segs[i].len() >= minLen {
				continue
			}
			best, bd := -1, float64(meniscusDE)
			for _, j := range []int{i - 1, i + 1} {
				if j >= 0 && j < len(segs) && segs[j].len() >= minLen {
					if d := deltaE(segs[j].color, segs[i].color); d < bd {
						best, bd = j, d
					}
				}
			}
			if best >= 0 {
				lo, hi := min(i, best), max(i, best)
				keep := segs[best].color
				segs[lo] = segment{y0: segs[hi].y0, y1: segs[lo].y1, color: keep}
				segs = append(segs[:hi], segs[hi+1:]...)
				merged = true
			}
		}
	}
	// Neighbours of one colour split by a gradient (a tube's shaded bottom) are one run.
	for i := len(segs) - 1; i > 0; i-- {
		if deltaE(segs[i].color, segs[i-1].color) < changeDE {
			segs[i-1] = segment{y0: segs[i].y0, y1: segs[i-1].y1}
			segs[i-1].color = colorOf(segs[i-1])
			segs = append(segs[:i], segs[i+1:]...)
		}
	}
	classify := func() {
		for i := range segs {
			s := &segs[i]
			o := meanLab(out[s.y0-b.Min.Y : s.y1-b.Min.Y])
			s.liquid = deltaE(s.color, o) > liquidDE
			s.short = s.len() < minLen
		}
	}
	classify()
	// A small hidden unit's glyph and JPEG's noisy chroma in the dark can break one unit into
	// short pieces: neighbouring short pieces that are dark, alike and stand out from the
	// background are one run.
	merged := false
	for i := len(segs) - 1; i > 0; i-- {
		a, c := segs[i], segs[i-1]
		if a.short && c.short && a.liquid && c.liquid && a.color.L < 40 && c.color.L < 40 && deltaE(a.color, c.color) < meniscusDE {
			segs[i-1] = segment{y0: a.y0, y1: c.y1}
			segs[i-1].color = colorOf(segs[i-1])
			segs = append(segs[:i], segs[i+1:]...)
			merged = true
		}
	}
	if merged {
		classify()
	}
	return segs
}

func meanLab(p []lab) lab {
	var m lab
	for _, c := range p {
		m.L, m.A, m.B = m.L+c.L, m.A+c.A, m.B+c.B
	}
	n := float64(len(p))
	return lab{m.L / n, m.A / n, m.B / n}
}

// readColumn finds the liquid in a tube. Liquid rests on the bottom and the empty part above
// it looks like what surrounds the tube, so the column runs from the lowest long run in the
// lower part of the box up to the highest long run that does not look like the surroundings:
// runs between them are liquid even when their colour is close to the background's. Short runs
// (glyph strokes, edges, a rim) do not end a column, and a run that starts at the very top of
// the box is a cork or lid, not liquid.
func (f *frame) readColumn(b image.Rectangle) column {
	in, out := f.profile(b)
	segs := segments(b, in, out, max(2, b.Dx()/4))
	col := column{box: b}
	lid := b.Min.Y + max(2, b.Dy()/50)
	first, last := -1, -1
	for i, s := range segs {
		if s.short {
			continue
		}
		if first < 0 {
			if s.y1 <= b.Min.Y+b.Dy()*65/100 {
				return col // nothing rests on the bottom
			}
			first = i
		}
		if s.liquid && s.y0 > lid {
			last = i
		}
	}
	if first < 0 || last < 0 {
		return col
	}
	col.bottom, col.top = segs[first].y1, segs[first].y0
	for _, s := range segs[first+1 : last+1] {
		if s.short {
			continue
		}
		col.bounds = append(col.bounds, (col.top+s.y1)/2)
		col.top = s.y0
	}
	return col
}

// unitHeight finds the height of one unit of liquid from the columns. Colour changes below
// the top unit are the reliable evidence (a top unit may carry a meniscus): the unit is the
// height that makes most gaps between them whole multiples, the largest such. Without colour
// changes it falls back to the smallest division of the tallest column that fits every top.
// It returns the unit height and the share of gaps that do not fit it.
func unitHeight(cols []column) (unit, misfit float64) {
	var gaps []float64
	for _, c := range cols {
		if c.empty() {
			continue
		}
		prev := c.bottom
		for _, y := range c.bounds {
			gaps = append(gaps, float64(prev-y))
			prev = y
		}
	}
	fits := func(g, u float64) bool {
		k := g / u
		return math.Round(k) >= 1 && math.Abs(k-math.Round(k)) <= 0.18
	}
	if len(gaps) > 0 {
		// Smaller units always fit more gaps (a third of a unit fits every gap a unit
		// fits): take the largest unit that fits nearly as many gaps as any.
		type cand struct {
			u float64
			n int
		}
		var cands []cand
		most := 0
		for _, g := range gaps {
			for k := 1.0; k <= 3; k++ {
				c := cand{u: g / k}
				for _, h := range gaps {
					if fits(h, c.u) {
						c.n++
					}
				}
				cands = append(cands, c)
				most = max(most, c.n)
			}
		}
		best, bestN := 0.0, 0
		for _, c := range cands {
			if float64(c.n) >= 0.8*float64(most) && c.u > best {
				best, bestN = c.u, c.n
			}
		}
		// Refine: total height over total units of the gaps that fit.
		var h, k float64
		for _, g := range gaps {
			if fits(g, best) {
				h, k = h+g, k+math.Round(g/best)
			}
		}
		return h / k, 1 - float64(bestN)/float64(len(gaps))
	}
	tallest := 0
	for _, c := range cols {
		if !c.empty() {
			tallest = max(tallest, c.bottom-c.top)
		}
	}
	for c := 1.0; c <= solver.MaxCapacity; c++ {
		u := float64(tallest) / c
		ok := true
		for _, col := range cols {
			if !col.empty() && !fits(float64(col.bottom-col.top), u) {
				ok = false
			}
		}
		if ok {
			return u, 0
		}
	}
	return float64(tallest), 1
}

// unitsIn is the number of units in a column of liquid: a top unit may look up to 80% taller
// (a meniscus drawn in perspective) or 20% shorter.
func unitsIn(c column, unit float64) int {
	if c.empty() {
		return 0
	}
	return max(1, int(math.Round(float64(c.bottom-c.top)/unit-0.3)))
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// unitPatch is the inset rectangle sampled for unit j (0 = bottom) of a column.
func unitPatch(c column, unit float64, j int) image.Rectangle {
	w := c.box.Dx()
	y1 := float64(c.bottom) - float64(j)*unit
	return image.Rect(c.box.Min.X+w/5, int(y1-0.8*unit), c.box.Max.X-w/5, int(y1-0.2*unit))
}

// unitSample is what one unit looks like.
type unitSample struct {
	color  lab
	hidden bool
}

// sampleUnit reads one unit's patch: its median colour, and whether it is a hidden unit (a
// dark neutral box with a light "?" glyph: some, but not most, pixels far lighter).
func (f *frame) sampleUnit(r image.Rectangle) unitSample {
	c, ok := f.medianLab(r)
	if !ok {
		return unitSample{}
	}
	// The glyph sits in the middle; highlights run down the tube's sides.
	w := r.Dx()
	r = image.Rect(r.Min.X+w/6, r.Min.Y, r.Max.X-w/6, r.Max.Y).Intersect(image.Rect(0, 0, f.w, f.h))
	light, n := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if f.at(x, y).L > c.L+30 {
				light++
			}
			n++
		}
	}
	share := float64(light) / float64(n)
	return unitSample{color: c, hidden: c.chroma() < 12 && c.L < 50 && share > 0.04 && share < 0.5}
}
