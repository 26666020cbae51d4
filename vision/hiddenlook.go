package vision

import (
	"image"
	"iter"
	"math"
	"slices"
)

// Hidden units drawn without a glyph the reader can count (a plain or hatched grey box, a
// "?" in a circle) are told by the rules alone: one look on no tube's top that the count rule
// cannot take for a colour. On a mystery board, where every tube shows only its top unit, no
// colour shows all its units and the counts then check nothing: a tube missed, or two colours
// merged, keep the rules alike. What still checks such a reading is the look itself, which
// games draw alike in every tube: a box of the hidden units' look standing outside every tube
// found is a tube the layout missed (or a look that is not the hidden units' at all). (A
// second check, that the nearest units of two colours stand further apart than units grouped
// as one, ΔE 7, refused no reading more on 900 tuning scenes and was dropped.)

// A hidden-look box is searched on a grid of cells lookCells to a unit's height. A cell looks
// like the hidden units when its mean is within lookDist (CIELAB, Euclidean) of theirs, or
// when cellShare of its pixels are within pixelDist of their fill (wider: a JPEG smears a
// small disc's colour into its surround). A box is at least boxWidth and at most maxBoxWidth
// of a tube's width wide (wider regions, a banner or a panel, are no tube's liquid), filled to
// boxFill of its bounding box, and either boxHeight of a unit tall or, from partHeight, one
// of two that stand a unit apart (within stackTol) one above the other, centred within
// stackOffBeat of a tube's width (boxes drawn apart, as discs are).
const (
	lookCells    = 4
	lookDist     = 6
	pixelDist    = 12
	cellShare    = 0.5
	boxWidth     = 0.5
	maxBoxWidth  = 1.5
	boxFill      = 0.6
	boxHeight    = 0.8
	partHeight   = 0.4
	stackTol     = 0.25
	stackOffBeat = 0.25
	belowTop     = 0.5 // inside a tube read empty, a box counts from this share of a unit below its top
	rowReach     = 1.5 // a box counts within this share of a tube's height above or below a tube found
)

// hiddenLookOutside counts the boxes in the hidden units' look outside the boxes of the tubes
// that hold liquid: regions of cells whose mean is near look (the hidden patches' mean: a
// hatched box's two tones average alike in every cell) or whose pixels are mostly near fill
// (the hidden units' median colour: a box under a "?" glyph or in a disc shows its fill around
// it), at least boxWidth and at most maxBoxWidth of the median tube's width wide, boxHeight of
// a unit tall and filled to boxFill.
//
// Hidden units whose patches are marked (a disc round a glyph, see marks) come with two fills,
// their tones, shown in parts that vary from cell to cell: a cell matches when cellShare of
// its pixels are near either, and their discs may leave regions one above another that only
// stackedHalves joins.
func (f *frame) hiddenLookOutside(look lab, fills []lab, cols []column, unit float64) int {
	s := max(2, int(math.Round(unit/lookCells)))
	gw, gh := f.w/s, f.h/s
	if gw == 0 || gh == 0 {
		return 0
	}
	// Tubes read empty are searched too: their liquid may have been taken for glass.
	all := make([]image.Rectangle, len(cols))
	var boxes, empties []image.Rectangle
	for i, c := range cols {
		all[i] = c.box
		if c.empty() && !c.curtain {
			empties = append(empties, c.box)
		} else {
			boxes = append(boxes, c.box.Inset(-s))
		}
	}
	width := medianWidth(all)
	// Cells are compared closer than half the way to the frame's commonest colour (its
	// background): hidden boxes drawn near the background's colour must not take it in.
	means := make([]lab, gw*gh)
	var ls, as, bs []float64
	for gy := range gh {
		for gx := range gw {
			m := f.cellMean(image.Rect(gx*s, gy*s, gx*s+s, gy*s+s))
			means[gy*gw+gx] = m
			ls, as, bs = append(ls, m.L), append(as, m.A), append(bs, m.B)
		}
	}
	bg := lab{L: median(ls), A: median(as), B: median(bs)}
	meanTol := min(lookDist, labDist(look, bg)/2)
	tols := make([]float64, len(fills))
	for i, c := range fills {
		tols[i] = min(pixelDist, labDist(c, bg)/2)
	}
	mask := make([]bool, gw*gh)
	for gy := range gh {
		for gx := range gw {
			cell := image.Rect(gx*s, gy*s, gx*s+s, gy*s+s)
			if overlapsAny(cell, boxes) {
				continue
			}
			if labDist(means[gy*gw+gx], look) < meanTol || f.cellMatch(cell, fills, tols) >= cellShare {
				mask[gy*gw+gx] = true
			}
		}
	}
	var parts []image.Rectangle  // the regions of a tube's width, in pixels
	var halves []image.Rectangle // narrower ones, perhaps one side of a box split by its glyph
	seen := make([]bool, len(mask))
	var stack, member []int
	for i, on := range mask {
		if !on || seen[i] {
			continue
		}
		seen[i] = true
		stack = append(stack[:0], i)
		cells, x0, y0, x1, y1 := 0, gw, gh, 0, 0
		member = member[:0]
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cells++
			member = append(member, j)
			x, y := j%gw, j/gw
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= gw || ny >= gh {
					continue
				}
				if k := ny*gw + nx; mask[k] && !seen[k] {
					seen[k] = true
					stack = append(stack, k)
				}
			}
		}
		if x0 == 0 || y0 == 0 || x1 == gw || y1 == gh {
			continue // cut by the frame's edge: not a whole box, perhaps a photo or an ad
		}
		r := image.Rect(x0*s, y0*s, x1*s, y1*s)
		if float64(r.Dx()) > maxBoxWidth*float64(width) {
			// Boxes side by side may touch through a thin bridge (a shelf's edge, a glow):
			// the columns a unit tall are still apart.
			parts = append(parts, tallColumns(member, gw, s, int(math.Ceil(boxHeight*unit/float64(s))), width)...)
			continue
		}
		if float64(r.Dy()) >= partHeight*unit && float64(cells) >= boxFill*float64((x1-x0)*(y1-y0)) {
			if float64(r.Dx()) >= boxWidth*float64(width) {
				parts = append(parts, r)
			} else if float64(r.Dx()) >= halfWidth*float64(width) {
				halves = append(halves, r)
			}
		}
	}
	parts = append(parts, pairHalves(halves, width)...)
	if len(fills) > 1 {
		parts = append(parts, stackedHalves(halves, width, unit)...)
	}
	// A box is drawn with an edge: the cells round it stand ringDist or more off the look. A
	// patch of a blurred background (a dark blob) fades into its surround, the cells round
	// it near the look still. (Only where the look stands well off the background's colour,
	// by ringDist/ringShare: nearer it, a box's surround is as near the look as a fade's.)
	if ringShare*labDist(look, bg) >= ringDist {
		parts = slices.DeleteFunc(parts, func(p image.Rectangle) bool {
			return surroundDist(means, gw, gh, s, p, look, boxes) < ringDist
		})
	}
	// In a tube read empty a region counts only from belowTop under its top: hidden units lie
	// under a top unit of their own colour, where glass that looks like them fills the tube.
	parts = slices.DeleteFunc(parts, func(p image.Rectangle) bool {
		return slices.ContainsFunc(empties, func(e image.Rectangle) bool {
			return p.Overlaps(e) && float64(p.Min.Y) < float64(e.Min.Y)+belowTop*unit
		})
	})
	parts = nearTubes(parts, all)
	// A region a unit tall is a run of boxes; a shorter one counts when another stands a unit
	// above or below it (boxes drawn apart, as discs are).
	n := 0
	for _, p := range parts {
		stacked := slices.ContainsFunc(parts, func(q image.Rectangle) bool {
			dy := math.Abs(float64(p.Min.Y+p.Max.Y-q.Min.Y-q.Max.Y)) / 2
			return q != p && math.Abs(centreX(p)-centreX(q)) < stackOffBeat*float64(width) && dy >= (1-stackTol)*unit && dy <= (1+stackTol)*unit
		})
		if float64(p.Dy()) >= boxHeight*unit || stacked {
			n++
		}
	}
	return n
}

// nearTubes is parts less those further than rowReach of the tubes' height (their boxes'
// median) above or below every tube: a tube the layout missed stands in a row of the board
// or one row off it, and a box further off is something else (a banner's letters, an icon at
// the screen's foot: 20261290783730).
func nearTubes(parts, tubes []image.Rectangle) []image.Rectangle {
	reach := rowReach * float64(medianHeight(tubes))
	return slices.DeleteFunc(parts, func(p image.Rectangle) bool {
		return !slices.ContainsFunc(tubes, func(b image.Rectangle) bool {
			return float64(max(b.Min.Y-p.Max.Y, p.Min.Y-b.Max.Y)) <= reach
		})
	})
}

// ringDist is how far (CIELAB, Euclidean) the cells round a box in the hidden units' look
// stand from it at least, by their median, where the look stands ringDist/ringShare or more
// from the background's colour: a box's edge parts it from its surround.
const (
	ringDist  = 3 * lookDist
	ringShare = 0.6
)

// surroundDist is the median distance from look of the cell means (a grid gw by gh of cells s
// pixels wide) in the ring of cells round region r (in pixels), less those on the tubes'
// boxes (a lid over a tube joins the tube's units below it).
func surroundDist(means []lab, gw, gh, s int, r image.Rectangle, look lab, boxes []image.Rectangle) float64 {
	x0, y0, x1, y1 := r.Min.X/s-1, r.Min.Y/s-1, r.Max.X/s, r.Max.Y/s
	var ds []float64
	for gy := max(0, y0); gy <= min(gh-1, y1); gy++ {
		for gx := max(0, x0); gx <= min(gw-1, x1); gx++ {
			if (gx == x0 || gx == x1 || gy == y0 || gy == y1) && !overlapsAny(image.Rect(gx*s, gy*s, gx*s+s, gy*s+s), boxes) {
				ds = append(ds, labDist(means[gy*gw+gx], look))
			}
		}
	}
	if len(ds) == 0 {
		return math.Inf(1)
	}
	return median(ds)
}

// pairHalves joins regions side by side into boxes: a glyph as wide as a disc, or a glare
// stripe, down the middle of a hidden box splits its fill into two columns, each narrower
// than boxWidth of a tube. Two join when they share halfOverlap of the shorter one's height,
// stand at most halfGap of a tube's width apart, and together are boxWidth to maxBoxWidth of
// it wide. Each region joins at most once, its nearest fitting neighbour on its right.
func pairHalves(halves []image.Rectangle, width int) []image.Rectangle {
	slices.SortFunc(halves, func(a, b image.Rectangle) int { return a.Min.X - b.Min.X })
	used := make([]bool, len(halves))
	var out []image.Rectangle
	for i, a := range halves {
		if used[i] {
			continue
		}
		for j := i + 1; j < len(halves); j++ {
			b := halves[j]
			shared := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
			u := a.Union(b)
			if used[j] || b.Min.X-a.Max.X > int(halfGap*float64(width)) || b.Min.X < a.Max.X ||
				float64(shared) < halfOverlap*float64(min(a.Dy(), b.Dy())) ||
				float64(u.Dx()) < boxWidth*float64(width) || float64(u.Dx()) > maxBoxWidth*float64(width) {
				continue
			}
			used[i], used[j] = true, true
			out = append(out, u)
			break
		}
	}
	return out
}

// stackedHalves joins regions one above another into boxes: marks drawn apart (discs) in a
// tube narrower than the others' boxes leave regions narrower than boxWidth of a tube, one
// per unit. Regions whose centres stand within stackOffBeat of a tube's width of the first
// one's, each at most stackGap of a unit below the last, make a box when they span
// stackSpan units or more and stackWidth of a tube's width (narrower columns are the
// outlines and shadows between tubes found).
func stackedHalves(halves []image.Rectangle, width int, unit float64) []image.Rectangle {
	hs := slices.Clone(halves)
	slices.SortFunc(hs, func(a, b image.Rectangle) int { return a.Min.Y - b.Min.Y })
	used := make([]bool, len(hs))
	var out []image.Rectangle
	for i, a := range hs {
		if used[i] {
			continue
		}
		u, n := a, 1
		for j := i + 1; j < len(hs); j++ {
			b := hs[j]
			if used[j] || math.Abs(centreX(a)-centreX(b)) >= stackOffBeat*float64(width) {
				continue
			}
			if float64(b.Min.Y-u.Max.Y) > stackGap*unit {
				break
			}
			u, n = u.Union(b), n+1
			used[j] = true
		}
		if n >= 2 && float64(u.Dy()) >= stackSpan*unit && float64(u.Dx()) >= stackWidth*float64(width) {
			out = append(out, u)
		}
	}
	return out
}

// stackGap is the widest gap, in units, between regions stackedHalves joins; stackSpan and
// stackWidth the least height, in units, and width, in tubes' widths, of a box it makes.
const (
	stackGap   = 0.5
	stackSpan  = 2
	stackWidth = 0.35
)

// A region from halfWidth of a tube's width may be half a hidden box (pairHalves).
const (
	halfWidth   = 0.2
	halfGap     = 0.35
	halfOverlap = 0.7
)

// tallColumns splits a region of cells (indices into a grid gw cells wide, s pixels a cell)
// into its runs of neighbouring grid columns that hold at least tall cells each, and returns
// those between boxWidth and maxBoxWidth of width wide, in pixels.
func tallColumns(cells []int, gw, s, tall, width int) []image.Rectangle {
	count, top, bottom := make([]int, gw), make([]int, gw), make([]int, gw)
	for _, c := range cells {
		x, y := c%gw, c/gw
		if count[x] == 0 || y < top[x] {
			top[x] = y
		}
		bottom[x] = max(bottom[x], y+1)
		count[x]++
	}
	var out []image.Rectangle
	for x := 0; x < gw; x++ {
		if count[x] < tall {
			continue
		}
		x0, y0, y1 := x, top[x], bottom[x]
		for x+1 < gw && count[x+1] >= tall {
			x++
			y0, y1 = min(y0, top[x]), max(y1, bottom[x])
		}
		r := image.Rect(x0*s, y0*s, (x+1)*s, y1*s)
		if float64(r.Dx()) >= boxWidth*float64(width) && float64(r.Dx()) <= maxBoxWidth*float64(width) {
			out = append(out, r)
		}
	}
	return out
}

// labDist is the Euclidean distance between two CIELAB colours: cheap enough for every cell
// of a frame.
func labDist(x, y lab) float64 { return math.Sqrt(labDist2(x, y)) }

// labDist2 is labDist squared.
func labDist2(x, y lab) float64 {
	return (x.L-y.L)*(x.L-y.L) + (x.A-y.A)*(x.A-y.A) + (x.B-y.B)*(x.B-y.B)
}

// cellMatch is the share of the frame's pixels in r within tols[i] of some cs[i].
func (f *frame) cellMatch(r image.Rectangle, cs []lab, tols []float64) float64 {
	r = f.clip(r)
	n, in := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := f.at(x, y)
			for i, c := range cs {
				if labDist(p, c) < tols[i] {
					in++
					break
				}
			}
			n++
		}
	}
	return float64(in) / float64(max(n, 1))
}

// cellMean is the mean colour of the frame's pixels in r (clipped to the frame).
func (f *frame) cellMean(r image.Rectangle) lab {
	r = f.clip(r)
	var m lab
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := f.at(x, y)
			m.L, m.A, m.B = m.L+c.L, m.A+c.A, m.B+c.B
			n++
		}
	}
	if n > 0 {
		m.L, m.A, m.B = m.L/float64(n), m.A/float64(n), m.B/float64(n)
	}
	return m
}

// hiddenLook is what the hidden units look like: the mean colour of their patches, taken
// cell by cell as hiddenLookOutside takes the frame's, and the colour of the box under the
// glyph (fill): the patches' median colour or, when the median of their darker half, pixel
// by pixel, lies pixelDist or more from it, that. (The median mixes the box with a glyph as
// large as a disc round a "?", and then matches nothing drawn.) When most hidden patches are
// marked (see marks), the fills are two: the medians of their darker and lighter tones. It
// reports false when no unit is hidden.
func (f *frame) hiddenLook(samples []unitSample) (look lab, fills []lab, ok bool) {
	var means, colors, darks, lights []lab
	var ls, as, bs []float64
	for _, s := range samples {
		if !s.hidden {
			continue
		}
		p := f.clip(s.patch)
		means = append(means, f.cellMean(p))
		colors = append(colors, s.color)
		if a, b, ok := f.marks(s.patch); ok {
			darks, lights = append(darks, a), append(lights, b)
		}
		below := s.color.L // the patch's median lightness
		for y := p.Min.Y; y < p.Max.Y; y++ {
			for x := p.Min.X; x < p.Max.X; x++ {
				if px := f.at(x, y); px.L <= below {
					ls, as, bs = append(ls, px.L), append(as, px.A), append(bs, px.B)
				}
			}
		}
	}
	if len(means) == 0 {
		return lab{}, nil, false
	}
	if 2*len(darks) > len(means) {
		return meanLab(means), []lab{medianOf(darks), medianOf(lights)}, true
	}
	fill := medianOf(colors)
	if len(ls) > 0 {
		if dark := (lab{L: median(ls), A: median(as), B: median(bs)}); labDist(dark, fill) >= pixelDist {
			fill = dark
		}
	}
	return meanLab(means), []lab{fill}, true
}

// Hidden units drawn as a glyph in a disc (or any mark as large as the box round it) split
// their patch into two tones near half and half, so that the patch's median, a mix of the
// two, varies from unit to unit where the tones do not: such units group by their tones.
// A patch is marked when its two tones (2-means in CIELAB) stand markDist (Euclidean) or
// more apart and the lesser covers markShare of its pixels or more: a glare stripe or a few
// bubbles cover less, a glyph on a box covers more.
const (
	markDist   = 30
	markShare  = 0.2
	toneRounds = 4
)

// markedColors returns, for each sample, the midpoint of its patch's two tones, and whether
// the patch is marked (see markDist).
func (f *frame) markedColors(samples []unitSample) ([]lab, []bool) {
	colors := make([]lab, len(samples))
	marked := make([]bool, len(samples))
	for i, s := range samples {
		colors[i] = s.color
		if a, b, ok := f.marks(s.patch); ok {
			colors[i] = lab{L: (a.L + b.L) / 2, A: (a.A + b.A) / 2, B: (a.B + b.B) / 2}
			marked[i] = true
		}
	}
	return colors, marked
}

// marks returns patch r's two tones, darker first, when it is marked (see markDist). Every
// layout and every reading of its units tried looks at the same patches: a patch is split
// once.
func (f *frame) marks(r image.Rectangle) (a, b lab, ok bool) {
	if m, seen := f.marked[r]; seen {
		return m.a, m.b, m.ok
	}
	a, b, share, ok := f.twoTones(r)
	ok = ok && labDist(a, b) >= markDist && min(share, 1-share) >= markShare
	if f.marked == nil {
		f.marked = map[image.Rectangle]markSeen{}
	}
	f.marked[r] = markSeen{a, b, ok}
	return a, b, ok
}

// markSeen is what marks found in a patch.
type markSeen struct {
	a, b lab
	ok   bool
}

// twoTones splits the pixels of patch r into two tones by 2-means in CIELAB, seeded below
// and above the patch's median lightness: a the darker, b the lighter, and b's share of the
// pixels. It reports false for a patch too small to split.
func (f *frame) twoTones(r image.Rectangle) (a, b lab, share float64, ok bool) {
	r = f.clip(r)
	if r.Dx() < 2 || r.Dy() < 2 {
		return lab{}, lab{}, 0, false
	}
	med, _ := f.medianLab(r)
	pixels := func(yield func(lab) bool) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if !yield(f.at(x, y)) {
					return
				}
			}
		}
	}
	a, b, share, ok = twoMeans(pixels, func(p lab) bool { return p.L <= med.L })
	if !ok {
		return med, med, 0, true // one tone
	}
	if a.L > b.L {
		a, b, share = b, a, 1-share
	}
	return a, b, share, true
}

// twoMeans splits the colours of each into two tones by 2-means in CIELAB, first making
// the first split, then toneRounds rounds: a is the mean of the colours first (then the
// nearer to a) takes, b the others', share b's share; false when a split leaves a tone empty.
func twoMeans(each iter.Seq[lab], first func(lab) bool) (a, b lab, share float64, ok bool) {
	in := first
	for round := 0; ; round++ {
		var sa, sb lab
		var na, nb float64
		for p := range each {
			if in(p) {
				sa.L, sa.A, sa.B, na = sa.L+p.L, sa.A+p.A, sa.B+p.B, na+1
			} else {
				sb.L, sb.A, sb.B, nb = sb.L+p.L, sb.A+p.A, sb.B+p.B, nb+1
			}
		}
		if na == 0 || nb == 0 {
			return lab{}, lab{}, 0, false
		}
		a = lab{L: sa.L / na, A: sa.A / na, B: sa.B / na}
		b = lab{L: sb.L / nb, A: sb.A / nb, B: sb.B / nb}
		share = nb / (na + nb)
		if round == toneRounds {
			return a, b, share, true
		}
		ca, cb := a, b
		in = func(p lab) bool { return labDist(p, ca) <= labDist(p, cb) }
	}
}
