package vision

import (
	"math"
	"slices"
)

// clusterUnits groups unit colours into the level's colours by average-linkage agglomerative
// clustering under CIEDE2000, never letting a group grow past capacity units: two
// near-identical colours (two greens) cannot merge once each has its tube's worth. With
// k > 0 it merges down to k groups; with k = 0 (hidden units make the count unknown) it merges
// while the closest pair is within maxDE. It returns each colour's group, 0..groups-1.
//
// The distances come from memo (nil computes them all).
func clusterUnits(colors []lab, capacity, k int, maxDE float64, memo *deltaMemo) []int {
	n := len(colors)
	sums := memo.matrix(colors)
	groups := make([][]int, n)
	for i := range groups {
		groups[i] = []int{i}
	}
	// sums[g][h] is the sum of the distances between the members of groups g and h (at first
	// each colour's distances), kept as groups merge, so that a linkage costs a division and
	// not a pass over both groups; near[g] is the group before g nearest to it that it may
	// join (the first of equals), or -1, kept so that finding the closest pair costs a pass
	// over the groups, not over their pairs.
	link := func(i, j int) float64 { return sums[i][j] / float64(len(groups[i])*len(groups[j])) }
	nearest := func(i int) int {
		b, bd := -1, math.Inf(1)
		for j := range i {
			if len(groups[i])+len(groups[j]) <= capacity {
				if d := link(i, j); d < bd {
					b, bd = j, d
				}
			}
		}
		return b
	}
	near := make([]int, n)
	for i := range near {
		near[i] = nearest(i)
	}
	for len(groups) > max(k, 1) {
		bi, bj, bd := -1, -1, math.Inf(1)
		for i, j := range near {
			if j >= 0 {
				if d := link(i, j); d < bd {
					bi, bj, bd = i, j, d
				}
			}
		}
		if bi < 0 || (k == 0 && bd > maxDE) {
			break
		}
		// Group bi joins bj (bj < bi).
		groups[bj] = append(groups[bj], groups[bi]...)
		groups = slices.Delete(groups, bi, bi+1)
		for h := range sums {
			sums[bj][h] += sums[bi][h]
		}
		sums = slices.Delete(sums, bi, bi+1)
		for h := range sums {
			sums[h][bj] = sums[bj][h]
			sums[h] = slices.Delete(sums[h], bi, bi+1)
		}
		near = slices.Delete(near, bi, bi+1)
		// Groups before bj look only at groups before them, which are as they were. Group bj
		// changed, and so did its linkage to the groups after it: those that were nearest to
		// bj or bi look again; the others keep theirs or take bj if it is nearer now (grown,
		// it can only have become too large for some).
		near[bj] = nearest(bj)
		for h := bj + 1; h < len(near); h++ {
			switch b := near[h]; {
			case b == bj || b == bi:
				near[h] = nearest(h)
			case b >= 0:
				if b > bi {
					b--
				}
				near[h] = b
				if len(groups[h])+len(groups[bj]) <= capacity {
					if d, db := link(h, bj), link(h, b); d < db || (d == db && bj < b) {
						near[h] = bj
					}
				}
			}
		}
	}
	labels := make([]int, n)
	for g, members := range groups {
		for _, i := range members {
			labels[i] = g
		}
	}
	return labels
}

// balance settles a clustering that must give every one of k colours exactly capacity units
// (len(colors) == k·capacity): greedy merging under the capacity cap can strand a unit in a
// group of its own. Starting from the k largest groups of labels, it assigns units to colours
// with every colour taking exactly capacity units at the least total CIEDE2000 distance to
// the colours' means (an assignment problem), recomputes the means and repeats until the
// assignment settles. Levels too large for the cubic assignment keep labels as they are.
func balance(colors []lab, labels []int, k, capacity int) []int {
	n := len(colors)
	if k < 2 || n != k*capacity || n > maxBalanced {
		return labels
	}
	groups := 0
	for _, l := range labels {
		groups = max(groups, l+1)
	}
	members := make([][]lab, groups)
	for i, l := range labels {
		members[l] = append(members[l], colors[i])
	}
	order := make([]int, groups)
	for g := range order {
		order[g] = g
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(members[b]) - len(members[a]) })
	means := make([]lab, k)
	for i := range k {
		means[i] = meanLab(members[order[i]])
	}
	out := slices.Clone(labels)
	cost := make([][]float64, n)
	for i := range cost {
		cost[i] = make([]float64, n)
	}
	for range maxBalanceRounds {
		for i, c := range colors {
			for g := range k {
				d := deltaE(c, means[g])
				for s := range capacity {
					cost[i][g*capacity+s] = d
				}
			}
		}
		slot := assign(cost)
		changed := false
		next := make([][]lab, k)
		for i, s := range slot {
			g := s / capacity
			changed = changed || out[i] != g
			out[i] = g
			next[g] = append(next[g], colors[i])
		}
		for g := range k {
			means[g] = meanLab(next[g])
		}
		if !changed {
			break
		}
	}
	return out
}

// maxBalanced is the most units balance assigns (the assignment is cubic in them);
// maxBalanceRounds bounds its rounds of assigning and recomputing the means.
const (
	maxBalanced      = 400
	maxBalanceRounds = 8
)

// assign solves the square assignment problem for cost (rows to columns, least total cost)
// with the Hungarian method in its O(n³) shortest-augmenting-path form, returning each row's
// column.
func assign(cost [][]float64) []int {
	n := len(cost)
	u, v := make([]float64, n+1), make([]float64, n+1)
	p, way := make([]int, n+1), make([]int, n+1) // p[j]: row matched to column j (1-based)
	minv := make([]float64, n+1)
	used := make([]bool, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = math.Inf(1), false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				if cur := cost[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	row := make([]int, n)
	for j := 1; j <= n; j++ {
		row[p[j]-1] = j - 1
	}
	return row
}

// hiddenLooks proposes readings of the samples in which one look is the hidden units': some
// games draw a hidden unit as a plain or hatched box with no glyph to tell it by. A hidden
// unit never shows on its tube's top (a top unit always shows its colour), and every hidden
// unit looks alike; the count rule then decides whether the look is a colour or the hidden
// units. Each proposal marks one tight group of alike units that never stands on a top; the
// largest come first. A look in one tube only is no proposal (an empty tube's glass, a lid),
// nor is a look on exactly the bottom unit of every tube that holds liquid (the glass of the
// tubes' bottoms).
func hiddenLooks(samples []unitSample, counts []int, capacity int, memo *deltaMemo) [][]unitSample {
	colors := make([]lab, len(samples))
	for i, s := range samples {
		colors[i] = s.color
	}
	return proposeHidden(samples, colors, nil, counts, capacity, memo)
}

// markedLooks proposes, as hiddenLooks does, readings in which one look of marked units (see
// markedColors) is the hidden units', the units grouped by the midpoint of their two tones:
// a disc round a glyph, drawn alike on every hidden unit. Proposals hiddenLooks makes too
// are left out.
func (f *frame) markedLooks(samples []unitSample, counts []int, capacity int, made [][]unitSample) [][]unitSample {
	colors, marked := f.markedColors(samples)
	if !slices.Contains(marked, true) {
		return nil
	}
	var out [][]unitSample
	for _, p := range proposeHidden(samples, colors, marked, counts, capacity, &f.deltas) {
		if slices.ContainsFunc(made, func(m []unitSample) bool { return slices.Equal(m, p) }) {
			continue
		}
		f.clippedMarks(p, counts)
		for i := range p {
			p[i].marked = p[i].hidden
		}
		out = append(out, p)
	}
	return out
}

// clippedMarks takes for hidden, in proposal p, the units under its hidden ones that look
// like one tone of their marks (within markTightDE of its mean): a disc clipped by a tube's
// bulb, or a box too small for its glyph, fills its patch with the one tone. (Under hidden
// units a level may deal a visible one, so only the marks' own tones are taken.)
func (f *frame) clippedMarks(p []unitSample, counts []int) {
	a, b, ok := f.markTones(p, func(s unitSample) bool { return s.hidden })
	if !ok {
		return
	}
	k := 0
	for _, n := range counts {
		// From the lowest hidden unit down to the tube's bottom.
		low := -1
		for j := range n {
			if p[k+j].hidden {
				low = j
				break
			}
		}
		for j := low - 1; j >= 0; j-- { // none where no unit is hidden (low -1)
			if c := p[k+j].color; deltaE(c, a) >= markTightDE && deltaE(c, b) >= markTightDE {
				break
			}
			p[k+j].hidden = true
		}
		k += n
	}
}

// markTones is the mean of the darker tones and the mean of the lighter ones of the marks on
// the samples take picks (see marks); false when none of them is marked.
func (f *frame) markTones(samples []unitSample, take func(unitSample) bool) (a, b lab, ok bool) {
	var as, bs []lab
	for _, s := range samples {
		if take(s) {
			if a, b, ok := f.marks(s.patch); ok {
				as, bs = append(as, a), append(bs, b)
			}
		}
	}
	if len(as) == 0 {
		return lab{}, lab{}, false
	}
	return meanLab(as), meanLab(bs), true
}

// proposeHidden makes hiddenLooks' proposals from the samples' colors; with marked, only
// groups of marked units are proposed.
func proposeHidden(samples []unitSample, colors []lab, marked []bool, counts []int, capacity int, memo *deltaMemo) [][]unitSample {
	// Where each sample stands: its tube, and whether it is its tube's top; the bottom
	// sample of every tube with liquid.
	top := map[int]bool{}
	tubeOf := make([]int, 0, len(samples))
	var firsts []int
	for t, n := range counts {
		if n > 0 {
			firsts = append(firsts, len(tubeOf))
			top[len(tubeOf)+n-1] = true
		}
		for range n {
			tubeOf = append(tubeOf, t)
		}
	}
	labels := clusterUnits(colors, len(colors), 0, looseDE, memo)
	var groups [][]int // by label, so that proposals of one size keep a fixed order
	for i, g := range labels {
		for len(groups) <= g {
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	mean := func(m []int) lab {
		var cs []lab
		for _, i := range m {
			cs = append(cs, colors[i])
		}
		return meanLab(cs)
	}
	// Hidden boxes are drawn alike: every one within hiddenTightDE of their mean. A group
	// looser than that holds a colour besides, or is one.
	tol := float64(hiddenTightDE)
	if marked != nil {
		tol = markTightDE
	}
	tight := func(m []int, c lab) bool {
		return !slices.ContainsFunc(m, func(i int) bool { return deltaE(colors[i], c) > tol })
	}
	// Hidden units sit where the games leave them, at the bottom of their tubes under no
	// visible unit (a pour adds only units in view, on top). A colour has capacity units at
	// most: a look on more is the hidden units'. On fewer, the look could be a colour that
	// happens to show on no top, and taking it for the hidden units would always keep the
	// count rule: it must then also look like a hidden box (nearly grey).
	onTop := map[int]bool{} // labels of looks that show on a top: colours, never hidden
	for i := range samples {
		if top[i] {
			onTop[labels[i]] = true
		}
	}
	// prefix reports whether only hidden units can lie under unit i: units of its own look,
	// or of another look on no top (hatched boxes sample as more than one look).
	prefix := func(i int) bool {
		for j := i - 1; j >= 0 && !top[j]; j-- {
			if labels[j] != labels[i] && onTop[labels[j]] {
				return false
			}
		}
		return true
	}
	// oneTube reports whether the group lies in one tube; bottoms whether it is the bottom
	// unit of every tube with liquid, and nothing else, in three tubes or more.
	oneTube := func(m []int) bool {
		return !slices.ContainsFunc(m, func(i int) bool { return tubeOf[i] != tubeOf[m[0]] })
	}
	bottoms := func(m []int) bool {
		return len(firsts) >= 3 && slices.Equal(slices.Sorted(slices.Values(m)), firsts)
	}
	var cands [][]int
	for _, m := range groups {
		if len(m) < 2 || slices.ContainsFunc(m, func(i int) bool { return top[i] }) {
			continue
		}
		if marked != nil && slices.ContainsFunc(m, func(i int) bool { return !marked[i] }) {
			continue
		}
		look := mean(m)
		if !tight(m, look) || oneTube(m) || bottoms(m) {
			continue
		}
		if slices.ContainsFunc(m, func(i int) bool { return !prefix(i) }) {
			continue // hidden units lie under every visible unit of their tube
		}
		if 2*countFunc(m, func(i int) bool { return samples[i].likeBackground }) > len(m) {
			continue // the background seen through the glass, or below a box placed too low
		}
		if len(m) > capacity || look.Chroma() < hiddenLookChroma {
			cands = append(cands, m)
		}
	}
	slices.SortStableFunc(cands, func(a, b []int) int { return len(b) - len(a) })
	if len(cands) > maxHiddenLooks {
		cands = cands[:maxHiddenLooks]
	}
	out := make([][]unitSample, len(cands))
	for k, m := range cands {
		out[k] = slices.Clone(samples)
		for _, i := range m {
			out[k][i].hidden = true
		}
	}
	return out
}

// hiddenTightDE is how far (CIEDE2000) a hidden box may look from the others; at most
// maxHiddenLooks proposals are tried; a look on no more units than a colour has is taken for
// the hidden units only below chroma hiddenLookChroma.
const (
	hiddenTightDE    = 6
	markTightDE      = 12
	maxHiddenLooks   = 4
	hiddenLookChroma = 15
)

// missedGlyphs proposes the reading in which the units that look like the hidden units found
// by their glyphs are hidden too: a glare stripe or a JPEG's blur over a glyph hides it from
// its unit's sample, and the box then reads as a dark colour. A unit is taken when it lies
// within hiddenTightDE of the hidden units' median colour (or is hidden already), is not its
// tube's top, and every unit under it is taken too: hidden units lie at a tube's bottom,
// under its visible ones. It returns nil when no unit is found hidden, or no more would be.
func missedGlyphs(samples []unitSample, counts []int) []unitSample {
	fill, ok := hiddenFill(samples)
	if !ok {
		return nil
	}
	like := func(s unitSample) bool { return s.hidden || deltaE(s.color, fill) < hiddenTightDE }
	out := slices.Clone(samples)
	added := 0
	k := 0
	for _, n := range counts {
		// Hidden units lie at the bottom of a tube, under every visible unit: the run of
		// units like the hidden ones from the bottom, short of the top.
		for j := 0; j < n-1 && like(samples[k+j]); j++ {
			if !out[k+j].hidden {
				out[k+j].hidden = true
				added++
			}
		}
		k += n
	}
	if added == 0 {
		return nil
	}
	return out
}

// seenHidden is samples with the units taken for hidden ones that look like a unit in view
// (within hiddenTwinDE; marks aside, whose median mixes two tones) read as liquid, or nil when
// there is none: a dark liquid with a glare across it can pass for a box with a glyph, but
// games draw hidden boxes unlike any liquid.
func seenHidden(samples []unitSample) []unitSample {
	var out []unitSample
	for i, s := range samples {
		if !s.hidden || s.marked || !inView(samples, s.color) {
			continue
		}
		if out == nil {
			out = slices.Clone(samples)
		}
		out[i].hidden, out[i].greyBox = false, false
	}
	return out
}

// inView reports whether colour c looks like (within hiddenTwinDE) a unit in view among the
// samples: one not taken for hidden.
func inView(samples []unitSample, c lab) bool {
	return slices.ContainsFunc(samples, func(s unitSample) bool { return !s.hidden && deltaE(s.color, c) < hiddenTwinDE })
}

// nearMissed is the first tube whose lowest unit not taken for hidden, over hidden ones (or
// at its bottom) and under its top, looks nearly like the hidden units (within markTightDE of
// their median colour, and as grey: chroma under hiddenLookChroma) though missedGlyphs left
// it out, and how far it stands, or -1: a glare across a hidden box lightens it past
// hiddenTightDE, and the box then reads as a grey unit of a colour seen nowhere else.
func nearMissed(samples []unitSample, counts []int) (int, float64) {
	fill, ok := hiddenFill(samples)
	if !ok {
		return -1, 0
	}
	k := 0
	for t, n := range counts {
		j := 0
		for j < n && samples[k+j].hidden {
			j++
		}
		if j < n-1 {
			c := samples[k+j].color
			if de := deltaE(c, fill); de < markTightDE && c.Chroma() < hiddenLookChroma {
				return t, de
			}
		}
		k += n
	}
	return -1, 0
}

// hiddenFill is the median colour of the units read as hidden, and whether there are any.
func hiddenFill(samples []unitSample) (lab, bool) {
	var fills []lab
	for _, s := range samples {
		if s.hidden {
			fills = append(fills, s.color)
		}
	}
	if len(fills) == 0 {
		return lab{}, false
	}
	return medianOf(fills), true
}

// deltaMemo keeps the CIEDE2000 distances between the unit colours clustered over one read:
// clusterUnits runs once per hypothesis and per look of hidden units tried, mostly over the
// same colours (a board of 20 tubes of 7 units clusters its 140 some 200 times).
type deltaMemo struct {
	ids  map[lab]int
	rows [][]float64 // rows[i][j], j < i: between colours i and j; NaN until computed
}

// maxMemoColors is the most colours a deltaMemo keeps distances between (their triangle of
// float64s is then 4 MB); colours beyond them are compared afresh each time.
const maxMemoColors = 1024

// matrix is the distances between every two of colors, each way (the diagonal zero).
func (m *deltaMemo) matrix(colors []lab) [][]float64 {
	n := len(colors)
	ids := make([]int, n)
	for i, c := range colors {
		ids[i] = m.id(c)
	}
	dist := make([][]float64, n)
	for i := range dist {
		dist[i] = make([]float64, n)
		for j := range i {
			dist[i][j] = m.between(ids[i], ids[j], colors[i], colors[j])
			dist[j][i] = dist[i][j]
		}
	}
	return dist
}

// id is colour c's number in the memo, -1 when the memo is nil or full.
func (m *deltaMemo) id(c lab) int {
	if m == nil {
		return -1
	}
	if id, ok := m.ids[c]; ok {
		return id
	}
	if len(m.rows) >= maxMemoColors {
		return -1
	}
	if m.ids == nil {
		m.ids = map[lab]int{}
	}
	id := len(m.rows)
	row := make([]float64, id)
	for j := range row {
		row[j] = math.NaN()
	}
	m.rows, m.ids[c] = append(m.rows, row), id
	return id
}

// between is deltaE(a, b) for colours a and b, numbered i and j in the memo (-1 for none).
// (CIEDE2000 is symmetric to the last bit: each difference it takes changes sign, and only
// their squares and products enter the sum.)
func (m *deltaMemo) between(i, j int, a, b lab) float64 {
	switch {
	case i < 0 || j < 0:
		return deltaE(a, b)
	case i == j:
		return 0
	case i < j:
		i, j = j, i
	}
	if d := m.rows[i][j]; !math.IsNaN(d) {
		return d
	}
	d := deltaE(a, b)
	m.rows[i][j] = d
	return d
}
