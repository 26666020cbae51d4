package vision

import (
	"cmp"
	"image"
	"math"
	"slices"
	"sort"

	"github.com/decant/decant/vision/cielab"
)

// Some games cover a tube with a curtain that opens once a colour is complete; a lantern on
// the curtain shows that colour. A curtain hides the tube's outline and hangs wider than it,
// so it is not among the tubes found: it is found in the rows' rhythm instead, as a candidate
// of about a tube's size standing where a row has a free place at its pitch.

// Curtain thresholds. Colours within clothDE (CIEDE2000) are one cloth or one lantern; at
// distinctDE or more they are told apart (a lantern from its cloth, the cloth beside a lantern
// from anything else). Cloth covers at least clothShare of a curtain's middle; a lantern is a
// colour of chroma lanternChroma or more, lanternOverCloth more than the cloth's, at most
// lanternWidth of the box wide; the strips beside a lantern are cloth in flankShare of its
// rows. A curtain found in a row's rhythm is centred within curtainOffBeat of a pitch from its
// place, spans curtainSpan of the row's height and is as tall as a tube within curtainHeightTol.
const (
	clothDE          = 15
	distinctDE       = 25
	clothShare       = 0.45
	lanternChroma    = 30
	frameFill        = 0.6 // a frame covers at most this share of its box: it is hollow
	lanternOverCloth = 20
	lanternWidth     = 0.55
	flankShare       = 0.6
	curtainOffBeat   = 0.25
	curtainSpan      = 0.6
	curtainHeightTol = 0.3
	lanternLowest    = 0.8  // a lantern ends above this share of its box's height
	lanternSide      = 0.05 // a pale lantern stands clear of this share of its box's width on each side
	lanternTall      = 0.4  // a pale lantern, told by its colour alone, is at most this share of the cloth's height
	paneTall         = 0.6  // a pane a frame encloses is at most this share of the cloth's height
	sameClothDE      = 5    // two curtains' cloths this close are one game's cloth
	lanternGap       = 2    // rows of another colour a lantern's run may bridge (see flankedLantern)
	blobShare        = 0.6  // a lantern's blob holds at least this share of its colour's pixels in the box
	lanternSquare    = 0.2  // or a lantern covers at most this share of a square as wide as the box (see lanternGroup)
	// A cloth spans its box from side to side in every row, its lantern at most lanternWidth
	// of it: bandRows of the cloth area's rows or more in which pixels unlike the cloth fill
	// bandAcross of the width are a band across the box, a layer of liquid reaching the
	// tube's walls, and the box no curtain.
	bandAcross = 0.85
	bandRows   = 0.2
)

// greyClothChroma is the most chroma of a grey cloth, on which a lantern's saturation alone
// tells it, if its n pixels fill solidShare of the w×h box round them or more, at least
// solidSide pixels each way (see lanternGroup and solidBlob).
const (
	greyClothChroma = 15
	solidShare      = 0.5
	solidSide       = 3
)

// solidBlob reports whether n pixels spanning w×h make a solid blob (see greyClothChroma).
func solidBlob(n, w, h int) bool {
	return min(w, h) >= solidSide && float64(n) >= solidShare*float64(w*h)
}

// curtain is a covered tube: its box, the colour its lantern shows and its cloth's.
type curtain struct {
	box   image.Rectangle
	color lab
	cloth lab
	// frameOnly: the lantern is a frame round a pane that looks like the cloth, so the
	// colour named is the frame's, which may be only its gilt (see lanternGroup).
	frameOnly bool
}

// clothArea is where a curtain's cloth shows in its box: below the rod it hangs from, above
// the covered tube's foot that may show under it.
func clothArea(box image.Rectangle) image.Rectangle {
	return image.Rect(box.Min.X, box.Min.Y+box.Dy()/7, box.Max.X, box.Min.Y+box.Dy()*2/3)
}

// findCurtains looks at every free place at the tubes' pitch in each row, from the image's left
// edge to its right, for a candidate box of about a tube's size with a lantern on it.
//
// With pale set, a lantern may also be pale or dark, told from the cloth by its colour alone
// (see lantern): a hypothesis of its own, since a tube's liquid can show such a patch.
func (f *frame) findCurtains(rows [][]image.Rectangle, cands []image.Rectangle, pale bool) []curtain {
	mode := saturatedLantern
	if pale {
		mode = paleLantern
	}
	global := commonPitch(rows)
	var out []curtain
	for i, row := range rows {
		if len(row) == 0 {
			continue
		}
		pitch := commonPitch(rows[i : i+1])
		if pitch <= 0 {
			pitch = global
		}
		// (A row spaced unevenly has no pitch to find places at; its own boxes are still
		// looked at below.)
		if pitch > 0 {
			out = append(out, f.curtainsAtPlaces(row, cands, pitch, mode)...)
		}
		// A curtain about as wide as its tube is among the tubes found. A tube's liquid can
		// look like cloth with a lantern, unless the lantern must hang clear of the walls.
		// Nor is a column whose glyphs count hidden units a curtain: their dark boxes look
		// like cloth, and the colour on top like a lantern.
		for _, box := range row {
			if c, ok := f.tubeCurtain(row, box, mode); ok {
				out = append(out, c)
			}
		}
	}
	return f.likeCurtains(rows, out)
}

// curtainsAtPlaces are the curtains found at the free places of row at its pitch: left of
// the row, in its gaps, and right of it.
func (f *frame) curtainsAtPlaces(row, cands []image.Rectangle, pitch float64, mode lanternMode) []curtain {
	tw, th := row[0].Dx(), row[0].Dy()
	top, bottom := row[0].Min.Y, row[0].Max.Y
	var places []float64
	for x := centreX(row[0]) - pitch; x-float64(tw)/2 > 0; x -= pitch {
		places = append(places, x)
	}
	places = append(places, gapPlaces(row, pitch)...)
	for x := centreX(row[len(row)-1]) + pitch; x+float64(tw)/2 < float64(f.w); x += pitch {
		places = append(places, x)
	}
	var out []curtain
	for _, x := range places {
		if c, ok := f.curtainAt(cands, x, top, bottom, tw, th, pitch, mode); ok {
			out = append(out, c)
		}
	}
	return out
}

// tubeCurtain reads a box among a row's tubes as a curtain: a lantern standing distinct from
// the cloth, flanked by cloth, on a column whose glyphs count no hidden units (mode: how the
// lantern is told from the cloth; see lanternMode).
func (f *frame) tubeCurtain(row []image.Rectangle, box image.Rectangle, mode lanternMode) (curtain, bool) {
	l := f.lantern(box, mode)
	if !l.ok || !f.flankedLantern(box, l.c) || len(f.readColumn(box, room(row, box)).glyphGaps) > 0 {
		return curtain{}, false
	}
	return curtain{box: box, color: l.c, cloth: l.cloth, frameOnly: l.frameOnly}, true
}

// likeCurtains adds to the curtains found the tubes found that hang the same cloth: a game
// draws its curtains alike, so once one is found, its cloth tells the others, and a lantern
// need only stand clothDE from that cloth (not distinctDE from whatever covers most of the
// box), as a dark padlock on a grey lid does.
func (f *frame) likeCurtains(rows [][]image.Rectangle, found []curtain) []curtain {
	if len(found) == 0 {
		return found
	}
	out := found
	for _, row := range rows {
		for _, box := range row {
			if slices.ContainsFunc(out, func(c curtain) bool { return c.box.Overlaps(box) }) {
				continue
			}
			cloth, ok := f.medianLab(clothArea(box))
			if !ok || !slices.ContainsFunc(found, func(c curtain) bool { return deltaE(c.cloth, cloth) < sameClothDE }) {
				continue
			}
			if c, ok := f.tubeCurtain(row, box, knownCloth); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

func centreX(r image.Rectangle) float64 { return float64(r.Min.X+r.Max.X) / 2 }

// curtainAt looks among the candidates centred near x and spanning the row (within 30% of its
// height) for a curtain: cloth may break into narrower boxes or merge with the background into
// a wider one, so every box from a quarter to twice a tube's width is tried, then the
// tube-sized box at x itself. The curtain takes the tube's place: a tube-sized box at x.
func (f *frame) curtainAt(cands []image.Rectangle, x float64, top, bottom, tw, th int, pitch float64, mode lanternMode) (curtain, bool) {
	x0 := int(math.Round(x)) - tw/2
	place := image.Rect(x0, top, x0+tw, bottom)
	for _, c := range cands {
		overlap := min(c.Max.Y, bottom) - max(c.Min.Y, top)
		if math.Abs(centreX(c)-x) > curtainOffBeat*pitch || float64(overlap) < curtainSpan*float64(th) || !near(c.Dy(), th, curtainHeightTol) ||
			c.Dx()*4 < tw || c.Dx() > 2*tw {
			continue
		}
		if l := f.lantern(c, mode); l.ok && !f.restsOnFoot(c, l.c, l.cloth) {
			return curtain{box: place, color: l.c, cloth: l.cloth, frameOnly: l.frameOnly}, true
		}
	}
	// A cloth whose edges made no candidate (one colour with the background round it): the
	// place itself, its lantern clear of the walls as on a tube's place.
	if place == f.clip(place) {
		if l := f.lantern(place, mode); l.ok && f.flankedLantern(place, l.c) {
			return curtain{box: place, color: l.c, cloth: l.cloth, frameOnly: l.frameOnly}, true
		}
	}
	return curtain{}, false
}

// lantern tells a curtain from a tube and finds the colour it shows. A curtain is one cloth
// colour, unlike the background, over most of the box, with a small lantern distinctDE or
// more from it and of a clearly more saturated colour in the upper part (a covered tube's
// foot may show below the cloth), clear of the box's sides. A tube of liquid layers has no
// small patch of colour: its layers span it from wall to wall. On a cloth known from a
// curtain found elsewhere, a lantern need only stand clothDE from the cloth, and may be pale;
// looking for pale lanterns, it may be pale on any cloth, distinctDE from it (see lanternMode).
func (f *frame) lantern(box image.Rectangle, mode lanternMode) lanternSeen {
	// Layouts share most of their boxes, and each looks for curtains among them: a box is
	// looked at once.
	k := lanternKey{box, mode}
	if l, ok := f.lanterns[k]; ok {
		return l
	}
	if mode == paleLantern {
		// The same look, but for the pale lantern after the saturated one: a box with a
		// saturated lantern, or none of cloth, is settled by the look without it.
		if l := f.lantern(box, saturatedLantern); l.ok || !l.clothy {
			return l
		}
	}
	l := f.findLantern(box, mode)
	if f.lanterns == nil {
		f.lanterns = map[lanternKey]lanternSeen{}
	}
	f.lanterns[k] = l
	return l
}

// lanternKey and lanternSeen are a box looked at for a lantern and what was found (lantern).
type (
	lanternKey struct {
		box  image.Rectangle
		mode lanternMode
	}
	lanternSeen struct {
		c         lab
		ok        bool
		cloth     lab  // the median of the cloth's area (clothArea), set when ok
		frameOnly bool // the colour is a frame's round a pane like the cloth (see curtain)
		clothy    bool // one colour unlike the background covers the box, lantern or not
	}
)

// lanternMode is how a lantern is told from its cloth: by a saturated colour distinctDE from
// it; on a cloth known from a curtain found elsewhere, by any colour clothDE from it; or, in a
// hypothesis of pale lanterns, by any colour distinctDE from the cloth. A lantern's colour
// may be a grey, a brown, a navy as well as a saturated one, but a tube's liquid shows pale
// patches too (a layer's shaded edge, a bubble): the reading with pale lanterns is one
// hypothesis among the others, kept where it explains the image better.
type lanternMode int

const (
	saturatedLantern lanternMode = iota
	knownCloth
	paleLantern
)

// findLantern is lantern without the memory of boxes already looked at.
func (f *frame) findLantern(box image.Rectangle, mode lanternMode) lanternSeen {
	distinct := float64(distinctDE)
	if mode == knownCloth {
		distinct = clothDE
	}
	// Below the rod the curtain hangs from, above the tube's foot that may show under it.
	r := f.clip(clothArea(box))
	if r.Empty() {
		return lanternSeen{}
	}
	cloth, _ := f.medianLab(r)
	// Background from just above the box: beside it may stand another curtain.
	// (Not for a cloth known from a curtain found elsewhere: a lid's grey may match the
	// background above it.)
	above, ok := f.medianLab(image.Rect(box.Min.X, box.Min.Y-max(2, box.Dy()/8), box.Max.X, box.Min.Y-1))
	if mode != knownCloth && (!ok || deltaE(cloth, above) < liquidDE) {
		return lanternSeen{} // mostly background: an empty part of a tube, not cloth
	}
	// Most boxes are tubes of several layers: a quick look at every other pixel of every other
	// row turns them away before the full count.
	// The look stops once the count is settled either way.
	samples := float64(((r.Dy() + 1) / 2) * ((r.Dx() + 1) / 2))
	need := clothShare * samples
	sampled, near := 0, 0
look:
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			sampled++
			if cielab.Within(f.at(x, y), cloth, clothDE) {
				near++
			}
			if float64(near) >= need || float64(near)+samples-float64(sampled) < need {
				break look
			}
		}
	}
	if float64(near) < need {
		return lanternSeen{}
	}
	var px []pixel
	nearCloth, across := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		inRow := 0
		for x := r.Min.X; x < r.Max.X; x++ {
			c := f.at(x, y)
			px = append(px, pixel{x, y, c})
			if cielab.Within(c, cloth, clothDE) {
				inRow++
			}
		}
		nearCloth += inRow
		if float64(r.Dx()-inRow) >= bandAcross*float64(r.Dx()) {
			across++
		}
	}
	if nearCloth*2 < len(px) {
		return lanternSeen{} // no cloth covers most of the box
	}
	if float64(across) >= bandRows*float64(r.Dy()) {
		// A layer of liquid under the room above it: the room passes for cloth, and a
		// bubble on the layer for a lantern (20261343783949).
		return lanternSeen{}
	}
	// The most saturated colours, one group at a time (a rod or a frame may outshine the
	// lantern): the first group that is small, narrow and unlike the cloth is the lantern.
	total := len(px)
	slices.SortFunc(px, func(a, b pixel) int { return cmp.Compare(b.c.Chroma(), a.c.Chroma()) })
	l, px := f.lanternGroup(px, total, r, cloth, distinct, false, mode == knownCloth, func(seed lab) bool { return saturatedOver(seed, cloth) })
	l.clothy = true
	if l.ok || mode == saturatedLantern || len(px) == 0 {
		l.cloth = cloth
		return l
	}
	// A pale lantern (white, grey, a pastel) on a saturated cloth stands out by its colour,
	// not its saturation: the colours most unlike the cloth, one group at a time, in a group
	// as compact as a lantern, clear of the box's sides (where the background shows beside a
	// lid's rounded panel, and the panel's rim runs down).
	side := max(1, int(lanternSide*float64(r.Dx())))
	px = slices.DeleteFunc(px, func(p pixel) bool { return p.x < r.Min.X+side || p.x >= r.Max.X-side })
	// Sorted by keys worked out once: a CIEDE2000 difference in the comparison would be worked
	// out twice per comparison, for thousands of pixels.
	type far struct {
		p pixel
		d float64
	}
	fs := make([]far, len(px))
	for i, p := range px {
		fs[i] = far{p, deltaE(p.c, cloth)}
	}
	slices.SortFunc(fs, func(a, b far) int { return cmp.Compare(b.d, a.d) })
	for i := range fs {
		px[i] = fs[i].p
	}
	l, _ = f.lanternGroup(px, total, r, cloth, distinct, true, mode == knownCloth, func(seed lab) bool { return deltaE(seed, cloth) >= distinct })
	l.cloth, l.clothy = cloth, true
	return l
}

// saturatedOver reports whether colour c is as saturated as a lantern, and more so than the
// cloth by lanternOverCloth.
func saturatedOver(c, cloth lab) bool {
	return c.Chroma() >= lanternChroma && c.Chroma() >= cloth.Chroma()+lanternOverCloth
}

// pixel is a pixel's place and colour.
type pixel struct {
	x, y int
	c    lab
}

// lanternGroup looks for a lantern among the pixels of r (total of them), in their order: the
// first pixel seeds a group of those within clothDE of it, tried while seedOK holds, three
// groups at most. With blobbed (on a cloth known from a curtain found elsewhere) the lantern
// is the group's largest blob, unless the blob holds less than blobShare of the group (a
// colour scattered over the box); elsewhere the whole group (a layer of liquid that a glare
// stripe parts in two blobs, one of them shaded out of the group, would pass for a lantern:
// fresh seed 20261243). It is unlike the cloth by distinct or more, an eighth of the pixels
// at most (or lanternSquare of a square as wide as r: a short tube's cloth is little more),
// and at most lanternWidth of r wide across the rows it spans; when compact, also at most
// lanternTall of r high. It returns the colour the lantern shows and the pixels left untried.
func (f *frame) lanternGroup(px []pixel, total int, r image.Rectangle, cloth lab, distinct float64, compact, blobbed bool, seedOK func(lab) bool) (lanternSeen, []pixel) {
	for tried := 0; tried < 3 && len(px) > 0; tried++ {
		seed := px[0].c
		if !seedOK(seed) {
			break
		}
		var ls, as, bs []float64
		left, right, top, bottom := r.Max.X, r.Min.X, r.Max.Y, r.Min.Y
		var group []pixel
		for _, p := range px {
			// A pixel nearer the cloth than the seed is cloth: a lantern only about clothDE
			// from its cloth (a pale padlock on a grey lid) would take the cloth in.
			if d := deltaE(p.c, seed); d < clothDE && d < deltaE(p.c, cloth) {
				ls, as, bs = append(ls, p.c.L), append(as, p.c.A), append(bs, p.c.B)
				left, right = min(left, p.x), max(right, p.x)
				top, bottom = min(top, p.y), max(bottom, p.y)
				group = append(group, p)
			}
		}
		framed := group // the pixels that may frame a pane
		// On a known cloth the lantern is one blob: the group's pixels elsewhere (a fold's
		// shadow down the cloth, a frame's gilt and its rod) are not part of it, unless the
		// colour is scattered over the box (no lantern's). Its width stays the colour's
		// across the rows the blob spans: a layer of liquid that a glare stripe parts in two
		// blobs still reaches from wall to wall.
		if blobbed && len(group) > 0 {
			if b := largestBlob(group, r); len(b) < len(group) && float64(len(b)) >= blobShare*float64(len(group)) {
				framed = b
				ls, as, bs = ls[:0], as[:0], bs[:0]
				left, right, top, bottom = r.Max.X, r.Min.X, r.Max.Y, r.Min.Y
				for _, p := range b {
					ls, as, bs = append(ls, p.c.L), append(as, p.c.A), append(bs, p.c.B)
					top, bottom = min(top, p.y), max(bottom, p.y)
				}
				for _, p := range group {
					if p.y >= top && p.y <= bottom {
						left, right = min(left, p.x), max(right, p.x)
					}
				}
			}
		}
		c := lab{L: median(ls), A: median(as), B: median(bs)}
		w, h := right-left+1, bottom-top+1
		// (On a grey cloth a saturated lantern drawn solid stands out by its chroma: on a
		// cloth of its own hue, a blue padlock on a blue-grey lid, CIEDE2000 puts the two
		// nearer than distinct. Not on a coloured cloth: a layer of liquid shaded round a more
		// saturated core would pass; nor a sliver: the top rows of a layer under dull tinted
		// glass would.)
		unlike := deltaE(c, cloth) >= distinct || !compact && cloth.Chroma() < greyClothChroma && saturatedOver(c, cloth) && solidBlob(len(ls), w, h)
		few := len(ls)*8 <= total || float64(len(ls)) <= lanternSquare*float64(r.Dx()*r.Dx())
		if unlike && few && !lanternSized(w, h, r, compact) && lanternSized(w, 0, r, compact) {
			// A frame round a pane hung from a string of its gilt is taller than a lantern
			// told by its colour alone, not wider: the pane it encloses, unlike the cloth and
			// the frame, is the lantern (a teal pane on a navy cloth more saturated than
			// either), up to paneTall of the cloth's height (the frame is evidence enough of a
			// lantern). (A layer of liquid reaches the walls: no frame, whatever it encloses.)
			if pane, at, ok := f.enclosed(framed); ok && deltaE(pane, c) >= clothDE && deltaE(pane, cloth) >= distinct &&
				float64(at.Dx()) <= lanternWidth*float64(r.Dx()) && float64(at.Dy()) <= paneTall*float64(r.Dy()) {
				return lanternSeen{c: pane, ok: true}, px
			}
		}
		if unlike && few && lanternSized(w, h, r, compact) && !speck(len(ls), image.Rect(left, top, right+1, bottom+1), r) {
			// A lantern drawn as a frame round a pane: the pane's colour is the one it shows,
			// however dull (a black or a navy liquid in a gilt frame). A pane that looks like
			// the cloth leaves the frame's colour, which may be its gilt rather than the
			// colour it names. The pane is what the frame encloses, told from the frame as
			// the cloth is (clothDE: the frame's pixels lie within it of the frame's colour);
			// where the frame encloses nothing unlike the cloth, the middle of the frame's
			// box. (A rod of the frame's gilt it hangs from encloses nothing, and draws the
			// box's middle off the pane.)
			if pane, _, ok := f.enclosed(framed); ok && deltaE(pane, c) >= clothDE && deltaE(pane, cloth) >= clothDE {
				return lanternSeen{c: pane, ok: true}, px
			}
			if w >= 6 && h >= 6 && float64(len(ls)) <= frameFill*float64(w*h) {
				if pane, ok := f.medianLab(image.Rect(left+w/3, top+h/3, right+1-w/3, bottom+1-h/3)); ok && deltaE(pane, c) >= distinctDE {
					if deltaE(pane, cloth) >= clothDE {
						return lanternSeen{c: pane, ok: true}, px
					}
					return lanternSeen{c: c, ok: true, frameOnly: true}, px
				}
			}
			return lanternSeen{c: c, ok: true}, px
		}
		px = slices.DeleteFunc(px, func(p pixel) bool { return deltaE(p.c, seed) < clothDE })
	}
	return lanternSeen{}, px
}

// speck reports whether a group of n pixels spanning box g is too little for a lantern in r,
// a curtain's cloth area: under lanternMinShare of its pixels, under lanternMinSide of its
// width across, and reaching its top or bottom row. A glare stripe, whether crossing a
// layer's edge (3 by 4 pixels of peach where it crosses a red layer under a brown one,
// 20261293783821) or running down a cloth (2 pixels wide), stands apart from the cloth as a
// lantern does. Such a speck that reaches the area's top or bottom row is no lantern: a
// lantern hangs inside its cloth (a small image's lantern may be no larger, sshcrack's
// discovery level 30), while the stripe and the layer's edge run on beyond the area. A
// lantern drawn as a ring has a fraction of its pixels round a wide box (20261290783896).
func speck(n int, g, r image.Rectangle) bool {
	return float64(n) < lanternMinShare*float64(r.Dx()*r.Dy()) && float64(min(g.Dx(), g.Dy())) < lanternMinSide*float64(r.Dx()) &&
		(g.Min.Y == r.Min.Y || g.Max.Y == r.Max.Y)
}

// lanternMinShare and lanternMinSide bound a speck (see speck).
const (
	lanternMinShare = 0.01
	lanternMinSide  = 0.2
)

// lanternSized reports whether a group w by h pixels is a lantern's size in r, a curtain's
// cloth area: at most lanternWidth of it wide, and when compact lanternTall of it high.
func lanternSized(w, h int, r image.Rectangle, compact bool) bool {
	return float64(w) <= lanternWidth*float64(r.Dx()) && (!compact || float64(h) <= lanternTall*float64(r.Dy()))
}

// enclosed is the median colour of the pixels the frame's pixels enclose, those between two
// of its pixels in their row and two in their column, and their bounding box. It reports
// false where it encloses fewer than minPane pixels, or fewer than minPaneShare of its own
// count: no frame round a pane.
func (f *frame) enclosed(frame []pixel) (lab, image.Rectangle, bool) {
	if len(frame) == 0 {
		return lab{}, image.Rectangle{}, false
	}
	box := image.Rect(frame[0].x, frame[0].y, frame[0].x+1, frame[0].y+1)
	for _, p := range frame {
		box = box.Union(image.Rect(p.x, p.y, p.x+1, p.y+1))
	}
	w, h := box.Dx(), box.Dy()
	set := make([]bool, w*h)
	rowLo, rowHi := make([]int, h), make([]int, h)
	colLo, colHi := make([]int, w), make([]int, w)
	for i := range rowLo {
		rowLo[i], rowHi[i] = w, -1
	}
	for i := range colLo {
		colLo[i], colHi[i] = h, -1
	}
	for _, p := range frame {
		x, y := p.x-box.Min.X, p.y-box.Min.Y
		set[y*w+x] = true
		rowLo[y], rowHi[y] = min(rowLo[y], x), max(rowHi[y], x)
		colLo[x], colHi[x] = min(colLo[x], y), max(colHi[x], y)
	}
	var ls, as, bs []float64
	var at image.Rectangle
	for y := range h {
		for x := rowLo[y] + 1; x < rowHi[y]; x++ {
			if !set[y*w+x] && y > colLo[x] && y < colHi[x] {
				c := f.at(box.Min.X+x, box.Min.Y+y)
				ls, as, bs = append(ls, c.L), append(as, c.A), append(bs, c.B)
				at = at.Union(image.Rect(box.Min.X+x, box.Min.Y+y, box.Min.X+x+1, box.Min.Y+y+1))
			}
		}
	}
	if len(ls) < minPane || float64(len(ls)) < minPaneShare*float64(len(frame)) {
		return lab{}, image.Rectangle{}, false
	}
	return lab{L: median(ls), A: median(as), B: median(bs)}, at, true
}

// A pane holds at least minPane pixels, and minPaneShare of its frame's count: a gap between
// a glyph's strokes or two blobs of a lantern's colour encloses a few pixels, no pane.
const (
	minPane      = 9
	minPaneShare = 0.25
)

// largestBlob is the largest 8-connected set among px, pixels of r.
func largestBlob(px []pixel, r image.Rectangle) []pixel {
	w := r.Dx()
	at := make([]int32, w*r.Dy()) // 1 + the pixel's index in px; 0 where none
	for i, p := range px {
		at[(p.y-r.Min.Y)*w+p.x-r.Min.X] = int32(i + 1)
	}
	var best, blob, stack []int32
	for i := range px {
		k := (px[i].y-r.Min.Y)*w + px[i].x - r.Min.X
		if at[k] <= 0 {
			continue // in a blob already
		}
		blob, stack = blob[:0], append(stack[:0], int32(k))
		at[k] = -at[k]
		for len(stack) > 0 {
			k := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			blob = append(blob, -at[k]-1)
			x, y := k%w, k/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= r.Dy() {
						continue
					}
					if n := ny*w + nx; at[n] > 0 {
						at[n] = -at[n]
						stack = append(stack, int32(n))
					}
				}
			}
		}
		if len(blob) > len(best) {
			best = slices.Clone(blob)
		}
	}
	out := make([]pixel, len(best))
	for i, j := range best {
		out[i] = px[j]
	}
	return out
}

// flankedLantern reports whether colour c hangs in box like a lantern on a curtain: in the
// rows where c shows, the strips along the cloth's sides are mostly cloth (neither c nor far
// from the box's commonest colour), c ends above lanternLowest of the box's height, and cloth
// hangs below it. A layer of liquid, however its shading splits it, reaches the tube's walls,
// and has another layer or the tube's foot below. The cloth's sides are where it hangs, which
// may be inside the box: a lid narrower than a tube's bulb or stand.
func (f *frame) flankedLantern(box image.Rectangle, c lab) bool {
	box = f.clip(box)
	cloth, _ := f.medianLab(box)
	left, right, hangs := f.clothSides(box, cloth)
	if !hangs {
		return false
	}
	m := max(1, (right-left)*15/100)
	sep := lanternSep(c, cloth)
	mx := f.lanternColumn(box, left+m, right-m, c, sep)
	n, ok := 0, 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		mid := f.at(mx, y)
		if deltaE(mid, c) >= sep {
			continue // not a lantern row
		}
		for _, x := range []int{left + m/2, right - 1 - m/2} {
			n++
			if p := f.at(x, y); deltaE(p, c) >= sep && deltaE(p, cloth) < distinctDE {
				ok++
			}
		}
	}
	if n == 0 || float64(ok) < flankShare*float64(n) {
		return false
	}
	// And cloth hangs below the lantern (within clothDE of it: a padlock's body below its
	// shackle may stand little more apart), where below a layer of liquid lies another layer.
	down := f.lanternEnd(box, mx, c, sep)
	if float64(down-box.Min.Y) >= lanternLowest*float64(box.Dy()) {
		return false // the colour reaches down to the foot: liquid resting on the bottom
	}
	below, _ := f.medianLab(image.Rect(box.Min.X+m, down+2, box.Max.X-m, down+2+max(2, box.Dy()/10)))
	return deltaE(below, cloth) < clothDE
}

// lanternSep is how near colour c a pixel on a cloth of colour cloth stands to be the
// lantern's: clothDE, or less for a lantern nearer its cloth than twice that (a blue
// padlock on a blue-grey lid), halfway between them.
func lanternSep(c, cloth lab) float64 {
	return min(float64(clothDE), deltaE(c, cloth)/2)
}

// lanternEnd is the last row of the lantern of colour c (its pixels within sep of it) down
// column x of box: the longest run of its colour (gaps of lanternGap rows or fewer bridged,
// as a ring round a disc makes); a lone row of it lower down is a rim's highlight or noise,
// a short run a stand below the cloth. It is box's top row where the colour shows nowhere.
func (f *frame) lanternEnd(box image.Rectangle, x int, c lab, sep float64) int {
	down := box.Min.Y
	start, end, best := -1, -1, 0
	for y := box.Min.Y; y <= box.Max.Y; y++ {
		if y < box.Max.Y && deltaE(f.at(x, y), c) < sep {
			if start < 0 {
				start = y
			}
			end = y
			continue
		}
		if start >= 0 && (y-end > lanternGap || y == box.Max.Y) {
			if end-start+1 > best {
				best, down = end-start+1, end
			}
			start = -1
		}
	}
	return down
}

// restsOnFoot reports whether a lantern of colour c found on a cloth (lantern) runs down its
// column to lanternLowest of box's height or below: a layer of liquid resting on the tube's
// bottom, its top lit by glare, under glass that passes for cloth (a navy layer under tinted
// glass, a tube whose outline was missed, found at its row's pitch as a curtain,
// 20261346784347). Of flankedLantern's tests, this one alone is asked of a curtain found
// among the candidates: the sides of a striped cloth do not show as cloth column by column
// (86000510).
func (f *frame) restsOnFoot(box image.Rectangle, c, cloth lab) bool {
	box = f.clip(box)
	sep := lanternSep(c, cloth)
	x := f.lanternColumn(box, box.Min.X, box.Max.X, c, sep)
	return float64(f.lanternEnd(box, x, c, sep)-box.Min.Y) >= lanternLowest*float64(box.Dy())
}

// lanternColumn is the column a lantern of colour c (its pixels within sep of it) hangs
// down in box: the box's middle, or where it shows not there, the column between x0 and x1
// (right exclusive) where it shows in the most rows. A curtain hangs wider than the tube it
// covers, and the box at the tube's place in a row spaced unevenly may stand off the
// cloth's middle, its own middle on the lantern's frame (20261344783900).
func (f *frame) lanternColumn(box image.Rectangle, x0, x1 int, c lab, sep float64) int {
	rows := func(x int) int {
		n := 0
		for y := box.Min.Y; y < box.Max.Y; y++ {
			if deltaE(f.at(x, y), c) < sep {
				n++
			}
		}
		return n
	}
	mid := (box.Min.X + box.Max.X) / 2
	if rows(mid) > 0 {
		return mid
	}
	best, most := mid, 0
	for x := x0; x < x1; x++ {
		if n := rows(x); n > most {
			best, most = x, n
		}
	}
	return best
}

// clothSides are the first and last columns (right exclusive) of box where the cloth hangs:
// columns whose pixels in the cloth's area are within distinctDE of cloth, half of them or
// more. It reports false when no column is.
func (f *frame) clothSides(box image.Rectangle, cloth lab) (int, int, bool) {
	area := f.clip(clothArea(box))
	left, right := box.Max.X, box.Min.X
	for x := area.Min.X; x < area.Max.X; x++ {
		near := 0
		for y := area.Min.Y; y < area.Max.Y; y++ {
			if cielab.Within(f.at(x, y), cloth, distinctDE) {
				near++
			}
		}
		if 2*near >= area.Dy() && area.Dy() > 0 {
			left, right = min(left, x), max(right, x+1)
		}
	}
	return left, right, left < right
}

// inRows reports whether box b is one of the rows' boxes (a curtain found among the tubes).
func inRows(rows [][]image.Rectangle, b image.Rectangle) bool {
	return slices.ContainsFunc(rows, func(row []image.Rectangle) bool { return slices.Contains(row, b) })
}

// insertCurtains puts the curtains' boxes into their rows, in order.
func insertCurtains(rows [][]image.Rectangle, cs []curtain) [][]image.Rectangle {
	for _, c := range cs {
		if inRows(rows, c.box) {
			continue // a curtain found among the tubes
		}
		for i, row := range rows {
			if len(row) > 0 && c.box.Overlaps(image.Rect(0, row[0].Min.Y, 1<<30, row[0].Max.Y)) {
				rows[i] = append(rows[i], c.box)
				sort.Slice(rows[i], func(a, b int) bool { return rows[i][a].Min.X < rows[i][b].Min.X })
				break
			}
		}
	}
	return rows
}

// foldedColumn is the first column read as liquid whose liquid shows a curtain's folds, or
// -1: across its box, rows half and five sixths down its liquid (below a lantern) each rise
// and fall minFolds times or more, by foldContrast or more (CIELAB L), alike (their profiles
// correlate by foldMatch or more). Liquid is flat across a tube (a glare stripe is one band;
// a glyph or a hatch changes from row to row), while folded cloth hangs in stripes from top
// to bottom: a curtain whose lantern was missed reads as units of the cloth's colour. The
// rows must lie in one run, and tubes with hidden units are left out (their glyphs repeat
// unit by unit, and the rows may cross two alike).
func (f *frame) foldedColumn(cols []column, hidden func(i int) bool) int {
	for i, c := range cols {
		h := c.bottom - c.top
		if c.curtain || c.empty() || h < 6 || hidden(i) {
			continue
		}
		ya, yb := c.top+h/2, c.top+5*h/6
		if slices.ContainsFunc(c.bounds, func(y int) bool { return y > ya && y <= yb }) {
			continue // two runs: cloth is one
		}
		a, b := f.rowL(c.box, ya), f.rowL(c.box, yb)
		if turns(a) >= minFolds && turns(b) >= minFolds && correlation(a, b) >= foldMatch {
			return i
		}
	}
	return -1
}

// rowL is the lightness along row y of box b, clear of a tenth of its width at each wall.
func (f *frame) rowL(b image.Rectangle, y int) []float64 {
	in := b.Dx() / 10
	var out []float64
	for x := b.Min.X + in; x < b.Max.X-in; x++ {
		out = append(out, f.at(x, y).L)
	}
	return out
}

// turns counts the swings along p, rises and falls of foldContrast or more each, measured
// from the last extreme.
func turns(p []float64) int {
	if len(p) == 0 {
		return 0
	}
	n, dir := 0, 0
	hi, lo, ext := p[0], p[0], p[0]
	for _, v := range p[1:] {
		switch {
		case dir == 0:
			hi, lo = max(hi, v), min(lo, v)
			if v-lo >= foldContrast {
				n, dir, ext = 1, 1, v
			} else if hi-v >= foldContrast {
				n, dir, ext = 1, -1, v
			}
		case dir > 0 && v > ext, dir < 0 && v < ext:
			ext = v
		case dir > 0 && ext-v >= foldContrast:
			n, dir, ext = n+1, -1, v
		case dir < 0 && v-ext >= foldContrast:
			n, dir, ext = n+1, 1, v
		}
	}
	return n
}

// correlation is the Pearson correlation of two profiles of one length (0 when flat).
func correlation(a, b []float64) float64 {
	n := min(len(a), len(b))
	if n < 2 {
		return 0
	}
	var ma, mb float64
	for i := range n {
		ma, mb = ma+a[i], mb+b[i]
	}
	ma, mb = ma/float64(n), mb/float64(n)
	var sab, saa, sbb float64
	for i := range n {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return 0
	}
	return sab / math.Sqrt(saa*sbb)
}

// Folds: see foldedColumn.
const (
	minFolds     = 8
	foldContrast = 6
	foldMatch    = 0.6
)
