package vision

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/annotate"
)

// Reading is what Read saw in a screenshot.
type Reading struct {
	// Level is the position read, tubes in reading order (rows top to bottom, left to right).
	Level *solver.Level
	// Tubes holds each tube's geometry in the original image's pixels, in the level's order.
	// In a photo of a screen, read upright (see findScreen), a box bounds the tilted tube.
	Tubes []Tube
	// Width and Height are the original image's size (after EXIF orientation).
	Width, Height int
	// Confidence is 1 for a reading that satisfies every rule of the level, lower with each
	// doubt; Reasons says what lowered it.
	Confidence float64
	Reasons    []string

	worst  string  // the strongest doubt
	worstC float64 // and the confidence it alone would leave

	// pixels keeps the decoded image so that Annotate draws on it without decoding again.
	pixels *annotate.BGR
	photo  bool // read from a photo of a screen (see findScreen)
	parted bool // read with the outlines found inside joined ones (see read)
	discs  bool // some hidden units are told by a dark glyph on a light disc (see discGlyph)
	// nearest is the ΔE between the reading's two nearest colours (+Inf with one colour).
	nearest float64
}

// Tube is the geometry of one tube.
type Tube struct {
	Box image.Rectangle
	// Units are the boxes of the units present, bottom first.
	Units []image.Rectangle
}

// LowConfidence is the confidence below which Read refuses a reading (low_confidence).
const LowConfidence = 0.5

// Confidence levels a doubt lowers a reading to. Below LowConfidence the reading is refused:
// brokenConfidence for a reading that breaks a rule of the level, tooSmallConfidence for tubes
// too narrow to sample, glassConfidence for units that look like an empty tube's inside,
// mergeConfidence for a colour merged from units far apart with no count to confirm it,
// holeConfidence for a row with places at its pitch but no tube (a
// tube was missed, or something covers the board). Above it: coveredConfidence when curtains
// keep the count rule from checking the reading.
const (
	glassConfidence    = 0.4
	mergeConfidence    = 0.45
	brokenConfidence   = 0.3
	tooSmallConfidence = 0.4
	holeConfidence     = 0.45
	coveredConfidence  = 0.7
)

// maxMisfit is the share of layers allowed to be no whole multiple of the unit before the
// reading is doubted; lanternDE is how close (CIEDE2000) a lantern's colour is to the liquid
// it names.
const (
	maxMisfit     = 0.2
	glassDE       = 8  // a unit this close to an empty tube's inside is likely glass, not liquid
	mergeDE       = 10 // units this far apart in one colour, with no count to confirm it
	misfitWeight  = 2  // a misfit share m leaves confidence 1 - misfitWeight·m
	lanternDE     = 20
	headroomSlack = 0.2
)

// minReadCapacity and maxReadCapacity are the fewest and most units a tube is read to hold
// with confidence: games deal tubes of 3 to 7 (design/DOMAIN.md). A reading of more splits
// each layer into several units (a unit height taken from a glyph, a stripe or a shading).
const (
	minReadCapacity = 3
	maxReadCapacity = 7
)

// minTubeWidth is the narrowest tube, in the image's pixels, read with confidence.
const minTubeWidth = 20

// Read finds the tubes, their liquid layers and colours in a screenshot.
//
// It lays the tubes out in several ways, from independent cues (outlines of every size, outer
// outlines only, the rows' rhythm, boxes that only fill the gap between two tubes left out),
// reads each layout and checks it against what a level must satisfy; the reading the rules
// confirm best is kept, once the frame moved by half a pixel reads no other level that keeps
// them (crossCheck).
//
// It returns an error with code no_puzzle when it finds no level (or only a finished one),
// unreadable_image, image_too_large or image_too_small for bytes it will not decode, and
// low_confidence when no layout reads as a level that keeps the rules (every colour fills
// exactly one tube; hidden units make up the rest). Only with low_confidence does it return
// the Reading too, for inspection; with any other error the Reading is nil.
func Read(data []byte) (*Reading, error) {
	mat, err := decode(data)
	if err != nil {
		return nil, err
	}
	defer mat.Close()
	f, err := newFrame(mat)
	if err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "preparing the image: %v", err)
	}
	base := Reading{Width: mat.Cols(), Height: mat.Rows(), pixels: bgrOf(mat), photo: f.screen != nil}
	r, err := f.read(base)
	if errors.Is(err, errScreenCut) {
		// No screen, then: the "phone's body" was the dark outlines of tubes.
		if f, err = frameOf(mat, nil); err != nil {
			return nil, solver.Errorf(solver.CodeInternal, "preparing the image: %v", err)
		}
		base.photo = false
		r, err = f.read(base)
	}
	if err == nil && r.photo {
		err = r.doubtPhoto()
	}
	if err == nil {
		err = f.crossCheck(r, base)
	}
	if err != nil && solver.ErrorCode(err) != solver.CodeLowConfidence {
		return nil, err
	}
	return r, err
}

// crossCheck reads the frame again moved by half a pixel and refuses reading r, which keeps
// the rules, when the moved frame reads as another level that keeps them too, at least as
// confidently. A reading that holds only by a hair (an outline found at one edge threshold
// and not at the next, two layouts within a whisker of each other) can change with the
// image's pixels; two readings that each keep every rule leave no way to tell which is the
// level. A moved frame that reads the same level, reads as nothing that keeps the rules, or
// reads another level with more doubts confirms r: counting those as disagreement too refused
// about three right readings for each wrong one it caught (seeds 20261216 and 71), where two
// readings that both keep the rules came about for 3 of some 840 right ones (seeds 20261216,
// 65 and 71) and for 9 of their 21 wrong ones.
func (f *frame) crossCheck(r *Reading, base Reading) error {
	g := f.halfShifted()
	again, err := g.read(base)
	if plausible(again) {
		if i := curtainReadAsLiquid(r, again); i >= 0 {
			r.doubtCurtainAsLiquid(i)
			return r.lowConfidence()
		}
	}
	if curtainInGap(r, g.covers) {
		r.doubtCurtainInGap()
		return r.lowConfidence()
	}
	// (A second guess from parted outlines cannot overturn a first one: see read.)
	if err != nil || again.Confidence < r.Confidence || again.Level.Canonical() == r.Level.Canonical() || again.parted && !r.parted {
		return nil
	}
	r.doubt(unstableConfidence, "moved by half a pixel, the image reads as another level that keeps the rules too (%d tubes of %d): the reading is not stable", len(again.Level.Tubes), again.Level.Capacity)
	return r.lowConfidence()
}

// plausible reports whether r is a reading that breaks no rule of the level, returned or
// refused for a weaker doubt (confidence above brokenConfidence).
func plausible(r *Reading) bool {
	return r != nil && r.Level != nil && r.Confidence > brokenConfidence
}

// doubtCurtainAsLiquid doubts a reading whose tube i another reading finds covered by a
// curtain (curtainReadAsLiquid).
func (r *Reading) doubtCurtainAsLiquid(i int) {
	r.doubt(brokenConfidence, "tube %d holds colours no other tube shows, and another reading that breaks no rule finds a curtain with a lantern there: the rules tell neither reading", i+1)
}

// unstableConfidence is a reading's confidence when the image moved by half a pixel reads as
// another level (crossCheck).
const unstableConfidence = 0.2

// tubeLayout is one hypothesis of where the tubes are: rows of boxes in reading order (work
// coordinates, inside the frame) and the covered tubes among them.
type tubeLayout struct {
	cue      string // what found it, for the reasons
	rows     [][]image.Rectangle
	curtains []curtain
	pale     bool // the curtains were looked for with pale lanterns too (see lanternMode)
	// raiseUnseen reads runs in colours seen nowhere else, whole units under the glass, as
	// liquid (raisePaleTops); unseen is the number of tubes showing such runs, set when read.
	raiseUnseen bool
	unseen      int
	// glass are boxes read as empty tubes whatever their columns show (see loneFeet).
	glass []image.Rectangle
	// glassTops are boxes whose top run is read as the glass above the liquid (see loneTops).
	glassTops []image.Rectangle
	// high are the boxes whose top run rises above its row's full tubes' liquid (highTop)
	// or looks like the glass over the background beside it (glassColour), set when read:
	// the glass over something behind it, a hypothesis (see read).
	high []image.Rectangle
	// raiseCut raises the runs taken for corks in boxes cut at their liquid's top
	// (raiseLids), raiseFill those a fuller column alone tells from a cork too; cut is the
	// number of such runs, set when read, cutByFill how many of them a fuller column alone
	// tells.
	raiseCut, raiseFill bool
	cut, cutByFill      int
	// raiseTops raises every run taken for a cork or a lid above a column's liquid (see
	// raiseLids); tops is the number of such runs left unraised, set when read.
	raiseTops bool
	tops      int
	// ends are the places beyond the rows' ends or in their gaps that look like an empty
	// tube found (emptyBeyondEnds, emptyInGaps), set when read: tubes the layout missed, a
	// hypothesis (see read).
	ends []endPlace
	// startFull are the boxes of tubes full of one colour on a mystery board no pour has
	// touched (completeAtStart), in the hue of the glass seen, set when read: read as glass,
	// a hypothesis (see read).
	startFull []image.Rectangle
	// clothLike is set when read if a tube's units look like a curtain's cloth
	// (clothCovered): the curtain may be a tube like it, a hypothesis (see read).
	clothLike bool
	// clothRead are the boxes of curtains found among the tubes read as tubes (see read).
	clothRead []image.Rectangle
	// liquidOnly are the boxes completeRows added for the liquid resting in their places
	// alone, no outline covering them (clipped to the frame).
	liquidOnly []image.Rectangle
	// readEmpty are the liquidOnly boxes left out of the layout for reading empty among the
	// tubes (see interpret): what rests there is no tube's liquid.
	readEmpty []image.Rectangle
	// glyphsOnly reads hidden units only where glyphs tell them, not by the rules alone: a
	// hypothesis that is a guess already takes no second one (see footCut).
	glyphsOnly bool
	// runsOn is set when read if a tube's bottom layer runs on below its box (runsOnBelow):
	// the boxes end above the tubes' feet; lowered marks a layout whose boxes were lowered
	// to them (see lowerToFeet).
	runsOn, lowered bool
}

// boxes is the layout's boxes in reading order.
func (l tubeLayout) boxes() []image.Rectangle {
	var out []image.Rectangle
	for _, row := range l.allRows() {
		out = append(out, row...)
	}
	return out
}

// allRows are the layout's rows with the covered tubes in their places, a copy.
func (l tubeLayout) allRows() [][]image.Rectangle {
	return insertCurtains(cloneRows(l.rows), l.curtains)
}

// withoutBoxes is rows without the boxes in drop, a copy; a row they leave empty is left
// out (a layout's rows hold a box each, but for one holding only curtains).
func withoutBoxes(rows [][]image.Rectangle, drop []image.Rectangle) [][]image.Rectangle {
	var out [][]image.Rectangle
	for _, row := range rows {
		kept := slices.DeleteFunc(slices.Clone(row), func(b image.Rectangle) bool { return slices.Contains(drop, b) })
		if len(kept) > 0 || len(row) == 0 {
			out = append(out, kept)
		}
	}
	return out
}

func cloneRows(rows [][]image.Rectangle) [][]image.Rectangle {
	out := make([][]image.Rectangle, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

// hypothesis is a layout and what it reads as.
type hypothesis struct {
	tubeLayout
	reading *Reading
	err     error
	cols    []column
	strange []image.Rectangle // empty boxes unlike the layout's empty tubes (strangeEmpties)
	alike   int               // empty boxes that are surely tubes (strangeEmpties)
	stray   int               // empty boxes in rows beside the board (withoutStrayRows)
	gaps    int               // empty boxes between tubes that stand clear of each other (withoutGapBoxes)
}

// clone is a copy of the reading whose reasons and tubes change apart from r's.
func (r *Reading) clone() Reading {
	c := *r
	c.Reasons, c.Tubes = slices.Clone(r.Reasons), slices.Clone(r.Tubes)
	return c
}

// cloneColumns is a copy of the columns whose slices change apart from cols'.
func cloneColumns(cols []column) []column {
	out := slices.Clone(cols)
	for i := range out {
		out[i].bounds, out[i].runs, out[i].glyphGaps = slices.Clone(out[i].bounds), slices.Clone(out[i].runs), slices.Clone(out[i].glyphGaps)
	}
	return out
}

// verified reports whether the reading keeps every rule of a level with confidence.
func (h *hypothesis) verified() bool { return h.err == nil }

// units is the number of units the reading holds.
func (h *hypothesis) units() int {
	n := 0
	for _, t := range h.reading.Level.Tubes {
		n += len(t)
	}
	return n
}

// plausibility ranks verified readings: the confidence, less a little for every empty tube
// beyond the two most levels have (a doodle between two tubes reads as an empty one) unless
// they all look alike and stand clear of their neighbours (see strangeEmpties), and for every
// empty box unlike the layout's empty tubes, in a row beside the board or between two tubes
// whose boxes stand clear of each other's (withoutGapBoxes).
func (h *hypothesis) plausibility() float64 {
	l := h.reading.Level
	empty := 0
	for i, t := range l.Tubes {
		if len(t) == 0 && !l.Curtained(i) { // a curtain's tube shows no units and may hold some
			empty++
		}
	}
	return h.reading.Confidence - surplusEmptyCost*float64(max(0, empty-max(usualEmpty, h.alike))) - strangeEmptyCost*float64(len(h.strange)+h.stray+h.gaps)
}

// Levels start with usualEmpty empty tubes, and a position never has more empty tubes than its
// level started with; each empty tube beyond them costs a reading surplusEmptyCost.
const (
	usualEmpty       = 2
	surplusEmptyCost = 0.05
	strangeEmptyCost = 0.05 // each empty box unlike the layout's empty tubes (strangeEmpties), or in a row beside the board (withoutStrayRows)
)

// layouts are the first hypotheses, from the outlines: the largest set of alike boxes among
// all outlines, and among outer outlines only (runs of liquid inside a tube can be
// tube-shaped and outnumber the tubes).
func (f *frame) layouts(cands []image.Rectangle) []tubeLayout {
	var out []tubeLayout
	seen := map[string]bool{}
	most, widest := alikeGroups(cands)
	outer, _ := alikeGroups(dropInner(cands))
	for _, l := range []struct {
		cue   string
		boxes []image.Rectangle
	}{
		{"outlines", most},
		{"outer outlines", outer},
		{"largest outlines", widest},
	} {
		if len(l.boxes) == 0 {
			continue
		}
		rows := f.clipRows(readingOrder(slices.Clone(l.boxes)))
		key := fmt.Sprint(rows)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, f.withCurtains(l.cue, rows, cands, false))
		if p := f.withCurtains(l.cue+", pale lanterns", rows, cands, true); len(p.curtains) > len(out[len(out)-1].curtains) {
			out = append(out, p)
		}
	}
	return out
}

// withCurtains completes a layout with the covered tubes found in its rows' rhythm.
func (f *frame) withCurtains(cue string, rows [][]image.Rectangle, cands []image.Rectangle, pale bool) tubeLayout {
	rows = dropTwinRows(rows)
	curtains := f.findCurtains(rows, cands, pale)
	for i := range curtains {
		curtains[i].box = f.clip(curtains[i].box)
	}
	return tubeLayout{cue: cue, rows: rows, curtains: curtains, pale: pale}
}

// dropTwinRows takes out of rows of fewer boxes the boxes that cover half of a box of a fuller
// row or more (or half of theirs): one tube found twice, once by its walls and once by a wider
// or lower part of its outline (a bulb), in a row of its own. Rows left empty go.
func dropTwinRows(rows [][]image.Rectangle) [][]image.Rectangle {
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	twin := func(b image.Rectangle, i int) bool {
		for j, row := range rows {
			if j == i || len(row) < len(rows[i]) || (len(row) == len(rows[i]) && j > i) {
				continue
			}
			for _, o := range row {
				if in := o.Intersect(b); !in.Empty() && 2*area(in) >= min(area(o), area(b)) {
					return true
				}
			}
		}
		return false
	}
	var out [][]image.Rectangle
	for i, row := range rows {
		if kept := slices.DeleteFunc(slices.Clone(row), func(b image.Rectangle) bool { return twin(b, i) }); len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

// read tries every layout and keeps the best reading: one the rules verify, the most
// plausible of them; else the refused reading with the highest confidence; else the reason no
// layout was a level.
func (f *frame) read(base Reading) (*Reading, error) {
	cands := f.tubeCandidates()
	r, err := f.readFrom(base, cands)
	if err == nil || f.screen != nil {
		// (Not in a photo of a screen: its frame, warped from the camera's pixels, is too
		// soft for the raw edges to part outlines; no photo gained a reading by them on the
		// tuning seeds, and a small photo read so passed wrongly, 20261302783875.)
		return r, err
	}
	var all boxSet
	all.add(cands)
	if all.add(f.partedCandidates()); len(all.list) == len(cands) {
		return r, err // no box the first reading did not have
	}
	// No level that keeps the rules: the tubes may stand so close that their outlines
	// joined (partedBoxes). A reading with those found inside joined outlines too is a
	// second guess, taken only where the rules check it fully (partedConfidence), or where
	// no unit is hidden and only curtains keep the counts from checking it fully
	// (coveredConfidence): a mystery board leaves the counts too little to check (a label
	// under each tube, read as part of it, made a mystery board's tubes a unit taller and
	// kept the rules), while beside curtains alone the colours in view may fall short of
	// whole tubes by no more than the curtained tubes hold (curtained boards whose tubes
	// stand close, 91000383, 20261290783788). Elsewhere the first reading's refusal says
	// more.
	if pr, perr := f.readFrom(base, all.list); perr == nil && (pr.Confidence >= partedConfidence || !pr.Level.HasHidden() && pr.Confidence >= coveredConfidence) {
		pr.parted = true
		return pr, nil
	}
	return r, err
}

// curtainReadAsLiquid is the first tube of reading r holding liquid whose every colour in
// view no other tube shows, where other, a reading that breaks no rule (plausible), finds a
// curtain covering curtainOverlap of the tube's box or more; or -1. The colours of a cloth
// read as liquid are its own, and hidden units or a tube's worth of one colour keep the
// count rule as well as the curtain does: one reading explaining more units is no evidence
// against the other (a folded cloth read as four layers beside a mystery deal,
// 20261330783845, whose curtain the frame moved by half a pixel finds; 20261331784166, whose
// curtain reading was refused only for the hidden units the rules alone tell beside it).
func curtainReadAsLiquid(r, other *Reading) int {
	tubes := r.Level.Tubes
	for j, c := range other.Tubes {
		if !other.Level.Curtained(j) {
			continue
		}
		for i, t := range r.Tubes {
			in := t.Box.Intersect(c.Box)
			if len(tubes[i]) == 0 || r.Level.Curtained(i) || float64(in.Dx()*in.Dy()) < curtainOverlap*float64(t.Box.Dx()*t.Box.Dy()) {
				continue
			}
			if !slices.ContainsFunc(tubes[i], func(u solver.Color) bool { return u == solver.Hidden || shownElsewhere(tubes, i, u) }) {
				return i
			}
		}
	}
	return -1
}

// curtainInGap reports whether one of covers, the curtains some layout found (in the image's
// pixels), stands in a gap of reading r's rows, where r has no tube: a covered tube r missed
// (a lid's panel with a padlock between mystery tubes, its place in a row of uneven gaps no
// hole at the row's pitch, found only in the image moved by half a pixel, by a layout whose
// reading broke the rules: 20261348784273). Whatever that reading, the curtain is a box of a
// cover's look that r's layout leaves out. It stands in a gap when it overlaps no tube of r
// and, at its middle row, r has a tube on either side of it.
func curtainInGap(r *Reading, covers []image.Rectangle) bool {
	return slices.ContainsFunc(covers, func(c image.Rectangle) bool {
		if slices.ContainsFunc(r.Tubes, func(t Tube) bool { return t.Box.Overlaps(c) }) {
			return false
		}
		my := (c.Min.Y + c.Max.Y) / 2
		level := func(t Tube) bool { return my > t.Box.Min.Y && my < t.Box.Max.Y }
		return slices.ContainsFunc(r.Tubes, func(t Tube) bool { return level(t) && t.Box.Max.X <= c.Min.X }) &&
			slices.ContainsFunc(r.Tubes, func(t Tube) bool { return level(t) && t.Box.Min.X >= c.Max.X })
	})
}

// doubtCurtainInGap doubts a reading between whose tubes a layout finds a covered tube
// (curtainInGap).
func (r *Reading) doubtCurtainInGap() {
	r.doubt(brokenConfidence, "a layout finds a covered tube between two of the reading's tubes, where the reading has none: a covered tube missed")
}

// shownElsewhere reports whether a tube but tube i holds colour u.
func shownElsewhere[C comparable](tubes [][]C, i int, u C) bool {
	for j, t := range tubes {
		if j != i && slices.Contains(t, u) {
			return true
		}
	}
	return false
}

// curtainOverlap is the least share of a tube's box a curtain must cover to stand there.
const curtainOverlap = 0.6

// partedConfidence is the least confidence of a reading from parted outlines (see read).
const partedConfidence = 0.9

// withEnds is h's layout with the empty tubes its reading found beyond the rows' ends or
// in their gaps (see endPlace) added to the rows.
func withEnds(h *hypothesis) tubeLayout {
	l := h.tubeLayout
	l.rows = cloneRows(l.rows)
	for _, e := range h.ends {
		l.rows[e.row] = append(l.rows[e.row], e.box)
		slices.SortFunc(l.rows[e.row], func(a, b image.Rectangle) int { return a.Min.X - b.Min.X })
	}
	l.cue, l.ends = fmt.Sprintf("%s, %d empty tubes added where the rows held none", l.cue, len(h.ends)), nil
	return l
}

// readWithEnds reads layout l; where the rules refuse the reading and it found empty tubes
// the layout missed (beyond the rows' ends or in their gaps), it returns the reading with
// them added if the rules verify that one. (A reading made only to be kept where verified,
// its top layers raised, may miss no more than an empty tube: 85000284.)
func (f *frame) readWithEnds(l tubeLayout, base Reading) *hypothesis {
	v := f.interpret(l, base)
	if !v.verified() && len(v.ends) > 0 {
		if e := f.interpret(withEnds(v), base); e.verified() {
			return e
		}
	}
	return v
}

// fullBoardEnds reads hypothesis h's layout again with tubes at the places its rows' pitch
// leaves beyond their ends where only the faint outlines (faintCandidates) show a tube, when
// h's reading has every tube full: a level leaves room to pour, so a tube with room was
// missed, and where no empty tube was found to match places with (see withEnds), an empty
// tube of thin glass beyond a row's end shows only its faint outline. Elsewhere faint
// outlines count only within the board's span (beyond it stand buttons and doodles). It
// returns the reading where the rules verify it, else nil (85000534).
func (f *frame) fullBoardEnds(h *hypothesis, cands []image.Rectangle, faint func() []image.Rectangle, base Reading) *hypothesis {
	if h.verified() || h.reading == nil || h.reading.Level == nil || spareTubes(h.reading.Level) > 0 {
		return nil
	}
	c, ok := f.completeRowsBeyond(h.tubeLayout, cands, faint, 1, true)
	if !ok {
		return nil
	}
	c.cue += ", faint outlines counted beyond a full board's rows"
	if v := f.interpret(c, base); v.verified() {
		return v
	}
	return nil
}

// readFrom is read with the tube candidates given.
func (f *frame) readFrom(base Reading, cands []image.Rectangle) (*Reading, error) {
	faint := sync.OnceValue(f.faintCandidates) // read once, when a place at a row's pitch needs them
	var hs []*hypothesis
	for _, l := range f.layouts(cands) {
		// A layout completed at its rows' pitch is tried first: between readings that explain
		// the same liquid equally well, the one with every tube of the rows wins.
		var first []*hypothesis
		for split := 1; split <= 2; split++ {
			if c, ok := f.completeRows(l, cands, faint, split); ok {
				first = append(first, f.interpret(c, base))
			}
		}
		first = append(first, f.interpret(l, base))
		for len(first) > 0 {
			h := first[0]
			first = first[1:]
			hs = append(hs, h)
			if v, gaps, ok := f.withoutGapBoxes(h, cands); ok {
				h.gaps = gaps
				// (The boxes between tubes can hide what else is wrong with the layout: a
				// stray box elsewhere, strange beside the empty tubes once they are left out.)
				first = append(first, f.interpret(v, base))
			}
			if v, ok := f.withoutStrayRows(h, cands); ok {
				h.stray = len(h.boxes()) - len(v.boxes())
				hs = append(hs, f.interpret(v, base))
			}
			if v, ok := f.withoutStrangeEmpties(h, cands); ok {
				hs = append(hs, f.interpret(v, base))
			}
		}
	}
	// Boxes that end above their tubes' feet, a bottom layer running on below them, leave
	// the units there out: a reading with the boxes lowered to the feet, kept where the
	// rules verify it (tubes of discs round a glyph, the discs touching the walls, whose
	// outlines part at the lowest disc, 95000312).
	for _, h := range hs {
		if h.runsOn && !h.lowered && !h.verified() {
			if rows, ok := f.lowerToFeet(h.rows); ok {
				l := h.tubeLayout
				l.cue, l.rows, l.lowered = l.cue+", boxes ending above the tubes' feet lowered to them", rows, true
				v := f.interpret(l, base)
				if !v.verified() && v.unseen > 0 {
					// (Runs under the glass in colours seen nowhere else, as below.)
					l.cue, l.raiseUnseen = l.cue+", runs under the glass in colours seen nowhere else read as liquid", true
					v = f.interpret(l, base)
				}
				if v.verified() {
					hs = append(hs, v)
				}
			}
		}
	}
	// Runs under the glass in colours seen nowhere else may be a whole colour near the
	// background's: a reading with them as liquid too, for the rules to check.
	for _, h := range hs {
		if h.unseen > 0 {
			l := h.tubeLayout
			l.cue, l.raiseUnseen = l.cue+", runs under the glass in colours seen nowhere else read as liquid", true
			hs = append(hs, f.interpret(l, base))
		}
	}
	// A box cut at its liquid's top alone in its row, its top layer taken for a cork: a
	// reading with such layers raised, kept where the rules verify it (a pop-up's button
	// over a tube can cut a box so too). A run told from a cork by a fuller column alone
	// (whose liquid, until dropGlassTops, may include the glass) is raised too in a second
	// reading, kept only where the rules check every colour: with hidden units or curtains
	// they check too little (a sheet's top over its badge passes for a layer).
	for _, h := range hs {
		if h.cut > h.cutByFill {
			l := h.tubeLayout
			l.cue, l.raiseCut = l.cue+", top layers of boxes cut at them raised", true
			if v := f.readWithEnds(l, base); v.verified() || v.noPourOnly() {
				hs = append(hs, v)
			}
		}
		if h.cutByFill > 0 {
			l := h.tubeLayout
			l.cue, l.raiseCut, l.raiseFill = l.cue+", top layers of boxes cut at them or under a fuller tube's raised", true, true
			if v := f.interpret(l, base); v.verified() && !v.reading.Level.HasHidden() && !v.reading.Level.HasCurtains() || v.noPourOnly() {
				hs = append(hs, v)
			}
		}
	}
	// Runs at the tops of boxes, above liquid, in a reading the rules refuse, may all be top
	// layers (tubes full to their boxes' tops, told from corks neither by another tube's
	// glass nor by one fuller): a reading with them all raised, kept where the rules verify
	// it with no curtain and no hidden unit told by the rules alone (corks raised break the
	// count: a cork's colour comes once per complete tube, on top of its capacity; but a
	// lid's panel raised reads as a tube full of one colour, which hidden units the rules
	// alone tell can make up for, as can discs round a glyph, a few pixels each: beside
	// them, no tube full of a colour no other tube shows, loneFullTube; a lid whose padlock
	// is too wide for a lantern, 95000425).
	for _, h := range hs {
		if h.tops > 0 && !h.verified() && !h.raiseTops {
			l := h.tubeLayout
			l.cue, l.raiseTops = l.cue+", every run at a box's top above liquid raised", true
			v := f.readWithEnds(l, base)
			if v.verified() && !v.reading.Level.HasCurtains() && (!v.reading.Level.HasHidden() || v.reading.Confidence > inferredHiddenConfidence && !(v.reading.discs && loneFullTube(v.reading.Level))) || v.noPourOnly() {
				hs = append(hs, v)
			}
		}
	}
	// A reading with every tube full missed a tube with room: one of thin glass beyond a
	// row's end may show only a faint outline (fullBoardEnds).
	for _, h := range hs {
		if v := f.fullBoardEnds(h, cands, faint, base); v != nil {
			hs = append(hs, v)
		}
	}
	// Places beyond the rows' ends, or in their gaps at their pitch, that look like an empty
	// tube found hold tubes the layout missed (their outlines faint or merged with the
	// background's): a reading with them.
	for _, h := range hs {
		if len(h.ends) > 0 {
			hs = append(hs, f.interpret(withEnds(h), base))
		}
	}
	// A curtain found among a row's tubes whose cloth looks like another tube's units may
	// be a tube like that one (hidden boxes as grey as a lid, a shaded layer on top taken
	// for a lantern): a reading with the curtains found among the tubes read as tubes.
	for _, h := range hs {
		if !h.clothLike {
			continue
		}
		l := h.tubeLayout
		l.curtains, l.clothRead = nil, nil
		for _, c := range h.curtains {
			if inRows(l.rows, c.box) {
				l.clothRead = append(l.clothRead, c.box)
			} else {
				l.curtains = append(l.curtains, c)
			}
		}
		if len(l.clothRead) == 0 {
			continue
		}
		l.cue, l.clothLike = l.cue+", curtains among the tubes read as tubes", false
		v := f.interpret(l, base)
		// (A curtain whose lantern none of the units read there shows stays one.)
		if kept := f.hiddenLanterns(h.curtains, v); len(kept) > 0 {
			if len(l.curtains)+len(kept) == len(h.curtains) {
				continue
			}
			l.curtains = append(l.curtains, kept...)
			l.clothRead = slices.DeleteFunc(l.clothRead, func(b image.Rectangle) bool {
				return slices.ContainsFunc(kept, func(k curtain) bool { return k.box == b })
			})
			v = f.interpret(l, base)
		}
		hs = append(hs, v)
	}
	// Tubes resting on runs like the background (a label under each tube or a holder, their
	// edges joined to the tube's outline) hold one unit too many of the background's
	// colour: a reading with the boxes cut above those runs.
	for _, h := range hs {
		if rows, n := footCut(h); n > 0 {
			l := h.tubeLayout
			l.cue, l.rows, l.glyphsOnly = fmt.Sprintf("%s, %d boxes cut above runs like the background", l.cue, n), rows, true
			hs = append(hs, f.interpret(l, base))
		}
	}
	// A tube holding a colour alone, a colour no other tube shows and too little of it to
	// make a tube's worth, may be empty glass over something behind it (a bokeh spot, a
	// doodle): a reading with such tubes empty, for the rules to check. Where it comes out
	// with hidden units, they would complete a colour short of the capacity, so the count no
	// longer asks for the lone colour to go: it is kept there only where each such colour
	// looks like the glass of an empty tube, not merely shaped like one, or fills less than
	// half its tube, as a spot behind the glass does (a full tube of brown, its top unit
	// missed, read empty so).
	for _, h := range hs {
		if feet, spots := f.loneFeet(h); len(feet) > 0 {
			l := h.tubeLayout
			l.cue, l.glass = l.cue+", lone colours too short to complete read as glass", feet
			if v := f.interpret(l, base); v.reading == nil || v.reading.Level == nil || !v.reading.Level.HasHidden() || spots {
				hs = append(hs, v)
			}
		}
	}
	// A tube whose top layer is a colour no other tube shows, too little of it to make a
	// tube's worth and reaching up to the tube's top, may be tinted glass above the liquid
	// (on a board with no room above any liquid, no glass shows elsewhere to compare): a
	// reading with those layers as glass, kept where the rules verify it; with hidden units
	// (which would complete the lone colours, as above), only where those layers look alike:
	// glass has one tint (top units of colours seen once, read as glass, 95000405).
	for _, h := range hs {
		if tops := loneTops(h); len(tops) > 0 {
			l := h.tubeLayout
			l.cue, l.glassTops = l.cue+", lone colours up to a tube's top read as glass", tops
			if v := f.interpret(l, base); v.verified() && (!v.reading.Level.HasHidden() || oneTint(h, tops)) {
				hs = append(hs, v)
			}
		}
	}
	// A top run rising above its row's full tubes' liquid, one colour across their top
	// (highTop), or looking like the glass over the background beside it (glassColour), is
	// the glass over something behind it: a reading with it as glass, kept where the rules
	// verify it.
	for _, h := range hs {
		if len(h.high) > 0 && len(h.glassTops) == 0 {
			l := h.tubeLayout
			l.cue, l.glassTops, l.high = l.cue+", a run like the glass over what lies behind it read as glass", h.high, nil
			if v := f.interpret(l, base); v.verified() {
				hs = append(hs, v)
			}
		}
	}
	// A tube full of one colour cannot stand on a mystery board no pour has touched: it may
	// be an empty tube whose tinted glass was read as liquid (its one colour then breaks the
	// hidden units' count, or merely doubts the reading): a reading with it empty, for the
	// rules to check.
	for _, h := range hs {
		if len(h.startFull) > 0 && len(h.glass) == 0 {
			l := h.tubeLayout
			l.cue, l.glass = l.cue+", full tubes on a mystery board read as glass", h.startFull
			hs = append(hs, f.interpret(l, base))
		}
	}
	if len(hs) == 0 {
		return nil, solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: no tube-shaped outlines")
	}
	for _, h := range hs {
		for _, c := range h.curtains {
			// (Most layouts share their curtains: each box is kept once.)
			if b := f.toImage(float64(c.box.Min.X), float64(c.box.Min.Y), float64(c.box.Max.X), float64(c.box.Max.Y)); !slices.Contains(f.covers, b) {
				f.covers = append(f.covers, b)
			}
		}
	}
	var best *hypothesis
	for _, h := range hs {
		switch {
		case best == nil:
			best = h
		case h.verified() != best.verified():
			if h.verified() {
				best = h
			}
		case h.verified():
			// The reading that explains more of the liquid in view wins; between readings of
			// the same liquid, the more plausible.
			hu, bu := h.units(), best.units()
			if hu > bu || (hu == bu && h.plausibility() > best.plausibility()) {
				best = h
			}
		case h.pale != best.pale:
			// Pale lanterns are a hypothesis for a reading the rules verify: refused, it
			// says less than the refusal of the layout without them (a finished board's).
			if !h.pale {
				best = h
			}
		case errors.Is(h.err, errFinished) != errors.Is(best.err, errFinished):
			// A layout that reads a finished board keeps the rules, yet boxes too small for
			// the tubes (glare stripes, a liquid's patches) read as one each make one too:
			// its refusal outranks only a reading refused for two broken rules or more (the
			// largest outlines' boxes, taller than the tubes, had displaced it: 83000682),
			// not one refused for less (boards with no room to pour read right, beside
			// lids too, 85000394 and 87000362).
			finished, other := h, best
			if errors.Is(best.err, errFinished) {
				finished, other = best, h
			}
			best = other
			if other.reading == nil || other.reading.Confidence < brokenConfidence*brokenConfidence {
				best = finished
			}
		case h.reading != nil && (best.reading == nil || h.reading.Confidence > best.reading.Confidence):
			best = h
		}
	}
	if best.verified() {
		if row := wideGap(best.allRows()); row >= 0 {
			best.reading.doubt(brokenConfidence, "row %d holds two tubes more than %d tube widths apart: games space their tubes closer, so tubes between them were missed", row+1, maxGapWidths)
			best.err = best.reading.lowConfidence()
		} else {
			for _, h := range hs {
				if h == best || !plausible(h.reading) {
					continue
				}
				if i := curtainReadAsLiquid(best.reading, h.reading); i >= 0 {
					best.reading.doubtCurtainAsLiquid(i)
					best.err = best.reading.lowConfidence()
					break
				}
			}
			if best.err == nil && curtainInGap(best.reading, f.covers) {
				best.reading.doubtCurtainInGap()
				best.err = best.reading.lowConfidence()
			}
		}
	}
	if best.reading == nil {
		return nil, best.err
	}
	if best.verified() && f.screen != nil && slices.ContainsFunc(best.boxes(), f.atEdge) {
		return nil, errScreenCut
	}
	if holes := best.holes(); holes > 0 && best.reading.Confidence <= brokenConfidence {
		// A level's rows are full: places at their pitch without a tube, in a reading that
		// breaks the rules besides, mean something covers the board.
		return nil, solver.Errorf(solver.CodeNoPuzzle, "no puzzle in view: something covers the board (%d places in its rows hold no tube) and what shows breaks the level's rules: %s", holes, solver.ErrorMessage(best.err))
	}
	return best.reading, best.err
}

// loneFeet are the boxes of a reading the rules refuse whose tubes hold one colour alone, a
// colour no other tube shows and short of the capacity, and look like an empty tube of the
// reading (emptyMatch). Such a colour breaks the count rule wherever it stands (beside
// hidden units, which may complete it, the reading breaks the rules anyway: a mystery
// board's glyphs told, 20261325784140), or, beside curtains that keep the counts from
// checking, passes for a curtain's cloth (clothCovered: frosted glass over a dark patch of
// the background is as grey as a lid's panel): read as empty glass, the rest of the
// reading may keep the rules. A box like no empty tube may be no tube at all (a bokeh spot
// between outlines), and read empty it would add a tube to the level. spots reports whether
// the feet look like spots behind the glass, not merely shaped like an empty tube: each
// lowest run within glassDE of the glass an empty tube shows, or each foot filling less
// than half its tube.
func (f *frame) loneFeet(h *hypothesis) (feet []image.Rectangle, spots bool) {
	if h.reading == nil || h.verified() || len(h.glass) > 0 {
		return nil, false
	}
	l := h.reading.Level
	counts := visibleCounts(l)
	boxes := h.boxes()
	if len(boxes) != len(l.Tubes) {
		return nil, false
	}
	var empties []image.Rectangle
	for i, t := range l.Tubes {
		if len(t) == 0 {
			empties = append(empties, f.clip(boxes[i]))
		}
	}
	glass, seen := f.emptyGlass(h.cols)
	allGlass, allShort := seen, true
	for i, t := range l.Tubes {
		if len(t) == 0 || slices.Contains(t, solver.Hidden) || layered(l.Tokens(i)) || counts[t[0]] != len(t) || len(t) >= l.Capacity {
			continue
		}
		b := f.clip(boxes[i])
		likeGlass := seen && len(h.cols[i].runs) > 0 && deltaE(h.cols[i].runs[0], glass) < glassDE
		if likeGlass || slices.ContainsFunc(empties, func(e image.Rectangle) bool {
			return max(f.nccAt(e, b.Min), f.nccAt(b, e.Min)) >= emptyMatch
		}) {
			feet = append(feet, boxes[i])
			allGlass = allGlass && likeGlass
			allShort = allShort && 2*len(t) < l.Capacity
		}
	}
	return feet, allGlass || allShort
}

// oneTint reports whether the top runs of the columns of hypothesis h at boxes tops all lie
// within lidDE of each other.
func oneTint(h *hypothesis, tops []image.Rectangle) bool {
	return distinctColors(topRuns(h.cols, tops), lidDE) <= 1
}

// topRuns are the top runs of the columns at boxes.
func topRuns(cols []column, boxes []image.Rectangle) []lab {
	var out []lab
	for _, c := range cols {
		if slices.Contains(boxes, c.box) && len(c.runs) > 0 {
			out = append(out, c.runs[len(c.runs)-1])
		}
	}
	return out
}

// hiddenLanterns are the curtains among curtains that, read as tubes in hypothesis h, show
// their lantern's colour (within distinctDE) in none of their units: a tube's top layer
// taken for a lantern, its shading for the lantern's colour, is read again as that layer,
// while a lantern small on its cloth is no unit (the cloth reads as liquid of its own colour
// round it), and the curtain stands.
func (f *frame) hiddenLanterns(curtains []curtain, h *hypothesis) []curtain {
	if h.reading == nil || len(h.reading.Tubes) != len(h.cols) {
		return nil
	}
	var out []curtain
	for _, c := range curtains {
		i := slices.IndexFunc(h.cols, func(col column) bool { return col.box == c.box && !col.curtain })
		if i < 0 {
			continue
		}
		col, n := h.cols[i], len(h.reading.Tubes[i].Units)
		unit := float64(col.bottom-col.top) / float64(max(n, 1))
		shown := false
		for j := 0; j < n && !shown; j++ {
			shown = deltaE(f.sampleUnit(unitPatch(col, unit, j)).color, c.color) < distinctDE
		}
		if !shown {
			out = append(out, c)
		}
	}
	return out
}

// unlayeredSpread is how far apart, in units, the liquid's heights stray from the whole units
// read (the largest excess less the smallest) where no column shows a colour change: every
// tube shares one meniscus, so with the true unit they stray alike, while a unit 5/3 of it
// (tubes of 3 for 5) reads 3 and 2 units as 1.8 and 1.2, within any one top unit's leeway.
// Layers would tell the unit; with none, the heights alone do. 0 where a column is layered.
func unlayeredSpread(cols []column, counts []int, unit float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, c := range cols {
		if c.curtain || c.empty() {
			continue
		}
		if len(c.bounds) > 0 || len(c.glyphGaps) > 0 {
			return 0
		}
		e := float64(c.bottom-c.top)/unit - float64(counts[i])
		lo, hi = min(lo, e), max(hi, e)
	}
	if hi < lo {
		return 0
	}
	return hi - lo
}

// unlayeredSpreadMax is the spread (unlayeredSpread) at which a reading with no layer is
// doubted: tubes of n read as tubes of n-1 stray up to 2/n apart (heights of 1, 6 and 7 units
// in tubes of 7 read as 1, 5 and 6: 0.29, a photo of two colours, 20261341784111).
const unlayeredSpreadMax = 0.25

// loneTops are the boxes of a reading the rules refuse, with no hidden unit and no curtain,
// whose tubes hold more than one colour and end in a run up to the tube's top (within
// glassReach of its height) of a colour no other tube shows, too little of it to make a
// tube's worth, and the boxes whose top run up to their top over other layers looks like
// (glassDE) one of those. Tinted glass over the room above the liquid reads so when no tube
// shows the glass apart (no empty tube, no room above another's liquid); read as glass, the
// rest of the reading may keep the rules.
func loneTops(h *hypothesis) []image.Rectangle {
	if h.reading == nil || h.verified() || len(h.glassTops) > 0 {
		return nil
	}
	l := h.reading.Level
	if l.HasHidden() || l.HasCurtains() || len(h.cols) != len(l.Tubes) {
		return nil
	}
	var tops []image.Rectangle
	for i := range l.Tubes {
		if c := h.cols[i]; len(c.bounds) > 0 && c.reachesTop() && loneTop(l.Tubes, i, l.Capacity) {
			tops = append(tops, c.box)
		}
	}
	// Glass has one tint: a top run up to another tube's top over other layers, alike within
	// glassDE of a lone one, is the glass too (its colour is no lone one where the glass over
	// several tubes adds up to a colour's worth).
	tints := topRuns(h.cols, tops)
	for _, c := range h.cols {
		if len(c.bounds) == 0 || len(c.runs) == 0 || slices.Contains(tops, c.box) || !c.reachesTop() {
			continue
		}
		if top := c.runs[len(c.runs)-1]; slices.ContainsFunc(tints, func(g lab) bool { return deltaE(g, top) < glassDE }) {
			tops = append(tops, c.box)
		}
	}
	return tops
}

// loneTop reports whether tube i's top run is in a colour no other tube shows, too little of
// it to make a tube's worth, over another layer of its own.
func loneTop[C comparable](tubes [][]C, i, capacity int) bool {
	t := tubes[i]
	if len(t) < 2 {
		return false
	}
	run := topRun(t)
	return unitsOf(tubes, t[len(t)-1]) == run && run < capacity && run < len(t)
}

// unitsOf is the number of units of colour k in the tubes.
func unitsOf[C comparable](tubes [][]C, k C) int {
	n := 0
	for _, t := range tubes {
		n += countFunc(t, func(c C) bool { return c == k })
	}
	return n
}

// roomColour is the first tube whose top run reaches its box's top over a layer below it, in
// a colour all of whose units lie in such runs, each of them the glass some tube shows in the
// room above its liquid (rooms, see roomLooks; within roomMatchDE); or -1. Beside hidden
// units glassColour tells nothing (a colour may show only on tops), but glass seen directly
// in a tube's room, read again as a colour over the liquid of tubes with little room, makes
// one that the counts cannot refuse (a photo of tinted glass, 20261341784113); nor can they
// beside curtains (frosted glass over a tube's two units, 20261344784124).
func roomColour(tubes [][]string, cols []column, rooms []lab) int {
	if len(rooms) == 0 || len(cols) != len(tubes) {
		return -1
	}
	glassy := make([]bool, len(cols))
	for i, c := range cols {
		glassy[i] = !c.curtain && len(c.bounds) > 0 && len(c.runs) > 0 && c.reachesTop() && len(tubes[i]) > 0 &&
			slices.ContainsFunc(rooms, func(g lab) bool { return deltaE(c.runs[len(c.runs)-1], g) < roomMatchDE })
	}
	for i, t := range tubes {
		if !glassy[i] || covered(t) || t[len(t)-1] == "?" {
			continue
		}
		k, n := t[len(t)-1], 0
		for j, o := range tubes {
			if glassy[j] && o[len(o)-1] == k {
				n += topRun(o)
			}
		}
		if n == unitsOf(tubes, k) {
			return i
		}
	}
	return -1
}

// roomMatchDE is how near a run must be to the glass in a tube's room to be that glass
// (roomColour): the glass over the same background matches itself within JPEG's noise (0.1
// to 0.8, 20261341784113), where a liquid near the glass's colour stands a few ΔE off it (a
// blue under blue-tinted glass, 3.7, 20261326784381).
const roomMatchDE = 2

// topRun is the length of tube t's top run: the units at its top in its top unit's colour.
func topRun[C comparable](t []C) int {
	run := 0
	for run < len(t) && t[len(t)-1-run] == t[len(t)-1] {
		run++
	}
	return run
}

// footCut is the hypothesis' rows with the boxes cut above the run their liquid rests on where
// that run looks like the background (column.foot), and the number of boxes cut: in each row
// where half the tubes holding liquid or more rest on such a run, every box of the row ends
// that much higher (the median cut; an empty tube stands on its label too). Nil where no row
// qualifies or the hypothesis is verified.
func footCut(h *hypothesis) ([][]image.Rectangle, int) {
	if h.verified() || len(h.cols) == 0 {
		return nil, 0
	}
	byBox := map[image.Rectangle]column{}
	for _, c := range h.cols {
		byBox[c.box] = c
	}
	rows := cloneRows(h.rows)
	n := 0
	for _, row := range rows {
		var cuts []float64
		wet := 0
		for _, b := range row {
			c, ok := byBox[b]
			if !ok || c.empty() {
				continue
			}
			wet++
			if c.foot > 0 {
				cuts = append(cuts, float64(b.Max.Y-c.foot))
			}
		}
		if len(cuts) == 0 || 2*len(cuts) < wet {
			continue
		}
		cut := int(math.Round(median(cuts)))
		for i, b := range row {
			if b.Dy() > 2*cut {
				row[i].Max.Y -= cut
				n++
			}
		}
	}
	if n == 0 {
		return nil, 0
	}
	return rows, n
}

// errFinished is a layout's answer where it reads a finished board. Such a reading keeps the
// rules, every colour complete: it outranks a layout's reading refused for two broken rules
// or more (see readFrom).
var errFinished = solver.Errorf(solver.CodeNoPuzzle, "no puzzle to solve: the board shows a finished level (every tube empty or full of one colour)")

// errScreenCut is read's answer when the screen a photo was warped to cuts through a tube:
// games leave a margin between their tubes and the screen's edge, so the screen found was no
// screen (a row of tubes with dark outlines can look like a tilted phone's body).
var errScreenCut = errors.New("a tube stands at the edge of the screen found")

// atEdge reports whether box b (working pixels) touches the frame's edge.
func (f *frame) atEdge(b image.Rectangle) bool {
	return b.Min.X <= 0 || b.Min.Y <= 0 || b.Max.X >= f.w || b.Max.Y >= f.h
}

// holes counts the places at a row's pitch, between its first and last tube, where no tube
// stands: in each gap between neighbours, the places it spans beyond the one (gap by gap, so
// that a row spaced unevenly, each gap a little off the pitch, adds up to no place). A row of
// one or two gaps has no rhythm of its own and keeps to the rows' common one. Where no pitch
// explains the gaps (rows spaced unevenly, each gap up to three times another), a gap as wide
// as a tube (the boxes' median width) and the layout's narrowest gap on each side holds
// places: games space tubes closer than a tube's width each side of a missing one. (Boxes
// that touch tell no gap: nothing is counted there.)
func (l tubeLayout) holes() int {
	rows := l.allRows()
	global := commonPitch(rows)
	w, narrowest := medianWidth(slices.Concat(rows...)), narrowestGap(rows)
	n := 0
	for _, row := range rows {
		pitch := rowPitch(row, global)
		if len(row) < 2 {
			continue
		}
		if pitch <= 0 {
			// A row spaced unevenly has no pitch: a gap that holds a tube with the layout's
			// narrowest gap on each side holds a place (not told where boxes touch).
			for i := 1; i < len(row) && narrowest > 0; i++ {
				if gap := row[i].Min.X - row[i-1].Max.X; gap >= w+2*narrowest {
					n += (gap - narrowest) / (w + narrowest)
				}
			}
			continue
		}
		for i := 1; i < len(row); i++ {
			n += max(0, int(math.Round((centreX(row[i])-centreX(row[i-1]))/pitch))-1)
		}
	}
	return n
}

// narrowestGap is the narrowest gap between neighbouring boxes in the rows, 0 where they touch
// or overlap or no row holds two.
func narrowestGap(rows [][]image.Rectangle) int {
	narrowest := -1
	for _, row := range rows {
		for i := 1; i < len(row); i++ {
			if g := max(0, row[i].Min.X-row[i-1].Max.X); narrowest < 0 || g < narrowest {
				narrowest = g
			}
		}
	}
	return max(0, narrowest)
}

// rowPitch is a row's own pitch when it has four tubes or more to tell it, else global, the
// pitch of every row.
func rowPitch(row []image.Rectangle, global float64) float64 {
	if len(row) >= 4 {
		return commonPitch([][]image.Rectangle{row})
	}
	return global
}

// withoutGapBoxes is the layout less its empty boxes that overlap or touch a neighbour on each
// side in their row (wedged): the background between two tubes, bounded by their walls, has
// a tube's outline and reads as an empty tube. gaps counts those of them in rows whose other
// boxes stand clear of each other: there no tube's box reaches its neighbour's, so the box
// that does is surely none (where every box overlaps its neighbours, the tubes merely stand
// close). It reports false when there are none.
func (f *frame) withoutGapBoxes(h *hypothesis, cands []image.Rectangle) (l tubeLayout, gaps int, ok bool) {
	if h.cols == nil {
		return tubeLayout{}, 0, false
	}
	empty := map[image.Rectangle]bool{}
	for _, c := range h.cols {
		if c.empty() && !c.curtain {
			empty[c.box] = true
		}
	}
	rows := cloneRows(h.rows)
	dropped := false
	for i, row := range rows {
		rows[i] = slices.DeleteFunc(row, func(b image.Rectangle) bool {
			if !empty[b] {
				return false
			}
			gap := wedged(b, h.rows[i])
			dropped = dropped || gap
			return gap
		})
		if n := len(h.rows[i]) - len(rows[i]); n > 0 && !slices.ContainsFunc(rows[i], func(b image.Rectangle) bool {
			return slices.ContainsFunc(rows[i], func(o image.Rectangle) bool { return o != b && o.Overlaps(b) })
		}) {
			gaps += n
		}
	}
	if !dropped {
		return tubeLayout{}, 0, false
	}
	return f.withCurtains(h.cue+", boxes between tubes left out", rows, cands, h.pale), gaps, true
}

// withoutStrayRows is the layout less its rows of empty boxes that stand beside the board:
// a row with no liquid, a box of which is centred outside the span of the rows holding liquid
// (widened by half a tube on each side), whose boxes are not as tall as the tubes holding
// liquid, within strayRowSize (a level's tubes are all one size), or that stands further than
// strayRowGap tubes' heights from every row holding liquid (a board's rows stand close). A
// doodle, a button or the gap between a title's letters, alone in its row, reads as an empty
// tube; a row of empty tubes under the board stands within its span, close to it. It reports
// false when there are none.
func (f *frame) withoutStrayRows(h *hypothesis, cands []image.Rectangle) (tubeLayout, bool) {
	if h.cols == nil {
		return tubeLayout{}, false
	}
	wet := wetBoxes(h.cols)
	lo, hi := math.Inf(1), math.Inf(-1)
	var wetRows []image.Rectangle
	for _, row := range h.rows {
		if slices.ContainsFunc(row, func(b image.Rectangle) bool { return wet[b] }) {
			half := float64(medianWidth(row)) / 2
			lo = min(lo, centreX(row[0])-half)
			hi = max(hi, centreX(row[len(row)-1])+half)
			wetRows = append(wetRows, row...)
		}
	}
	if lo > hi {
		return tubeLayout{}, false
	}
	tall := float64(medianHeight(wetRows))
	var rows [][]image.Rectangle
	for _, row := range h.rows {
		dry := !slices.ContainsFunc(row, func(b image.Rectangle) bool { return wet[b] })
		beside := slices.ContainsFunc(row, func(b image.Rectangle) bool { return centreX(b) < lo || centreX(b) > hi })
		unlike := math.Abs(float64(medianHeight(row))/tall-1) > strayRowSize
		far := !slices.ContainsFunc(wetRows, func(w image.Rectangle) bool {
			return float64(max(w.Min.Y-row[0].Max.Y, row[0].Min.Y-w.Max.Y)) <= strayRowGap*tall
		})
		if !dry || !(beside || unlike || far) {
			rows = append(rows, slices.Clone(row))
		}
	}
	if len(rows) == len(h.rows) {
		return tubeLayout{}, false
	}
	return f.withCurtains(h.cue+", rows beside the board left out", rows, cands, h.pale), true
}

const (
	strayRowSize = 0.15
	strayRowGap  = 1.0
)

// strangeEmpties are the boxes read empty that look like none of the layout's other empty
// tubes: an empty tube is drawn alike wherever it stands (emptyMatch), so a box whose grey
// levels correlate below strangeMatch with each of them is a title, a button or a doodle's
// frame read as a tube. The others vouch for a box only when they are sure themselves: two of
// them agree, or they stand in a row holding liquid while the box stands in a row of empty
// boxes alone (a row the layout adds beside the board, of a button's or a status bar's frame).
//
// alike is the number of empty boxes that are surely tubes: each stands clear of its row's
// other boxes (the background between two tubes, bounded by their walls, overlaps both) and
// correlates by emptyMatch or more with another such box.
func (f *frame) strangeEmpties(l tubeLayout, cols []column) (strange []image.Rectangle, alike int) {
	wet := wetBoxes(cols)
	var empties []image.Rectangle
	var inWetRow, apart []bool
	for _, row := range l.allRows() {
		rowWet := slices.ContainsFunc(row, func(b image.Rectangle) bool { return wet[b] })
		for _, b := range row {
			if wet[b] {
				continue
			}
			alone := !slices.ContainsFunc(row, func(o image.Rectangle) bool { return o != b && o.Overlaps(b) })
			if b = f.clip(b); b.Dx() >= 4 && b.Dy() >= 4 {
				empties = append(empties, b)
				inWetRow = append(inWetRow, rowWet)
				apart = append(apart, alone)
			}
		}
	}
	if len(empties) < 2 || len(empties) > maxScreenTubes {
		// (More empty boxes than a screen shows tubes: a texture of outlines, no level's
		// row, and correlating every pair of them would take seconds.)
		return nil, 0
	}
	// m[i][j]: box i's grey levels against box j's place.
	m := make([][]float64, len(empties))
	for i, a := range empties {
		m[i] = make([]float64, len(empties))
		for j, b := range empties {
			if i != j {
				m[i][j] = f.nccAt(a, b.Min)
			}
		}
	}
	for i := range empties {
		for j := range empties {
			if j != i && apart[i] && apart[j] && max(m[i][j], m[j][i]) >= emptyMatch {
				alike++
				break
			}
		}
	}
	for i, e := range empties {
		unlike, agree := true, false
		for j := range empties {
			if j == i {
				continue
			}
			if m[j][i] >= strangeMatch {
				unlike = false
			}
			if inWetRow[j] && !inWetRow[i] {
				agree = true
			}
			for k := range empties {
				if k != i && k != j && m[j][k] >= emptyMatch {
					agree = true
				}
			}
		}
		if unlike && agree {
			strange = append(strange, e)
		}
	}
	return strange, alike
}

const strangeMatch = 0.5

// withoutStrangeEmpties is the layout less its strange empty boxes (see strangeEmpties). It
// reports false when there are none.
func (f *frame) withoutStrangeEmpties(h *hypothesis, cands []image.Rectangle) (tubeLayout, bool) {
	strange := h.strange
	if len(strange) == 0 {
		return tubeLayout{}, false
	}
	var rows [][]image.Rectangle
	for _, row := range h.rows {
		kept := slices.DeleteFunc(slices.Clone(row), func(b image.Rectangle) bool { return slices.Contains(strange, f.clip(b)) })
		if len(kept) > 0 {
			rows = append(rows, kept)
		}
	}
	return f.withCurtains(h.cue+", empty boxes unlike the empty tubes left out", rows, cands, h.pale), true
}

// interpret reads one layout: each tube's liquid, the unit height, the units and their
// colours, and checks the level they make.
func (f *frame) interpret(l tubeLayout, base Reading) *hypothesis {
	h := f.interpretOnce(l, base)
	// A place taken at the rows' pitch for the liquid resting in it alone (liquidOnly, no
	// outline covering it) that reads empty once the tubes are read together (its run taken
	// for glass: a blob of the background beside a row's end, 20261339784420) has nothing
	// left to say a tube stands there: the layout is read without it.
	var drop []image.Rectangle
	for _, c := range h.cols {
		if c.empty() && !c.curtain && slices.Contains(l.liquidOnly, c.box) {
			drop = append(drop, c.box)
		}
	}
	if len(drop) == 0 {
		return h
	}
	l.rows = withoutBoxes(l.rows, drop)
	l.liquidOnly = slices.DeleteFunc(slices.Clone(l.liquidOnly), func(b image.Rectangle) bool { return slices.Contains(drop, b) })
	l.readEmpty = append(slices.Clone(l.readEmpty), drop...)
	l.cue = fmt.Sprintf("%s, %d places taken for their liquid alone read empty, left out", l.cue, len(drop))
	return f.interpretOnce(l, base)
}

// interpretOnce reads layout l as it stands (see interpret).
func (f *frame) interpretOnce(l tubeLayout, base Reading) *hypothesis {
	r := base
	r.Confidence = 1
	h := &hypothesis{tubeLayout: l}
	h.err = f.readLayout(&h.tubeLayout, &r, &h.cols)
	if h.err == nil || solver.ErrorCode(h.err) == solver.CodeLowConfidence {
		h.reading = &r
	}
	h.strange, h.alike = f.strangeEmpties(h.tubeLayout, h.cols)
	return h
}

// readLayout fills r from the layout's boxes.
func (f *frame) readLayout(l *tubeLayout, r *Reading, out *[]column) error {
	covers := map[image.Rectangle]curtain{}
	for _, c := range l.curtains {
		covers[c.box] = c
	}
	boxes := l.boxes()
	if len(boxes) < 3 {
		return solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: %d tube-shaped outlines, a level has at least 3", len(boxes))
	}
	if len(boxes) > maxScreenTubes {
		return solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: %d tube-shaped outlines, more than a level has (%d)", len(boxes), maxScreenTubes)
	}
	rows := l.allRows()
	if !slices.ContainsFunc(rows, func(row []image.Rectangle) bool { return len(row) >= 2 }) {
		return solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: %d tube-shaped outlines, each alone in its row: a level's tubes stand in rows", len(boxes))
	}
	cols := make([]column, len(boxes))
	rooms := make([][2]int, len(boxes)) // the free room beside each tube
	for i, b := range boxes {
		rooms[i] = room(boxes, b)
		if c, ok := covers[b]; ok {
			cols[i] = column{box: b, curtain: true, lantern: c.color, frameOnly: c.frameOnly}
			continue
		}
		if slices.Contains(l.glass, b) {
			cols[i] = column{box: b}
			continue
		}
		cols[i] = f.readColumn(b, rooms[i])
	}
	rowLens := make([]int, 0, len(rows))
	for _, row := range rows {
		rowLens = append(rowLens, len(row))
	}
	l.cut, l.cutByFill = f.raiseLids(cols, rowLens, l.raiseCut, l.raiseFill, l.raiseTops)
	l.tops = countFunc(cols, column.lidOverLiquid)
	f.extendCutBottoms(cols, rooms, rowLens)
	f.extendBulbs(cols, rooms, rowLens)
	f.dropGlassTops(cols, rooms)
	for i := range cols {
		if c := &cols[i]; len(c.bounds) > 0 && slices.Contains(l.glassTops, c.box) {
			c.dropTop()
		}
	}
	*out = cols
	if !slices.ContainsFunc(cols, func(c column) bool { return !c.empty() }) {
		return solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: %d tube-shaped outlines but no liquid in any", len(boxes))
	}
	if i := f.footBelowEmpty(cols, rooms, rowLens); i >= 0 {
		r.doubt(brokenConfidence, "tube %d, read empty, has its box end above its row's feet, and liquid shows below it: a unit in its foot was missed", i+1)
	}
	fits := unitHeights(cols)
	var before Reading
	var plain []column
	if len(fits) > 1 { // (reading the favoured unit changes both)
		before, plain = r.clone(), cloneColumns(cols)
	}
	err := f.readAtUnit(l, r, cols, rooms, fits[0])
	if len(fits) == 1 || err == nil || solver.ErrorCode(err) != solver.CodeLowConfidence || r.Level == nil || r.Level.HasHidden() || r.Level.HasCurtains() {
		return err
	}
	// The unit the evidence favours broke the rules: a unit nearly as well supported may
	// keep them, where every unit is in view and the counts check every colour. Not a
	// smaller unit where the favoured one keeps the count rule (refused for a doubt, such as
	// tubes too short to deal): a fraction of a unit splits every run alike, so it keeps the
	// rule too, and the rule cannot tell the two apart.
	broken := r.Level.Validate() != nil
	for _, fit := range fits[1:] {
		if fit.unit < fits[0].unit && !broken {
			continue
		}
		rr, cc := before.clone(), cloneColumns(plain)
		if f.readAtUnit(l, &rr, cc, rooms, fit) == nil && !rr.Level.HasHidden() {
			*r, *out = rr, cc
			return nil
		}
	}
	return err
}

// footBelowEmpty is the first column read empty whose box ends above the feet of its row's
// tubes holding liquid (their boxes' median bottom, by footGap or more) and which, read in
// its box extended down to them, holds liquid starting about there; or -1. A box found round
// a tube's walls alone leaves out a round foot, and a unit resting there (a curtained board,
// whose counts cannot tell it missing: 20261319784113).
func (f *frame) footBelowEmpty(cols []column, rooms [][2]int, rows []int) int {
	start := 0
	for _, n := range rows {
		row := cols[start : start+n]
		var bottoms []float64
		for _, c := range row {
			if !c.empty() && !c.curtain {
				bottoms = append(bottoms, float64(c.box.Max.Y))
			}
		}
		if len(bottoms) > 0 {
			feet := int(median(bottoms))
			for i, c := range row {
				if !c.empty() || c.curtain || c.box.Max.Y > feet-footGap {
					continue
				}
				// (Liquid from higher up is the tube's glass read again, raw: only liquid
				// that starts no further above the box's bottom than the feet lie below it.)
				b := c.box
				b.Max.Y = feet
				if n := f.readColumn(b, rooms[start+i]); !n.empty() && n.top >= 2*c.box.Max.Y-feet {
					return start + i
				}
			}
		}
		start += n
	}
	return -1
}

// runsOnBelow is the first column whose liquid rests on its box's bottom (within
// footReach pixels) with its bottom run's colour (within runOnDE) still in the rows from a
// third to half a unit below the box, unlike the background beside them; or -1. A tube's
// box ends round its foot: a liquid may fill a round foot a little below a box found round
// the walls, but half a unit below it the box was cut short (a row's height taken from its
// curtains, whose cloth stops above the tubes' feet, the places added at its pitch cutting
// the tubes' bottom units off: 85000471).
func (f *frame) runsOnBelow(cols []column, rooms [][2]int, unit float64) int {
	for i, c := range cols {
		if c.curtain || c.empty() || len(c.runs) == 0 || c.bottom < c.box.Max.Y-footReach {
			continue
		}
		y0, y1 := c.box.Max.Y+int(unit/3), c.box.Max.Y+int(math.Ceil(unit/2))
		if y1-y0 < 1 || y1 > f.h {
			continue
		}
		below, ok1 := f.medianLab(centreStrip(c.box, y0, y1))
		bg, ok2 := f.beside(c.box, rooms[i], y0, y1)
		if ok1 && ok2 && deltaE(below, c.runs[0]) < runOnDE && deltaE(below, bg) >= glassDE {
			return i
		}
	}
	return -1
}

// lowerToFeet is rows with each row's boxes lowered to its tubes' feet: below a box, the
// rows down to the first whose middle looks like the background beside it (within
// glassDE), at most half the box's height, are its tube's foot when they are footMinRows
// or more; a row's boxes ending near their median bottom (within footReach, or half the
// way down to the foot) are lowered to the median foot of those that have one. It reports
// false where no box has one.
func (f *frame) lowerToFeet(rows [][]image.Rectangle) ([][]image.Rectangle, bool) {
	out := cloneRows(rows)
	lowered := false
	for _, row := range out {
		var bottoms, feet []float64
		for _, b := range row {
			bottoms = append(bottoms, float64(b.Max.Y))
			if y := f.footOf(b, room(row, b)); y-b.Max.Y >= footMinRows {
				feet = append(feet, float64(y))
			}
		}
		if len(feet) == 0 {
			continue
		}
		bottom, foot := median(bottoms), int(median(feet))
		for i, b := range row {
			if math.Abs(float64(b.Max.Y)-bottom) <= max(footReach, (float64(foot)-bottom)/2) && foot > b.Max.Y {
				row[i].Max.Y, lowered = foot, true
			}
		}
	}
	return out, lowered
}

// footOf is the first row below box b whose centre strip looks like the background beside
// it (the end of b's foot, exclusive), at most half b's height below b or the frame's
// bottom.
func (f *frame) footOf(b image.Rectangle, room [2]int) int {
	end := min(f.h, b.Max.Y+b.Dy()/2)
	for y := b.Max.Y; y < end; y++ {
		mid, ok1 := f.medianLab(centreStrip(b, y, y+1))
		bg, ok2 := f.beside(b, room, y, y+1)
		if !ok1 || !ok2 || deltaE(mid, bg) < glassDE {
			return y
		}
	}
	return end
}

// footMinRows is how many rows below a box its tube's foot must reach for lowerToFeet to
// lower it.
const footMinRows = 3

// footReach is how near, in pixels, a column's liquid may rest to its box's bottom for
// runsOnBelow to look below the box, and runOnDE how near the colour below it must stay to
// its bottom run's: the same liquid, give or take JPEG noise (a grey liquid over a mottled
// grey background stood 7.8 from the background under its tube, 20261293783707).
const (
	footReach = 2
	runOnDE   = 4
)

// footGap is how far, in pixels, a box must end above its row's feet for footBelowEmpty to
// look below it.
const footGap = 3

// readAtUnit reads the columns in units of fit.unit: the units per tube, their colours, and
// the level they make, checked.
func (f *frame) readAtUnit(l *tubeLayout, r *Reading, cols []column, rooms [][2]int, fit unitFit) error {
	unit, misfit := fit.unit, fit.misfit
	_, unseen := raisePaleTops(cols, unit, f.glassSeen, f.roomLooks, func(i, y0, y1 int) (lab, bool) { return f.beside(cols[i].box, rooms[i], y0, y1) }, l.raiseUnseen)
	l.unseen = len(unseen)
	if !oneColour(cols, unseen) {
		r.doubt(brokenConfidence, "tubes %s show whole units under the glass in colours seen nowhere else: liquids near the background's colour may be missed", tubeList(unseen))
	}
	// Units per tube, and what each looks like.
	counts := make([]int, len(cols))
	var samples []unitSample
	total, capacity := 0, 0
	for i, c := range cols {
		counts[i] = unitsIn(c, unit)
		if counts[i] > solver.MaxCapacity {
			return solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: tube %d would hold %d layers, more than a tube holds (%d)", i+1, counts[i], solver.MaxCapacity)
		}
		capacity = max(capacity, counts[i])
		for j := range counts[i] {
			p := unitPatch(c, unit, j)
			s := f.sampleUnit(p)
			if bg, ok := f.beside(c.box, rooms[i], p.Min.Y, p.Max.Y); ok {
				s.likeBackground = deltaE(s.color, bg) < backgroundDE
			}
			samples = append(samples, s)
		}
		total += counts[i]
	}
	if countFunc(samples, func(s unitSample) bool { return s.greyBox }) < minGreyBoxes {
		// A lone grey box with a glyph is more likely a patch that passes for one (see
		// greyBoxMaxL).
		for i := range samples {
			if samples[i].greyBox {
				samples[i].hidden, samples[i].greyBox = false, false
			}
		}
	}
	if len(l.curtains) == 0 {
		// (Behind curtains stand units the count leaves out: the units in view need not make
		// whole tubes.)
		capacity = fitCapacity(capacity, total, cols, counts, unit)
	}
	if i := f.runsOnBelow(cols, rooms, unit); i >= 0 {
		l.runsOn = true
		r.doubt(brokenConfidence, "tube %d's bottom layer runs on half a unit below its box: the box ends above the tube's foot, and the units there are missed", i+1)
	}
	if i, orHidden := clothCovered(l.curtains, counts, samples); i >= 0 || orHidden >= 0 {
		l.clothLike = true
		if i >= 0 {
			r.doubt(brokenConfidence, "tube %d looks like the cloth over a covered tube: it may be covered too", i+1)
		}
	}
	if i := f.emptyGlyphs(cols); i >= 0 {
		r.doubt(brokenConfidence, "tube %d, read empty, shows the glyphs of hidden units: its box may start below its liquid's top", i+1)
	}
	if i := f.emptyCloth(l.curtains, cols); i >= 0 {
		r.doubt(brokenConfidence, "tube %d, read empty, looks like the cloth over a covered tube: it may be covered too", i+1)
	}
	if i, rise := coverAboveRow(cols, unit); i >= 0 {
		r.doubt(brokenConfidence, "tube %d's cover rises %.1f units above its row's tubes, each full to its box's top: a cover hides a tube of the row's height, so the tubes' top units were cut off", i+1, rise)
	}
	if i := badgeOnPanel(cols, unit); i >= 0 {
		r.doubt(brokenConfidence, "tube %d: the run at its top and its liquid look alike round a band thinner than a unit: a cover's panel and its badge read as liquid", i+1)
	}
	if d := unlayeredSpread(cols, counts, unit); d >= unlayeredSpreadMax {
		r.doubt(brokenConfidence, "no tube shows two layers, and the tubes' heights stray %.1f units apart from whole units of the height read: another unit may fit them", d)
	}
	f.geometry(r, cols, counts, unit)
	if w := r.Tubes[0].Box.Dx(); w < minTubeWidth {
		r.doubt(tooSmallConfidence, "the tubes are %d pixels wide: too small to read reliably (at least %d)", w, minTubeWidth)
	}
	u := layoutUnits{layout: l, cols: cols, counts: counts, total: total, capacity: capacity, unit: unit}
	u.beyond = f.liquidBeyondEnds(l.allRows(), cols, unit, l.readEmpty)
	u.fullRead = f.fullReadEmpty(cols)
	u.glass, u.hasGlass = f.emptyGlass(cols)
	u.glasses = f.bandsAbove(cols, glassBandRoom)
	u.rooms = rooms
	if u.hasGlass {
		u.glasses = append(u.glasses, u.glass)
	}
	// Each reading takes the misfit doubt for the misfit it is read with: a look of hidden
	// units measures its own (lookMisfit).
	read := func(samples []unitSample, inferred bool, misfit float64) (Reading, error) {
		rr := *r
		rr.Reasons = slices.Clone(r.Reasons)
		if misfit > maxMisfit {
			rr.doubt(1-misfitWeight*misfit, "%.0f%% of the layers are not whole multiples of one unit", 100*misfit)
		}
		err := f.readUnits(&rr, u, samples, inferred)
		return rr, err
	}
	got, err := read(samples, false, misfit)
	if solver.ErrorCode(err) == solver.CodeLowConfidence {
		// Some hidden units told by their glyphs, others that look like them by none.
		if hid := missedGlyphs(samples, counts); hid != nil {
			if alt, aerr := read(hid, false, misfit); aerr == nil {
				got, err = alt, nil
				if t, de := nearMissed(hid, counts); t >= 0 {
					got.doubt(brokenConfidence, "tube %d: a unit over its hidden ones looks nearly like them (ΔE %.0f): a glare over a hidden box may read as a colour", t+1, de)
					err = got.lowConfidence()
				}
			}
		}
	}
	if solver.ErrorCode(err) == solver.CodeLowConfidence {
		// Units taken for hidden ones that look like a colour in view, read as that colour:
		// kept where every unit then shows and the count checks every colour.
		if seen := seenHidden(samples); seen != nil {
			if alt, aerr := read(seen, false, misfit); aerr == nil && !alt.Level.HasHidden() && !alt.Level.HasCurtains() {
				got, err = alt, nil
			}
		}
	}
	// Discs told by their glyphs (discGlyph), in a reading that broke the rules: some discs
	// told none (a disc clipped by a tube's foot), read as a colour. The discs are read then
	// as no glyph tells them, their looks below telling them all alike (85000275).
	plain := samples
	if solver.ErrorCode(err) == solver.CodeLowConfidence && slices.ContainsFunc(samples, func(s unitSample) bool { return s.disc }) {
		plain = slices.Clone(samples)
		for i := range plain {
			if plain[i].disc {
				plain[i].hidden, plain[i].disc = false, false
			}
		}
	}
	if solver.ErrorCode(err) == solver.CodeLowConfidence && !l.glyphsOnly && !slices.ContainsFunc(plain, func(s unitSample) bool { return s.hidden }) {
		// Hidden units drawn without a glyph look like one more colour: one that breaks the
		// count rule and never shows on a tube's top. Read as hidden, it may keep the rules.
		looks := hiddenLooks(plain, counts, capacity, &f.deltas)
		looks = append(looks, f.markedLooks(plain, counts, capacity, looks)...)
		var doubted *Reading // the first such reading that keeps the rules, refused for its doubts
		for _, hid := range looks {
			// Hidden units a two-toned mark's rhythm counted (marksCounted) are told by their
			// mark, as glyphs tell theirs: discs round a glyph too small for the glyph to be
			// read (87000480). They count for the capacity as told ones (readUnits), and take
			// no doubt for it, nor for few colours in view. (Not beside curtains: there the
			// count checks too little of the rest, and a unit too many on one tube passed a
			// capacity one too large, 20261314784071.)
			marks := marksCounted(cols, counts, hid)
			alt, aerr := read(hid, !marks, min(misfit, lookMisfit(cols, counts, hid, unit)))
			if aerr == nil && alt.Level.Capacity >= minInferredCapacity && (visibleColors(alt.Level) >= minInferredColors || marks) {
				// Told by the rules alone, not by a glyph: one doubt more. With curtains the
				// reading is doubted already for the counts they hide, and the two together
				// refuse it (see inferredCoveredConfidence).
				switch {
				case alt.Level.HasCurtains():
					alt.doubt(inferredCoveredConfidence, "hidden units told by the rules alone, beside curtains that keep the counts from checking them: one look on no tube's top that the count rule cannot take for a colour")
				case !marks:
					alt.doubt(inferredHiddenConfidence, "hidden units told by the rules alone: one look on no tube's top that the count rule cannot take for a colour")
					if n, k := topRunsMisfit(cols, unit); 2*n > k && k >= minTopRuns {
						alt.doubt(brokenConfidence, "%d of %d top runs, each measured from a colour change, are no whole units of the unit's height: hidden units told by the rules alone are counted by that height alone", n, k)
					}
					if t, n, h := f.blurredMiscount(cols, alt.Level.Tubes); t >= 0 {
						alt.doubt(brokenConfidence, "tube %d's hidden run shows the rhythm of %d faint dark glyphs, yet the unit's height counts %d hidden units there", t+1, n, h)
					}
				}
				if t := bareCloth(l.clothRead, cols, counts, hid); t >= 0 {
					alt.doubt(brokenConfidence, "tube %d, found as a curtain and read as a tube, shows no hidden unit: hidden units told by the rules alone can make up for a cover's panel read as liquid", t+1)
				}
				if t := uncorked(cols, counts, alt.Level.Capacity, hid); t >= 0 {
					alt.doubt(brokenConfidence, "tube %d: the run at its box's top, left out as a cork, starts no higher than another tube's liquid, stands over a tube not full and looks like a unit in view: hidden units told by the rules alone can make up for a top layer left out", t+1)
				}
				if alt.Confidence >= LowConfidence {
					got, err, doubted = alt, nil, nil
					break
				}
				if doubted == nil {
					doubted = &alt
				}
			}
		}
		if doubted != nil {
			// Refused with the reading and the doubts that refuse it, for inspection.
			got, err = *doubted, doubted.lowConfidence()
		}
	}
	// A curtain whose lantern was missed, read as liquid or hidden units.
	if err == nil && len(got.Level.Tubes) == len(cols) {
		if t := f.foldedColumn(cols, func(i int) bool { return slices.Contains(got.Level.Tubes[i], solver.Hidden) }); t >= 0 {
			got.doubt(brokenConfidence, "tube %d: its liquid hangs in vertical folds: a curtain's cloth read as liquid", t+1)
			err = got.lowConfidence()
		}
	}
	if err == nil && len(got.Level.Tubes) == len(cols) {
		if n := labelsAsHidden(cols, got.Level); n > 0 {
			got.doubt(brokenConfidence, "the %d hidden units are each one unit at a tube's bottom, on a run that looks like what surrounds the tubes: labels or holders under the tubes may be read as hidden units", n)
			err = got.lowConfidence()
		}
	}
	if err == nil {
		if t := f.clothAbove(cols, counts, samples); t >= 0 {
			got.doubt(brokenConfidence, "tube %d: the room above its liquid looks like the unit under its top: a cover's cloth round its badge may read as liquid or hidden units", t+1)
			err = got.lowConfidence()
		}
	}
	if err == nil && spareTubes(got.Level) == 0 {
		// Doubted on the reading kept (its hidden units told by glyphs or by the rules), so
		// that the reading refused is the one the image shows. A covered tube takes no pour
		// either, in or out, until its colour is complete in view.
		got.doubt(brokenConfidence, noPourDoubt)
		err = got.lowConfidence()
	}
	*r = got
	return err
}

// blurredMiscount is the first tube of a reading whose hidden units the rules alone tell
// (tubes, one per column) whose lowest run, all hidden units, shows the rhythm of faint dark
// glyphs (blurredGlyphs) counting other than its hidden units; with that count and theirs,
// or -1. A small screen blurs a dark "?" on a grey box (L 17 on 52) to 21 levels under it,
// too faint for the glyphs to tell hidden units, yet their rhythm still counts them: a
// mystery board's unit read 4/5 as tall as it is counted four hidden units under each top
// unit where the glyphs showed three (20261348783991).
func (f *frame) blurredMiscount(cols []column, tubes [][]solver.Color) (tube, glyphs, hidden int) {
	if len(tubes) != len(cols) {
		return -1, 0, 0
	}
	for i, c := range cols {
		h := 0
		for h < len(tubes[i]) && tubes[i][h] == solver.Hidden {
			h++
		}
		if h < 2 || c.empty() || len(c.bounds) == 0 {
			continue
		}
		if n := f.blurredGlyphs(c.box, c.bounds[0], c.bottom); n > 0 && n != h {
			return i, n, h
		}
	}
	return -1, 0, 0
}

// topRunsMisfit is the number of columns whose top run, from their highest colour change to
// their liquid's top, fits no whole units of unit (fitsTop), and the number of columns with
// such a run. On a mystery board whose hidden units the rules alone tell, every colour shows
// only its top units and the counts check no capacity: the hidden runs' height in units is
// all that counts them, and a unit that fits those runs but not the units in view above them
// (a round foot shortening the lowest hidden unit: tubes of 5 read as 4, 20261348784086)
// counts them wrong in every tube alike.
func topRunsMisfit(cols []column, unit float64) (misfit, runs int) {
	for _, c := range cols {
		if c.empty() || len(c.bounds) == 0 {
			continue
		}
		runs++
		if !fitsTop(float64(c.bounds[len(c.bounds)-1]-c.top), unit) {
			misfit++
		}
	}
	return misfit, runs
}

// noPourDoubt is the doubt on a reading whose every tube is full (see readAtUnit).
const noPourDoubt = "every tube is full, so no pour is possible: a level leaves room to pour, and a tube with room was missed"

// noPourOnly reports whether h's reading, refused, breaks no rule of a level but leaving no
// pour: its strongest doubt is noPourDoubt (which only a reading keeping the rules with every
// tube full takes), and it is confident enough without it. The readings with runs at the
// boxes' tops raised are kept only where the rules verify them; refused, such a reading
// still says more than the one with those runs left out as corks (the colours then lack a
// unit in every full tube): a board dealt with no empty tube, every tube full, is refused
// for its lack of a pour, with the reading that shows it (91000309, beside curtains).
func (h *hypothesis) noPourOnly() bool {
	r := h.reading
	return !h.verified() && r != nil && r.worst == noPourDoubt && r.Confidence/r.worstC >= LowConfidence
}

// lookMisfit is the share of the evidence for the unit's height that unit misfits once each
// tube's hidden units in samples, the run at its bottom, make one run: a mark drawn on every
// hidden box that no glyph test reads (a "?" blurred on a light grey box) parts the run at
// odd places, which says nothing of the unit once the rules take the run for hidden units
// (85000288: 26% of the layers misfit, none once the runs are whole). So does a rhythm of
// the marks counted at a whole multiple of their period. (Where the marks' bounds fit the
// unit, they are evidence like any: the look's reading takes the lesser misfit,
// 20261325784117.)
func lookMisfit(cols []column, counts []int, samples []unitSample, unit float64) float64 {
	cc := slices.Clone(cols)
	k := 0
	for i, n := range counts {
		h := 0
		for h < n && samples[k+h].hidden {
			h++
		}
		k += n
		if h == 0 {
			continue
		}
		// The bounds (from the bottom up) lower than half a unit under the run's top lie
		// within it.
		top := float64(cc[i].bottom) - (float64(h)-0.5)*unit
		cc[i].bounds = slices.DeleteFunc(slices.Clone(cc[i].bounds), func(y int) bool { return float64(y) > top })
		// Glyphs counted in a run as tall as the hidden units, at a whole multiple of their
		// period (every other mark matched best), count them all.
		cc[i].glyphGaps = slices.Clone(cc[i].glyphGaps)
		for j, g := range cc[i].glyphGaps {
			if g.n > 0 && math.Round(g.height/unit) == float64(h) && h%g.n == 0 {
				cc[i].glyphGaps[j].n = h
			}
		}
	}
	return evidenceOf(cc).misfit(unit)
}

// bareCloth is the first column among boxes (curtains read as tubes) whose units in samples
// show none hidden, or -1: read as a tube, a curtain found among tubes of hidden units is
// one like them (hidden boxes as grey as a cloth), not a panel of layers.
func bareCloth(boxes []image.Rectangle, cols []column, counts []int, samples []unitSample) int {
	at := 0
	for i, c := range cols {
		units := samples[at : at+counts[i]]
		at += counts[i]
		if slices.Contains(boxes, c.box) && !slices.ContainsFunc(units, func(s unitSample) bool { return s.hidden }) {
			return i
		}
	}
	return -1
}

// uncorked is the first column whose run at its box's top, left out as a cork, starts no
// higher than another column's liquid (noCork) over fewer units than the capacity and looks
// like a unit in view in samples (within hiddenTwinDE), or -1: a layer left out. (Glass over
// a short tube, in a board with no other glass to tell it by, looks like no liquid.)
func uncorked(cols []column, counts []int, capacity int, samples []unitSample) int {
	return corkedShort(cols, counts, capacity, samples, func(c column) bool { return c.noCork })
}

// corkedShort is the first column meeting also whose run at its box's top, left out
// as a cork, stands over fewer units than the capacity and looks like a unit in view in
// samples (within hiddenTwinDE), or -1. A cork stands on a complete tube only: such a run is
// a top layer whose box was cut at it.
func corkedShort(cols []column, counts []int, capacity int, samples []unitSample, also func(column) bool) int {
	for i, c := range cols {
		if also(c) && c.lid.y1 > 0 && counts[i] < capacity && inView(samples, c.lid.color) {
			return i
		}
	}
	return -1
}

// labelsAsHidden is the number of hidden units in level l when every one of them, minLabels
// or more, is the one hidden unit of its tube, at its bottom, and half of them or more stand
// where the column's liquid rests on a run that looks like the surroundings (column.foot);
// else 0. A label or a holder under each tube, joined to its outline, is as tall in every
// tube and may show a light figure on a dark ground, as a hidden box does; hidden units on a
// board are the lower part of its tubes, several in some, none in others.
func labelsAsHidden(cols []column, l *solver.Level) int {
	n, feet := 0, 0
	for i, t := range l.Tubes {
		k := countFunc(t, func(c solver.Color) bool { return c == solver.Hidden })
		if k == 0 {
			continue
		}
		if k > 1 || t[0] != solver.Hidden {
			return 0
		}
		n++
		if cols[i].foot > 0 {
			feet++
		}
	}
	if n < minLabels || 2*feet < n {
		return 0
	}
	return n
}

// minLabels is the fewest tubes with a lone hidden unit at the bottom that labelsAsHidden
// takes for a row of labels.
const minLabels = 3

// unreadMarks is the first tube whose run at the bottom was counted by its rhythm in two
// tones (glyphRun.marks), or -1: hidden units drawn as a disc round a glyph. (A run of one
// colour whose units a separator parts repeats too, in one tone.) On a board of few tubes
// their discs, read as a colour, can make whole tubes' worth and keep the counts.
func unreadMarks(cols []column) int {
	return slices.IndexFunc(cols, func(c column) bool {
		return slices.ContainsFunc(c.glyphGaps, func(g glyphRun) bool { return g.marks })
	})
}

// shownMarks is the first tube holding a unit read in a colour whose patch is marked in the
// two tones of the hidden units' marks, each within markTightDE of theirs, or -1: a disc
// round a glyph that the looks of the hidden units missed, read as liquid with the units
// above it. (Liquid is one tone: a glare stripe or bubbles mark less than markShare of it.)
func (f *frame) shownMarks(cols []column, counts []int, samples []unitSample) int {
	a, b, ok := f.markTones(samples, func(s unitSample) bool { return s.hidden })
	if !ok {
		return -1
	}
	k := 0
	for t, n := range counts {
		if cols[t].curtain {
			continue // (no samples: see colors)
		}
		for _, s := range samples[k : k+n] {
			if s.hidden {
				continue
			}
			if sa, sb, ok := f.marks(s.patch); ok && deltaE(sa, a) < markTightDE && deltaE(sb, b) < markTightDE {
				return t
			}
		}
		k += n
	}
	return -1
}

// curtainOfMarks is the first curtain whose lantern looks like (markTightDE) one tone of the
// marks of the hidden units read (samples marked: see markedLooks), or -1: a tube of such
// units, a dark box round each light disc, passes for a cloth with a lantern.
func (f *frame) curtainOfMarks(cols []column, samples []unitSample) int {
	a, b, ok := f.markTones(samples, func(s unitSample) bool { return s.hidden && s.marked })
	if !ok {
		return -1
	}
	return slices.IndexFunc(cols, func(c column) bool {
		return c.curtain && (deltaE(c.lantern, a) < markTightDE || deltaE(c.lantern, b) < markTightDE)
	})
}

// clothAbove is the first tube of two units or more whose unit under its top, in a colour
// (chroma hiddenLookChroma or more) unlike its top's, looks like the room above its liquid as
// much as hidden boxes look like each other (hiddenTightDE), or -1: glass stands above liquid,
// while a cover's cloth shows above its badge as below it, and the badge, a patch of colour,
// passes for the top unit on a run of liquid or of hidden units. (Grey is left alone: glass
// over a grey background looks so too; so is a mark, whose median mixes two tones: see
// markedLooks.)
func (f *frame) clothAbove(cols []column, counts []int, samples []unitSample) int {
	k := 0
	for t, n := range counts {
		k += n
		if n < 2 {
			continue
		}
		under, top := samples[k-2], samples[k-1]
		if under.marked || under.color.Chroma() < hiddenLookChroma || deltaE(under.color, top.color) < hiddenTightDE {
			continue
		}
		above := f.bandsAbove(cols[t:t+1], glassBandRoom)
		if len(above) == 1 && deltaE(above[0], under.color) < hiddenTightDE {
			return t
		}
	}
	return -1
}

// badgeOnPanel is the first column whose run at the box's top (taken for a cork) looks like
// (within glassDE) the liquid under its top run, a band thinner than badgeUnits of a unit,
// or -1: a cork is never its liquid's colour, and a layer is a whole unit, but a cover's
// panel shows its colour round its badge (a lid's padlock).
func badgeOnPanel(cols []column, unit float64) int {
	for i, c := range cols {
		n := len(c.runs)
		if c.curtain || c.lid.y1 == 0 || n < 2 || float64(c.bounds[n-2]-c.top) >= badgeUnits*unit {
			continue
		}
		if deltaE(c.lid.color, c.runs[n-2]) < glassDE {
			return i
		}
	}
	return -1
}

// coverAboveRow is the first covered column whose box's top stands coverRise of a unit or
// more above the median top of its row's tubes holding liquid, each of which reaches its
// box's top, and by how many units; or -1. A cover hides a whole tube, as tall as the
// others: a row of full tubes whose tops stand lower than the cover's lost their top units
// with their outline's top (a top unit near the background's colour, 20261341784192), and
// every tube full, the counts keep the rules either way. (Where some tube shows room, a box
// found round a bulb's belly stands lower than the cover's too, its liquid read whole:
// 91000440.)
func coverAboveRow(cols []column, unit float64) (int, float64) {
	for i, c := range cols {
		if !c.curtain {
			continue
		}
		var row []image.Rectangle
		full := true
		for _, t := range cols {
			if t.curtain || t.empty() || t.box.Min.Y >= c.box.Max.Y || c.box.Min.Y >= t.box.Max.Y {
				continue
			}
			row = append(row, t.box)
			full = full && t.reachesTop()
		}
		if len(row) == 0 || !full {
			continue
		}
		top := medianSide(row, func(b image.Rectangle) int { return b.Min.Y })
		if rise := float64(top-c.box.Min.Y) / unit; rise >= coverRise {
			return i, rise
		}
	}
	return -1, 0
}

// coverRise is how far, in units, a cover's top may stand above its row's tubes' (see
// coverAboveRow): a whole unit cut off a tube of n is (n-1)/n of the unit read, 2/3 or more
// of it, while a lid over a photo's tilted row, round a lip, rose half a unit (84000452).
const coverRise = 0.65

// badgeUnits is the most, in units, a band between a panel's two runs may be to be its badge.
const badgeUnits = 0.75

// covered reports whether a tube of a reading is covered: its one entry names the curtain's
// colour.
func covered(t []string) bool { return len(t) == 1 && strings.HasPrefix(t[0], solver.CurtainPrefix) }

// layered reports whether a tube of a reading holds two colours or more (a hidden unit counts
// as one).
func layered(t []string) bool {
	return slices.ContainsFunc(t, func(u string) bool { return u != t[0] })
}

// layersInView is the number of layers, runs of one colour in view, the tubes hold.
func layersInView(tubes [][]string) int {
	n := 0
	for _, t := range tubes {
		for i, u := range t {
			if u != "?" && !strings.HasPrefix(u, solver.CurtainPrefix) && (i == 0 || t[i-1] != u) {
				n++
			}
		}
	}
	return n
}

// minLayersForUnit is the fewest layers in view that tell the unit's height beside curtains
// (see readUnits): each layer even in units half as tall is then unlikely in a deal.
const minLayersForUnit = 4

// sameCurtains is the number of curtains when there are two or more and all name one colour;
// else 0.
func sameCurtains(tubes [][]string) int {
	var names []string
	for _, t := range tubes {
		if covered(t) {
			names = append(names, t[0])
		}
	}
	if len(names) < 2 || slices.ContainsFunc(names, func(n string) bool { return n != names[0] }) {
		return 0
	}
	return len(names)
}

// unevenBottom is the first tube (in reading order) whose liquid's bottom lies bottomTol of a
// unit or more from the median of its row's, and how far in units; else -1. Tubes in a row
// are one size on one line and liquid rests on their bottoms, so a bottom off the row's is a
// stand, a holder or the glass at a tube's foot read as one more unit, or a layer missed.
// Rows of fewer than three tubes with liquid are not compared among themselves; the board's
// tubes with liquid are, then, by how far their liquid rests above their boxes' feet, where
// three or more boxes stand as tall within a quarter of a unit (the rows of one board hold
// tubes of one size: a hidden unit in a tube's foot that looks like its glass missed beside
// a lid and tubes in another row, 20261346784064).
func unevenBottom(rows [][]image.Rectangle, cols []column, unit float64) (int, float64) {
	if t, d := unevenRowBottom(rows, cols, unit); t >= 0 {
		return t, d
	}
	var wet []int
	var heights []float64
	for i, c := range cols {
		if !c.curtain && !c.empty() {
			wet, heights = append(wet, i), append(heights, float64(c.box.Dy()))
		}
	}
	if len(wet) < 3 {
		return -1, 0
	}
	h := median(heights)
	wet = slices.DeleteFunc(wet, func(i int) bool { return math.Abs(float64(cols[i].box.Dy())-h) > unit/4 })
	if len(wet) < 3 {
		return -1, 0
	}
	feet := make([]float64, len(wet))
	for j, i := range wet {
		feet[j] = float64(cols[i].box.Max.Y - cols[i].bottom)
	}
	m := median(feet)
	for j, i := range wet {
		if d := math.Abs(feet[j]-m) / unit; d >= bottomTol {
			return i, d
		}
	}
	return -1, 0
}

// unevenRowBottom is unevenBottom's look within each row of three tubes with liquid or more.
func unevenRowBottom(rows [][]image.Rectangle, cols []column, unit float64) (int, float64) {
	k := 0
	for _, row := range rows {
		if k+len(row) > len(cols) {
			break
		}
		var wet []int // the row's tubes with liquid, by index into cols
		var bottoms []float64
		for i := k; i < k+len(row); i++ {
			if !cols[i].curtain && !cols[i].empty() {
				wet, bottoms = append(wet, i), append(bottoms, float64(cols[i].bottom))
			}
		}
		if len(wet) >= 3 {
			m := median(bottoms)
			for _, i := range wet {
				if d := math.Abs(float64(cols[i].bottom)-m) / unit; d >= bottomTol {
					return i, d
				}
			}
		}
		k += len(row)
	}
	return -1, 0
}

// bottomTol is how far, in units, a tube's liquid may rest off its row's (unevenBottom).
const bottomTol = 0.5

// highTop is the first tube (in reading order) whose liquid's top stands bottomTol of a unit
// or more above the median top of its row's full tubes (capacity units each), its run there
// looking like (glassDE) the run below, and by how much in units; else -1. No liquid rises
// above a full tube's: a run up to a tube's top there is the glass, tinted by something
// behind it (a bokeh spot), read as liquid, its height rounded down to whole units that
// complete the tube. (A top measured into a flask's shoulder, the glass there unlike the top
// layer under it, is no such run.) Rows with no full tube are not compared.
func (f *frame) highTop(rows [][]image.Rectangle, cols []column, counts []int, capacity int, unit float64) (int, float64) {
	k := 0
	for _, row := range rows {
		if k+len(row) > len(cols) || k+len(row) > len(counts) {
			break
		}
		var tops []float64
		for i := k; i < k+len(row); i++ {
			if !cols[i].curtain && !cols[i].empty() && counts[i] == capacity {
				tops = append(tops, float64(cols[i].top))
			}
		}
		if len(tops) > 0 {
			m := median(tops)
			for i := k; i < k+len(row); i++ {
				c := cols[i]
				d := (m - float64(c.top)) / unit
				if c.curtain || c.empty() || d < bottomTol {
					continue
				}
				below := c.bottom // the top run's lower end
				if n := len(c.bounds); n > 0 {
					below = c.bounds[n-1]
				}
				above, ok1 := f.medianLab(centreStrip(c.box, c.top, int(m)))
				under, ok2 := f.medianLab(centreStrip(c.box, int(m), below))
				if ok1 && ok2 && deltaE(above, under) < glassDE {
					return i, d
				}
			}
		}
		k += len(row)
	}
	return -1, 0
}

// repeatedTubes is the number of tubes and the first of them when repeatTubes or more hold
// the same sequence of repeatUnits units or more in two colours or more, none hidden; else 0
// and -1. Levels are dealt at random: three tubes alike down to the order of their layers
// (on a board of a dozen tubes in ten colours, about 1 in 5,000 for tubes of three units, 1
// in 500,000 for four) are more likely a decoration drawn over every tube (a sheet's folds, a
// label's stripes) read as liquid.
func repeatedTubes(tubes [][]string) (int, int) {
	seen := map[string][]int{}
	for i, t := range tubes {
		if len(t) < repeatUnits || slices.Contains(t, "?") || covered(t) || !layered(t) {
			continue
		}
		k := strings.Join(t, " ")
		seen[k] = append(seen[k], i)
	}
	n, first := 0, -1
	for _, is := range seen {
		if len(is) >= repeatTubes && (len(is) > n || len(is) == n && is[0] < first) {
			n, first = len(is), is[0]
		}
	}
	return n, first
}

// Tubes alike enough to be a decoration rather than liquid (repeatedTubes).
const (
	repeatTubes = 3
	repeatUnits = 3
)

// clothCovered is the first tube of two units or more that, all but one unit, look like the
// cloth of a curtain found (a lid or sheet the curtain search missed: its cloth reads as
// liquid, its lantern as the top unit), or -1; and orHidden, the same with hidden units
// counted as cloth too: the curtain may be a tube of hidden boxes as grey as a lid (a
// hypothesis, see clothLike). A hidden unit, told by its glyph, is no cover's cloth itself
// (grey lids and sheets beside grey boxes with "?" were doubted, 13 right readings of the
// lidded and sheeted corner sets).
func clothCovered(curtains []curtain, counts []int, samples []unitSample) (t, orHidden int) {
	t, orHidden = -1, -1
	k := 0
	for i, n := range counts {
		like, hidden := 0, 0
		for _, s := range samples[k : k+n] {
			if slices.ContainsFunc(curtains, func(c curtain) bool { return deltaE(s.color, c.cloth) < clothDE }) {
				if s.hidden {
					hidden++
				} else {
					like++
				}
			}
		}
		k += n
		if n < 2 {
			continue
		}
		if t < 0 && like >= n-1 {
			t = i
		}
		if orHidden < 0 && like+hidden >= n-1 {
			orHidden = i
		}
	}
	return t, orHidden
}

// emptyGlyphs is the first column read empty whose one run, from its box's top to its
// bottom, carries the rhythm of hidden units' glyphs (two or more), or -1: glass shows no
// glyphs, but a box found round a hidden run alone, its top unit near the background's
// colour left out, holds only that run.
func (f *frame) emptyGlyphs(cols []column) int {
	for i, c := range cols {
		if c.curtain || !c.empty() || c.lid.y1 == 0 {
			continue
		}
		if f.glyphs(c.box, c.lid.y0, c.lid.y1) >= 2 {
			return i
		}
	}
	return -1
}

// emptyCloth is the first column read empty (no curtain found on it) whose cloth area looks
// like a curtain's cloth, within clothTightDE, or -1: a curtain whose lantern was not found
// shows only cloth, which an empty tube's glass does not.
func (f *frame) emptyCloth(curtains []curtain, cols []column) int {
	if len(curtains) == 0 {
		return -1
	}
	for i, c := range cols {
		if c.curtain || !c.empty() {
			continue
		}
		a := clothArea(c.box)
		inside, ok := f.medianLab(centreStrip(c.box, a.Min.Y, a.Max.Y))
		if ok && slices.ContainsFunc(curtains, func(k curtain) bool { return deltaE(inside, k.cloth) < clothTightDE }) {
			return i
		}
	}
	return -1
}

// clothTightDE is how far (CIEDE2000) one curtain's cloth looks from another's: they are
// drawn alike (clothDE, looser, tells a cloth from its lantern; an empty tube's glass over a
// background near a cloth's colour stands within it).
const clothTightDE = 6

// layoutUnits is what readLayout found in a layout's columns, the same for every reading of
// their units it tries: the columns, their unit counts, the capacity they fit and the unit
// height, and the inside of an empty tube when one shows it.
type layoutUnits struct {
	layout   *tubeLayout
	cols     []column
	counts   []int
	total    int // the units in all
	capacity int
	unit     float64
	glass    lab
	hasGlass bool
	glasses  []lab    // the glass as each tube shows it: the empty tubes' inside, the room above liquid
	rooms    [][2]int // the free room beside each column (see beside)
	beyond   int      // places a pitch beyond a row's end where liquid rests (liquidBeyondEnds)
	fullRead int      // a tube read empty that looks full of one colour, or -1 (fullReadEmpty)
}

// readUnits reads the sampled units as a level and checks it against the rules.
func (f *frame) readUnits(r *Reading, u layoutUnits, samples []unitSample, inferred bool) error {
	// The height raises the capacity only beside curtains with no unit hidden: the reading
	// is kept to start again from there alone.
	byHeight := len(u.layout.curtains) > 0 && !slices.ContainsFunc(samples, func(s unitSample) bool { return s.hidden })
	var before Reading
	if byHeight {
		before = r.clone()
	}
	raisedShort, err := f.readUnitsAt(r, u, samples, inferred, byHeight)
	if raisedShort {
		// Beside curtains the tubes' height raised the capacity over the fullest tube's
		// units, and the colours then lack more units than the curtains and hidden units
		// can hold: the height is headroom (more than a unit of it: 83000292). The capacity
		// the fullest tube shows is read instead, kept where it passes.
		rr := before
		if _, e := f.readUnitsAt(&rr, u, samples, inferred, false); e == nil {
			*r = rr
			return nil
		}
	}
	return err
}

// readUnitsAt is readUnits; with byHeight, the tubes' height beside curtains may raise the
// capacity over the fullest tube's units, and raisedShort reports that it did and the
// colours then lacked more units than the curtains and hidden units can hold.
func (f *frame) readUnitsAt(r *Reading, u layoutUnits, samples []unitSample, inferred, byHeight bool) (raisedShort bool, err error) {
	cols, counts, capacity := u.cols, u.counts, u.capacity
	raised := false
	// fullest is the fullest tube's units where the tubes' height (h) raised the capacity
	// over it and the unit total divides by both.
	fullest, h := 0, 0
	if slices.ContainsFunc(samples, func(s unitSample) bool { return s.hidden }) {
		// Hidden units make counting unreliable: a level may show no full tube at all. The
		// tubes' height says how much they hold. (Not when tubes all filled alike with no
		// curtain, their hidden units counted by glyphs: that is a level's start, every tube
		// full, and the height above them is headroom. Hidden boxes with no glyph may split
		// into more units than they hold: when their count and the height disagree, neither
		// settles the capacity.)
		// Every colour holds capacity units, so the units in all (curtains aside) make whole
		// tubes: a taller height they cannot fill so is headroom, where glyphs count the
		// hidden units or, told by the rules alone, they fill minHeadroomTubes tubes or more
		// (on a few tubes found, such hidden units make any reading keep the rules: 85000348,
		// four tubes of a board of 21).
		// On a mystery level's deal, untouched, the curtains' tubes are as full as the others:
		// where those are full, they add whole tubes to the total, which must divide by the
		// capacity as without curtains; a height the total does not divide by is headroom.
		// (Some games deal tubes a unit short, curtains among them: sshcrack's discovery
		// level 30, tubes of 4 dealt 3 each, the total dividing by 4. There the height stands.)
		h = heightCapacity(cols, u.unit)
		dealt := dealtUntouched(cols, counts, samples)
		fits := len(u.layout.curtains) > 0 && !dealt || u.total%max(h, 1) == 0
		wet := countFunc(counts, func(n int) bool { return n > 0 })
		switch {
		case h > capacity && !fits && (!inferred || wet >= minHeadroomTubes):
			// headroom: the capacity the units show stands, unless a capacity between it and
			// the height takes the units in whole tubes too (a flask's neck in its box: 12
			// units in tubes of 4 read as tubes of 3, a colour all hidden, 20261331783909).
			if c := dividingBetween(u.total, capacity, h); c > 0 {
				r.doubt(brokenConfidence, "tubes as tall as %d units whose fullest holds %d: the %d units make whole tubes of %d or of %d, the counts allow both", h, capacity, u.total, capacity, c)
			}
		case inferred && len(u.layout.curtains) > 0 && h != capacity:
			// Neither the glyphs nor the curtains' tubes count the units: tubes as full as
			// the fullest, or each a unit or more short of the height, keep the counts alike.
			r.doubt(brokenConfidence, "hidden units told by no glyph, and curtains, in tubes as tall as %d whose fullest holds %d: the capacity is unsure", h, capacity)
			capacity = max(capacity, h)
		case !evenlyFilled(cols, counts):
			if h > capacity && len(u.layout.curtains) == 0 && capacity >= minReadCapacity && u.total%capacity == 0 {
				fullest = capacity
			}
			capacity = max(capacity, h)
		case inferred && h != capacity:
			r.doubt(brokenConfidence, "tubes filled alike with %d units and hidden units told by no glyph, in tubes as tall as %d: the capacity is unsure", capacity, h)
		case h > capacity:
			// More room above every tube than games leave over a full one: tubes of h, each
			// a unit short, keep the counts as well (colours of h units, fewer of them).
			r.doubt(brokenConfidence, "tubes filled alike with %d units, in tubes as tall as %d: full tubes of %d or tubes of %d each short of full, the counts allow both", capacity, h, capacity, h)
		}
	} else if len(u.layout.curtains) > 0 {
		// Curtains hold units the counts cannot see, so the counts settle no capacity: tubes
		// a unit or more taller than the fullest tube's liquid (more than games leave above a
		// full tube) hold more than any tube shows (where the colours then lack more units than
		// the curtains can hold, readUnits reads the fullest tube's capacity instead).
		if h := heightCapacity(cols, u.unit); byHeight && h > capacity {
			capacity, raised = h, true
		}
	}
	switch {
	case capacity < 2:
		r.doubt(brokenConfidence, "no tube holds more than one layer")
	case capacity < minReadCapacity:
		// Any reading keeps the rules with every unit split in two: the layers' heights
		// cannot tell a tube of 2 from one of 4 whose colours lie in pairs, and games deal 3
		// or more.
		r.doubt(brokenConfidence, "tubes of %d units: each layer may be two units of a tube of %d", capacity, 2*capacity)
	case capacity > maxReadCapacity:
		r.doubt(brokenConfidence, "tubes of %d units, more than games deal (%d to %d): the unit may be part of one", capacity, minReadCapacity, maxReadCapacity)
	}
	tubes, means, err := r.colors(cols, counts, samples, capacity, &f.deltas)
	if err != nil {
		return raisedShort, err
	}
	level, err := solver.BuildLevel(capacity, tubes)
	if err == nil {
		err = level.Validate()
	}
	r.Level = level
	if u.hasGlass {
		// A colour that looks like an empty tube's inside is likely glass read as liquid. (A
		// single unit near it, in a colour that is not, is only a unit in the glare.)
		if n := countFunc(means, func(m lab) bool { return deltaE(m, u.glass) < glassDE }); n > 0 {
			r.doubt(glassConfidence, "%d colours look like an empty tube's glass", n)
		}
	}
	if i := wholeGlassTube(tubes, samples, capacity, u.glasses); i >= 0 {
		r.doubt(glassConfidence, "tube %d is full of one colour near the glass that an empty tube or the room above a tube's liquid shows: it may be empty glass read as liquid", i+1)
	}
	if u.fullRead >= 0 {
		r.doubt(brokenConfidence, "tube %d, read empty, is filled from its top to its bottom with a colour unlike the glass the other tubes show: a tube full of one colour", u.fullRead+1)
	}
	r.discs = slices.ContainsFunc(samples, func(s unitSample) bool { return s.hidden && s.disc })
	if level != nil && level.HasCurtains() && r.discs {
		// Discs round a glyph tell hidden units as the rules alone do beside curtains: a
		// disc's mark, its glyph a few pixels, counts less than a "?" on a box, and the
		// curtains keep the counts from checking the rest (a missed tube's colours, a lid
		// read as a colour: 95000430, 95000475). (See inferredCoveredConfidence.)
		r.doubt(inferredCoveredConfidence, "hidden units told by a dark glyph on a light disc, beside curtains that keep the counts from checking them")
	}
	if err != nil {
		r.doubt(brokenConfidence, "%v", solver.ErrorMessage(err))
		return raisedShort, solver.Errorf(solver.CodeLowConfidence, "the reading breaks the level's rules: %s", solver.ErrorMessage(err))
	}
	if fullest > 0 && !slices.ContainsFunc(visibleCounts(level), func(n int) bool { return n > fullest }) {
		// Tubes as tall as h and tubes of fullest with more room above them than games
		// leave: the counts keep the rules either way, as no colour shows more than fullest.
		r.doubt(brokenConfidence, "tubes as tall as %d units whose fullest holds %d, hidden units and no colour showing more than %d: tubes of %d or of %d with room above, the counts allow both", h, fullest, fullest, h, fullest)
	}
	if missing, room := coveredShortfall(level); missing > room {
		r.doubt(brokenConfidence, "the colours lack %d units, more than the curtains and hidden units can hold (%d)", missing, room)
		raisedShort = raised
	}
	if level.HasCurtains() && !slices.ContainsFunc(tubes, layered) {
		// Every tube one run of one colour: no boundary between layers shows how tall a unit
		// is, and the curtains keep the counts from checking it.
		r.doubt(brokenConfidence, "no tube shows two layers, and %d curtains keep the counts from checking the unit's height", countFunc(tubes, covered))
	} else if n := layersInView(tubes); level.HasCurtains() && !level.HasHidden() && n < minLayersForUnit && 2*capacity <= maxReadCapacity {
		// Each layer read as two units of tubes twice as tall in units keeps the rules as
		// well: the curtains' room doubles with the colours' shortfall, and no glyph counts
		// units. A deal leaves some layer an odd number of units, but a few layers may all
		// be even (two layers of 2 and 4 read as 1 and 2 in tubes of 3, 20261331783913).
		r.doubt(brokenConfidence, "%d layers in view, %d curtains keeping the counts from checking the unit's height: tubes of %d or of %d, each layer twice as many units, the rules allow both", n, countFunc(tubes, covered), capacity, 2*capacity)
	}
	if spare := spareTubes(level); spare > max(float64(maxSpareTubes), float64(len(tubes))/2) {
		r.doubt(brokenConfidence, "%d tubes hold %.1f tubes' worth of units: a level leaves at most %d tubes' worth empty, or half its tubes", len(tubes), float64(len(tubes))-spare, maxSpareTubes)
	}
	if t, d := unevenBottom(u.layout.allRows(), cols, u.unit); t >= 0 {
		r.doubt(brokenConfidence, "tube %d's liquid rests %.1f units off the other tubes': a stand or the glass at a tube's foot read as liquid, or a unit at its foot missed", t+1, d)
	}
	u.layout.high = nil // (each unit height tried finds it again)
	if t, d := f.highTop(u.layout.allRows(), cols, counts, capacity, u.unit); t >= 0 {
		r.doubt(brokenConfidence, "tube %d's liquid rises %.1f units above its row's full tubes': the glass over something behind it read as liquid", t+1, d)
		u.layout.high = []image.Rectangle{cols[t].box}
	} else if law, ok := f.lawUnlessHidden(level, cols, u.rooms); ok {
		if ts := glassColour(tubes, f.glassyTops(cols, u.rooms, law)); len(ts) > 0 {
			r.doubt(brokenConfidence, "tube %d's top run, up to its top, in a colour no other run shows, looks like the glass the other tubes show would over the background beside it: the glass read as liquid", ts[0]+1)
			for _, t := range ts {
				u.layout.high = append(u.layout.high, cols[t].box)
			}
		}
	}
	if level.HasHidden() || level.HasCurtains() {
		if t := roomColour(tubes, cols, f.roomLooks(cols)); t >= 0 {
			r.doubt(brokenConfidence, "tube %d's top run, up to its top, is in a colour only such runs show, the colour of the glass other tubes show above their liquid, and hidden units or curtains keep the counts from telling: the glass may be read as liquid", t+1)
		}
	}
	if n, t := repeatedTubes(tubes); n > 0 {
		r.doubt(brokenConfidence, "%d tubes hold the same %d units in the same order (tube %d's): a level is dealt at random, so this is a decoration repeated over several tubes", n, len(tubes[t]), t+1)
	}
	if n := sameCurtains(tubes); n > 0 {
		r.doubt(brokenConfidence, "all %d curtains name one colour, as a decoration common to every curtain (a frame, a rod) would", n)
	}
	for d := 2; capacity/d >= minReadCapacity; d++ {
		if runsOf(tubes, d) {
			r.doubt(brokenConfidence, "every layer holds a multiple of %d units in tubes of %d: each %d may be one unit of a tube of %d", d, capacity, d, capacity/d)
			break
		}
	}
	if level.HasHidden() && completeColors(level) == 0 {
		// No colour shows all its units: the counts check nothing. The hidden units' look
		// still does (see hiddenlook.go).
		if look, fills, ok := f.hiddenLook(samples); ok {
			if n := f.hiddenLookOutside(look, fills, cols, u.unit); n > 0 {
				r.doubt(brokenConfidence, "%d boxes outside the tubes found look like the hidden units: a tube was missed, or the look is no hidden unit's", n)
			}
		}
	}
	rows := u.layout.allRows()
	if short, long := unevenRows(rows); short > 0 {
		r.doubt(brokenConfidence, "a row holds %d tubes and another %d: games fill their rows alike, so tubes of the short row were missed", short, long)
	}
	if i, j := shortAbove(rows); i >= 0 {
		r.doubt(brokenConfidence, "row %d holds %d tubes and row %d, below it, %d: games fill their rows from the top, so tubes of row %d were missed", i+1, len(rows[i]), j+1, len(rows[j]), i+1)
	}
	if i := rowGapMissed(rows); i >= 0 {
		r.doubt(brokenConfidence, "rows %d and %d stand more than a tube's height apart: a row of tubes fits between them, so one was missed", i+1, i+2)
	}
	if i, j, above := flushShortRow(rows); i >= 0 && !above {
		r.doubt(brokenConfidence, "row %d stands under the places of row %d from its left end, %d tubes short at its right: games centre or stagger their rows, so its last tubes were missed", i+1, j+1, len(rows[j])-len(rows[i]))
	} else if i >= 0 {
		r.doubt(brokenConfidence, "row %d stands over the places of row %d from its right end, %d tubes short at its left: games centre or stagger their rows, so its first tubes were missed or row %d's first tube is none", i+1, j+1, len(rows[j])-len(rows[i]), j+1)
	}
	if i, j := overlappingRows(rows); i >= 0 {
		r.doubt(brokenConfidence, "tube %d's box reaches into tube %d's, of another row: two tubes cannot stand in one place, so one is no tube", i+1, j+1)
	}
	if i, j := levelAcrossRows(rows); i >= 0 {
		r.doubt(brokenConfidence, "tube %d stands level with tube %d, of another row, more than half its height alongside it: a row's tubes stand level, so one is no tube", j+1, i+1)
	}
	if i := offCentreRow(rows); i >= 0 {
		r.doubt(brokenConfidence, "row %d stands off the centre two rows share, one over the other: games centre their rows, so a tube was missed at one end or read where none stands at the other", i+1)
	} else if off := math.Abs(offCentreBoard(rows, f.w)); f.screen == nil && math.Round(2*off) >= 1 && math.Abs(2*off-math.Round(2*off)) <= 2*offBeat {
		r.doubt(brokenConfidence, "the board stands %.1f pitches off the screen's centre: games centre their rows on the screen, so a tube was missed at one end or read where none stands at the other", off)
	}
	// The places where an empty tube was missed: beyond the rows' ends, and in their gaps.
	tpl, seen := f.emptyTemplate(cols, u.layout.liquidOnly)
	var ends []endPlace
	if seen {
		ends = f.emptyBeyondEnds(u.layout.rows, tpl)
	}
	if len(ends) > 0 {
		r.doubt(brokenConfidence, "%d places at a row's end look like the empty tubes: a tube was missed", len(ends))
	}
	holes := u.layout.holes()
	if holes > 0 && seen {
		// (Doubted below for the places without a tube.)
		ends = append(ends, f.emptyInGaps(rows, tpl)...)
	}
	if len(ends) > 0 {
		u.layout.ends = ends // (assigned, not added to: each unit height tried finds them again)
	}
	if u.beyond > 0 {
		r.doubt(brokenConfidence, "%d places a pitch beyond a row's end hold liquid: a tube was missed", u.beyond)
	}
	if i, why := hiddenOutOfPlace(tubes); i >= 0 {
		r.doubt(brokenConfidence, "tube %d: %s", i+1, why)
	}
	if i := corkedShort(cols, counts, capacity, samples, func(c column) bool { return !c.empty() }); i >= 0 && (level.HasCurtains() || level.HasHidden()) {
		// (Elsewhere the count rule misses the layer.)
		r.doubt(brokenConfidence, "tube %d: the run at its box's top, left out as a cork, looks like a unit in view over a tube not full, while curtains or hidden units keep the counts from missing it: a top layer left out", i+1)
	}
	if i := backgroundTube(tubes, counts, samples); i >= 0 && level.HasHidden() {
		r.doubt(brokenConfidence, "tube %d holds only units like the background beside it, in colours no other tube shows, and hidden units complete any colour: the background through an empty tube's glass", i+1)
	}
	if i := f.curtainOfMarks(cols, samples); i >= 0 {
		r.doubt(brokenConfidence, "tube %d's curtain: its lantern looks like a tone of the hidden units' marks: a tube of hidden units drawn as discs may pass for a curtain", i+1)
	}
	if i := f.shownMarks(cols, counts, samples); i >= 0 {
		r.doubt(brokenConfidence, "tube %d: a unit read as a colour shows the two tones of the hidden units' marks: a hidden unit read as liquid", i+1)
	}
	if i := unreadMarks(cols); !level.HasHidden() && i >= 0 {
		r.doubt(brokenConfidence, "tube %d: the units at its bottom repeat a mark of two tones, as hidden units drawn as a disc round a glyph do, yet no unit is read hidden", i+1)
	}
	if i := shownUnderHidden(tubes); inferred && i >= 0 {
		// Some levels deal a unit in view under hidden ones, but where no glyph tells the
		// hidden units, such a unit is more likely one whose look was missed.
		r.doubt(brokenConfidence, "tube %d shows a unit under hidden units told by the rules alone: a hidden unit whose look was missed", i+1)
	}
	if i := hiddenAsColour(tubes, capacity); i >= 0 {
		r.doubt(brokenConfidence, "tube %d shows all its units but the top in one colour no other tube shows, on a mystery deal no pour has touched: its hidden units read as a colour", i+1)
	}
	if i := completeAtStart(tubes, capacity); i >= 0 {
		// Read as empty glass in a hypothesis where its colour has the hue of the glass seen
		// (a cloth or a lid has its own).
		start := 0
		for _, n := range counts[:i] {
			start += n
		}
		m := meanColor(samples[start : start+counts[i]])
		hue := func(g lab) bool { return glassHue(m, g) }
		if b := u.cols[i].box; !slices.Contains(u.layout.startFull, b) && (slices.ContainsFunc(u.glasses, hue) || slices.ContainsFunc(f.glassSeen(cols), hue)) {
			u.layout.startFull = append(u.layout.startFull, b)
		}
		r.doubt(brokenConfidence, "tube %d is full of one colour on a mystery board no pour has touched (every other tube full, its top unit alone in view): a cover or a decoration read as liquid", i+1)
	} else if i := shownAtStart(tubes, capacity, func(i int) bool { return slices.Contains(u.layout.clothRead, cols[i].box) }); i >= 0 {
		r.doubt(brokenConfidence, "tube %d, found as a curtain, shows all its units on a mystery board no pour has touched (every other tube full, its top unit alone in view): a cover's panel read as liquid", i+1)
	}
	if n := hiddenUnits(level); n > 0 && !level.HasCurtains() && completeColors(level) == visibleColors(level) {
		// Every colour in view is complete, so the hidden units are colours of their own, none
		// of whose units shows: a level hides part of each colour, so the "hidden units" are
		// more likely a dark liquid whose bubbles or glare passed for glyphs.
		r.doubt(brokenConfidence, "the %d hidden units would be %d colours none of whose units shows, while every colour in view is complete: they may be a dark liquid", n, n/capacity)
	}
	if holes > 0 {
		r.doubt(holeConfidence, "%d places at the rows' pitch hold no tube: a tube was missed, or something covers the board", holes)
	}
	if level.Colors() < 2 && !level.HasHidden() && !level.HasCurtains() {
		// One colour is no puzzle to sort: bars, a map's path, a progress strip.
		return raisedShort, solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found: the tubes hold %d colour, a level has at least 2", level.Colors())
	}
	if level.Solved() && !level.HasHidden() && !level.HasCurtains() {
		return raisedShort, errFinished
	}
	if r.Confidence < LowConfidence {
		return raisedShort, r.lowConfidence()
	}
	return raisedShort, nil
}

// A reading whose hidden units were told by the rules alone (no glyph) is doubted to
// inferredHiddenConfidence (inferredCoveredConfidence with curtains, whose own doubt,
// coveredConfidence, leaves it at 0.48, under LowConfidence: such readings, passed at 0.525
// until session 29, were wrong 8 times in 83 on the tuning seeds, the corner sets and three
// fresh seeds, against 5 in 85 with glyphs beside curtains and 7 in 248 with curtains
// alone), and kept only for tubes of minInferredCapacity units or more and minInferredColors
// visible colours or more: on a few tubes (a layout that missed most of them) hidden units
// can make any reading keep the rules. For the same reason the height above such tubes is
// taken for headroom only over minHeadroomTubes tubes holding liquid or more (see readUnits).
const (
	inferredHiddenConfidence  = 0.7
	inferredCoveredConfidence = 0.69
	minInferredCapacity       = 3
	minInferredColors         = 3
	minHeadroomTubes          = 6
)

// visibleCounts is the number of units in view of each colour, by colour (index 0 unused).
func visibleCounts(l *solver.Level) []int {
	n := make([]int, len(l.Names))
	for _, t := range l.Tubes {
		for _, c := range t {
			if int(c) < len(n) { // not Hidden
				n[c]++
			}
		}
	}
	return n
}

// completeColors is the number of colours all of whose units are in view.
func completeColors(l *solver.Level) int {
	return countFunc(visibleCounts(l)[1:], func(k int) bool { return k >= l.Capacity })
}

// hiddenUnits is the number of the level's hidden units.
func hiddenUnits(l *solver.Level) int {
	n := 0
	for _, t := range l.Tubes {
		n += countFunc(t, func(c solver.Color) bool { return c == solver.Hidden })
	}
	return n
}

// visibleColors is the number of colours with a unit in view.
func visibleColors(l *solver.Level) int {
	return countFunc(visibleCounts(l)[1:], func(k int) bool { return k > 0 })
}

// spareTubes is how many tubes' worth of room a level leaves empty: its tubes less its units
// (a covered tube counted full) over the capacity. Games deal colours to all but one to
// three tubes (four where a tube was added; the real screenshots at hand leave two at most),
// the same at the start and after every pour; a few tutorial levels may leave more, never
// most of their tubes. A reading with more room missed liquid (read a tube's contents as empty
// glass) or found tubes that are none; a reading with none (every tube full, where no pour is
// possible) missed a tube.
func spareTubes(l *solver.Level) float64 {
	units := 0
	for i, t := range l.Tubes {
		if l.Curtained(i) {
			units += l.Capacity
			continue
		}
		units += len(t)
	}
	return float64(len(l.Tubes)) - float64(units)/float64(l.Capacity)
}

const maxSpareTubes = 4

// maxScreenTubes is the most tubes a screenshot can plausibly show: the reader's own limit, far
// below what the solver takes (solver.MaxTubes).
const maxScreenTubes = 64

func countFunc[T any](s []T, f func(T) bool) int {
	n := 0
	for _, v := range s {
		if f(v) {
			n++
		}
	}
	return n
}

// room is the free space left and right of box b: the gaps to the nearest other boxes in its
// row (boxes of close tubes may touch or overlap: no room).
func room(boxes []image.Rectangle, b image.Rectangle) [2]int {
	gap := [2]int{b.Dx(), b.Dx()}
	for _, o := range boxes {
		if o == b || o.Max.Y <= b.Min.Y || o.Min.Y >= b.Max.Y {
			continue
		}
		if c := (o.Min.X + o.Max.X) / 2; c > (b.Min.X+b.Max.X)/2 {
			gap[1] = min(gap[1], o.Min.X-b.Max.X)
		} else {
			gap[0] = min(gap[0], b.Min.X-o.Max.X)
		}
	}
	return gap
}

// heightCapacity is the capacity the tubes' height allows: units that fit between the
// liquid's bottom and the top of the box, less the headroom games leave above a full tube
// (measured at 0.4 to 1.0 unit across the games at hand; a tube is taken to hold whole units
// up to headroomSlack of one below its top).
func heightCapacity(cols []column, unit float64) int {
	var ratios []float64
	for _, c := range cols {
		if !c.empty() {
			ratios = append(ratios, float64(c.bottom-c.box.Min.Y)/unit)
		}
	}
	if len(ratios) == 0 {
		return 0
	}
	slices.Sort(ratios)
	return int(ratios[len(ratios)/2] - headroomSlack)
}

// dividingBetween is the least capacity above lo and below hi that total units fill whole
// tubes of, or 0.
func dividingBetween(total, lo, hi int) int {
	for c := lo + 1; c < hi; c++ {
		if total%c == 0 {
			return c
		}
	}
	return 0
}

// marksCounted reports whether every tube holding hidden units holds them as the run at its
// bottom that a two-toned mark's rhythm counted (glyphRun.marks), no tube shows such a run
// without them, and the rhythm counted as many as were read in most such tubes, one fewer
// or more in the others (a disc clipped by a round foot repeats no tone: 87000480).
func marksCounted(cols []column, counts []int, samples []unitSample) bool {
	k, tubes, exact := 0, 0, 0
	for t, n := range counts {
		hidden := 0
		for hidden < n && samples[k+hidden].hidden {
			hidden++
		}
		above := slices.ContainsFunc(samples[k+hidden:k+n], func(s unitSample) bool { return s.hidden })
		k += n
		run := slices.IndexFunc(cols[t].glyphGaps, func(g glyphRun) bool { return g.marks })
		if hidden == 0 && run < 0 && !above {
			continue
		}
		if hidden == 0 || run < 0 || above {
			return false
		}
		switch d := cols[t].glyphGaps[run].n - hidden; {
		case d == 0:
			exact++
		case d < -1 || d > 1:
			return false
		}
		tubes++
	}
	return tubes > 0 && 2*exact > tubes
}

// dealtUntouched reports whether the tubes show a mystery level's deal no pour has touched:
// every tube holding liquid, curtains aside, holds as many units as the others, all hidden
// but its top one, minAtStart tubes or more. A pour from such a tube shows the unit under
// the one poured and leaves the tube it pours into fuller, so every tube is as its deal left
// it, and the curtains hide tubes as full as the others (see readUnits).
func dealtUntouched(cols []column, counts []int, samples []unitSample) bool {
	n, start, dealt := 0, 0, 0
	for i, c := range cols {
		k := counts[i]
		if c.curtain || k == 0 {
			start += k
			continue
		}
		if n == 0 {
			n = k
		}
		if k != n || k < 2 || !dealtTop(samples[start:start+k], func(s unitSample) bool { return s.hidden }) {
			return false
		}
		start += k
		dealt++
	}
	return dealt >= minAtStart
}

// evenlyFilled reports whether no tube is covered and every tube with liquid holds as many
// units as the others.
func evenlyFilled(cols []column, counts []int) bool {
	n := 0
	for i, c := range cols {
		switch {
		case c.curtain:
			return false
		case counts[i] == 0:
		case n == 0:
			n = counts[i]
		case counts[i] != n:
			return false
		}
	}
	return n > 0
}

// fitCapacity settles the capacity: the smallest that the liquid heights fit, raised while the
// unit total does not divide by it and a larger capacity still fits in the tubes (a mid-game
// position may have no full tube) and over the fullest tube's liquid: the glass above it, up
// to its box's top (rim included), must hold the units the larger capacity adds, to within
// headroomSlack of one (a tube missed makes the total a multiple of a capacity one too large,
// which a full tube's liquid up to its rim rules out).
func fitCapacity(capacity, total int, cols []column, counts []int, unit float64) int {
	if total%capacity == 0 {
		return capacity
	}
	room, fullest := 0, -1
	for i, c := range cols {
		room = max(room, int(float64(c.box.Dy())/unit))
		if counts[i] > 0 && (fullest < 0 || counts[i] > counts[fullest]) {
			fullest = i
		}
	}
	if fullest >= 0 {
		c := cols[fullest]
		room = min(room, counts[fullest]+int(float64(c.top-c.box.Min.Y)/unit+headroomSlack))
	}
	for c := capacity + 1; c <= min(room, solver.MaxCapacity); c++ {
		if total%c == 0 {
			return c
		}
	}
	return capacity
}

// lowConfidence is the error that refuses the reading for its confidence, naming its
// strongest doubt.
func (r *Reading) lowConfidence() error {
	return solver.Errorf(solver.CodeLowConfidence, "low confidence (%.2f): %s", r.Confidence, r.worst)
}

// doubt records a reason to doubt the reading: alone, it would leave confidence c. Independent
// doubts multiply: a reading doubted twice is less likely right than one doubted once.
func (r *Reading) doubt(c float64, format string, args ...any) {
	why := fmt.Sprintf(format, args...)
	c = math.Max(0, math.Min(1, c))
	if r.worst == "" || c < r.worstC {
		r.worst, r.worstC = why, c
	}
	r.Confidence *= c
	r.Reasons = append(r.Reasons, why)
}

// geometry records the tube and unit boxes in original image coordinates.
func (f *frame) geometry(r *Reading, cols []column, counts []int, unit float64) {
	scale := func(x0, y0, x1, y1 float64) image.Rectangle {
		return f.toImage(x0, y0, x1, y1).Intersect(image.Rect(0, 0, r.Width, r.Height))
	}
	r.Tubes = make([]Tube, len(cols))
	for i, c := range cols {
		b := c.box
		r.Tubes[i].Box = scale(float64(b.Min.X), float64(b.Min.Y), float64(b.Max.X), float64(b.Max.Y))
		for j := range counts[i] {
			y1 := float64(c.bottom) - float64(j)*unit
			r.Tubes[i].Units = append(r.Tubes[i].Units, scale(float64(b.Min.X), y1-unit, float64(b.Max.X), y1))
		}
	}
}

// colors clusters the visible units into colours and names them.
func (r *Reading) colors(cols []column, counts []int, samples []unitSample, capacity int, memo *deltaMemo) ([][]string, []lab, error) {
	var visible []lab
	hidden := 0
	for _, s := range samples {
		if s.hidden {
			hidden++
		} else {
			visible = append(visible, s.color)
		}
	}
	total := len(samples)
	covered := slices.ContainsFunc(cols, func(c column) bool { return c.curtain })
	k := 0
	if hidden == 0 && !covered && total%capacity == 0 {
		k = total / capacity
	}
	if hidden > 0 {
		r.Reasons = append(r.Reasons, fmt.Sprintf("%d hidden units", hidden))
	}
	if hidden == 1 {
		// Games hide units several to a board, and a glyph seen once is no look to trust: a
		// tube's foot or glare in the patch of a unit read a little low passes for one.
		r.doubt(brokenConfidence, "one unit alone read hidden: a mark seen once may be a tube's foot or glare in its patch")
	}
	if n := countFunc(cols, func(c column) bool { return c.curtain }); covered {
		// What curtains hide is unknown, so the count rule cannot check this reading.
		r.doubt(coveredConfidence, "%d tubes behind curtains: the colour counts cannot confirm the reading", n)
	}
	if total%capacity != 0 && !covered {
		r.doubt(brokenConfidence, "%d units do not make whole tubes of %d", total, capacity)
	}
	labels := clusterUnits(visible, capacity, k, unknownCountDE, memo)
	if k > 0 {
		labels = balance(visible, labels, k, capacity)
	}
	if k == 0 {
		// Without the count to confirm it, a colour merged from units this far apart may be
		// two near colours.
		if d := widestGroup(visible, labels); d > mergeDE {
			r.doubt(mergeConfidence, "a colour groups units ΔE %.0f apart, with no count to confirm it is one", d)
		}
	}
	groups := 0
	for _, l := range labels {
		groups = max(groups, l+1)
	}
	means := make([]lab, groups)
	members := make([][]lab, groups)
	for i, l := range labels {
		members[l] = append(members[l], visible[i])
	}
	for g := range means {
		means[g] = meanLab(members[g])
	}
	r.checkClusters(means, members)
	if n := hiddenLikeColor(samples, means); n > 0 {
		r.doubt(strayConfidence, "%d hidden units look like a colour in view: hidden boxes are drawn unlike any liquid", n)
	}
	// Name groups in order of first appearance so names are stable for a given image.
	order := make([]int, 0, groups)
	seen := map[int]bool{}
	for _, l := range labels {
		if !seen[l] {
			seen[l] = true
			order = append(order, l)
		}
	}
	ordered := make([]lab, len(order))
	for i, g := range order {
		ordered[i] = means[g]
	}
	names := make([]string, groups)
	for i, n := range nameColors(ordered) {
		names[order[i]] = n
	}
	// Room for a colour of its own out of view: hidden units, or covered tubes holding a whole
	// tube's worth more than the colours in view lack.
	ownRoom := hidden > 0
	if covers := countFunc(cols, func(c column) bool { return c.curtain }); covers > 0 {
		sizes := make([]int, len(members))
		for g, m := range members {
			sizes[g] = len(m)
		}
		ownRoom = ownRoom || covers*capacity-shortfall(sizes, capacity) >= capacity
	}
	tubes := make([][]string, len(cols))
	si, vi := 0, 0
	for i := range cols {
		if cols[i].curtain {
			tubes[i] = []string{solver.CurtainPrefix + curtainName(cols[i].lantern, means, names)}
			if cols[i].frameOnly {
				r.doubt(brokenConfidence, "tube %d's curtain: its lantern is a frame round a pane like the cloth, so the colour it names may be only the frame's", i+1)
			}
			if why := lanternDoubt(cols[i].lantern, means, ownRoom); why != "" {
				r.doubt(brokenConfidence, "tube %d's curtain: %s", i+1, why)
			}
			continue
		}
		tubes[i] = []string{}
		for range counts[i] {
			if samples[si].hidden {
				tubes[i] = append(tubes[i], "?")
			} else {
				tubes[i] = append(tubes[i], names[labels[vi]])
				vi++
			}
			si++
		}
	}
	// A grey colour short of the capacity lying only at tubes' bottoms, under other colours,
	// lies where hidden units rest: hidden boxes whose mark a JPEG or a photo's blur lost read
	// as a liquid (20261321783992, beside sheets the counts cannot check). Beside curtains a
	// whole tube's worth of a mid grey, single units at bottoms too, may be so: grey boxes
	// drawn with no mark, the reading with them hidden as good within the counts the
	// curtains leave unchecked (20261340784245). (Not a dark one: dark boxes carry a glyph
	// or a hatch, which are counted, and a black liquid at two tubes' bottoms beside lids
	// read right, 84000268.)
	for g, m := range means {
		short := len(members[g]) < capacity
		if (short || covered && m.L >= hiddenMaxL) && bottomsOnly(tubes, names[g], !short) && m.Chroma() < hiddenMaxChroma && m.L < greyBoxMaxL {
			r.doubt(brokenConfidence, "colour %s, %d units in tubes of %d, lies grey at the bottom of every tube it is in, under other colours, as hidden boxes whose mark was not seen would", names[g], len(members[g]), capacity)
		}
	}
	if i := panelRoundBadge(tubes); i >= 0 {
		if g := slices.Index(names, tubes[i][0]); g >= 0 && means[g].Chroma() < hiddenMaxChroma {
			r.doubt(brokenConfidence, "tube %d holds a grey round a single unit of another colour, a grey no other tube shows: a lid's panel round its padlock", i+1)
		}
	}
	return tubes, means, nil
}

// panelRoundBadge is the first tube of four units or more whose units are all one colour
// but a single one of another, neither at its bottom nor at its top, in a colour no other
// tube shows; or -1. A lid's grey panel round its padlock reads so (20261321783919,
// 20261322784338: silent). A dealt tube seldom does, but in tubes of 3 a colour's two units
// round another, its third hidden, are common (20261290783747, 20261290783842), and a
// coloured one may wait for its last unit behind a curtain (20261293783990): readUnits
// doubts greys alone.
func panelRoundBadge(tubes [][]string) int {
	for i, t := range tubes {
		n := len(t)
		if n < 4 || t[0] != t[n-1] || t[0] == "?" || countFunc(t, func(c string) bool { return c != t[0] }) != 1 {
			continue
		}
		elsewhere := false
		for j, o := range tubes {
			elsewhere = elsewhere || j != i && slices.Contains(o, t[0])
		}
		if !elsewhere {
			return i
		}
	}
	return -1
}

// bottomsOnly reports whether colour name lies in two tubes or more, in each only in the run
// from its bottom, of two units or more (or one, with singles), under another colour in one
// of them at least: where runs of hidden units rest. (A single unit at the bottom of two
// tubes is as often a colour: 83000394, 83000479, 89000519.)
func bottomsOnly(tubes [][]string, name string, singles bool) bool {
	in, under := 0, false
	for _, t := range tubes {
		n := 0
		for n < len(t) && t[n] == name {
			n++
		}
		if n == 1 && !singles || slices.Contains(t[n:], name) {
			return false
		}
		if n > 0 {
			in++
			under = under || n < len(t)
		}
	}
	return in >= 2 && under
}

// lanternDoubt says why the colour a lantern shows does not name one colour in view for
// sure: it is about as near two of them (within lanternMargin, while within lanternMargin of
// lanternDE of the nearer), near none while nothing out of view can hold the colour it waits
// for (or while it is grey, chroma under hiddenLookChroma: liquids are coloured, and a gilt
// frame sampled with the pane it holds mixes to grey), or, where hidden units or the covered
// tubes may hold a colour of their own (own), only roughly like the one it is nearest
// (lanternSure or more: a lantern shows its colour as the liquid does, and a near pair of
// colours differs by little more) or too near it to be sure it names a colour of its own
// (under ownLanternDE). It is "" when the lantern is clear.
func lanternDoubt(c lab, means []lab, own bool) string {
	d := make([]float64, len(means))
	for g, m := range means {
		d[g] = deltaE(c, m)
	}
	slices.Sort(d)
	switch {
	case len(d) > 1 && d[0] < lanternDE+lanternMargin && d[1]-d[0] < lanternMargin:
		return fmt.Sprintf("its lantern is about as near two colours (ΔE %.0f and %.0f)", d[0], d[1])
	case len(d) == 0 || d[0] >= lanternDE:
		if own && c.Chroma() >= hiddenLookChroma && (len(d) == 0 || d[0] >= ownLanternDE) {
			return "" // a colour out of view
		}
		if own && c.Chroma() >= hiddenLookChroma {
			// (Measured off a small lantern in a blurred image, the colour in view it shows
			// lies as far off, 20261330784336.)
			return fmt.Sprintf("its lantern is nearly as near a colour in view (ΔE %.0f) as a colour out of view would lie", d[0])
		}
		return "its lantern matches no colour in view"
	case own && d[0] >= lanternSure:
		return fmt.Sprintf("its lantern is only roughly like the nearest colour in view (ΔE %.0f): it may wait for a colour out of view", d[0])
	}
	return ""
}

// lanternMargin is how much nearer (CIEDE2000) a lantern must be to the colour it names than
// to any other; lanternSure is how near it must be to name it for sure when hidden units may
// hold another colour.
const (
	lanternMargin = 8
	lanternSure   = 6
)

// ownLanternDE is how far (CIEDE2000) a lantern must lie from every colour in view to name a
// colour of its own, out of view: a small blurred lantern measures its colour in view up to
// about lanternDE off (20.5, 20261330784336), a sheet's wide badge a colour of its own 26 off
// (83000452).
const ownLanternDE = lanternDE + lanternMargin/2

// curtainName names the colour a curtain waits for: the liquid colour its lantern shows when
// one is close, else the nearest palette name not taken by a liquid.
func curtainName(c lab, means []lab, names []string) string {
	best, bd := -1, float64(lanternDE)
	for g, m := range means {
		if d := deltaE(c, m); d < bd {
			best, bd = g, d
		}
	}
	if best >= 0 {
		return names[best]
	}
	return nameColors(append(slices.Clone(means), c))[len(means)]
}

// checkClusters lowers the confidence for loose groups, for units that sit closer to another
// colour than to their own (the count rule forced them apart from their look), and for groups
// too alike to be told apart reliably.
func (r *Reading) checkClusters(means []lab, members [][]lab) {
	worst, strays := 0.0, 0
	for g, m := range members {
		for _, c := range m {
			own := deltaE(c, means[g])
			worst = max(worst, own)
			for o := range means {
				if o != g && deltaE(c, means[o]) < own {
					strays++
					break
				}
			}
		}
	}
	if strays > 0 {
		r.doubt(strayConfidence, "%d units look more like another colour than their own", strays)
	} else if n := ambiguousUnits(means, members); n > 0 {
		r.doubt(strayConfidence, "%d units stand near the middle between two colours", n)
	}
	if d := splitGroup(members); d > 0 {
		r.doubt(strayConfidence, "a colour holds two looks ΔE %.0f apart", d)
	}
	switch {
	case worst > strayDE:
		r.doubt(strayConfidence, "a unit differs from its colour by ΔE %.0f", worst)
	case worst > looseDE:
		r.doubt(looseConfidence, "a unit differs from its colour by ΔE %.0f", worst)
	}
	var ds []float64
	for i := range means {
		for j := range i {
			ds = append(ds, deltaE(means[i], means[j]))
		}
	}
	sort.Float64s(ds)
	if len(ds) > 0 && ds[0] < twinDE {
		// Games never draw two colours this alike: the count rule split one colour.
		r.doubt(twinConfidence, "two colours differ by only ΔE %.1f", ds[0])
	}
	r.nearest = math.Inf(1)
	if len(ds) > 0 {
		r.nearest = ds[0]
	}
}

// hiddenLikeColor counts the units read as hidden that look like one of the colours in view
// (within hiddenTwinDE): games draw hidden units unlike any liquid, so such a unit is more
// likely liquid with a highlight taken for a glyph.
func hiddenLikeColor(samples []unitSample, means []lab) int {
	return countFunc(samples, func(s unitSample) bool {
		return s.hidden && !s.marked && slices.ContainsFunc(means, func(m lab) bool { return deltaE(s.color, m) < hiddenTwinDE })
	})
}

// hiddenTwinDE is how close (CIEDE2000) a hidden unit may look to a liquid colour.
const hiddenTwinDE = 6

// ambiguousUnits counts the units that sit near the middle between their colour and another:
// nearer their own, but by less than marginShare of the distance between the two colours. The
// count rule can settle which is which, but a swap of two such units keeps the counts.
func ambiguousUnits(means []lab, members [][]lab) int {
	n := 0
	for g, m := range members {
		for _, c := range m {
			own := deltaE(c, means[g])
			for o := range means {
				if o == g {
					continue
				}
				if d := deltaE(means[g], means[o]); d > 0 && (deltaE(c, means[o])-own) < marginShare*d {
					n++
					break
				}
			}
		}
	}
	return n
}

// splitGroup looks for a colour that is two: its units fall into two tight groups at least
// splitDE apart (each unit within splitTight of that distance from its group's middle). It
// returns the distance between the two, or 0 when every colour is one.
func splitGroup(members [][]lab) float64 {
	worst := 0.0
	for _, m := range members {
		if len(m) < 2 {
			continue
		}
		// Seed the two halves with the farthest pair, then settle them once.
		a, b, far := 0, 0, 0.0
		for i := range m {
			for j := range i {
				if d := deltaE(m[i], m[j]); d > far {
					a, b, far = i, j, d
				}
			}
		}
		if far < splitDE {
			continue
		}
		var ha, hb []lab
		for _, c := range m {
			if deltaE(c, m[a]) <= deltaE(c, m[b]) {
				ha = append(ha, c)
			} else {
				hb = append(hb, c)
			}
		}
		ma, mb := meanLab(ha), meanLab(hb)
		d := deltaE(ma, mb)
		if d < splitDE {
			continue
		}
		tight := true
		for _, c := range ha {
			tight = tight && deltaE(c, ma) < splitTight*d
		}
		for _, c := range hb {
			tight = tight && deltaE(c, mb) < splitTight*d
		}
		if tight {
			worst = max(worst, d)
		}
	}
	return worst
}

// A unit nearer its colour than another by less than marginShare of the two colours'
// distance is ambiguous; a colour whose units form two groups splitDE or more apart, each unit
// within splitTight of that distance of its group, is two colours merged.
const (
	marginShare = 0.3
	splitDE     = 10
	splitTight  = 0.3
)

// Colour groups: a unit farther than looseDE from its colour's mean (CIEDE2000) makes the
// reading doubtful (looseConfidence); one farther than strayDE, or closer to another colour
// than to its own, is likely misgrouped (strayConfidence). Two colours within twinDE are one
// colour split.
const (
	looseDE         = 12
	strayDE         = 25
	looseConfidence = 0.6
	strayConfidence = 0.4
	twinDE          = 4
	twinConfidence  = 0.4
)

// unknownCountDE is how close (CIEDE2000) units must be to be merged into one colour when the
// count rule cannot say how many colours there are (hidden units, curtains): two near colours
// merged read silently wrong, while one colour split breaks the rules and is refused.
const unknownCountDE = 7

// hiddenOutOfPlace finds a tube whose top unit is hidden: a hidden unit shows its colour once
// it is its tube's top. (Below the top anything goes: some levels are dealt with a visible unit
// under hidden ones.) It returns the tube and why, or -1.
func hiddenOutOfPlace(tubes [][]string) (int, string) {
	for i, t := range tubes {
		if len(t) > 0 && t[len(t)-1] == "?" {
			return i, "its top unit is hidden, but a top unit always shows its colour"
		}
	}
	return -1, ""
}

// shownUnderHidden finds a tube (units bottom first) with a unit in view under a hidden one,
// or -1.
func shownUnderHidden(tubes [][]string) int {
	for i, t := range tubes {
		shown := slices.IndexFunc(t, func(u string) bool { return u != "?" })
		if shown >= 0 && slices.Contains(t[shown:], "?") {
			return i
		}
	}
	return -1
}

// loneFullTube reports whether level has a tube full of one colour in view that no other
// tube shows: a cover's panel raised as liquid reads so (see readFrom).
func loneFullTube(l *solver.Level) bool {
	for i, t := range l.Tubes {
		if len(t) == l.Capacity && t[0] != solver.Hidden && !slices.ContainsFunc(t, func(c solver.Color) bool { return c != t[0] }) && !shownElsewhere(l.Tubes, i, t[0]) {
			return true
		}
	}
	return false
}

// completeAtStart returns a tube full of one colour in view, on a board where every other
// tube holding anything is full with its top unit alone in view, or -1. Such a board is a
// mystery level's deal, untouched: each pour into a tube comes from another, which then
// shows more or holds less, and games deal no tube complete. So the complete tube is no
// liquid (a curtain's cloth, a lid) when at least minAtStart tubes show the untouched deal.
func completeAtStart(tubes [][]string, capacity int) int {
	i, n := oddAtStart(tubes, capacity, func(_ int, t []string) bool {
		return len(t) == capacity && t[0] != "?" && !slices.ContainsFunc(t, func(c string) bool { return c != t[0] })
	}, func(t []string) bool { return len(t) == 0 })
	if n != 1 {
		return -1
	}
	return i
}

// hiddenAsColour returns the one tube, on a mystery level's deal untouched (oddAtStart),
// that holds capacity units whose all but the top one are a single colour in view that no
// other tube shows, under a top of another colour; or -1. It is the deal's tube with its
// hidden units read as a colour (a small photo's blurred discs in one tube,
// 20261342784076): the counts let hidden units complete a colour short of the capacity.
// (A game may deal a tube all in view among mystery tubes, but a deal seldom gives one tube
// all its units but one of a colour no other tube shows.)
func hiddenAsColour(tubes [][]string, capacity int) int {
	i, n := oddAtStart(tubes, capacity, func(i int, t []string) bool {
		if len(t) != capacity || capacity < 3 || t[0] == "?" || t[len(t)-1] == t[0] {
			return false
		}
		return !shownElsewhere(tubes, i, t[0]) && !slices.ContainsFunc(t[:len(t)-1], func(c string) bool { return c != t[0] })
	}, func(t []string) bool { return len(t) == 0 })
	if n != 1 {
		return -1
	}
	return i
}

// shownAtStart returns the first tube found as a curtain (cloth reports which) holding two
// units or more, every one in view, on a board where every other tube holding anything but
// a curtain is full with its top unit alone in view (minAtStart of them or more), or -1. On
// a mystery level's deal, untouched, a tube found as a curtain that shows more than its top
// is a cover's panel or its badge read as liquid (a sheet's layers beside grey boxes with "?"
// that look like its cloth, 20261327783978). (Some games deal a tube or two all in view
// among the mystery tubes, as sshcrack's discovery level 20 does: a tube found as no
// curtain is no cover.)
func shownAtStart(tubes [][]string, capacity int, cloth func(int) bool) int {
	i, _ := oddAtStart(tubes, capacity, func(i int, t []string) bool {
		return cloth(i) && len(t) >= 2 && !slices.Contains(t, "?")
	}, func(t []string) bool { return len(t) == 0 || covered(t) })
	return i
}

// oddAtStart returns the first tube odd holds for and how many it holds for, on a board
// where every other tube but those aside holds for is full with its top unit alone in view,
// minAtStart of them or more: a mystery level's deal, untouched. It returns -1 and 0 for any
// other board.
func oddAtStart(tubes [][]string, capacity int, odd func(int, []string) bool, aside func([]string) bool) (first, n int) {
	first, untouched := -1, 0
	for i, t := range tubes {
		switch {
		case aside(t):
		case odd(i, t):
			if n++; first < 0 {
				first = i
			}
		case len(t) == capacity && dealtTop(t, func(c string) bool { return c == "?" }):
			untouched++
		default:
			return -1, 0
		}
	}
	if untouched < minAtStart {
		return -1, 0
	}
	return first, n
}

// dealtTop reports whether a tube's units (bottom up, hidden telling which are hidden) show
// a mystery deal untouched: every unit hidden but the top one, which is in view.
func dealtTop[T any](t []T, hidden func(T) bool) bool {
	return len(t) > 0 && !hidden(t[len(t)-1]) && !slices.ContainsFunc(t[:len(t)-1], func(u T) bool { return !hidden(u) })
}

// minAtStart is the fewest untouched mystery tubes completeAtStart needs to call a board a deal.
const minAtStart = 3

// backgroundTube is the first tube whose units, one colour or more, all look like the
// background beside it (unitSample.likeBackground) in colours no other tube shows, or -1:
// the background through an empty tube's clear glass. Where hidden units complete any
// colour short of the capacity, the count does not ask for such a colour to go.
func backgroundTube(tubes [][]string, counts []int, samples []unitSample) int {
	shown := map[string]int{} // the tubes showing each colour
	for _, t := range tubes {
		u := slices.Clone(t)
		slices.Sort(u)
		for _, c := range slices.Compact(u) {
			shown[c]++
		}
	}
	start := 0
	for i, t := range tubes {
		units := samples[start : start+counts[i]]
		start += counts[i]
		if len(t) == 0 || len(t) != len(units) || slices.Contains(t, "?") || covered(t) {
			continue
		}
		if !slices.ContainsFunc(units, func(s unitSample) bool { return !s.likeBackground }) &&
			!slices.ContainsFunc(t, func(c string) bool { return shown[c] > 1 }) {
			return i
		}
	}
	return -1
}

// coveredShortfall is, for a level with curtains, the units its colours lack (each colour has
// capacity units in all) and the most that hidden units and the covered tubes can hold.
func coveredShortfall(l *solver.Level) (missing, room int) {
	if !l.HasCurtains() {
		return 0, 0
	}
	room = hiddenUnits(l) // a covered tube's entry is empty
	for i := range l.Tubes {
		if l.Curtained(i) {
			room += l.Capacity
		}
	}
	return shortfall(visibleCounts(l)[1:], l.Capacity), room
}

// shortfall is the units colours of the sizes given (units in view each) lack to make
// capacity each.
func shortfall(sizes []int, capacity int) int {
	n := 0
	for _, k := range sizes {
		n += max(0, capacity-k)
	}
	return n
}

// widestGroup is the largest distance between two units given the same colour.
func widestGroup(colors []lab, labels []int) float64 {
	w := 0.0
	for i := range colors {
		for j := range i {
			if labels[i] == labels[j] {
				w = max(w, deltaE(colors[i], colors[j]))
			}
		}
	}
	return w
}

// emptyGlass is the median colour inside the empty tubes (the middle of the box, inset from the
// walls): what a tube with no liquid looks like. It reports false when no tube is empty.
func (f *frame) emptyGlass(cols []column) (lab, bool) { return glassBut(f.emptyInsides(cols), -1) }

// inside is the colour inside an empty tube, column col of a reading.
type inside struct {
	col int
	c   lab
}

// emptyInsides is the colour inside each empty tube (emptyGlass).
func (f *frame) emptyInsides(cols []column) []inside {
	var out []inside
	for i, c := range cols {
		if !c.empty() || c.curtain {
			continue
		}
		b := c.box
		y0, y1 := insideBand(b)
		if m, ok := f.medianLab(image.Rect(b.Min.X+b.Dx()/4, y0, b.Max.X-b.Dx()/4, y1)); ok {
			out = append(out, inside{i, m})
		}
	}
	return out
}

// glassBut is the median of the empty tubes' insides but column but's: a column read empty,
// its one run filling its box, is glass or a tube full of one colour, and cannot tell which by
// itself. It reports false when no other tube is empty.
func glassBut(insides []inside, but int) (lab, bool) {
	var cs []lab
	for _, in := range insides {
		if in.col != but {
			cs = append(cs, in.c)
		}
	}
	if len(cs) == 0 {
		return lab{}, false
	}
	return medianOf(cs), true
}

// A reading whose every layer holds a multiple of d units keeps the rules with each d units
// taken for one, in tubes d times shorter in units; it is refused while those tubes would hold
// minReadCapacity units or more (a deal seldom leaves every layer a multiple of d: a late
// position, every tube full of one colour, does in tubes of 4, which d = 2 would make tubes
// of 2, below minReadCapacity). Mystery boards, whose visible runs are the top units alone,
// are split in three as readily as in two.

// runsOf reports whether every run of one colour in the tubes (hidden units and curtains
// aside) holds a multiple of d units.
func runsOf(tubes [][]string, d int) bool {
	runs := 0
	for _, t := range tubes {
		for i := 0; i < len(t); {
			j := i
			for j < len(t) && t[j] == t[i] {
				j++
			}
			if t[i] != "?" && !strings.HasPrefix(t[i], solver.CurtainPrefix) {
				if (j-i)%d != 0 {
					return false
				}
				runs++
			}
			i = j
		}
	}
	return runs > 0
}

// A whole tube of glass is told by its tint, against the glass that empty tubes or the room
// above liquid show. Glass over a lighter or darker background changes mostly in lightness:
// the tube's colour must lie within wholeGlassHue of the glass in a* and b*, and within
// wholeGlassDE (CIEDE2000) of it overall — further than a single unit may (glassDE) — unless
// the glass is tinted at tintedChroma or more, whose tint shows over any background. (A dark
// brown liquid beside black glass is not doubted.)
const (
	wholeGlassDE  = 16
	wholeGlassHue = 8
	tintedChroma  = 12
)

// fullReadEmpty is the first tube read empty whose one run, unlike the background around
// it, fills it from its box's top to its bottom in a colour farther than glassDE from the
// glass the other tubes show (empty, or above their liquid) and that no glass over the
// background beside it shows (translucentOver), or -1: a tube full of one colour whose
// liquid, starting at the box's top with the rim, was taken for a lid. (Where no other tube
// shows the glass, a tinted empty tube looks the same: no doubt.)
func (f *frame) fullReadEmpty(cols []column) int {
	boxes := make([]image.Rectangle, len(cols))
	for i, c := range cols {
		boxes[i] = c.box
	}
	for i, c := range cols {
		if c.curtain || !c.empty() || c.lid.y1 == 0 {
			continue
		}
		// The glass as the other tubes show it over room of their own: an empty tube's
		// inside, or the space above at least two tubes' liquid (a thin band over full
		// tubes takes the rim's tint).
		others := slices.Delete(slices.Clone(cols), i, i+1)
		var glasses []lab
		for _, find := range []func([]column) (lab, bool){f.emptyGlass, f.glassAbove} {
			if g, ok := find(others); ok {
				glasses = append(glasses, g)
			}
		}
		if len(glasses) == 0 || slices.ContainsFunc(glasses, func(g lab) bool { return deltaE(g, c.lid.color) < glassDE }) {
			continue
		}
		// Glass only tints what lies behind it: a colour the background beside the tube
		// shows through some glass may be an empty tube's over a patch unlike the others'.
		if bg, ok := f.beside(c.box, room(boxes, c.box), c.box.Min.Y, c.box.Max.Y); !ok || !translucentOver(c.lid.color, bg) {
			return i
		}
	}
	return -1
}

// wholeGlassTube is the first tube that holds capacity units of one colour found in no other
// tube, near one of the glasses, or -1: an empty tube whose tinted glass was read as one full
// colour.
func wholeGlassTube(tubes [][]string, samples []unitSample, capacity int, glasses []lab) int {
	tubeOf := map[string]int{}
	for i, t := range tubes {
		for _, u := range t {
			if j, ok := tubeOf[u]; ok && j != i {
				tubeOf[u] = -1
			} else if !ok {
				tubeOf[u] = i
			}
		}
	}
	si := 0
	for i, t := range tubes {
		start := si
		if covered(t) {
			continue
		}
		si += len(t)
		if len(t) != capacity || t[0] == "?" || tubeOf[t[0]] != i || layered(t) {
			continue
		}
		m := meanColor(samples[start:si])
		if slices.ContainsFunc(glasses, func(g lab) bool {
			return glassHue(m, g) && (deltaE(m, g) < wholeGlassDE || g.Chroma() >= tintedChroma)
		}) {
			return i
		}
	}
	return -1
}

// glassHue reports whether colour c has the hue of glass g: within wholeGlassHue of it in
// a* and b*, whatever their lightness.
func glassHue(c, g lab) bool { return math.Hypot(c.A-g.A, c.B-g.B) < wholeGlassHue }

// meanColor is the mean colour of the samples.
func meanColor(samples []unitSample) lab {
	cs := make([]lab, len(samples))
	for i, s := range samples {
		cs[i] = s.color
	}
	return meanLab(cs)
}

// wetBoxes are the boxes of the columns that hold liquid or a curtain.
func wetBoxes(cols []column) map[image.Rectangle]bool {
	wet := map[image.Rectangle]bool{}
	for _, c := range cols {
		if !c.empty() || c.curtain {
			wet[c.box] = true
		}
	}
	return wet
}

// oneColour reports whether the pale runs (raisePaleTops) of the tubes numbered is all look
// alike.
func oneColour(cols []column, is []int) bool {
	return !slices.ContainsFunc(is, func(i int) bool {
		return slices.ContainsFunc(is, func(j int) bool { return deltaE(cols[i].pale.color, cols[j].pale.color) >= paleMatchDE })
	})
}

// tubeList names tubes by their 0-based indices, as the player counts them: "2, 5, 7".
func tubeList(is []int) string {
	names := make([]string, len(is))
	for k, i := range is {
		names[k] = strconv.Itoa(i + 1)
	}
	return strings.Join(names, ", ")
}

// unevenRows reports the tubes of the shortest and the longest row when the rows differ more
// than games lay them out: a short row holds fewer than half the long row's tubes, and at
// least unevenRowGap fewer. Games split their tubes over rows alike (5 and 4, 7 and 7, 4, 4
// and 3), so a row far shorter than another is a row whose tubes were mostly missed (a
// staggered row off the other's pitch, tubes drawn unlike the others). It returns 0, 0 when
// the rows are even enough.
func unevenRows(rows [][]image.Rectangle) (short, long int) {
	if len(rows) < 2 {
		return 0, 0
	}
	short, long = len(rows[0]), len(rows[0])
	for _, r := range rows[1:] {
		short, long = min(short, len(r)), max(long, len(r))
	}
	if 2*short >= long || long-short < unevenRowGap {
		return 0, 0
	}
	return short, long
}

// rowGapMissed is the first of two rows holding tubes, one after the other, between which
// stands a gap taller than maxRowGap of their tubes' height, or -1. Games set their rows a
// fraction of a tube apart: a gap a whole tube tall holds a row the layout missed (the
// middle row of three, its five mystery tubes missed, read as ten tubes at 1.00 beside a
// colour the misgrouped tops made complete, 20261349784424). The height is the taller row's
// median box: boxes cut short (at a liquid's top, under a rim) lengthen the gap and shorten
// the height both. Where both rows' boxes are cut so, a right reading is refused (89000331:
// boxes added at the rows' pitch, cut at their liquid's top, 58 pixels tall and 71 apart).
func rowGapMissed(rows [][]image.Rectangle) int {
	prev := -1
	for i, row := range rows {
		if len(row) == 0 {
			continue
		}
		if prev >= 0 {
			top, bottom := rows[prev], row
			gap := medianSide(bottom, func(b image.Rectangle) int { return b.Min.Y }) - medianSide(top, func(b image.Rectangle) int { return b.Max.Y })
			tall := max(medianSide(top, image.Rectangle.Dy), medianSide(bottom, image.Rectangle.Dy))
			if float64(gap) > maxRowGap*float64(tall) {
				return prev
			}
		}
		prev = i
	}
	return -1
}

// maxRowGap is the tallest gap between two rows, in their tubes' heights, that games leave.
const maxRowGap = 1.0

// shortAbove is the first row holding fewer tubes than a row below it, and that row; or
// -1, -1. Games fill their rows from the top, the upper rows taking the odd tubes (7 tubes
// as 4 and 3, 11 as 6 and 5: every two-row level in the real screenshots' notes): a row
// short of one below it lost tubes (a row of a tube between two curtains, the curtains
// missed, over a row of three, 20261347784390).
func shortAbove(rows [][]image.Rectangle) (int, int) {
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			if len(rows[i]) > 0 && len(rows[i]) < len(rows[j]) {
				return i, j
			}
		}
	}
	return -1, -1
}

// flushShortRow is the first row shorter than a row within two rows of it (staggered rows
// keep every other row's places) that stands at that row's places, each tube within
// flushSlack of a pitch of its place, from the end games never keep a short row flush with:
// under the places from the left end, a row below; over them from the right end, a row
// above (above reports whether it is). It returns -1, -1 where there is none. Games centre
// their rows (a row one short stands half a pitch in, two short a pitch) or stagger them
// (every other row shifted a quarter of a pitch the other way: a row one short under a row
// stands under its places from the right end, and one over it from the left end): a short
// row flush at the other end has lost its tubes at the far end, or the long row has gained
// a tube beyond the short row's end (a doodle beside the board read as an empty tube). A row
// stands flush, too, where its centre stands half a pitch off the long row's for each tube
// it lacks, toward that end: rows spaced unevenly keep no places to match (a row's last
// empty tube missed, 20261348784176).
func flushShortRow(rows [][]image.Rectangle) (short, long int, above bool) {
	for i := range rows {
		for j := max(0, i-2); j <= min(len(rows)-1, i+2); j++ {
			row, by := rows[i], rows[j]
			if j == i || len(row) == 0 || len(row) >= len(by) {
				continue
			}
			pitch := commonPitch([][]image.Rectangle{by})
			if pitch <= 0 {
				continue
			}
			at := 0 // below: the places from the left end
			if i < j {
				at = len(by) - len(row) // above: from the right end
			}
			flush := true
			for k, b := range row {
				flush = flush && math.Abs(centreX(b)-centreX(by[at+k])) <= flushSlack*pitch
			}
			// Rows spaced unevenly keep no places: the short row's centre then tells, half a
			// pitch off the long row's for each tube it lacks, to the flush end's side.
			shift := float64(len(by)-len(row)) * pitch / 2
			if i > j {
				shift = -shift
			}
			flush = flush || math.Abs(rowCentre(row)-rowCentre(by)-shift) <= flushSlack*pitch
			if flush && !(abs(i-j) == 1 && centredOnKin(rows, i, pitch)) {
				return i, j, i < j
			}
		}
	}
	return -1, -1, false
}

// rowCentre is the middle of a row of boxes, from its first box's left edge to its last
// box's right edge; the row holds a box or more.
func rowCentre(row []image.Rectangle) float64 {
	return float64(row[0].Min.X+row[len(row)-1].Max.X) / 2
}

// centredOnKin reports whether row i stands centred (within flushSlack of a pitch) on a
// fuller row two rows from it, the next row of its phase where rows are staggered. Games
// that stagger their rows centre them too: a row one short under the row before it, which
// the stagger shifts the other way, stands at that row's places from the end the shift
// makes flush (a third row of three under a second of four, both centred, the second
// shifted right: from the left end, 20261346784316), but centred on the first row, shifted
// as it is. A row that lost its last tubes stands off that row's centre.
func centredOnKin(rows [][]image.Rectangle, i int, pitch float64) bool {
	for _, k := range []int{i - 2, i + 2} {
		if k >= 0 && k < len(rows) && len(rows[k]) > len(rows[i]) && math.Abs(rowCentre(rows[k])-rowCentre(rows[i])) <= flushSlack*pitch {
			return true
		}
	}
	return false
}

// overlappingRows returns the first two boxes of different rows, in reading order, that
// stand over each other across half the narrower's width and reach into each other by more
// than rowOverlap of the shorter's height; or -1, -1. Rows of tubes stand clear of each
// other: a box reaching into another row's is something else (the background under a
// curtained tube's foot read as an empty tube in a row of its own, 20261331784221).
func overlappingRows(rows [][]image.Rectangle) (int, int) {
	return pairAcrossRows(rows, func(p, q image.Rectangle) bool {
		in := p.Intersect(q)
		return 2*in.Dx() >= min(p.Dx(), q.Dx()) && float64(in.Dy()) > rowOverlap*float64(min(p.Dy(), q.Dy()))
	})
}

// pairAcrossRows returns the first two boxes of different rows, in reading order, that
// match; or -1, -1.
func pairAcrossRows(rows [][]image.Rectangle, match func(p, q image.Rectangle) bool) (int, int) {
	start := make([]int, len(rows))
	for i := 1; i < len(rows); i++ {
		start[i] = start[i-1] + len(rows[i-1])
	}
	for i, row := range rows {
		for j := i + 1; j < len(rows); j++ {
			for a, p := range row {
				for b, q := range rows[j] {
					if match(p, q) {
						return start[i] + a, start[j] + b
					}
				}
			}
		}
	}
	return -1, -1
}

// rowOverlap is how far, as a share of its height, a box may reach into another row's box
// (a rim or a foot drawn a little beyond the tube's own box).
const rowOverlap = 0.1

// levelAcrossRows returns the first two boxes of different rows, in reading order, whose
// heights overlap by more than half the shorter's, wherever they stand across; or -1, -1.
// Rows stand apart, one over the other: a box level with another row's has no row of its
// own (the bright blur of a small photo's background, half a tube below a row's end, taken
// for an empty tube in a row of its own, 20261332784163).
func levelAcrossRows(rows [][]image.Rectangle) (int, int) {
	return pairAcrossRows(rows, func(p, q image.Rectangle) bool {
		return 2*(min(p.Max.Y, q.Max.Y)-max(p.Min.Y, q.Min.Y)) > min(p.Dy(), q.Dy())
	})
}

// offCentreRow is the first row whose centre stands offCentre of a pitch or more from the
// centre of two adjacent rows that stand one over the other (their centres within flushSlack
// of a pitch), or -1. Games centre their rows, or stagger them (every other row shifted by
// half a pitch, and no two adjacent rows over each other): a row off the centre of rows
// that are not staggered has lost a tube at one end, or gained one at the other (a doodle
// beside the board read as an empty tube).
func offCentreRow(rows [][]image.Rectangle) int {
	pitch := commonPitch(rows)
	if pitch <= 0 || len(rows) < 3 {
		return -1
	}
	centres := make([]float64, len(rows)) // NaN for an empty row: it stands nowhere
	for i, row := range rows {
		centres[i] = math.NaN()
		if len(row) > 0 {
			centres[i] = rowCentre(row)
		}
	}
	for i := 0; i+1 < len(rows); i++ {
		if math.Abs(centres[i]-centres[i+1]) <= flushSlack*pitch { // (false with a NaN)
			mid := (centres[i] + centres[i+1]) / 2
			return slices.IndexFunc(centres, func(c float64) bool { return math.Abs(c-mid) >= offCentre*pitch })
		}
	}
	return -1
}

// offCentreBoard is how far, in pitches, the centre of the rows' centres stands right of the
// centre of a frame w pixels wide (left, negative); 0 with no pitch. Games centre their
// board on the screen, a staggered row half a pitch to one side of the next (an even number
// of them centred so together, three within a twelfth of a pitch), so a board whose
// row lost its end tube stands half a pitch off over one row (an empty tube on a dark blob,
// its outline lost, 20261340783896), a quarter over two. (A photo's screen, found by its
// edges, is no frame to measure against.)
func offCentreBoard(rows [][]image.Rectangle, w int) float64 {
	pitch := commonPitch(rows)
	if pitch <= 0 {
		return 0
	}
	sum, n := 0.0, 0
	for _, row := range rows {
		if len(row) > 0 {
			sum, n = sum+rowCentre(row), n+1
		}
	}
	if n == 0 {
		return 0
	}
	return (sum/float64(n) - float64(w)/2) / pitch
}

// offBeat is how far, in pitches, a board's centre may stand from a whole number of half
// pitches off the frame's centre for offCentreBoard's doubt: tubes missed at one end move it
// by half a pitch each, and the boxes stand within a few pixels of the tubes; a photo whose
// screen was not found, or a cropped screenshot, stands off by any amount (20261339783978,
// 0.40 pitches: read right).
const offBeat = 0.08

// offCentre is how far, in pitches, a row's centre may stand from the others' (offCentreRow):
// a row with a tube more or less than its neighbours stands half a pitch off if the tube is
// missed or added at one end.
const offCentre = 0.3

// flushSlack is how far, in pitches, a tube may stand off the place above it and still stand
// under it (flushShortRow).
const flushSlack = 0.15

// unevenRowGap is the fewest tubes by which a short row must fall behind the longest for
// unevenRows: rows of 3 and 1, or 4 and 2, are still laid out by some games.
const unevenRowGap = 3

// wideGap is the first row with two tubes side by side more than maxGapWidths of a tube's
// width apart, or -1.
func wideGap(rows [][]image.Rectangle) int {
	for i, row := range rows {
		for j := 1; j < len(row); j++ {
			if gap := row[j].Min.X - row[j-1].Max.X; gap > maxGapWidths*row[j-1].Dx() {
				return i
			}
		}
	}
	return -1
}

// maxGapWidths is the widest gap between two tubes of a row, in tube widths, that games draw.
const maxGapWidths = 3
