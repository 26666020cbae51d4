package vision

import (
	"cmp"
	"image"
	"slices"

	"github.com/decant/decant/solver"
	"math"
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
	box image.Rectangle
	// curtain marks a tube covered by a curtain; lantern is the colour the curtain shows.
	curtain bool
	lantern lab
	// frameOnly: the lantern is a frame round a pane like the cloth (see curtain).
	frameOnly bool
	bottom    int   // the liquid's bottom edge (exclusive row), 0 when empty
	top       int   // the liquid's top edge
	bounds    []int // colour changes between bottom and top, bottom first
	// glyphGaps are runs of hidden units whose glyphs were counted: each holds that many
	// units, a rhythm independent of the colour changes.
	glyphGaps []glyphRun
	// runs are the colours of the liquid's long runs, bottom first.
	runs []lab
	// pale is the long run right above the liquid's top when it looks like what surrounds the
	// tube yet ends below the box's top, under a colour change: a liquid near the
	// background's colour, or the glass. Its y1 is 0 when there is none.
	pale segment
	// paleAbove is the colour of the long run right above pale (the glass, when pale is
	// liquid).
	paleAbove lab
	// lid is the long run right above the liquid when it starts at the box's top, taken for
	// a cork or a lid (see raiseLids), or the one run of a column read empty that reaches
	// from the box's top to its bottom; its y1 is 0 when there is none.
	lid segment
	// noCork is set (by raiseLids) where lid starts no higher than another column's liquid
	// in the row: a cork stands above every liquid, so lid is the top layer of a tube whose
	// box was cut at it, or something else over the liquid, never a cork.
	noCork bool
	// foot is the top of the long run the liquid rests on when that run looks like what
	// surrounds the tube (a label or a holder under the tube, joined to its outline, or a
	// liquid near the background's colour at the bottom); 0 when there is none.
	foot int
}

// glyphRun is a run of hidden units: its height, the number of glyphs drawn on it, and its
// colour.
type glyphRun struct {
	height float64
	n      int
	color  lab
	// marks: counted by its colours' rhythm (toneRhythm), not by a dark box's glyphs, and
	// those colours fall into two tones as a mark's do (see twoToned), not one tone parted by
	// thin lines.
	marks bool
}

func (c column) empty() bool { return c.bottom == 0 }

// lidOverLiquid reports whether a run at the box's top, taken for a cork or a lid, stands
// over the column's liquid.
func (c column) lidOverLiquid() bool { return !c.empty() && c.lid.y1 > 0 }

// reachesTop reports whether the column's liquid reaches within glassReach of its box's
// height of the box's top, as glass read as liquid does (a liquid's top layer, with the
// empty glass above it, stops short of it).
func (c column) reachesTop() bool {
	return float64(c.top-c.box.Min.Y) <= glassReach*float64(c.box.Dy())
}

// medianLab is the per-channel median of the frame's pixels in r (clipped to the frame).
func (f *frame) medianLab(r image.Rectangle) (lab, bool) {
	r = f.clip(r)
	if r.Empty() {
		return lab{}, false
	}
	// The frame's scratch buffers: this runs for every row of every tube.
	ls, as, bs := f.scratch[0][:0], f.scratch[1][:0], f.scratch[2][:0]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := f.lab[3*(y*f.w+r.Min.X) : 3*(y*f.w+r.Max.X)] // r is inside the frame
		for i := 0; i < len(row); i += 3 {
			ls, as, bs = append(ls, float64(row[i])), append(as, float64(row[i+1])), append(bs, float64(row[i+2]))
		}
	}
	f.scratch = [3][]float64{ls, as, bs}
	return lab{L: median(ls), A: median(as), B: median(bs)}, true
}

// median is v's middle value, the upper one of an even count: what sorting v would leave at
// len(v)/2, found by selection (Hoare's partition, as in Wirth's algorithm), which reorders v
// without sorting it. Reads spend much of their time in medians of pixels.
func median(v []float64) float64 {
	k := len(v) / 2
	lo, hi := 0, len(v)-1
	for lo < hi {
		// The pivot is the median of the first, middle and last values, which the loop
		// below also uses as sentinels.
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		p := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i, j = i+1, j-1
			}
		}
		// v[lo..j] ≤ p ≤ v[i..hi], and the values between are p.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// medianOf is the per-channel median of colours (cs not empty).
func medianOf(cs []lab) lab {
	ls, as, bs := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	for i, c := range cs {
		ls[i], as[i], bs[i] = c.L, c.A, c.B
	}
	return lab{L: median(ls), A: median(as), B: median(bs)}
}

// centreStrip is the middle of box b's width between rows y0 and y1: the tube's centre line,
// clear of its walls and the highlights along them.
func centreStrip(b image.Rectangle, y0, y1 int) image.Rectangle {
	w := b.Dx()
	return image.Rect(b.Min.X+w*3/10, y0, b.Max.X-w*3/10, y1)
}

// profile returns, for each row of the tube's box, the median colour of its centre strip and
// of the background just outside the tube.
//
// The background strips stay within the free room on each side of the box, so that they never
// reach a neighbouring tube; a side without room is not sampled.
func (f *frame) profile(b image.Rectangle, room [2]int) (in, out []lab) {
	w := b.Dx()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		c, _ := f.medianLab(centreStrip(b, y, y+1))
		in = append(in, c)
		o, ok := f.beside(b, room, y, y+1)
		if !ok { // boxed in on both sides: the background just above the tube
			o, _ = f.medianLab(image.Rect(b.Min.X, b.Min.Y-max(2, w/4), b.Max.X, b.Min.Y-1))
		}
		out = append(out, o)
	}
	return smooth(in, 2), out
}

// beside is the background just outside the tube's box b, in rows y0..y1: the median of
// strips on each side within the free room there, averaged over the sides that have room.
func (f *frame) beside(b image.Rectangle, room [2]int, y0, y1 int) (lab, bool) {
	w := b.Dx()
	near := max(1, w/20)
	farL, farR := min(w/5, room[0]-1), min(w/5, room[1]-1)
	l, okL := f.medianLab(image.Rect(b.Min.X-farL, y0, b.Min.X-near, y1))
	r, okR := f.medianLab(image.Rect(b.Max.X+near, y0, b.Max.X+farR, y1))
	okL, okR = okL && farL > near, okR && farR > near
	switch {
	case okL && okR:
		return lab{L: (l.L + r.L) / 2, A: (l.A + r.A) / 2, B: (l.B + r.B) / 2}, true
	case okL:
		return l, true
	case okR:
		return r, true
	}
	return lab{}, false
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
		out[i] = lab{L: median(l), A: median(a), B: median(b)}
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
		ref := lab{L: sum.L / count, A: sum.A / count, B: sum.B / count}
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
	// join makes run i part of the run below it, i-1.
	join := func(i int) {
		segs[i-1] = segment{y0: segs[i].y0, y1: segs[i-1].y1}
		segs[i-1].color = colorOf(segs[i-1])
		segs = append(segs[:i], segs[i+1:]...)
	}
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
			join(i)
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
			join(i)
			merged = true
		}
	}
	// A glare stripe that ends inside a unit splits it in two, its glared part above and
	// lighter: two short pieces side by side, each too short for a unit, that together make
	// one, each a third of a run's least length or more (a hatch line is a pixel), of one hue,
	// the upper one lighter, and unlike the long runs beside them (a shaded foot under tinted
	// glass is the glass's), are one run.
	unlikeLong := func(j, step int, c lab) bool { // the nearest long run from j on, by step
		for ; j >= 0 && j < len(segs); j += step {
			if !segs[j].short {
				return deltaE(segs[j].color, c) >= meniscusDE
			}
		}
		return true
	}
	for i := len(segs) - 1; i > 0; i-- {
		a, c := segs[i], segs[i-1]
		if !a.short || !c.short || !a.liquid || !c.liquid || a.color.L <= c.color.L || a.len()+c.len() < minLen || 3*min(a.len(), c.len()) < minLen || deltaE(a.color, c.color) >= meniscusDE || !sameHue(a.color, c.color) {
			continue
		}
		if both := colorOf(segment{y0: a.y0, y1: c.y1}); unlikeLong(i+1, 1, both) && unlikeLong(i-2, -1, both) {
			join(i)
			merged = true
		}
	}
	if merged {
		classify()
	}
	return segs
}

// sameHue reports whether two colours are chromatic (hueChroma or more) and of one hue, within
// hueSlack degrees: a colour and its mix with white.
func sameHue(a, c lab) bool {
	if a.Chroma() < hueChroma || c.Chroma() < hueChroma {
		return false
	}
	d := math.Abs(math.Atan2(a.B, a.A)-math.Atan2(c.B, c.A)) * 180 / math.Pi
	return min(d, 360-d) <= hueSlack
}

const (
	hueChroma = 10 // chroma below which a colour's hue is too unsteady to compare
	hueSlack  = 12 // degrees between two hues taken for one
)

func meanLab(p []lab) lab {
	var m lab
	for _, c := range p {
		m.L, m.A, m.B = m.L+c.L, m.A+c.A, m.B+c.B
	}
	n := float64(len(p))
	return lab{L: m.L / n, A: m.A / n, B: m.B / n}
}

// readColumn finds the liquid in a tube. Liquid rests on the bottom and the empty part above
// it looks like what surrounds the tube, so the column runs from the lowest long run in the
// lower part of the box up to the highest long run that does not look like the surroundings:
// runs between them are liquid even when their colour is close to the background's. Short runs
// (glyph strokes, edges, a rim) do not end a column, and a run that starts at the very top of
// the box is a cork or lid, not liquid.
func (f *frame) readColumn(b image.Rectangle, room [2]int) column {
	in, out := f.profile(b, room)
	segs := segments(b, in, out, max(2, b.Dx()/4))
	col := column{box: b}
	lid := b.Min.Y + lidMargin(b)
	first, last := -1, -1
	for i, s := range segs {
		if s.short {
			continue
		}
		if first < 0 {
			if float64(s.y1) <= float64(b.Min.Y)+restingDepth*float64(b.Dy()) {
				return col // nothing rests on the bottom
			}
			first = i
		}
		if s.liquid && s.y0 > lid {
			last = i
		}
	}
	if first < 0 {
		return col
	}
	if last < 0 {
		// Nothing liquid: the run on the bottom may still be a liquid near the background's
		// colour, when a colour change ends it.
		if s := segs[first]; s.y0 > lid && first+1 < len(segs) {
			col.pale, col.paleAbove = s, runAbove(segs, first)
		} else if s.y0 <= lid && s.liquid {
			col.lid = s // one run from the box's top to its bottom
		}
		return col
	}
	col.bottom, col.top = segs[first].y1, segs[first].y0
	col.runs = append(col.runs, segs[first].color)
	for _, s := range segs[first+1 : last+1] {
		if s.short {
			continue
		}
		col.bounds = append(col.bounds, (col.top+s.y1)/2)
		col.top = s.y0
		col.runs = append(col.runs, s.color)
	}
	// A run the liquid rests on that looks like the surroundings may be a label or a holder
	// under the tube, unless it looks like one of the tube's own runs too (a hidden unit over
	// a dark patch of the background, as dark as its box).
	if s := segs[first]; !s.liquid && first < last && !slices.ContainsFunc(col.runs[1:], func(c lab) bool { return deltaE(c, s.color) < meniscusDE }) {
		col.foot = s.y0
	}
	if j := nextLong(segs, last); j >= 0 {
		if s := segs[j]; s.y0 > lid && j+1 < len(segs) {
			col.pale, col.paleAbove = s, runAbove(segs, j)
		} else if s.y0 <= lid && s.liquid {
			col.lid = s
		}
	}
	// A glare stripe covering most of the centre strip lightens the rows it reaches: where it
	// ends inside a run, the run parts in two at its foot (a hatched stack of hidden units,
	// 20261341784202). Where the change between two runs lies in one band of columns, the
	// tube's width beside it alike on both sides (stripeFoot), they are one run, in the colour
	// of the longer part.
	for k := len(col.bounds) - 1; k >= 0; k-- {
		lo, _ := col.span(k, k)
		_, hi := col.span(k+1, k+1)
		if f.stripeFoot(b, hi, col.bounds[k], lo) {
			if col.bounds[k]-hi > lo-col.bounds[k] {
				col.runs[k] = col.runs[k+1]
			}
			col.join(k, k+1)
		}
	}
	// A glyph's widest stroke can turn a row of a run of hidden units light (a row's colour is
	// its median), parting the run in two of one colour: where the two together show the
	// glyphs' rhythm, they are one run.
	for k := len(col.bounds) - 1; k >= 0; k-- {
		if lo, hi := col.span(k, k+1); deltaE(col.runs[k], col.runs[k+1]) < meniscusDE && f.glyphs(b, hi, lo) >= 2 {
			col.join(k, k+1)
		}
	}
	// Where the glyphs' strokes part a run in three or more, the pairs may show no rhythm
	// where the whole run does (20261321784377).
	for i := 0; i < len(col.runs); i++ {
		j := i
		for j+1 < len(col.runs) && deltaE(col.runs[j], col.runs[j+1]) < meniscusDE {
			j++
		}
		if j-i < 2 {
			continue
		}
		if lo, hi := col.span(i, j); f.glyphs(b, hi, lo) >= 2 {
			col.join(i, j)
		}
	}
	prev := col.bottom
	for k, y := range append(slices.Clone(col.bounds), col.top) {
		if n := f.glyphs(b, y, prev); n >= 2 {
			col.glyphGaps = append(col.glyphGaps, glyphRun{float64(prev - y), n, col.runs[k], false})
		}
		prev = y
	}
	// Hidden units drawn as a mark of two tones (a light disc round a glyph on a darker box)
	// break a run of them into short runs at odd places, and glyphs counts none on it (its
	// median is no dark box's); but its colour down the centre line repeats once per unit.
	// The longest run from the liquid's bottom to a colour change that repeats so, over
	// minRhythmUnits units or more, is one run, counted by its rhythm: the changes inside it
	// are the marks', no layers'.
	if len(col.glyphGaps) == 0 {
		for k := len(col.bounds) - 1; k >= 1; k-- {
			y := col.bounds[k]
			span := in[y-b.Min.Y : col.bottom-b.Min.Y]
			if n := toneRhythm(span); n >= minRhythmUnits {
				c := meanLab(span)
				col.glyphGaps = append(col.glyphGaps, glyphRun{float64(col.bottom - y), n, c, twoToned(span)})
				col.bounds = slices.Clone(col.bounds[k:])
				col.runs = append([]lab{c}, col.runs[k+1:]...)
				break
			}
		}
	}
	return col
}

// stripeFoot reports whether the change at row mid between the run above it (from row hi)
// and the run below it (down to row lo) is a glare stripe's foot: across the box's middle
// three fifths, the columns whose colour changes there (changeDE, the rows within footRows
// of mid on each side averaged, clear of a round foot's corners) make one band, at most
// stripeShare of the width and lighter above, while the rest of the width, stripeRest of it
// or more, keeps its colour (within changeDE), the band the same over the rows further up.
// A layer's edge changes every column.
func (f *frame) stripeFoot(b image.Rectangle, hi, mid, lo int) bool {
	// The rows beside mid, clear of the run's far ends and of a round foot's corners.
	up0, up1 := max(hi+1, mid-1-footRows), mid-1
	down0, down1 := mid+1, min(lo-max(2, b.Dx()/10), mid+1+footRows)
	inset := b.Dx() / 5
	x0, x1 := b.Min.X+inset, b.Max.X-inset
	if up1-up0 < 6 || down1-down0 < 3 || x1-x0 < 8 {
		return false
	}
	// sum is a column's colour summed over rows y0..y1.
	sum := func(x, y0, y1 int) lab {
		var m lab
		for y := y0; y < y1; y++ {
			c := f.at(x, y)
			m.L, m.A, m.B = m.L+c.L, m.A+c.A, m.B+c.B
		}
		return m
	}
	scaled := func(m lab, k int) lab { return lab{L: m.L / float64(k), A: m.A / float64(k), B: m.B / float64(k)} }
	// Each column's colour below mid, and summed over the two halves of the rows above it.
	half := (up0 + up1) / 2
	downs, far, near := make([]lab, x1-x0), make([]lab, x1-x0), make([]lab, x1-x0)
	for x := x0; x < x1; x++ {
		downs[x-x0] = scaled(sum(x, down0, down1), down1-down0)
		far[x-x0], near[x-x0] = sum(x, up0, half), sum(x, half, up1)
	}
	// band is the columns whose colour above mid (above: a column's, by its index) differs
	// from the rows below it, when they make one band lighter above, the rest of the width
	// keeping its colour.
	band := func(above func(i int) lab) (first, last int, ok bool) {
		first, last = -1, -1
		var restUp, restDown lab
		rest := 0
		for x := x0; x < x1; x++ {
			up, down := above(x-x0), downs[x-x0]
			if deltaE(up, down) < changeDE {
				restUp.L, restUp.A, restUp.B = restUp.L+up.L, restUp.A+up.A, restUp.B+up.B
				restDown.L, restDown.A, restDown.B = restDown.L+down.L, restDown.A+down.A, restDown.B+down.B
				rest++
				continue
			}
			if up.L <= down.L || last >= 0 && last < x-1 {
				return 0, 0, false // darker above, or a second band
			}
			if first < 0 {
				first = x
			}
			last = x
		}
		if first < 0 || float64(last-first+1) > stripeShare*float64(x1-x0) || float64(rest) < stripeRest*float64(x1-x0) {
			return 0, 0, false
		}
		return first, last, deltaE(scaled(restUp, rest), scaled(restDown, rest)) < changeDE
	}
	first, last, ok := band(func(i int) lab {
		return scaled(lab{L: far[i].L + near[i].L, A: far[i].A + near[i].A, B: far[i].B + near[i].B}, up1-up0)
	})
	if !ok {
		return false
	}
	// A stripe is straight: the rows further up show the same band as those next to mid,
	// where a disc's edge (a hidden unit's mark, 95000363) narrows towards it.
	f0, l0, ok0 := band(func(i int) lab { return scaled(far[i], half-up0) })
	f1, l1, ok1 := band(func(i int) lab { return scaled(near[i], up1-half) })
	tol := max(1, b.Dx()/20)
	return ok0 && ok1 && abs(f0-first) <= tol && abs(l0-last) <= tol && abs(f1-first) <= tol && abs(l1-last) <= tol
}

// footRows, stripeShare and stripeRest: see stripeFoot.
const (
	footRows    = 24
	stripeShare = 0.45
	stripeRest  = 0.5
)

// span is the rows runs i to j of the column's liquid (bottom first) cover: from lo, the
// bottom of run i, up to hi, the top of run j.
func (c column) span(i, j int) (lo, hi int) {
	lo, hi = c.bottom, c.top
	if i > 0 {
		lo = c.bounds[i-1]
	}
	if j < len(c.bounds) {
		hi = c.bounds[j]
	}
	return lo, hi
}

// join makes runs i to j of the column one run, in run i's colour.
func (c *column) join(i, j int) {
	c.bounds = slices.Delete(c.bounds, i, j)
	c.runs = slices.Delete(c.runs, i+1, j+1)
}

// toneRhythm is the number of times the colours p (a run down a tube's centre line) repeat:
// the run divides into that many periods give or take glyphFit of one, and shifted by one
// period the colours differ by at most rhythmRepeat of what two unrelated rows of the run
// differ by (the mean squared difference against twice the variance), after a shorter shift
// made them differ as much as unrelated rows (rhythmApart of it or more: a run repeats only
// once it has changed, and any run barely changes over a shift of a few rows); the run's
// colours must spread by rhythmMinSpread (CIELAB, standard deviation) or more. The shortest
// such period counts; 0 when there is none.
func toneRhythm(p []lab) int {
	h := len(p)
	if h < 8 {
		return 0
	}
	m := meanLab(p)
	v := 0.0
	for _, c := range p {
		v += labDist2(c, m)
	}
	v /= float64(h)
	if v < rhythmMinSpread*rhythmMinSpread {
		return 0
	}
	apart := false
	for per := 1; per <= h/2; per++ {
		d := 0.0
		for i := 0; i+per < h; i++ {
			d += labDist2(p[i], p[i+per])
		}
		d /= float64(h-per) * 2 * v
		k := float64(h) / float64(per)
		if apart && per >= h/solver.MaxCapacity && math.Abs(k-math.Round(k)) <= glyphFit && d <= rhythmRepeat {
			return int(math.Round(k))
		}
		apart = apart || d >= rhythmApart
	}
	return 0
}

// twoToned reports whether the colours p (rows down a run) fall into two tones markDist or
// more apart, the fewer rowMarkShare of them or more, split by twoMeans from below and above
// the middle of their lightness' range: down a run of discs the gaps between them and their
// glyphs make a tenth of the rows or more, while a separator between units of one colour is
// a line.
func twoToned(p []lab) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range p {
		lo, hi = min(lo, c.L), max(hi, c.L)
	}
	mid := (lo + hi) / 2
	a, b, share, ok := twoMeans(slices.Values(p), func(c lab) bool { return c.L <= mid })
	return ok && labDist(a, b) >= markDist && min(share, 1-share) >= rowMarkShare
}

const rowMarkShare = 0.1

// A run counted by its rhythm holds minRhythmUnits units or more: two colours of liquid
// alternating (red, blue, red, blue) repeat every two units too, but over four units they
// make only two periods. rhythmRepeat, rhythmApart and rhythmMinSpread are toneRhythm's;
// the spread keeps a run of one colour, its rows differing by noise alone, from passing for
// a rhythm.
const (
	minRhythmUnits  = 3
	rhythmRepeat    = 0.2
	rhythmApart     = 1
	rhythmMinSpread = 8
)

// lidMargin is how far below its box's top a run may start and still be taken for a cork or
// a lid.
func lidMargin(b image.Rectangle) int { return max(2, b.Dy()/50) }

// nextLong is the index of the first long run above segs[i], -1 when all above are short.
func nextLong(segs []segment, i int) int {
	if j := slices.IndexFunc(segs[i+1:], func(s segment) bool { return !s.short }); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// runAbove is the colour of the first long run above segs[i] (of the next run when all above
// are short).
func runAbove(segs []segment, i int) lab {
	if j := nextLong(segs, i); j >= 0 {
		return segs[j].color
	}
	return segs[i+1].color
}

// Hidden units are dark neutral boxes with a light glyph ("?") on each.
const (
	hiddenMaxChroma = 12   // a hidden box is nearly grey
	hiddenMaxL      = 50   // and dark
	glyphLift       = 30   // a glyph's strokes are this much lighter (CIE L) than the box
	minGlyphShare   = 0.04 // and cover more than this share of a unit's patch
	maxGlyphShare   = 0.5  // but less than this (a light unit is liquid, not a glyph)
	stripeRows      = 0.9  // light pixels in this share of a column's rows are a glare stripe
)

// glyphs counts the hidden units in a dark neutral run of a tube (rows y0..y1) from the
// rhythm of their glyphs: each hidden unit carries the same glyph, so the share of light pixels
// per row of the centre strip repeats once per unit. The period is the shortest shift at which
// that profile matches itself closely and divides the run into whole units. It returns 0 for a
// run that is not dark and neutral or shows no such rhythm.
func (f *frame) glyphs(b image.Rectangle, y0, y1 int) int {
	strip, run, ok := f.glyphStrip(b, y0, y1)
	if !ok {
		return 0
	}
	for _, ink := range inks(run, func() float64 { return f.extremeL(strip, true) }) {
		if n := f.glyphRhythm(strip, ink); n > 0 {
			return n
		}
	}
	return 0
}

// blurredGlyphs is glyphs' count for a dark glyph blurred on a mid-grey run of a tube (rows
// y0..y1; see blurredDarkInk), or 0.
func (f *frame) blurredGlyphs(b image.Rectangle, y0, y1 int) int {
	strip, run, ok := f.glyphStrip(b, y0, y1)
	if !ok {
		return 0
	}
	if ink := blurredDarkInk(run, func() float64 { return f.extremeL(strip, false) }); ink != nil {
		return f.glyphRhythm(strip, ink)
	}
	return 0
}

// glyphStrip is the centre strip of box b between rows y0 and y1 where glyphs are looked
// for, and its median colour; false where it is too short (minGlyphRows) or empty.
func (f *frame) glyphStrip(b image.Rectangle, y0, y1 int) (image.Rectangle, lab, bool) {
	strip := f.clip(centreStrip(b, y0, y1))
	run, ok := f.medianLab(strip)
	return strip, run, ok && strip.Dy() >= minGlyphRows
}

// blurredDarkInk is the test for a dark glyph's pixels on a mid-grey run of colour c whose
// darkest pixel (trough, asked only of such a run) falls minGlyphDepth or more below it but
// not glyphLift, or nil. A dark glyph's strokes, a pixel or two wide on a small screen,
// blur part of the way to the box's grey: a box of L 52 under strokes whose darkest pixel is
// L 31 (20261348783991, a "?" of L 17 drawn 5 pixels tall), where no pixel stands out by
// glyphLift. The ink then stands out by greyGlyphRoom of that depth. It only checks hidden
// units the rules alone tell (see blurredMiscount), never tells them: a grey liquid's
// shading or a meniscus line drawn on each unit falls as deep, its share of a patch passing
// for a glyph's, its rhythm repeating once per unit as glyphs do (grey units read hidden by
// it, 91000510, 20261293783960).
func blurredDarkInk(c lab, trough func() float64) func(lab) bool {
	if c.Chroma() >= hiddenMaxChroma || c.L < hiddenMaxL || c.L >= greyBoxMaxL {
		return nil
	}
	depth := c.L - trough()
	if depth < minGlyphDepth || depth >= glyphLift {
		return nil
	}
	drop := greyGlyphRoom * depth
	return func(p lab) bool { return p.L < c.L-drop }
}

// minGlyphDepth is the least depth, in CIE L, of a blurred dark glyph's darkest pixels under
// its grey box (see blurredDarkInk).
const minGlyphDepth = 15

// minGlyphRows is the fewest rows in which glyphs look for a rhythm.
const minGlyphRows = 8

// glyphRhythm is glyphs' count for one ink in strip, or 0.
func (f *frame) glyphRhythm(strip image.Rectangle, ink func(lab) bool) int {
	prof := f.inkProfile(strip, ink)
	// A round tube's box ends below its glass: the bottom wall crosses the strip in the run's
	// last rows, a band mostly of ink (no glyph's stroke is so wide), and the rows under it
	// are no unit's. The run ends above it.
	for i := len(prof) - 1; i >= len(prof)-len(prof)/wallRows; i-- {
		if prof[i] >= wallShare {
			for i > 0 && prof[i-1] >= wallShare {
				i--
			}
			prof = prof[:i]
			break
		}
	}
	if n := rhythm(prof); n > 0 {
		return n
	}
	// Each glyph stands in the middle of its unit: blank rows past the last glyph beyond as
	// many as precede the first are no unit's either (a round foot's glass, filled with the
	// box's colour below the last box; a thick dark outline under flat ones). Tried where the
	// whole run shows no rhythm (a run cut at its top has fewer blank rows over its first
	// glyph than its units hold), and taken only where it counts as many units as the run
	// shows glyphs and the rows left out are under half a unit (a foot; hatching repeats in
	// bands a unit's fraction apart). A band of edgeRows or fewer inked rows at the run's
	// top, blank under it, is the edge of the layer above (a meniscus' light rim), no glyph.
	first := slices.IndexFunc(prof, func(v float64) bool { return v > 0 })
	if first == 0 {
		edge := slices.IndexFunc(prof, func(v float64) bool { return v == 0 })
		if edge > 0 && edge <= edgeRows {
			first = slices.IndexFunc(prof[edge:], func(v float64) bool { return v > 0 })
			if first >= 0 {
				first += edge
			}
		}
	}
	if first >= 0 {
		last := len(prof) - 1
		for prof[last] == 0 {
			last--
		}
		if end := last + 1 + first; end < len(prof) {
			if n := rhythm(prof[:end]); n > 0 && n == inkBands(prof[first:]) && 2*(len(prof)-end)*n < end {
				return n
			}
		}
	}
	return 0
}

// edgeRows is the most rows of ink at a run's top that glyphRhythm takes for the edge of
// the layer above.
const edgeRows = 2

// inkProfile is the share of strip's pixels per row that ink marks, leaving out a glare
// stripe's columns (and stripeMargin beside them): light in stripeRows or more of the rows
// it spans, from its first to its last, and spanning half the strip's rows or more (rows a
// line crosses whole, in stripeRows of the columns, left out of both). A glyph's
// strokes break from one glyph to the next; a stripe down the glass runs on, though not
// always to the run's bottom (a dark outline under the boxes covers it). Where the stripes
// would leave fewer than half the columns, every column counts.
func (f *frame) inkProfile(strip image.Rectangle, ink func(lab) bool) []float64 {
	w, h := strip.Dx(), strip.Dy()
	inked := make([]bool, w*h)
	for y := range h {
		for x := range w {
			inked[y*w+x] = ink(f.at(strip.Min.X+x, strip.Min.Y+y))
		}
	}
	line := make([]bool, h) // rows a line crosses whole (a wall, a box's edge)
	for y := range h {
		line[y] = float64(countFunc(inked[y*w:(y+1)*w], func(i bool) bool { return i })) >= stripeRows*float64(w)
	}
	out := make([]bool, w)
	for x := range w {
		first, last, k := -1, -1, 0
		for y := range h {
			if inked[y*w+x] && !line[y] {
				if first < 0 {
					first = y
				}
				last, k = y, k+1
			}
		}
		if span := last - first + 1; first >= 0 && 2*span >= h && float64(k) >= stripeRows*float64(span) {
			leaveStripeOut(out, x)
		}
	}
	kept := countFunc(out, func(o bool) bool { return !o })
	if 2*kept < w {
		clear(out)
		kept = w
	}
	prof := make([]float64, h)
	for y := range h {
		n := 0
		for x := range w {
			if !out[x] && inked[y*w+x] {
				n++
			}
		}
		prof[y] = float64(n) / float64(kept)
	}
	return prof
}

// inkBands is the number of glyphs a run's profile shows: its runs of inked rows, those
// parted by fewer blank rows than half the widest blank between two runs joined (a "?"'s
// dot stands apart from its hook by a few rows).
func inkBands(prof []float64) int {
	var gaps []int // blank rows between runs of inked rows
	runs, blank := 0, -1
	for _, v := range prof {
		switch {
		case v > 0 && blank != 0:
			if blank > 0 && runs > 0 {
				gaps = append(gaps, blank)
			}
			runs, blank = runs+1, 0
		case v == 0 && blank >= 0:
			blank++
		}
	}
	if len(gaps) == 0 {
		return runs
	}
	widest := slices.Max(gaps)
	return 1 + countFunc(gaps, func(g int) bool { return 2*g >= widest })
}

// beatFit is how near, as a share of a beat, a period must come to a whole multiple of it to
// be taken for one (see rhythm).
const beatFit = 0.1

// rhythm is the number of units in a run whose glyph profile (the share of ink per row)
// repeats once per unit, or 0 (see glyphs).
func rhythm(prof []float64) int {
	if len(prof) < minGlyphRows {
		return 0
	}
	mean := 0.0
	for _, v := range prof {
		mean += v
	}
	mean /= float64(len(prof))
	h := len(prof)
	corr := func(p int) float64 {
		var sxy, sxx, syy float64
		for i := 0; i+p < h; i++ {
			a, c := prof[i]-mean, prof[i+p]-mean
			sxy, sxx, syy = sxy+a*c, sxx+a*a, syy+c*c
		}
		if sxx == 0 || syy == 0 {
			return 0
		}
		return sxy / math.Sqrt(sxx*syy)
	}
	// A run of two units may measure a little short of two periods (its box cut by a layer's
	// edge or a tube's foot): periods up to a run of 2-glyphFit of them are tried, where
	// the profile does not repeat at half the period too (four glyphs in the run, their
	// rhythm a little blurred: 20261293783711) and the period is minGlyphRows or more (a
	// few rows at a tube's foot repeat at any short shift: 86000435, a curtain's cloth).
	halfRepeats := func(p int) bool { return max(corr(p/2), corr((p+1)/2)) >= glyphMatch/2 }
	// A run whose profile repeats at a period that does not divide it into whole units (a
	// foot's rows below the last glyph, 85000288) repeats at that period's multiples too:
	// those count no units of their own.
	beat := 0
	for p := max(3, h/solver.MaxCapacity); float64(h) >= (2-glyphFit)*float64(p); p++ {
		k := float64(h) / float64(p)
		if math.Abs(k-math.Round(k)) > glyphFit {
			if beat == 0 && p >= minGlyphRows && corr(p) >= glyphMatch {
				beat = p
			}
			continue
		}
		if m := float64(p) / float64(max(beat, 1)); beat > 0 && math.Round(m) >= 2 && math.Abs(m-math.Round(m)) <= beatFit {
			return 0
		}
		if corr(p) >= glyphMatch && (2*p <= h || p >= minGlyphRows && !halfRepeats(p)) {
			return int(math.Round(k))
		}
	}
	return 0
}

// A band of rows with wallShare of ink or more within the last 1/wallRows of a run is a tube's
// bottom wall, not a glyph.
const (
	wallShare = 0.55
	wallRows  = 10
)

// A run's glyph profile repeats when shifted by one unit with a correlation of glyphMatch or
// more, and the run holds a whole number of units give or take glyphFit of one.
const (
	glyphMatch = 0.7
	glyphFit   = 0.2
)

// unitHeight finds the height of one unit of liquid from the columns. Three kinds of evidence
// vote: the gaps between colour changes below the top unit (whole multiples of the unit, but
// a hidden unit's glyph can split them at odd places), and the columns' heights (whole
// multiples too, but a top unit may carry a meniscus up to half a unit tall), and the top run
// above the last colour change (its own colour, so at least one unit: with a meniscus
// taller, never shorter than shortTopRun of a unit). Every fraction of a gap or a height is a
// candidate; a height counts twice; top runs vote when minTopRuns columns show one. (Without
// the top runs, a mystery board's tubes, one unit on a hidden run of four, fit a unit of the
// whole run as well as the true one: the top unit passed for the run's meniscus.) Smaller
// units always fit more (a third of a unit fits whatever a unit fits), so the answer is the
// largest candidate that scores nearly as well as the best. It returns the unit and the share of evidence it misfits.
func unitHeight(cols []column) (unit, misfit float64) {
	fits := unitHeights(cols)
	return fits[0].unit, fits[0].misfit
}

// unitFit is a unit height and the share of the evidence it misfits.
type unitFit struct{ unit, misfit float64 }

// unitHeights is unitHeight's unit first, then up to maxAltUnits other units the evidence
// supports nearly as well (altScore of the best score or more), best supported first, each
// apart from the others by altUnitGap of its height or more: where the first breaks the
// rules, one of them may keep them (the readings of each are checked alike).
func unitHeights(cols []column) []unitFit {
	var unit float64
	e := evidenceOf(cols)
	gaps, inner, heights, runs := e.gaps, e.inner, e.heights, e.runs
	if len(heights) == 0 {
		return []unitFit{{0, 1}}
	}
	score := e.score
	type cand struct{ u, score float64 }
	var cands []cand
	bestScore := 0.0
	values := append(slices.Clone(gaps), heights...)
	for _, g := range runs {
		values = append(values, g.height)
	}
	for _, v := range values {
		for k := 1.0; k <= solver.MaxCapacity; k++ {
			c := cand{v / k, score(v / k)}
			cands = append(cands, c)
			bestScore = max(bestScore, c.score)
		}
	}
	for _, c := range cands {
		if c.score >= nearBest*bestScore && c.u > unit {
			unit = c.u
		}
	}
	// spread is how loosely u fits the evidence it fits, in pixels: a gap's distance from
	// whole units, and a height's top unit off from the tubes' common meniscus (the median).
	spread := func(u float64) float64 {
		var sum float64
		n := 0
		for _, g := range gaps {
			if fitsGap(g, u) {
				sum += math.Abs(g - math.Round(g/u)*u)
				n++
			}
		}
		var es []float64
		for _, h := range heights {
			if fitsHeight(h, u) {
				es = append(es, h/u-math.Round(h/u-meniscusBias))
			}
		}
		if len(es) > 0 {
			m := median(slices.Clone(es)) // es is summed in its order below
			for _, e := range es {
				sum += math.Abs(e-m) * u
				n++
			}
		}
		if n == 0 {
			return 0
		}
		return sum / float64(n)
	}
	// A unit a fraction too tall (4/3, 5/4 or 6/5 of the true one: tubes read a unit short)
	// can fit every height within the meniscus' tolerance, each tube's top unit short or tall
	// by its own share, where the true unit fits them alike. When the largest candidate fits
	// loosely, the largest down to looseRival of it that fits at least twice as tightly wins.
	// (Further down, a loose fit is as often a button or a banner over the tubes.)
	if s := spread(unit); s > looseFit*unit {
		alt := 0.0
		for _, c := range cands {
			if c.score >= nearBest*bestScore && c.u >= looseRival*unit && c.u < (1-looseFit)*unit && c.u > alt && spread(c.u) <= s/2 {
				alt = c.u
			}
		}
		if alt > 0 {
			unit = alt
		}
	}
	// wholeGaps is the height of the gaps among gs that fit unit, and the units they hold.
	wholeGaps := func(gs []float64, unit float64) (sum, units float64) {
		for _, g := range gs {
			if fitsGap(g, unit) {
				sum, units = sum+g, units+math.Round(g/unit)
			}
		}
		return sum, units
	}
	// Refine on the gaps that fit, which carry no meniscus; failing those, the heights.
	refine := func(unit float64) float64 {
		sum, units := wholeGaps(gaps, unit)
		for _, g := range runs {
			if fitsRun(g, unit) {
				sum, units = sum+g.height, units+float64(g.n)
			}
		}
		if units < 2 {
			for _, h := range heights {
				if fitsHeight(h, unit) {
					sum, units = sum+h, units+math.Round(h/unit-meniscusBias)
				}
			}
		}
		if units > 0 {
			return sum / units
		}
		return unit
	}
	unit = refine(unit)
	fits := []unitFit{{unit, e.misfit(unit)}}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(b.u, a.u)
	})
	for _, c := range cands {
		if len(fits) > maxAltUnits || c.score < altScore*bestScore {
			break
		}
		u := refine(c.u)
		if slices.ContainsFunc(fits, func(f unitFit) bool { return math.Abs(f.unit-u) < altUnitGap*max(f.unit, u) }) {
			continue
		}
		fits = append(fits, unitFit{u, e.misfit(u)})
	}
	// The gaps between two colour changes carry neither a meniscus nor the tube's rounded
	// foot, which the gaps from the bottom carry (a foot drawn a pixel or two taller): the
	// unit refined on them alone is tried next, where it differs enough to change a count.
	if sum, units := wholeGaps(inner, unit); units >= minInnerUnits {
		u := sum / units
		if !slices.ContainsFunc(fits, func(f unitFit) bool { return math.Abs(f.unit-u) < innerUnitGap*f.unit }) {
			fits = slices.Insert(fits, 1, unitFit{u, e.misfit(u)})
		}
	}
	return fits
}

// unitEvidence is what the columns tell of the unit's height (see unitHeights): the gaps
// between colour changes (inner: those above the lowest), the columns' heights, the top
// runs (where minTopRuns columns show one) and the runs of counted glyphs.
type unitEvidence struct {
	gaps, inner, heights, tops []float64
	runs                       []glyphRun
}

// evidenceOf gathers the unit's evidence from the columns holding liquid.
func evidenceOf(cols []column) unitEvidence {
	var e unitEvidence
	for _, c := range cols {
		if c.empty() {
			continue
		}
		prev := c.bottom
		for i, y := range c.bounds {
			e.gaps = append(e.gaps, float64(prev-y))
			if i > 0 {
				e.inner = append(e.inner, float64(prev-y))
			}
			prev = y
		}
		if len(c.bounds) > 0 {
			e.tops = append(e.tops, float64(prev-c.top))
		}
		e.heights = append(e.heights, float64(c.bottom-c.top))
		e.runs = append(e.runs, c.glyphGaps...)
	}
	if len(e.tops) < minTopRuns {
		e.tops = nil
	}
	return e
}

// score is how much of the evidence unit u fits: a gap or a top run counts once, a height
// twice, a run of glyphs as many times as it holds units.
func (e unitEvidence) score(u float64) float64 {
	s := 0.0
	for _, g := range e.gaps {
		if fitsGap(g, u) {
			s++
		}
	}
	// A run of counted glyphs says how many units it holds: it fits only that many.
	for _, g := range e.runs {
		if fitsRun(g, u) {
			s += float64(g.n)
		}
	}
	for _, h := range e.heights {
		if fitsHeight(h, u) {
			s += 2
		}
	}
	for _, t := range e.tops {
		if fitsTop(t, u) {
			s++
		}
	}
	return s
}

// misfit is the share of the evidence unit u does not fit.
func (e unitEvidence) misfit(u float64) float64 {
	whole := float64(len(e.gaps) + 2*len(e.heights) + len(e.tops))
	for _, g := range e.runs {
		whole += float64(g.n)
	}
	if whole == 0 {
		return 1
	}
	return 1 - e.score(u)/whole
}

// fitsGap reports whether a gap g between colour changes is whole units u, give or take
// gapFit of one; fitsHeight and fitsTop whether a column's height, or its top run, is (see
// fitsTall); fitsRun whether a run of counted glyphs is as many units as it counts.
func fitsGap(g, u float64) bool {
	k := math.Round(g / u)
	return k >= 1 && math.Abs(g/u-k) <= gapFit
}

// fitsTall reports whether h is a height of whole units whose top unit may be short units
// shorter, or taller.
func fitsTall(h, u, short float64) bool {
	n := math.Round(h/u - meniscusBias)
	e := h/u - n
	return n >= 1 && n <= solver.MaxCapacity && e >= -short && e < tallTop
}

func fitsHeight(h, u float64) bool { return fitsTall(h, u, shortTop) }
func fitsTop(t, u float64) bool    { return fitsTall(t, u, shortTopRun) }
func fitsRun(g glyphRun, u float64) bool {
	return fitsGap(g.height, u) && math.Round(g.height/u) == float64(g.n)
}

// minInnerUnits is the fewest units the gaps between colour changes must hold for the unit
// refined on them to be tried (see unitHeights); innerUnitGap is how far, as a share of a
// unit, it must stand from every unit tried already.
const (
	minInnerUnits = 4
	innerUnitGap  = 0.02
)

// Other units tried where the first breaks the rules (unitHeights).
const (
	maxAltUnits = 2
	altScore    = 0.75
	altUnitGap  = 0.1
)

// Unit fitting. A gap between colour changes fits a unit when it is within gapFit of a whole
// number of units. A column's height fits when, less meniscusBias of a unit, it is a whole
// number n of units give or take: its top unit may be shortTop of a unit shorter or up to
// tallTop taller (a meniscus drawn in perspective). Of the candidate units, the largest that
// scores within nearBest of the best wins (a third of a unit fits whatever a unit fits).
// unitsIn rounds a column's height in units less topBias. Liquid rests on the bottom: a column
// whose lowest run ends above restingDepth of the box's height holds nothing.
const (
	gapFit       = 0.18
	meniscusBias = 0.15
	shortTop     = 0.2
	tallTop      = 0.45
	nearBest     = 0.95
	shortTopRun  = 0.1 // the top run, measured from a colour change that has no meniscus
	minTopRuns   = 3   // top runs vote when this many columns show one (one may be a button over a tube)
	topBias      = 0.3
	restingDepth = 0.65
	looseFit     = 0.1 // a unit fits loosely when the evidence strays more than this share of it on average
	looseRival   = 0.75
)

// unitsIn is the number of units in a column of liquid: a top unit may look up to 80% taller
// (a meniscus drawn in perspective) or 20% shorter.
//
// Its runs counted one by one may hold a unit more: each a little short of whole units (a
// foot's outline cut from the lowest, a meniscus line from each) falls short of the height
// in all, though each run fits whole units. Such a count wins when it is one more, each run
// under the top short of its units by gapFit or less (none taller), the top run by
// runTopShort at most: a top run further short is the glass over the liquid, a meniscus band
// or a lid's lantern over its panel, which the height rule leaves out.
func unitsIn(c column, unit float64) int {
	if c.empty() {
		return 0
	}
	n := max(1, int(math.Round(float64(c.bottom-c.top)/unit-topBias)))
	if k, ok := runUnits(c, unit); ok && k == n+1 {
		return k
	}
	return n
}

// runTopShort is how far (a share of a unit) the top run may fall short of its units for a
// column's runs to be counted one by one (see unitsIn).
const runTopShort = 0.1

// runUnits is the number of units in column c counted run by run (see unitsIn); it reports
// false where that count does not hold.
func runUnits(c column, unit float64) (int, bool) {
	if unit <= 0 || len(c.bounds) == 0 {
		return 0, false
	}
	n, prev := 0, c.bottom
	for _, y := range c.bounds {
		h := float64(prev-y) / unit
		prev = y
		k := math.Round(h)
		if k < 1 || h-k < -gapFit || h > k {
			return 0, false
		}
		n += int(k)
	}
	h := float64(prev-c.top) / unit
	k := math.Round(h - topBias)
	if k < 1 || k-h > runTopShort || h-k > tallTop {
		return 0, false
	}
	return n + int(k), true
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
	// likeBackground marks a unit that looks like the background beside its tube, within
	// backgroundDE: the background itself, below a box placed past the tube's end, or
	// through clear glass. (Hidden boxes, hatched or grey, stand out further even on a
	// background of their own grey.)
	likeBackground bool
	// patch is the rectangle sampled.
	patch image.Rectangle
	// marked: a hidden unit told by a mark as large as its box (see markedLooks), whose
	// median colour mixes two tones and so may match a liquid by chance.
	marked bool
	// greyBox: a hidden unit told by a glyph on a mid-grey box (see inks).
	greyBox bool
	// disc: a hidden unit told by a dark glyph on a light disc (see discGlyph).
	disc bool
}

const backgroundDE = 6

// sampleUnit reads one unit's patch: its median colour, and whether it is a hidden unit (a
// dark neutral box with a light "?" glyph: some, but not most, pixels far lighter).
func (f *frame) sampleUnit(r image.Rectangle) unitSample {
	patch := r
	c, ok := f.medianLab(r)
	if !ok {
		return unitSample{patch: patch}
	}
	// The glyph sits in the middle; highlights run down the tube's sides.
	w := r.Dx()
	r = f.clip(image.Rect(r.Min.X+w/6, r.Min.Y, r.Max.X-w/6, r.Max.Y))
	hidden := false
	for _, ink := range inks(c, func() float64 { return f.extremeL(r, true) }) {
		share, ok := f.inkShare(r, ink)
		if !ok {
			return unitSample{color: c, patch: patch} // mostly stripe: no glyph to tell
		}
		hidden = hidden || share > minGlyphShare && share < maxGlyphShare
	}
	if !hidden && f.discGlyph(patch) {
		return unitSample{color: c, patch: patch, hidden: true, disc: true}
	}
	return unitSample{color: c, patch: patch, hidden: hidden, greyBox: hidden && c.L >= hiddenMaxL}
}

// discGlyph reports whether patch r holds a dark glyph on a light disc: the middle of the
// patch (discMiddleW of its width, discMiddleH of its height) has a light median (discMinL
// or more) and dark strokes (glyphLift darker) covering more than minGlyphShare and less
// than maxGlyphShare of it, a glare stripe's columns and the rows a line crosses whole left
// out (inkShare). A layer of liquid has no dark marks inside it: its boundaries cross the
// patch whole. Hidden units drawn as a "?" on a disc tell themselves so, where the patch is
// large enough to hold the glyph (discMinSide pixels each way).
func (f *frame) discGlyph(r image.Rectangle) bool {
	w, h := r.Dx(), r.Dy()
	if min(w, h) < discMinSide {
		return false
	}
	mw, mh := int(float64(w)*(1-discMiddleW)/2), int(float64(h)*(1-discMiddleH)/2)
	mid := f.clip(image.Rect(r.Min.X+mw, r.Min.Y+mh, r.Max.X-mw, r.Max.Y-mh))
	disc, ok := f.medianLab(mid)
	if !ok || disc.L < discMinL {
		return false
	}
	share, ok := f.inkShare(mid, func(p lab) bool { return p.L < disc.L-glyphLift })
	return ok && share > minGlyphShare && share < maxGlyphShare
}

// discMiddleW, discMiddleH, discMinL and discMinSide: see discGlyph.
const (
	discMiddleW = 0.4
	discMiddleH = 0.5
	discMinL    = 55
	discMinSide = 12
)

// inks are the tests for a glyph's pixels on a box of colour c: on a dark neutral box, a
// light glyph; on a mid-grey one (up to greyBoxMaxL), a light or a dark one. Other boxes
// carry no glyph the reader tells: none. peak is the lightness (CIE L) of the box's
// lightest pixel, asked only of a mid-grey box (a pass over its pixels).
//
// On a light grey box a white glyph has little room to stand out by glyphLift: blurred by
// scaling or a JPEG, its strokes rise only part of the way to white (a box of L 66 under
// strokes peaking at 90, 85000288). Where the box's lightest pixels reach glyphPeak of the
// way from its lightness to white, as a white glyph's do and a glare stripe's translucent
// white does not (a stripe over grey liquid rose half the way, 89000341), the light ink
// stands out by greyGlyphRoom of that room.
func inks(c lab, peak func() float64) []func(lab) bool {
	if c.Chroma() >= hiddenMaxChroma || c.L >= greyBoxMaxL {
		return nil
	}
	light := func(p lab) bool { return p.L > c.L+glyphLift }
	if c.L < hiddenMaxL {
		return []func(lab) bool{light}
	}
	if room := 100 - c.L; peak() >= c.L+glyphPeak*room {
		lift := min(glyphLift, greyGlyphRoom*room)
		light = func(p lab) bool { return p.L > c.L+lift }
	}
	return []func(lab) bool{light, func(p lab) bool { return p.L < c.L-glyphLift }}
}

// glyphPeak and greyGlyphRoom are shares of the room between a grey box's lightness and
// white (see inks).
const (
	glyphPeak     = 0.65
	greyGlyphRoom = 0.5
)

// extremeL is the lightness (CIE L) of the lightest pixel in r, or with lightest false of the
// darkest.
func (f *frame) extremeL(r image.Rectangle, lightest bool) float64 {
	out := 100.0
	if lightest {
		out = 0
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if l := f.at(x, y).L; lightest && l > out || !lightest && l < out {
				out = l
			}
		}
	}
	return out
}

// greyBoxMaxL is the lightest (CIE L) a grey hidden box may be: a glyph darker or lighter by
// glyphLift stands out on it. A patch straddling a dark run and the glass, or a small one
// in the glare, can pass for such a box: a board's grey boxes count only when there are
// minGreyBoxes or more (games hide units under a glyph in many tubes alike).
const (
	greyBoxMaxL  = 75
	minGreyBoxes = 2
)

// inkShare is the share of patch r's pixels that ink marks, leaving out a glare stripe's
// columns and a separator's rows; false when the stripes cover most of the patch.
func (f *frame) inkShare(r image.Rectangle, ink func(lab) bool) (float64, bool) {
	w := r.Dx()
	cols := make([]int, w)          // inked rows per column of the patch
	inked := make([]bool, w*r.Dy()) // the patch's pixels ink marks, row by row
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ink(f.at(x, y)) {
				cols[x-r.Min.X]++
				inked[(y-r.Min.Y)*w+x-r.Min.X] = true
			}
		}
	}
	// A glare stripe down a dark liquid is light too, but in every row of the same columns;
	// a glyph's strokes bend and break. The stripe's columns, and stripeMargin beside them
	// (its soft edges), are left out: what light remains is a glyph's. So are the rows a
	// line crosses whole (a separator between layers, a box's edge).
	outX := make([]bool, len(cols))
	for x, k := range cols {
		if float64(k) >= stripeRows*float64(r.Dy()) {
			leaveStripeOut(outX, x)
		}
	}
	kept := countFunc(outX, func(o bool) bool { return !o })
	if 2*kept < len(cols) {
		return 0, false
	}
	on, n := 0, 0
	for y := range r.Dy() {
		k := 0 // inked pixels of the row in the columns kept
		for x := range w {
			if !outX[x] && inked[y*w+x] {
				k++
			}
		}
		if float64(k) >= stripeRows*float64(kept) {
			continue
		}
		on, n = on+k, n+kept
	}
	if n == 0 {
		return 0, true
	}
	return float64(on) / float64(n), true
}

// stripeMargin is how many columns beside a glare stripe are left out of a glyph's count.
const stripeMargin = 2

// leaveStripeOut marks column x of a patch, a glare stripe's, and stripeMargin beside it, as
// left out.
func leaveStripeOut(out []bool, x int) {
	for d := -stripeMargin; d <= stripeMargin; d++ {
		if x+d >= 0 && x+d < len(out) {
			out[x+d] = true
		}
	}
}

// raisePaleTops adds to a tube's liquid the run right above it that the reader took for the
// glass because it looks like what surrounds the tube (a liquid near the background's colour,
// on top, or alone in a tube read empty). Such a run is liquid when it is whole units tall
// (its top a colour change below the tube's top, where the glass begins), keeps the tube
// within the units the fullest tube holds, looks like no glass the other tubes show, and has
// the colour (within paleMatchDE) of a run the reader did take for liquid in some tube (a
// colour near the background's is taken where it lies between other liquids).
//
// Runs in colours seen nowhere else, whole units under glass (the run above them looks like
// the glass, as an empty tube or the room above another tube's liquid shows it, for a board
// may show no empty tube, 20261343783862; behind gives the background beside a tube's rows
// y0..y1, for the glass over a full tube, too thin to see), may be a whole colour near the
// glass, missed, which leaves the counts intact: with unseenToo they are raised too, for the
// count rule to check as any colour; without, their tubes are returned in unseen. Such a
// run in the colour of the room another tube shows above its liquid (rooms: each tube's, nil
// for none) is that glass: over a dark background a tinted glass under a light rim looks
// like no glass the tubes agree on, and raised in each tube up to its top, it made a colour
// of the rooms (20261341784123). It returns the number of tubes raised.
func raisePaleTops(cols []column, unit float64, glass, rooms func([]column) []lab, behind func(i, y0, y1 int) (lab, bool), unseenToo bool) (raised int, unseen []int) {
	if unit <= 0 {
		return 0, nil
	}
	most := 0
	for _, c := range cols {
		most = max(most, unitsIn(c, unit))
	}
	// whole is the units the pale run of tube i adds, 0 when it is no whole units or would
	// fill the tube beyond the fullest.
	whole := func(i int) int {
		c := cols[i]
		if c.curtain || c.pale.y1 == 0 {
			return 0
		}
		top := c.top
		if c.empty() {
			top = c.pale.y1
		}
		h := float64(top-c.pale.y0) / unit
		k := math.Round(h)
		if k < 1 || h-k < -gapFit || h-k >= tallTop || unitsIn(c, unit)+int(k) > most {
			return 0
		}
		return int(k)
	}
	// masked is the columns with tubes i covered: the glass as the others show it.
	masked := func(is ...int) []column {
		others := slices.Clone(cols)
		for _, i := range is {
			others[i] = column{box: cols[i].box, curtain: true}
		}
		return others
	}
	looksGlass := func(c lab, glasses []lab) bool {
		return slices.ContainsFunc(glasses, func(g lab) bool { return deltaE(c, g) < glassDE })
	}
	for i := range cols {
		if whole(i) == 0 {
			continue
		}
		c := &cols[i]
		seen := slices.ContainsFunc(cols, func(o column) bool {
			return slices.ContainsFunc(o.runs, func(r lab) bool { return deltaE(r, c.pale.color) < paleMatchDE })
		})
		if !seen {
			// Under glass: a colour change at least underGlass of a unit below the tube's top
			// (a rim is thinner; the headroom of a full tube may be as little), to a colour
			// unlike it; the colour above must look like the glass (below).
			if paleRoom(*c) >= underGlass*unit && deltaE(c.pale.color, c.paleAbove) >= glassDE {
				unseen = append(unseen, i)
			}
			continue
		}
		// The glass as the other tubes show it (this one may be the only one read empty).
		if looksGlass(c.pale.color, glass(masked(i))) {
			continue
		}
		raise(c)
		raised++
	}
	if len(unseen) == 0 {
		return raised, nil
	}
	// The glass as the tubes without such a top show it: an empty tube whose only run is one
	// of them shows that colour, not the glass.
	// (Above a full tube's liquid the room may be too thin to show the glass unmixed with
	// the rim: there the run must look like no glass, and, clear glass showing what lies
	// behind it, stand glassDE or more from the background beside it.)
	others := masked(unseen...)
	glasses := glass(others)
	var roomLooks []lab
	if rooms != nil {
		roomLooks = rooms(others)
	}
	glassOrRoom := append(slices.Clip(glasses), roomLooks...)
	unseen = slices.DeleteFunc(unseen, func(i int) bool {
		c := cols[i]
		if looksGlass(c.pale.color, roomLooks) {
			return true
		}
		if paleRoom(c) < unit {
			bg, ok := behind(i, c.pale.y0, c.pale.y1)
			return !ok || deltaE(c.pale.color, bg) < glassDE || looksGlass(c.pale.color, glasses)
		}
		return !looksGlass(c.paleAbove, glassOrRoom) || looksGlass(c.pale.color, glasses)
	})
	if len(unseen) == 0 {
		return raised, nil
	}
	if !unseenToo {
		return raised, unseen
	}
	for _, i := range unseen {
		raise(&cols[i])
		raised++
	}
	return raised, nil
}

// paleRoom is the height between a column's box top and its pale run.
func paleRoom(c column) float64 { return float64(c.pale.y0 - c.box.Min.Y) }

// underGlass is the least room, a share of a unit, between a tube's top and a pale run in a
// colour seen nowhere else for the run to lie under glass.
const underGlass = 0.2

// raise adds a column's pale run to its liquid.
func raise(c *column) {
	addOnTop(c, c.pale)
	c.pale = segment{}
}

// addOnTop adds run s, right above a column's liquid (or, in a column read empty, resting on
// its bottom), to the liquid.
func addOnTop(c *column, s segment) {
	if c.empty() {
		c.bottom = s.y1
	} else {
		c.bounds = append(c.bounds, (c.top+s.y1)/2)
	}
	c.runs = append(c.runs, s.color)
	c.top = s.y0
}

// paleMatchDE is how close (CIEDE2000) a pale top must look to a liquid seen elsewhere.
const paleMatchDE = 7

// extendCutBottoms reads again, in boxes extended by cutBottom, the columns whose boxes the
// edges closed short, row by row (rows of n boxes each, in order): when every column of a row
// holding liquid reaches its box's bottom edge and goes on below it alike. A box cut short
// above the tube's foot cuts every tube of its row alike (the tubes are drawn alike), where a
// button or a banner over some tubes cuts only those.
//
// A box cut within the lowest unit leaves of it a sliver too short to count as a run (a
// round foot cut where the walls end): the liquid then ends a sliver above the box's bottom,
// and the foot read again holds one run more, under the same ones.
func (f *frame) extendCutBottoms(cols []column, rooms [][2]int, rows []int) {
	eachRow(cols, rooms, rows, f.extendRow)
}

// eachRow calls fn with the columns of each row and the free room beside them (rows of n
// columns each, in order).
func eachRow(cols []column, rooms [][2]int, rows []int, fn func([]column, [][2]int)) {
	start := 0
	for _, n := range rows {
		fn(cols[start:start+n], rooms[start:start+n])
		start += n
	}
}

// reachesBottom reports whether a column's liquid reaches its box's bottom edge, within a
// quarter of the box's width (a short run there is no run of its own).
func reachesBottom(c column) bool { return c.bottom >= c.box.Max.Y-max(2, c.box.Dx()/4) }

// extendRow is extendCutBottoms on one row.
func (f *frame) extendRow(cols []column, rooms [][2]int) {
	var liquid []int
	for i, c := range cols {
		if c.empty() || c.curtain {
			continue
		}
		if !reachesBottom(c) {
			return // this tube's liquid ends above its box's bottom: its box was not cut
		}
		liquid = append(liquid, i)
	}
	if len(liquid) < 2 {
		return
	}
	next := make([]column, len(liquid))
	for k, i := range liquid {
		e, ok := f.cutBottom(cols[i].box, cols[i].bottom)
		if !ok {
			return // this tube's run ends at its box: the boxes are not cut alike
		}
		// The foot cut off holds more of the bottom run, or a run of its own under the
		// others: read so, the column keeps its top and its colour changes.
		n := f.readColumn(e, rooms[i])
		c := cols[i]
		switch {
		case n.top != c.top:
			return
		case c.bottom >= c.box.Max.Y-1 && slices.Equal(n.bounds, c.bounds):
		case c.bottom < c.box.Max.Y-1 && len(n.bounds) == len(c.bounds)+1 && slices.Equal(n.bounds[1:], c.bounds) && abs(n.bounds[0]-c.bottom) <= 2:
		default:
			return
		}
		next[k] = n
	}
	for k, i := range liquid {
		cols[i] = next[k]
	}
}

// extendBulbs adds to each column of a row the run in the bulb under its box, row by row
// (rows of n boxes each, in order), when every column of the row holding liquid reaches its
// box's bottom and, right below it, shows a run of one colour unlike the background beside
// the tube (footNear to footFar of the box's width out, clear of a bulb), that ends within footMax box
// widths: a bulb wider than the tube, round under its walls, is outside the box found
// round them, and holds the lowest unit. The runs must end alike (liquid rests on the
// bottoms, and the tubes are drawn alike) and, where three columns or more hold liquid, come
// in minLidColors colours or more: a holder or a stand under every tube is one colour.
func (f *frame) extendBulbs(cols []column, rooms [][2]int, rows []int) {
	eachRow(cols, rooms, rows, f.bulbRow)
}

// bulbRow is extendBulbs on one row.
func (f *frame) bulbRow(cols []column, rooms [][2]int) {
	// (The liquid's bottoms first: the look below the boxes is the costly part.)
	if slices.ContainsFunc(cols, func(c column) bool { return !c.empty() && !c.curtain && !reachesBottom(c) }) {
		return
	}
	// A foot with no room beside it to see the background (tubes standing close) is told
	// from the background seen beside the row's other feet.
	type look struct {
		s     segment
		sides []lab
		ok    bool
	}
	looks := make([]look, len(cols))
	var rowSides []lab
	for i, c := range cols {
		if c.curtain {
			continue
		}
		l := &looks[i]
		l.s, l.sides, l.ok = f.footBelow(c.box, rooms[i])
		if !l.ok && !c.empty() {
			return // a tube holding liquid with no foot: the boxes were not cut above bulbs
		}
		rowSides = append(rowSides, l.sides...)
	}
	var liquid []int
	var feet []segment
	for i, c := range cols {
		if c.curtain {
			continue
		}
		s, sides := looks[i].s, looks[i].sides
		if len(sides) == 0 {
			sides = rowSides
		}
		ok := looks[i].ok && len(sides) > 0 && !slices.ContainsFunc(sides, func(bg lab) bool { return deltaE(bg, s.color) < liquidDE })
		if c.empty() {
			// A tube whose liquid is one unit, in its bulb: its box holds only glass (one run
			// from top to bottom, taken for a complete tube, when tinted unlike the unit).
			if ok && c.pale.y1 == 0 && (c.lid.y1 == 0 || deltaE(c.lid.color, s.color) >= changeDE) {
				liquid, feet = append(liquid, i), append(feet, s)
			}
			continue
		}
		if !ok {
			return
		}
		liquid, feet = append(liquid, i), append(feet, s)
	}
	if len(liquid) < 2 || !slices.ContainsFunc(liquid, func(i int) bool { return !cols[i].empty() }) {
		return
	}
	var colors []lab
	lo, hi := feet[0].y1, feet[0].y1
	for _, s := range feet {
		colors = append(colors, s.color)
		lo, hi = min(lo, s.y1), max(hi, s.y1)
	}
	if hi-lo > max(2, cols[liquid[0]].box.Dx()/6) || (len(liquid) >= minLidColors && distinctColors(colors, lidDE) < minLidColors && !hiddenFeet(cols, colors)) {
		return
	}
	for k, i := range liquid {
		c, s := &cols[i], feet[k]
		if c.empty() {
			c.top, c.runs, c.lid = s.y0, []lab{s.color}, segment{}
		} else if deltaE(s.color, c.runs[0]) >= changeDE {
			c.bounds = append([]int{c.bottom}, c.bounds...)
			c.runs = append([]lab{s.color}, c.runs...)
		}
		c.bottom, c.box.Max.Y = s.y1, s.y1
	}
}

// hiddenFeet reports whether every foot colour is within lidDE of a run of the row whose
// glyphs were counted: feet of one colour are no stand when they look like the hidden units
// the glyphs tell (a hidden unit in a round foot that the box's outline left out, in every
// tube alike).
func hiddenFeet(cols []column, feet []lab) bool {
	var hidden []lab
	for _, c := range cols {
		for _, g := range c.glyphGaps {
			hidden = append(hidden, g.color)
		}
	}
	return len(hidden) > 0 && !slices.ContainsFunc(feet, func(foot lab) bool {
		return !slices.ContainsFunc(hidden, func(h lab) bool { return deltaE(foot, h) < lidDE })
	})
}

// footBelow is the run right below box b, along its middle cutBand: its colour (the median
// of its second band) and where it ends, and the background footNear to footFar of the width
// beside the box, where the free room there holds such a strip. It reports false unless the
// run is at least a band (a quarter of the box's width) tall and ends within footMax of the
// box's width; a foot stands liquidDE or more from the background beside it.
func (f *frame) footBelow(b image.Rectangle, room [2]int) (segment, []lab, bool) {
	w := b.Dx()
	band, step := max(2, w/4), max(2, w/12)
	inset := int(float64(w) * (1 - cutBand) / 2)
	x0, x1 := b.Min.X+inset, b.Max.X-inset
	limit := b.Max.Y + int(footMax*float64(w))
	if x1-x0 < 2 || limit+step > f.h {
		return segment{}, nil, false
	}
	middle := func(y0, y1 int) lab { m, _ := f.medianLab(image.Rect(x0, y0, x1, y1)); return m }
	// The first band may hold the edge between the box's lowest run and the foot.
	ref := middle(b.Max.Y+step, b.Max.Y+2*step)
	y := b.Max.Y + 2*step
	for y < limit && labDist(middle(y, y+step), ref) <= cutDE {
		y += step
	}
	if y >= limit || y-b.Max.Y < band {
		return segment{}, nil, false
	}
	near, far := int(footNear*float64(w)), int(footFar*float64(w))
	if far-near < 2 {
		return segment{}, nil, false
	}
	var sides []lab
	if room[0] > far && b.Min.X-far >= 0 {
		m, _ := f.medianLab(image.Rect(b.Min.X-far, b.Max.Y, b.Min.X-near, y))
		sides = append(sides, m)
	}
	if room[1] > far && b.Max.X+far <= f.w {
		m, _ := f.medianLab(image.Rect(b.Max.X+near, b.Max.Y, b.Max.X+far, y))
		sides = append(sides, m)
	}
	return segment{y0: b.Max.Y, y1: y, color: ref, liquid: true}, sides, true
}

// footMax is how far below its box a bulb's run may end, a share of the box's width (a bulb
// of radius r under walls r/bulb apart reaches about 2r below them); footNear to footFar is
// the strip beside the box, as shares of its width, that shows the background beside a bulb.
const (
	footMax  = 1.5
	footNear = 0.25
	footFar  = 0.5
)

// cutBottom extends box b down, where the liquid in it reaches its bottom edge, when the
// liquid goes on below it: a box whose outline the edges closed short (a textured hidden run,
// a holder against the tube's foot) cuts the bottom units off, alike in every tube, and the
// counts cannot tell when no glyph counts the hidden units. Below the box, bands of the
// box's middle cutBand of its width are compared (medians) with the band just above its bottom; the
// box extends while they stay within cutDE of it and the same bands just outside the box's
// sides do not (a stand or shelf of the liquid's colour runs wider than the tube). It
// reports the extended box, and whether it moved by half a band or more, to where the run
// ends, at most cutMax of the box's height lower. The band compared starts no higher than
// a row below bottom, where the liquid's long runs end (a sliver of the cut unit lies below).
func (f *frame) cutBottom(b image.Rectangle, bottom int) (image.Rectangle, bool) {
	w := b.Dx()
	band := max(2, w/4)
	step := max(2, w/12)
	inset := int(float64(w) * (1 - cutBand) / 2)
	x0, x1 := b.Min.X+inset, b.Max.X-inset
	refTop := max(b.Max.Y-step, min(bottom+1, b.Max.Y-2))
	if x1-x0 < 2 || refTop < b.Min.Y {
		return b, false
	}
	// Medians: a glare stripe down the tube may end where its foot begins.
	middle := func(y0, y1 int) lab { m, _ := f.medianLab(image.Rect(x0, y0, x1, y1)); return m }
	ref := middle(refTop, b.Max.Y)
	side := max(2, w/6)
	y, ended := b.Max.Y, false
	for y+step <= f.h && y-b.Max.Y < int(cutMax*float64(b.Dy())) {
		if labDist(middle(y, y+step), ref) > cutDE {
			ended = true
			break
		}
		left, right := image.Rect(b.Min.X-side, y, b.Min.X, y+step), image.Rect(b.Max.X, y, b.Max.X+side, y+step)
		if left.Min.X < 0 || right.Max.X > f.w || labDist(f.cellMean(left), ref) <= cutDE || labDist(f.cellMean(right), ref) <= cutDE {
			ended = true
			break
		}
		y += step
	}
	// A run still going at the limit is no foot cut off: the box may be a piece of a tube
	// (a line across its liquid closed the edges), which other boxes explain better.
	if !ended || 2*(y-b.Max.Y) < band {
		return b, false
	}
	b.Max.Y = y
	return b, true
}

// cutBand is the share of a box's width cutBottom compares, cutDE how far (CIELAB, Euclidean)
// a band below may stand from the liquid above the box's bottom, and cutMax the most it
// extends a box, a share of its height.
const (
	cutBand = 0.6
	cutDE   = 8
	cutMax  = 0.5
)

// raiseLids adds to the liquid of each column the run taken for a cork or a lid (one that
// starts at its box's top; in a column read empty, the one run reaching from there to the
// bottom: a tube full of one colour), row by row (rows of n columns each, in order), when
// every column of a row holding liquid shows one and they come in minLidColors colours or
// more (lidDE apart): a box found round the liquid alone, its glass above as dark as the
// background, starts at the liquid's top, and the runs there are the tubes' top layers.
// Corks, drawn alike on the complete tubes only, and lids are one colour, the glass another.
// A run within glassDE of the glass an empty tube shows, or of the runs of a row whose runs
// there are alike (glass, corks), is the glass above a short column in a box made as tall as
// its row's: it stays out.
//
// A run at the top of a column holding liquid may also be the top layer of a tube whose box
// alone was cut at its liquid's top: it starts no higher than another column's liquid in the
// row that has glass above it, while a cork stands above every liquid. Or the top layer of a
// full tube whose liquid fills its box: a cork stands on a complete tube only, the fullest in
// its row, and a run above less liquid than another column of the row holds under no run at
// the top is no cork (unless that column's top run is another's too: glass, read as liquid
// until dropGlassTops tells it, looks alike in every tube). So may the one run of
// a column read empty, reaching from its box's top to its bottom, when it looks like no glass
// and no other such run: a tube full of one colour whose box was cut at its top. Such runs
// are raised only with cut set (a hypothesis for the rules to check: a pop-up's button over
// a tube can cut a box so too), and those told from a cork by a fuller column alone only with
// byFillToo besides; raiseLids reports how many there are, and how many of them a fuller
// column alone tells. With all set, every run at the top of a column holding liquid is
// raised unless it looks like the glass an empty tube shows (a hypothesis for the rules to
// check: see readFrom).
func (f *frame) raiseLids(cols []column, rows []int, cut, byFillToo, all bool) (found, byFill int) {
	if !slices.ContainsFunc(cols, func(c column) bool { return c.lid.y1 > 0 }) {
		return 0, 0
	}
	var alike, differ [][]int // the rows' columns with a run at the top, by kind of row
	var cuts []int            // columns whose box was cut at their liquid's top (see below)
	var fills []int           // and those told from a cork by a fuller column alone
	start := 0
	for _, n := range rows {
		var with []int
		var lids []lab
		bare := 0 // columns holding liquid with no run at the top
		for i := start; i < start+n; i++ {
			if c := cols[i]; c.lid.y1 > 0 {
				with, lids = append(with, i), append(lids, c.lid.color)
			} else if !c.empty() {
				bare++
			}
		}
		start += n
		// A cork stands above a complete tube's liquid, so above every other tube's: a run
		// at the top of a box holding liquid that starts no higher than another tube's
		// liquid (under a run at its box's top or not) is the top layer of a tube whose box
		// was cut at it, unless it looks like the top run of such a tube (a band of glass
		// over the liquid, taken for liquid in a taller box). And a complete tube is the
		// fullest in its row: a run above less liquid than another column holds with no run
		// at its top, a top no other column shares, is a full tube's top layer.
		for _, i := range with {
			c := cols[i]
			if c.empty() {
				continue
			}
			reached, likeTop, fuller := false, false, false
			for j := start - n; j < start; j++ {
				o := cols[j]
				if j == i || o.empty() || o.curtain {
					continue
				}
				if o.top <= c.lid.y0+lidMargin(c.box) {
					reached = true
					likeTop = likeTop || deltaE(o.runs[len(o.runs)-1], c.lid.color) < lidDE
				}
				fuller = fuller || o.lid.y1 == 0 && o.bottom-o.top > c.bottom-c.top+lidMargin(c.box) && !sharedTop(cols[start-n:start], j-(start-n))
			}
			switch {
			case reached && !likeTop:
				cuts = append(cuts, i)
				cols[i].noCork = true
			case fuller:
				fills = append(fills, i)
			}
		}
		switch {
		case len(lids) < 2:
		case widestPair(lids) < lidDE:
			alike = append(alike, with)
		case bare == 0 && distinctColors(lids, lidDE) >= minLidColors:
			differ = append(differ, with)
		}
	}
	// (Where every run at the top is raised, runs alike in a row are no glass: the empty
	// tubes' glass alone tells it.)
	var glass []lab
	if !all {
		for _, with := range alike {
			for _, i := range with {
				glass = append(glass, cols[i].lid.color)
			}
		}
	}
	// The glass the tubes still empty show, each column's own inside left out of what it is
	// compared with.
	insides := f.emptyInsides(cols)
	likeGlass := func(i int) bool {
		still := slices.DeleteFunc(slices.Clone(insides), func(in inside) bool { return !cols[in.col].empty() })
		gs := glass
		if g, ok := glassBut(still, i); ok {
			gs = append(slices.Clone(glass), g)
		}
		return slices.ContainsFunc(gs, func(g lab) bool { return deltaE(g, cols[i].lid.color) < glassDE })
	}
	// A column read empty whose one run, from the box's top to its bottom, is like no glass
	// and like no other such run (two alike are empty tubes of one tint) may be a tube full
	// of one colour whose box was cut at its top: raised with the cut boxes, for the rules
	// to check.
	for i, c := range cols {
		if !c.empty() || c.lid.y1 == 0 || likeGlass(i) {
			continue
		}
		if !slices.ContainsFunc(cols, func(o column) bool {
			return o.box != c.box && o.empty() && o.lid.y1 > 0 && deltaE(o.lid.color, c.lid.color) < lidDE
		}) {
			cuts = append(cuts, i)
		}
	}
	found, byFill = len(cuts)+len(fills), len(fills)
	if byFillToo {
		cuts = append(cuts, fills...)
	}
	if !cut {
		cuts = nil
	}
	if all {
		cuts = nil
		for i, c := range cols {
			if c.lidOverLiquid() {
				cuts = append(cuts, i)
			}
		}
	}
	for _, with := range append(differ, cuts) {
		for _, i := range with {
			c := &cols[i]
			if c.lid.y1 == 0 || likeGlass(i) {
				continue
			}
			addOnTop(c, c.lid) // in a column read empty, a tube full of one colour
			c.lid = segment{}
		}
	}
	return found, byFill
}

// sharedTop reports whether the top run of column j of a row looks like (glassDE) another
// column's top run there.
func sharedTop(row []column, j int) bool {
	c := row[j]
	if c.empty() || len(c.runs) == 0 {
		return false
	}
	top := c.runs[len(c.runs)-1]
	for k, o := range row {
		if k != j && !o.empty() && !o.curtain && len(o.runs) > 0 && deltaE(o.runs[len(o.runs)-1], top) < glassDE {
			return true
		}
	}
	return false
}

// distinctColors is the number of groups cs falls into, each colour joining the first group
// whose first colour lies within de (CIEDE2000).
func distinctColors(cs []lab, de float64) int {
	var firsts []lab
	for _, c := range cs {
		if !slices.ContainsFunc(firsts, func(f lab) bool { return deltaE(f, c) < de }) {
			firsts = append(firsts, c)
		}
	}
	return len(firsts)
}

// lidDE is how far apart (CIEDE2000) runs at the boxes' tops must be to be of two colours.
const (
	lidDE        = 15
	minLidColors = 3
)

// widestPair is the largest ΔE (CIEDE2000) between two of cs.
func widestPair(cs []lab) float64 {
	d := 0.0
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			d = max(d, deltaE(cs[i], cs[j]))
		}
	}
	return d
}

// dropTop reads column c's top run as glass: its liquid ends at the colour change under it.
func (c *column) dropTop() {
	n := len(c.bounds)
	c.top = c.bounds[n-1]
	c.bounds = c.bounds[:n-1]
	c.runs = c.runs[:n]
	c.pale = segment{}
}
