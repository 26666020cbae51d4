package vision

import (
	"fmt"
	"image"
	"math"
	"slices"
)

// A row of tubes keeps one rhythm: tubes of one size at one pitch. A tube whose outline
// touches its neighbour's merges with it into one wide box, and a tube drawn without a strong
// outline may leave none: either way the row shows a free place at its pitch, inside the row
// or beyond its ends. completeRows fills those places where something tube-like stands.

// A place at a row's pitch holds a tube when a candidate box covers placeCover of it and is
// as tall as the row's tubes within placeHeightTol, or when liquid rests on its bottom. A
// row grows beyond its ends by maxRowGrowth places on each side, and further while liquid
// rests in each place.
// Beyond the board's ends, an outline stands for a tube only when it is the row's tube's size
// within endWidthTol and endHeightTol, its top within endHeightTol of the row's, and centred
// within endOffBeat of a tube's width from the place. A pitch under minPitch of the tubes'
// width (from boxes of a texture or a photo's outlines) is no row's: its places would overlap,
// hundreds of them between two tubes.
const (
	placeCover     = 0.7
	placeHeightTol = 0.25
	maxRowGrowth   = 4
	endWidthTol    = 0.15
	endHeightTol   = 0.1
	endOffBeat     = 0.25
	minPitch       = 0.9 // of the row's tube width: closer tubes would overlap
	// minSplitPitch is the least pitch, in tube widths, of places between the tubes found
	// (completeRows with split): games leave a gap of a fifth of a tube or more between
	// tubes, and places closer fit a tube between two that merely stand apart.
	minSplitPitch = 1.2
)

// completeRows is the layout with a tube added at every free place of its rows that holds
// one: in the row's gaps, and outwards from its ends while the places keep holding tubes. It
// reports false when no place was filled. Where the candidates tell nothing at a place within
// the board's span, the faint outlines (faintCandidates) count too. The places stand at the
// rows' pitch divided by split: where every other tube's outline was lost (dark liquid
// against a dark outline), the tubes found stand two places apart, and the pitch they show
// is twice the row's.
func (f *frame) completeRows(l tubeLayout, cands []image.Rectangle, faint func() []image.Rectangle, split int) (tubeLayout, bool) {
	return f.completeRowsBeyond(l, cands, faint, split, false)
}

// completeRowsBeyond is completeRows; with faintEnds, faint outlines count beyond the board's
// span too (see fullBoardEnds).
func (f *frame) completeRowsBeyond(l tubeLayout, cands []image.Rectangle, faint func() []image.Rectangle, split int, faintEnds bool) (tubeLayout, bool) {
	rows := l.allRows()
	global := commonPitch(rows) / float64(split)
	var all []image.Rectangle // the candidates and the faint outlines, put together once needed
	withFaint := func() []image.Rectangle {
		if all == nil {
			all = append(slices.Clone(cands), faint()...)
		}
		return all
	}
	added := 0
	var liquidOnly []image.Rectangle
	out := cloneRows(l.rows)
	for i, row := range rows {
		// A tube alone in its row takes its rhythm from the other rows, when it stands clear
		// of them: a box beside another row's tubes is more likely a part of them.
		if len(row) == 0 || len(row) == 1 && besideRow(row[0], rows, i) {
			continue
		}
		pitch := global
		if len(row) >= 4 {
			if p := commonPitch(rows[i : i+1]); p > 0 {
				pitch = p / float64(split)
			}
		}
		tw := medianWidth(row)
		if pitch < minPitch*float64(tw) || split > 1 && pitch < minSplitPitch*float64(tw) {
			continue // tubes this close would overlap: no rhythm of this row
		}
		top, bottom := row[0].Min.Y, row[0].Max.Y
		place := func(x float64) image.Rectangle {
			x0 := int(math.Round(x - float64(tw)/2))
			return image.Rect(x0, top, x0+tw, bottom)
		}
		var found []image.Rectangle
		// A place's box reaches over no box of the row, or another place's, further than
		// the row's boxes reach over each other (within a pixel or two of rounding): at a
		// pitch a little off a row spaced unevenly, a place drifts off its tube onto the
		// next one's.
		reach := rowReachOver(row) + 2
		taken := func(b image.Rectangle) bool {
			return overlapsAny(b, row) || overlapsAny(b, found) || reachesOver(b, row, reach) || reachesOver(b, found, reach)
		}
		// The board's span: where the other rows' tubes stand. A place beyond this row's ends
		// but within it is inside the board, where no button or doodle stands.
		lo, hi := math.Inf(1), math.Inf(-1)
		for j, other := range rows {
			if j != i && len(other) > 0 {
				lo, hi = min(lo, float64(other[0].Min.X)), max(hi, float64(other[len(other)-1].Max.X))
			}
		}
		// The row's empty tubes, read once and only when a place inside the row needs them.
		var empties []image.Rectangle
		emptiesRead := false
		rowEmpties := func() []image.Rectangle {
			if !emptiesRead {
				emptiesRead, empties = true, f.emptyBoxes(row)
			}
			return empties
		}
		inBoard := func(b image.Rectangle) bool {
			return float64(b.Min.X) >= lo-float64(tw)/4 && float64(b.Max.X) <= hi+float64(tw)/4
		}
		// free is the place at x snapped to an outline near it, when it lies inside the frame
		// and clear of the row's tubes.
		free := func(x float64, outlines []image.Rectangle) (image.Rectangle, bool) {
			b := snap(place(x), outlines, tw/2)
			return b, b.Min.X >= 0 && b.Max.X <= f.w && !taken(b)
		}
		at := func(x float64, end bool, outlines []image.Rectangle) (image.Rectangle, bool) {
			b, ok := free(x, outlines)
			return b, ok && f.holdsTube(b, place(x), outlines, row, end && !inBoard(b), rowEmpties)
		}
		try := func(x float64, end bool) bool {
			b, ok := at(x, end, cands)
			// Faint outlines count where the others tell nothing, within the board's span:
			// beyond its ends stand buttons and doodles.
			if !ok && (faintEnds || !(end && !inBoard(place(x)))) {
				b, ok = at(x, end, withFaint())
			}
			if ok {
				found = append(found, b)
				// (The faint outlines are found only where the candidates leave a place
				// unexplained.)
				if !outlined(b, cands) && !outlined(b, withFaint()) {
					liquidOnly = append(liquidOnly, b)
				}
			}
			return ok
		}
		for _, x := range gapPlaces(row, pitch) {
			try(x, false)
		}
		// The k-th place beyond an end holds a tube as any place beyond the board's ends
		// does; past maxRowGrowth places, only where liquid rests in it.
		grow := func(x float64, k int) bool {
			if k <= maxRowGrowth {
				return try(x, true)
			}
			b, ok := free(x, cands)
			if !ok || !f.holdsLiquid(b, row) {
				return false
			}
			found, liquidOnly = append(found, b), append(liquidOnly, b)
			return true
		}
		for _, end := range []struct{ from, dir float64 }{{centreX(row[0]), -1}, {centreX(row[len(row)-1]), 1}} {
			for k := 1; grow(end.from+end.dir*float64(k)*pitch, k); k++ {
			}
		}
		if len(found) == 0 {
			continue
		}
		added += len(found)
		out[i] = append(out[i], found...)
		slices.SortFunc(out[i], func(a, b image.Rectangle) int { return a.Min.X - b.Min.X })
	}
	if added == 0 {
		return tubeLayout{}, false
	}
	cue := fmt.Sprintf("%s, %d tubes added at the rows' pitch", l.cue, added)
	if split > 1 {
		cue = fmt.Sprintf("%s, %d tubes added at 1/%d of the rows' pitch", l.cue, added, split)
	}
	c := f.withCurtains(cue, f.clipRows(out), cands, l.pale)
	for _, b := range liquidOnly {
		c.liquidOnly = append(c.liquidOnly, f.clip(b))
	}
	return c, true
}

// rowReachOver is how far, in pixels, the boxes of row reach over their neighbours' at most:
// 0 where they stand clear of each other.
func rowReachOver(row []image.Rectangle) int {
	most := 0
	for i := 1; i < len(row); i++ {
		most = max(most, row[i-1].Max.X-row[i].Min.X)
	}
	return most
}

// reachesOver reports whether box b reaches over a box of boxes sharing its height further
// than reach pixels across.
func reachesOver(b image.Rectangle, boxes []image.Rectangle, reach int) bool {
	return slices.ContainsFunc(boxes, func(o image.Rectangle) bool {
		return o.Min.Y < b.Max.Y && b.Min.Y < o.Max.Y && min(b.Max.X, o.Max.X)-max(b.Min.X, o.Min.X) > reach
	})
}

// besideRow reports whether box b shares height with a tube of a row other than row i.
func besideRow(b image.Rectangle, rows [][]image.Rectangle, i int) bool {
	for j, other := range rows {
		if j != i && slices.ContainsFunc(other, func(o image.Rectangle) bool { return o.Min.Y < b.Max.Y && b.Min.Y < o.Max.Y }) {
			return true
		}
	}
	return false
}

// snap moves place b, a tube's box at a row's pitch, onto the outline of a tube of its size
// and height whose centre lies within off of b's: rows need not be evenly spaced.
func snap(b image.Rectangle, cands []image.Rectangle, off int) image.Rectangle {
	best, bd := b, off+1
	for _, c := range cands {
		dx := (c.Min.X + c.Max.X - b.Min.X - b.Max.X) / 2 // centre to centre
		if abs(dx) < bd && tubeSized(c, b) {
			best, bd = b.Add(image.Pt(dx, 0)), abs(dx)
		}
	}
	return best
}

// tubeSized reports whether outline c has the size of the tube box b and stands at its
// height, within endWidthTol and endHeightTol.
func tubeSized(c, b image.Rectangle) bool {
	return near(c.Dx(), b.Dx(), endWidthTol) && near(c.Dy(), b.Dy(), endHeightTol) &&
		abs(c.Min.Y-b.Min.Y) <= int(endHeightTol*float64(b.Dy()))
}

// holdsTube reports whether box b, snapped to an outline near the place p at a row's pitch,
// holds a tube: liquid rests on its bottom; or, beyond the board's ends (where buttons and
// doodles stand), an outline of just a tube's size stands there centred on the place p (the
// snap reaches further: an outline made of one tube's glare and the next one's wall would
// take the place of both); or, inside the board, a candidate as tall as the row's
// tubes and at most two of them wide covers it (an outline merged with a neighbour's, or
// broken), or it looks like one of the row's empty tubes (empties).
func (f *frame) holdsTube(b, p image.Rectangle, cands []image.Rectangle, row []image.Rectangle, end bool, empties func() []image.Rectangle) bool {
	if f.holdsLiquid(b, row) {
		return true
	}
	if end {
		// Beyond the board's ends only an outline of the row's own tube stands for one: of
		// its size, at its height, centred on the place.
		return slices.ContainsFunc(cands, func(c image.Rectangle) bool {
			return tubeSized(c, b) && math.Abs(centreX(c)-centreX(p)) <= endOffBeat*float64(b.Dx())
		})
	}
	if outlined(b, cands) {
		return true
	}
	// An empty tube is drawn alike wherever it stands (see emptyMatch): a place in the row
	// that looks like one of the row's empty tubes holds one, its outline lost.
	for _, e := range empties() {
		x0 := int(math.Round(centreX(b) - float64(e.Dx())/2))
		if f.nccAt(e, image.Pt(x0, e.Min.Y)) >= emptyMatch {
			return true
		}
	}
	return false
}

// outlined reports whether a candidate covers place b as a tube's outline does: placeCover of
// it or more, as tall within placeHeightTol, at most about two places wide.
func outlined(b image.Rectangle, cands []image.Rectangle) bool {
	return slices.ContainsFunc(cands, func(c image.Rectangle) bool {
		in := c.Intersect(b)
		return float64(in.Dx()*in.Dy()) >= placeCover*float64(b.Dx()*b.Dy()) && near(c.Dy(), b.Dy(), placeHeightTol) && c.Dx() <= 2*b.Dx()+b.Dx()/4
	})
}

// holdsLiquid reports whether liquid rests in place b beside the tubes of row.
func (f *frame) holdsLiquid(b image.Rectangle, row []image.Rectangle) bool {
	return !f.placeColumn(b, row).empty()
}

// placeColumn is the column read in place b beside the tubes of row, with the room the
// row leaves it.
func (f *frame) placeColumn(b image.Rectangle, row []image.Rectangle) column {
	return f.readColumn(b, room(append(slices.Clone(row), b), b))
}

// emptyBoxes are the boxes of the row (clipped to the frame, large enough to correlate) that
// hold no liquid.
func (f *frame) emptyBoxes(row []image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for _, e := range row {
		if e = f.clip(e); e.Dx() >= 4 && e.Dy() >= 4 && f.readColumn(e, room(row, e)).empty() {
			out = append(out, e)
		}
	}
	return out
}

// medianWidth is the median width of the boxes.
func medianWidth(bs []image.Rectangle) int {
	return medianSide(bs, image.Rectangle.Dx)
}

// medianHeight is the median height of the boxes.
func medianHeight(bs []image.Rectangle) int {
	return medianSide(bs, image.Rectangle.Dy)
}

func medianSide(bs []image.Rectangle, side func(image.Rectangle) int) int {
	ws := make([]int, len(bs))
	for i, b := range bs {
		ws[i] = side(b)
	}
	slices.Sort(ws)
	return ws[len(ws)/2]
}

// dropGlassTops takes tinted or frosted glass out of the columns: where the glass does not
// look like the background around the tubes, a tube's empty part reads as one more layer on
// top of its liquid. Every tube is drawn in the same glass, so a top layer that the empty
// tubes show, or that most tubes' top layers share, is glass, and the liquid ends below it.
// Over a background that changes from tube to tube the glass shares no colour, only a law
// (dropLawGlass).
func (f *frame) dropGlassTops(cols []column, rooms [][2]int) {
	tops := make([]lab, len(cols))
	topSeen := make([]bool, len(cols))
	var sampled []lab
	for i, c := range cols {
		if c.curtain || c.empty() {
			continue
		}
		below := c.bottom
		if n := len(c.bounds); n > 0 {
			below = c.bounds[n-1]
		}
		m, ok := f.medianLab(centreStrip(c.box, c.top, below))
		if !ok {
			continue
		}
		tops[i], topSeen[i] = m, true
		sampled = append(sampled, m)
	}
	if len(sampled) < 3 {
		return
	}
	// The glass as the empty tubes show it, as the headroom shows it, and as the top layer
	// most tubes share (when most do).
	glasses := f.glassSeen(cols)
	seen := len(glasses) // glass seen directly, in empty tubes, the headroom or above liquid
	shared := medianOf(sampled)
	// Glass read as liquid reaches up to the tube's top (column.reachesTop).
	reaches := column.reachesTop
	var sharing []int // the tubes whose top is the shared one, up to their top
	layered := 0
	for i, c := range cols {
		if !c.curtain && !c.empty() && deltaE(tops[i], shared) < glassDE && reaches(c) {
			sharing = append(sharing, i)
			if len(c.bounds) > 0 {
				layered++
			}
		}
	}
	// Glass only tints what lies behind it: a top no glass over the background can show
	// (lavender over gold) is liquid, however many tubes share it.
	glassy := func() bool {
		var behind []lab
		for _, i := range sharing {
			c := cols[i]
			if bg, ok := f.beside(c.box, rooms[i], c.top, c.box.Min.Y+int(glassReach*float64(c.box.Dy()))+1); ok {
				behind = append(behind, bg)
			}
		}
		return len(behind) == 0 || translucentOver(shared, medianOf(behind))
	}
	// Glass lies over the liquid, never under it: a top that some tube shows under another
	// layer is a liquid's colour. (Alike within buriedDE: hidden boxes, grey as the glass
	// can be, lie near it.)
	buried := func() bool {
		return slices.ContainsFunc(cols, func(c column) bool {
			return !c.curtain && len(c.runs) > 1 && slices.ContainsFunc(c.runs[:len(c.runs)-1], func(r lab) bool { return deltaE(r, shared) < buriedDE })
		})
	}
	sharedWhole := false
	if float64(len(sharing)) >= glassTopShare*float64(len(sampled)) && !buried() && glassy() {
		glasses = append(glasses, shared)
		// A tube that is one layer up to its top holds capacity units; were the shared top
		// liquid, the tubes where it lies over other layers would add more of that colour
		// than a level has. So with one such tube, a tube all of it is glass.
		sharedWhole = layered > 0
	}
	// Two tubes that are one colour up to their top and look alike cannot both be full of a
	// liquid (a colour fills one tube, and games draw no two colours this alike): they are
	// empty tubes of tinted glass.
	twins := map[int]bool{}
	for i, c := range cols {
		if c.curtain || c.empty() || len(c.bounds) > 0 || !reaches(c) {
			continue
		}
		for j := range i {
			o := cols[j]
			if !o.curtain && !o.empty() && len(o.bounds) == 0 && reaches(o) && deltaE(tops[i], tops[j]) < twinDE {
				twins[i], twins[j] = true, true
			}
		}
	}
	isGlass := func(i int) bool {
		if twins[i] || topSeen[i] && f.noSurface(cols[i], tops[i]) {
			return true
		}
		// A tube that is all one colour is taken for an empty one only on glass seen
		// directly, or on the shared top by the count above: most tubes full of one colour
		// each share no glass.
		c := cols[i]
		gs := glasses
		if len(c.bounds) == 0 && !(sharedWhole && reaches(c)) {
			gs = glasses[:seen]
		}
		return slices.ContainsFunc(gs, func(g lab) bool { return deltaE(tops[i], g) < glassDE })
	}
	for i := range cols {
		c := &cols[i]
		if c.curtain || c.empty() || !isGlass(i) {
			continue
		}
		if len(c.bounds) > 0 {
			c.dropTop()
		} else {
			*c = column{box: c.box}
		}
	}
	f.dropLawGlass(cols, rooms)
}

// noSurface reports whether the top run of column c, of colour run (its centre strip's
// median), begins with no surface: a liquid's top is an edge, its colour changing at once
// from the glass above it, while tinted glass over a background that darkens or lightens down
// the tube changes by degrees, and the change found there is no edge. Over the surfaceRows rows on each side of the top, the colour must
// change by less than surfaceShare of the change from the room above to the run, and that
// change be less than glassShiftDE: the glass moves with the background only part of its way,
// and a larger change with no edge is something else (a glow over hidden boxes whose top was
// missed).
func (f *frame) noSurface(c column, run lab) bool {
	room := c.top - c.box.Min.Y
	if room <= 2*surfaceRows {
		return false
	}
	above, ok1 := f.medianLab(centreStrip(c.box, c.top-room/2, c.top-1))
	over, ok2 := f.medianLab(centreStrip(c.box, c.top-surfaceRows, c.top-1))
	under, ok3 := f.medianLab(centreStrip(c.box, c.top+1, c.top+surfaceRows))
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	shift := deltaE(above, run)
	return shift < glassShiftDE && deltaE(over, under) < surfaceShare*shift
}

const (
	surfaceRows  = 4
	surfaceShare = 0.35
	glassShiftDE = 20
)

// glassTopShare is the share of tubes whose top layer must look alike, reaching within
// glassReach of the tube's height from its top, for it to be taken for the glass when no
// empty tube shows it.
const (
	glassTopShare = 0.75
	glassReach    = 0.15
	buriedDE      = 4
)

// headroomGlass is the glass as the tubes' headroom shows it: games leave room above a full
// tube, so the band between a tube's top and the typical top of the liquid shows the glass in
// every tube, full or not. It reports false unless glassTopShare of the tubes agree on the
// band's colour, or the band is too thin to sample.
func (f *frame) headroomGlass(cols []column) (lab, bool) {
	var tops []int
	for _, c := range cols {
		if !c.curtain && !c.empty() {
			tops = append(tops, c.top-c.box.Min.Y)
		}
	}
	if len(tops) < 3 {
		return lab{}, false
	}
	slices.Sort(tops)
	fill := tops[len(tops)/2] // the liquid's typical top, below the box's top
	y0, y1 := int(headroomSkip*float64(fill)), fill-1
	if y1-y0 < 2 {
		return lab{}, false
	}
	if g, ok := f.bandGlass(cols, y0, y1); ok {
		return g, true
	}
	// A thick rim may fill most of the band: the rows right above the liquid's typical top
	// show the glass alone.
	if y0 = max(y0, y1-headroomLowRows); y1-y0 >= 2 {
		return f.bandGlass(cols, y0, y1)
	}
	return lab{}, false
}

// headroomLowRows is how many rows right above the liquid's typical top headroomGlass looks
// at when the whole band does not agree.
const headroomLowRows = 3

// bandGlass is the glass as the band y0..y1 under each tube's box's top shows it, where
// glassTopShare of the tubes agree on it (agreedGlass).
func (f *frame) bandGlass(cols []column, y0, y1 int) (lab, bool) {
	var bands []lab
	for _, c := range cols {
		if c.curtain {
			continue
		}
		if m, ok := f.medianLab(centreStrip(c.box, c.box.Min.Y+y0, c.box.Min.Y+y1)); ok {
			bands = append(bands, m)
		}
	}
	if len(bands) < 3 {
		return lab{}, false
	}
	return agreedGlass(bands)
}

// headroomSkip is the share of the headroom, from the box's top, left out of its sample: the
// outline and a rim or cork.
const headroomSkip = 0.4

// glassAbove is the glass as the tubes with room above their liquid show it: the middle of the
// space between the tube's top and its liquid. It reports false unless at least two tubes have
// that room and glassTopShare of them agree on its colour.
func (f *frame) glassAbove(cols []column) (lab, bool) {
	above := f.bandsAbove(cols, glassRoom)
	if len(above) < 2 {
		return lab{}, false
	}
	return agreedGlass(above)
}

// agreedGlass is the median of the glass samples, reported true when glassTopShare of them lie
// within glassDE of it.
func agreedGlass(samples []lab) (lab, bool) {
	glass := medianOf(samples)
	n := countFunc(samples, func(m lab) bool { return deltaE(m, glass) < glassDE })
	return glass, float64(n) >= glassTopShare*float64(len(samples))
}

// glassRoom is the share of a tube's height that must be empty above its liquid for the
// space to be sampled as the glass.
const glassRoom = 0.25

// glassSeen is the glass as the tubes show it directly: inside the empty tubes, in the
// headroom, above the liquid. It is empty when none shows it.
func (f *frame) glassSeen(cols []column) []lab {
	var out []lab
	for _, find := range []func([]column) (lab, bool){f.emptyGlass, f.headroomGlass, f.glassAbove} {
		if g, ok := find(cols); ok {
			out = append(out, g)
		}
	}
	return out
}

// bandsAbove is the glass as each tube with room above its liquid shows it, minRoom of its
// height or more: the middle of the band between the tube's top and its liquid.
func (f *frame) bandsAbove(cols []column, minRoom float64) []lab {
	var out []lab
	for _, c := range cols {
		room := c.top - c.box.Min.Y
		if c.curtain || c.empty() || float64(room) < minRoom*float64(c.box.Dy()) {
			continue
		}
		y0, y1 := c.roomBand()
		if y1-y0 < 2 {
			continue
		}
		if m, ok := f.medianLab(centreStrip(c.box, y0, y1)); ok {
			out = append(out, m)
		}
	}
	return out
}

// roomLooks is the glass as each tube with room above its liquid (glassRoom of its height or
// more) shows it there (see raisePaleTops).
func (f *frame) roomLooks(cols []column) []lab { return f.bandsAbove(cols, glassRoom) }

// roomBand is the rows of the room above the column's liquid that show the glass alone:
// below the box's top, its rim and a cork (headroomSkip of the room), above the liquid's
// meniscus (a tenth of the room).
func (c column) roomBand() (y0, y1 int) {
	room := c.top - c.box.Min.Y
	return c.box.Min.Y + int(headroomSkip*float64(room)), c.top - room/10
}

// insideBand is the rows of an empty tube's box that show its glass alone: below its rim
// and above its foot.
func insideBand(b image.Rectangle) (y0, y1 int) {
	return b.Min.Y + b.Dy()*3/10, b.Min.Y + b.Dy()*8/10
}

// glassBandRoom is the least room above a tube's liquid, as a share of its height, at which
// a whole tube is compared with the glass there (wholeGlassTube).
const glassBandRoom = 0.08

// An empty tube is drawn alike wherever it stands: a place beyond a row's ends whose grey
// levels correlate with a found empty tube's by emptyMatch or more holds a tube the layout
// missed (a faint one, its outline lost on the background). Counts never see a missed empty
// tube, and a board shows one at a row's end as often as anywhere.
const emptyMatch = 0.85

// endEdgeMargin is the least room, as a share of a tube's width, that a place beyond a row's
// end leaves to the frame's edge: games keep their tubes off the screen's edge, and a place
// against it leaves no room further out to tell the background from a tube (a dark
// background at the frame's edge, shaded like the glass above a tube's liquid, matched it).
const endEdgeMargin = 0.125

// outRoom is the least room, as a share of a tube's width, beyond a place past a row's end
// that emptyBeyondEnds compares the background in.
const outRoom = 0.5

// liquidBeyondEnds is the number of places a pitch beyond the ends of the rows (of two tubes
// or more), inside the frame and clear of every tube, where liquid rests as in a tube, its
// bottom within endBottomTol of a unit of the row's liquid's (a spot of the background
// rests nowhere in particular): tubes the layout missed. Complete tubes missed at a row's end
// leave the counts whole. The columns are the rows' boxes in reading order. Places over a
// box in readEmpty (taken for their liquid alone, read empty among the tubes) are not counted.
func (f *frame) liquidBeyondEnds(rows [][]image.Rectangle, cols []column, unit float64, readEmpty []image.Rectangle) int {
	all := slices.Concat(rows...)
	n, k := 0, 0
	for _, row := range rows {
		if k+len(row) > len(cols) {
			break
		}
		var bottoms, tops, feet []float64
		for _, c := range cols[k : k+len(row)] {
			if !c.curtain && !c.empty() {
				bottoms = append(bottoms, float64(c.bottom))
				tops, feet = append(tops, float64(c.box.Min.Y)), append(feet, float64(c.box.Max.Y))
			}
		}
		k += len(row)
		if len(row) < 2 || len(bottoms) == 0 {
			continue
		}
		pitch := int(math.Round(commonPitch([][]image.Rectangle{row})))
		if pitch <= 0 {
			continue
		}
		bottom := median(bottoms)
		// A place spans the row's tubes' height: a curtain at the row's end hangs its cloth
		// above the tubes' feet (85000471).
		tall := func(b image.Rectangle) image.Rectangle {
			b.Min.Y, b.Max.Y = int(median(tops)), int(median(feet))
			return b
		}
		for _, b := range []image.Rectangle{tall(row[0].Sub(image.Pt(pitch, 0))), tall(row[len(row)-1].Add(image.Pt(pitch, 0)))} {
			if !b.In(f.bounds()) || overlapsAny(b, all) || overlapsAny(b, readEmpty) {
				continue
			}
			if c := f.placeColumn(b, row); !c.empty() && math.Abs(float64(c.bottom)-bottom) <= endBottomTol*unit {
				n++
			}
		}
	}
	return n
}

// endBottomTol is how far, in units, the liquid in a place beyond a row's end may rest off
// the row's liquid's bottom and still stand in a tube of the row (liquidBeyondEnds).
const endBottomTol = 0.12

// endPlace is a place of row row of a layout, beyond its end or in a gap at its pitch, that
// holds a tube the layout missed.
type endPlace struct {
	row int
	box image.Rectangle
}

// emptyBeyondEnds is the places just beyond the rows' ends that look like the first empty
// tube found or, when every tube found holds liquid, like the empty glass above the liquid of
// the tube with the most of it (headroomTemplate). A row spaces its tubes at its pitch, or
// unevenly: the place is looked for from the narrowest gap between the row's tubes, less
// endSlack of it, to the widest, plus endSlack of it (a row of one takes its gap from the
// rows' pitch, and has none where they keep none in common). tpl is the template
// (emptyTemplate).
func (f *frame) emptyBeyondEnds(rows [][]image.Rectangle, tpl image.Rectangle) []endPlace {
	pitch := commonPitch(rows) // (a row of one has no gaps of its own: the rows' pitch tells them)
	all := slices.Concat(rows...)
	var out []endPlace
	for i, row := range rows {
		if len(row) == 0 || len(row) == 1 && pitch <= 0 {
			continue
		}
		lo, hi := rowGaps(row, pitch)
		w := tpl.Dx()
		margin := int(math.Ceil(endEdgeMargin * float64(w)))
		first, last := row[0], row[len(row)-1]
		// Left edges of the places tried beyond each end, nearest first, and which way is out.
		for _, side := range []struct {
			xs  [2]int
			out int
		}{{[2]int{last.Max.X + lo, last.Max.X + hi}, 1}, {[2]int{first.Min.X - hi - w, first.Min.X - lo - w}, -1}} {
			for x0 := side.xs[0]; x0 <= side.xs[1]; x0++ {
				at := image.Rect(x0, row[0].Min.Y, x0+w, row[0].Min.Y+tpl.Dy())
				if at.Min.X < margin || at.Max.X > f.w-margin || overlapsAny(at, all) || f.emptyMatchAt(tpl, at.Min) < emptyMatch {
					continue
				}
				// An empty tube that shows little but the background (a faint outline on a
				// gradient) matches any place beside the row: where the background a place
				// further out, above or below matches it too, the match says nothing. Further
				// out is a tube's width out, or as far as the frame leaves room for; with room
				// for less than outRoom of a width, nothing tells the background from a tube
				// there (a place near the edge over a bright blob that spans it and the template,
				// 20261339784048).
				room := f.w - at.Max.X
				if side.out < 0 {
					room = at.Min.X
				}
				if float64(room) < outRoom*float64(w) {
					break
				}
				if !slices.ContainsFunc([]image.Point{{side.out * min(w, room), 0}, {0, -tpl.Dy()}, {0, tpl.Dy()}}, func(d image.Point) bool {
					return f.emptyMatchAt(tpl, at.Min.Add(d)) >= emptyMatch
				}) {
					out = append(out, endPlace{i, asTall(at, row)})
				}
				break
			}
		}
	}
	return out
}

// emptyTemplate is the box whose pixels an empty tube shows: the first empty tube found or,
// when every tube found holds liquid, the glass above the liquid of the tube with the most
// of it (headroomTemplate). It reports false when there is none, or none large enough.
func (f *frame) emptyTemplate(cols []column, liquidOnly []image.Rectangle) (image.Rectangle, bool) {
	// (A tube added for the liquid resting in its place alone shows no glass of its own: its
	// headroom is the background, which matches any place beside the row, 20261330784352.)
	cols = slices.DeleteFunc(slices.Clone(cols), func(c column) bool { return slices.Contains(liquidOnly, c.box) })
	var tpl image.Rectangle
	if i := slices.IndexFunc(cols, func(c column) bool { return c.empty() && !c.curtain }); i >= 0 {
		tpl = f.clip(cols[i].box)
	} else if t, ok := headroomTemplate(cols); ok {
		tpl = f.clip(t)
	} else {
		return image.Rectangle{}, false
	}
	return tpl, tpl.Dx() >= 4 && tpl.Dy() >= 4
}

// emptyInGaps is the places at a row's pitch between two of its tubes, where the layout has
// none, that look like an empty tube found (emptyTemplate, by gapMatch): a faint tube on a
// textured background leaves no outline to find. Each place is looked for within
// gapPlaceSlack of a pitch from where the pitch puts it, at the row's top; a place whose
// background just above or below matches the template too says nothing (an empty tube that
// shows little but the background matches anywhere). tpl is the template (emptyTemplate).
func (f *frame) emptyInGaps(rows [][]image.Rectangle, tpl image.Rectangle) []endPlace {
	global := commonPitch(rows)
	all := slices.Concat(rows...)
	w := tpl.Dx()
	var out []endPlace
	for i, row := range rows {
		pitch := rowPitch(row, global)
		if pitch <= 0 {
			continue
		}
		slack := int(math.Ceil(gapPlaceSlack * pitch))
		for _, cx := range gapPlaces(row, pitch) {
			x := int(math.Round(cx)) - w/2
			best, bestX := gapMatch, -1
			for x0 := x - slack; x0 <= x+slack; x0++ {
				at := image.Rect(x0, row[0].Min.Y, x0+w, row[0].Min.Y+tpl.Dy())
				if overlapsAny(at, all) || wedged(at, row) {
					continue
				}
				if m := f.nccAt(tpl, at.Min); m >= best {
					best, bestX = m, x0
				}
			}
			if bestX < 0 {
				continue
			}
			at := image.Rect(bestX, row[0].Min.Y, bestX+w, row[0].Min.Y+tpl.Dy())
			if !slices.ContainsFunc([]image.Point{{0, -tpl.Dy()}, {0, tpl.Dy()}}, func(d image.Point) bool {
				return f.nccAt(tpl, at.Min.Add(d)) >= gapMatch
			}) {
				out = append(out, endPlace{i, asTall(at, row)})
			}
		}
	}
	return out
}

// asTall is place b as tall as row's tubes (their median height) where it is less tall: the
// template the place matched may be only the glass above a tube's liquid (headroomTemplate),
// and a box of its height over a tube missed cut the tube's lower units off (20261344784197,
// a tube of four units read as three beside lids).
func asTall(b image.Rectangle, row []image.Rectangle) image.Rectangle {
	if len(row) == 0 {
		return b
	}
	if h := medianHeight(row); h > b.Dy() {
		b.Max.Y = b.Min.Y + h
	}
	return b
}

// wedged reports whether place b fills a gap of row from wall to wall: a box of the row left
// of it ends within touchGap pixels of it or reaches into it, and one right of it likewise.
// Games leave a gap beside each tube; a place that fills one is the background between two
// tubes' walls, shaped like a tube (a photo's row of tubes as far apart as they are wide, an
// empty tube added in each gap, 20261331784062).
func wedged(b image.Rectangle, row []image.Rectangle) bool {
	left := slices.ContainsFunc(row, func(o image.Rectangle) bool { return centreX(o) < centreX(b) && b.Min.X-o.Max.X <= touchGap })
	right := slices.ContainsFunc(row, func(o image.Rectangle) bool { return centreX(o) > centreX(b) && o.Min.X-b.Max.X <= touchGap })
	return left && right
}

// touchGap is the widest gap, in pixels, at which two boxes touch (rounding, a blurred edge).
const touchGap = 1

// gapPlaces are the centres of the places at pitch in the gaps between row's tubes that hold
// none: a gap of k pitches holds k-1 (rounded).
func gapPlaces(row []image.Rectangle, pitch float64) []float64 {
	var out []float64
	for j := 1; j < len(row); j++ {
		a, b := centreX(row[j-1]), centreX(row[j])
		for k := 1.0; a+(k+0.5)*pitch < b; k++ {
			out = append(out, a+k*pitch)
		}
	}
	return out
}

// gapPlaceSlack is how far, as a share of the pitch, a place in a row's gap is looked for
// from where the pitch puts it; gapMatch is the least correlation of its grey levels with
// the template's, less than emptyMatch: the row's rhythm already says a tube stands there,
// and a textured background (wood) behind a faint tube differs from the one behind the
// template (emptyInGaps).
const (
	gapPlaceSlack = 0.15
	gapMatch      = 0.7
)

// rowGaps is the range of gaps, between one tube's box and the next's, that a place beyond
// the row's ends is looked for at: from the narrowest gap in the row, less endSlack of it,
// to the widest plus endSlack of it (the pitch less a box's width, for a row of one).
func rowGaps(row []image.Rectangle, pitch float64) (lo, hi int) {
	if len(row) < 2 {
		g := max(0, int(math.Round(pitch))-row[0].Dx())
		return g, g
	}
	lo, hi = math.MaxInt, 0
	for i := 1; i < len(row); i++ {
		g := max(0, row[i].Min.X-row[i-1].Max.X)
		lo, hi = min(lo, g), max(hi, g)
	}
	return int(float64(lo) * (1 - endSlack)), int(math.Ceil(float64(hi) * (1 + endSlack)))
}

// endSlack is how much narrower or wider than the row's own gaps the gap before a place
// beyond its end may be.
const endSlack = 0.5

// minHeadroomShare is how much of its box the glass above a tube's liquid must fill to stand
// for an empty tube's look: less is mostly the rim, alike on any tube-sized place.
const minHeadroomShare = 0.4

// headroomTemplate is the empty glass of the tube with the most room above its liquid, from
// the box's top to the liquid's, when it fills minHeadroomShare of the box.
func headroomTemplate(cols []column) (image.Rectangle, bool) {
	best, share := image.Rectangle{}, 0.0
	for _, c := range cols {
		if c.curtain || c.empty() {
			continue
		}
		if t := image.Rect(c.box.Min.X, c.box.Min.Y, c.box.Max.X, c.top); t.Dy() > best.Dy() {
			best, share = t, float64(t.Dy())/float64(c.box.Dy())
		}
	}
	return best, best.Dy() >= 4 && share >= minHeadroomShare
}

// nccAt correlates the frame's grey levels in tpl with those in the rectangle of tpl's size
// whose top-left corner is at; 0 where that rectangle leaves the frame.
func (f *frame) nccAt(tpl image.Rectangle, at image.Point) float64 {
	b := tpl.Sub(tpl.Min).Add(at)
	if !b.In(f.bounds()) {
		return 0
	}
	return f.grayNCC(tpl, b)
}

// emptyMatchAt is how well the place at at matches the empty tube in tpl: the grey levels'
// normalised cross-correlation or, where that is labGate or more, the colours' (labNCC) if
// higher. An outline that stands from the background in hue more than in grey (a green
// outline on brown wood) leaves the grey levels to the texture seen through the glass,
// which differs from place to place (20261333784299).
func (f *frame) emptyMatchAt(tpl image.Rectangle, at image.Point) float64 {
	g := f.nccAt(tpl, at)
	if g < labGate || g >= emptyMatch {
		return g
	}
	return max(g, f.labNCC(tpl, tpl.Sub(tpl.Min).Add(at)))
}

// labGate is the least grey-level match at which emptyMatchAt compares the colours too.
const labGate = 0.4

// labNCC is the normalised cross-correlation of the frame's CIELAB colours in two
// rectangles of one size inside the frame: L, a and b each less its mean over the
// rectangle, taken together as one vector.
func (f *frame) labNCC(a, b image.Rectangle) float64 {
	if !a.In(f.bounds()) || !b.In(f.bounds()) {
		return 0
	}
	var sa, sb, saa, sbb, sab [3]float64
	for y := 0; y < a.Dy(); y++ {
		for x := 0; x < a.Dx(); x++ {
			i, j := 3*((a.Min.Y+y)*f.w+a.Min.X+x), 3*((b.Min.Y+y)*f.w+b.Min.X+x)
			for c := range 3 {
				p, q := float64(f.lab[i+c]), float64(f.lab[j+c])
				sa[c], sb[c], saa[c], sbb[c], sab[c] = sa[c]+p, sb[c]+q, saa[c]+p*p, sbb[c]+q*q, sab[c]+p*q
			}
		}
	}
	n := float64(a.Dx() * a.Dy())
	var vab, vaa, vbb float64
	for c := range 3 {
		vab += sab[c] - sa[c]*sb[c]/n
		vaa += saa[c] - sa[c]*sa[c]/n
		vbb += sbb[c] - sb[c]*sb[c]/n
	}
	if vaa <= 0 || vbb <= 0 {
		return 0
	}
	return vab / math.Sqrt(vaa*vbb)
}

// grayNCC is the normalised cross-correlation of the frame's grey levels in two rectangles of
// one size inside the frame.
func (f *frame) grayNCC(a, b image.Rectangle) float64 {
	var sa, sb, saa, sbb, sab float64
	n := float64(a.Dx() * a.Dy())
	for y := 0; y < a.Dy(); y++ {
		for x := 0; x < a.Dx(); x++ {
			p := float64(f.gray[(a.Min.Y+y)*f.w+a.Min.X+x])
			q := float64(f.gray[(b.Min.Y+y)*f.w+b.Min.X+x])
			sa, sb, saa, sbb, sab = sa+p, sb+q, saa+p*p, sbb+q*q, sab+p*q
		}
	}
	va, vb := saa-sa*sa/n, sbb-sb*sb/n
	if va <= 0 || vb <= 0 {
		return 0
	}
	return (sab - sa*sb/n) / math.Sqrt(va*vb)
}
