package solver

// Whether a position without an empty tube can ever have one, decided exactly.
//
// While no tube is empty, a unit only lands on a unit of its own colour, so what lies below a
// tube's top run never changes until that run has gone: a tube only ever loses its runs from
// the top, one whole run at a time, and its top run grows or shrinks in between. Call the
// tubes topped by colour c the group of c. Tube a of group c, with base (the units below its
// top run) of height b_a, can pour its whole top run away, using pours among the group only,
// exactly when the group's other tubes have room for it: when the c units on top of the
// group's tubes, U_c, fit above the other tubes' bases, U_c ≤ Σ_{t≠a} (cap − b_t). The room
// of the other tubes is Σ_{t≠a}(cap − b_t) − (U_c − run_a), so that is both necessary (the last
// pour out of a needs that room) and enough (pour a onto the others in turn), whatever the
// order of the units within the group. And U_c is the colour's units minus those lying in
// some base. So whether a tube can ever be emptied depends only on each tube's base and top
// colour, its skeleton: the tube with its top run cut to one unit. The search below runs over
// skeletons, where a step is one tube losing its top run (its base's top run becomes its top),
// and reaches a goal when a tube with an empty base can lose its run. It is exact, and it is
// small where the positions are many: every order of the units within the groups is one
// skeleton.

// drainLimit bounds the skeletons one drain search stores; past it the answer is "unknown",
// and the caller keeps the position.
const drainLimit = 2048

// drainCacheShare: the cache of drain verdicts may take 1/drainCacheShare of a search's memory
// budget.
const drainCacheShare = 8

// drainVerdict is the answer of a drain search.
type drainVerdict uint8

const (
	drainUnknown drainVerdict = iota // the search stopped on drainLimit
	drainCan                         // some tube can be emptied
	drainNever                       // no tube can ever be emptied
)

// drainer runs drain searches for one game, reusing its buffers, and remembers their verdicts.
type drainer struct {
	g      *game
	limit  int
	seen   *stateTable // skeletons met by the current search
	stack  []uint64    // skeletons of the states to visit, g.n apiece
	cur    []uint64    // the state being expanded
	key    []byte
	totals []int // units of each colour in the position
	buried []int // units of each colour in some base
	capSum []int // Σ (cap − base) over the tubes topped by each colour
	// known holds verdicts by skeleton key, up to maxKnown of them: positions that differ only
	// in how the units of each group lie share one, and everything reachable from a skeleton
	// that never drains never drains either.
	known    *stateTable
	verdicts []drainVerdict // by id in known
	maxKnown int
	visited  int // skeletons stored by the last search
}

// newDrainer makes a drainer whose cache holds at most maxKnown verdicts.
func newDrainer(g *game, maxKnown int) *drainer {
	return &drainer{
		g: g, limit: drainLimit, seen: newStateTable(g.keyBytes), known: newStateTable(g.keyBytes), maxKnown: maxKnown,
		totals: make([]int, g.colors+1), buried: make([]int, g.colors+1), capSum: make([]int, g.colors+1),
	}
}

// drainEntryBytes is the memory one cached verdict is counted at: its key, its slots in the
// table's index (at most half full, so up to four int32s and four hash tags) and its verdict
// byte with the slack of its slice's growth. The cache allocates nothing per entry and,
// emptied, keeps its memory.
func (g *game) drainEntryBytes() int64 { return int64(g.keyBytes + 16 + 4 + 2) }

// skeleton cuts a non-empty tube's top run to one unit.
func (g *game) skeleton(code uint64) uint64 {
	_, run, h := g.top(code)
	return code & (1<<(g.bits*uint(h-run+1)) - 1)
}

// drain decides whether some tube of codes can ever be emptied (drainCan when one is empty).
func (d *drainer) drain(codes []uint64) drainVerdict {
	g := d.g
	d.visited = 0
	clear(d.totals)
	for _, code := range codes {
		if code == 0 {
			return drainCan
		}
		for ; code != 0; code >>= g.bits {
			d.totals[code&g.mask]++
		}
	}
	d.stack = d.stack[:0]
	for _, code := range codes {
		d.stack = append(d.stack, g.skeleton(code))
	}
	canon(d.stack)
	d.key = g.pack(d.key[:0], d.stack)
	if id, _ := d.known.find(d.key); id >= 0 {
		return d.verdicts[id]
	}
	v := d.search(len(codes))
	if v == drainNever {
		for id := range int32(d.seen.n) {
			d.remember(d.seen.key(id), drainNever)
		}
	} else {
		// An unknown verdict is remembered too, so that a skeleton past the limit is searched
		// once; a search that meets it again goes on through it. The root is the seen
		// table's first key.
		d.remember(d.seen.key(0), v)
	}
	return v
}

// remember caches a verdict. A full cache is emptied first: the search moves on, and the
// skeletons it meets next are more like the newest than the oldest.
func (d *drainer) remember(key []byte, v drainVerdict) {
	if d.maxKnown <= 0 {
		return
	}
	id, slot := d.known.find(key)
	if id >= 0 {
		d.verdicts[id] = v
		return
	}
	if d.known.n >= d.maxKnown {
		d.known.reset()
		d.verdicts = d.verdicts[:0]
		_, slot = d.known.find(key)
	}
	d.known.insert(key, slot)
	d.verdicts = append(d.verdicts, v)
}

// search runs a depth-first search over the skeletons reachable from the one on the stack
// (its key in d.key).
func (d *drainer) search(n int) drainVerdict {
	d.seen.reset()
	_, slot := d.seen.find(d.key)
	d.seen.insert(d.key, slot)
	d.visited = 1
	for len(d.stack) > 0 {
		d.cur = append(d.cur[:0], d.stack[len(d.stack)-n:]...)
		d.stack = d.stack[:len(d.stack)-n]
		if v := d.expand(d.cur); v != drainUnknown {
			return v
		}
		if d.seen.n > d.limit {
			return drainUnknown
		}
	}
	return drainNever
}

// expand pushes the unseen skeletons one step from state (sorted), or returns drainCan when a
// tube of state can be emptied or a child is known to drain.
func (d *drainer) expand(state []uint64) drainVerdict {
	g := d.g
	clear(d.buried)
	clear(d.capSum)
	for _, s := range state {
		b := g.height(s) - 1
		d.capSum[g.unit(s, b)] += g.cap - b
		for j := range b {
			d.buried[g.unit(s, j)]++
		}
	}
	// The child of the tube with the smallest base is pushed last, so that it is tried first:
	// that tube is the nearest to empty.
	best, bestBase := -1, 0
	for a, s := range state {
		if a > 0 && s == state[a-1] {
			continue // the same skeleton as the tube before: the same child
		}
		b := g.height(s) - 1
		c := g.unit(s, b)
		if d.totals[c]-d.buried[c] > d.capSum[c]-(g.cap-b) {
			continue // the group's other tubes have no room for a's top run
		}
		if b == 0 {
			return drainCan
		}
		if best >= 0 && b >= bestBase {
			if d.push(state, a, b) {
				return drainCan
			}
			continue
		}
		if best >= 0 && d.push(state, best, bestBase) {
			return drainCan
		}
		best, bestBase = a, b
	}
	if best >= 0 && d.push(state, best, bestBase) {
		return drainCan
	}
	return drainUnknown
}

// push stores, when unseen, state with tube a (base height b) stripped of its top run. It
// reports a child known to drain; a child known never to drain is not stored.
func (d *drainer) push(state []uint64, a, b int) bool {
	g := d.g
	at := len(d.stack)
	d.stack = append(d.stack, state...)
	child := d.stack[at:]
	child[a] = g.skeleton(state[a] & (1<<(g.bits*uint(b)) - 1))
	canon(child)
	d.key = g.pack(d.key[:0], child)
	if id, _ := d.known.find(d.key); id >= 0 && d.verdicts[id] != drainUnknown {
		d.stack = d.stack[:at]
		return d.verdicts[id] == drainCan
	}
	id, slot := d.seen.find(d.key)
	if id >= 0 {
		d.stack = d.stack[:at]
		return false
	}
	d.seen.insert(d.key, slot)
	d.visited++
	return false
}
