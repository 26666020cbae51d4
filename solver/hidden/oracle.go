package hidden

import (
	"bytes"
	"context"
	"slices"

	"github.com/decant/decant/solver"
)

// DefaultOracleStates bounds Oracle's search: about 150 bytes a state on 8–12 colours.
const DefaultOracleStates = 2_000_000

// hiddenBit marks a face-down unit in the oracle's packed positions.
const hiddenBit = 0x80

// OracleResult is the fewest pours that finish a game for a player who sees every hidden
// unit but plays under the game's rules.
type OracleResult struct {
	// Status is solver.StatusSolved (Moves is then a shortest plan), solver.StatusUnsolvable
	// (no sequence of pours under the rules finishes), or solver.StatusUnknown (the budget or
	// the context stopped the search).
	Status solver.Status
	Moves  []solver.Move
	// States is the number of distinct positions stored.
	States int
}

// Oracle returns a shortest plan for game g (its truth in full: every colour known) played
// under g's rules by a player who sees every colour: a pour moves the visible top run only
// (with Rules.Carry, hidden units of its colour below it along), a hidden unit shows once it
// is its tube's top, a covered tube takes and gives nothing until its colour is complete (a
// full open tube of it, every unit showing), and then all its units show — Game.Pour's rules.
// The face-down flags are therefore part of the position. It is the exact A* (package
// solver's, without macros) on the positions up to tube order, with an estimate that counts,
// besides colour blocks, the pours each face-down unit above a tube's bottom block needs under
// the default rule. maxStates bounds the positions stored (0: DefaultOracleStates); over it
// the answer is solver.StatusUnknown. Without hidden units or curtains its optimum is
// solver.Solve's.
func Oracle(ctx context.Context, g *Game, maxStates int) (OracleResult, error) {
	if maxStates <= 0 {
		maxStates = DefaultOracleStates
	}
	o, root, err := newOracleSearch(g)
	if err != nil {
		return OracleResult{}, err
	}
	goal, status := o.run(ctx, root, maxStates)
	res := OracleResult{Status: status, States: len(o.keys)}
	if status == solver.StatusSolved {
		res.Moves = o.path(g, goal)
	}
	return res, nil
}

// oracleSearch is one run of Oracle. A position packs each tube in w = Capacity+1 bytes: its
// cover colour (0 for none), then its units bottom to top (colour, hiddenBit when face down),
// then zeros; the key is the tubes sorted.
type oracleSearch struct {
	n, w, cap int
	carry     bool
	keys      []string
	index     map[string]int32
	parent    []int32
	g         []uint16
	closed    []bool
	sortBuf   [][]byte
}

func newOracleSearch(g *Game) (*oracleSearch, []byte, error) {
	o := &oracleSearch{n: len(g.Tubes), w: g.Capacity + 1, cap: g.Capacity, carry: g.Rules.Carry, index: map[string]int32{}}
	root := make([]byte, o.n*o.w)
	for i, t := range g.Tubes {
		if len(t) > g.Capacity {
			return nil, nil, solver.Errorf(solver.CodeInvalidLevel, "tube %d holds %d units, more than the capacity %d", i+1, len(t), g.Capacity)
		}
		s := root[i*o.w : (i+1)*o.w]
		s[0] = byte(g.Covers[i])
		for j, c := range t {
			if c == 0 || c >= hiddenBit {
				return nil, nil, solver.Errorf(solver.CodeInvalidLevel, "tube %d unit %d: the oracle needs every colour known", i+1, j+1)
			}
			s[1+j] = byte(c)
			if !g.Shown[i][j] {
				s[1+j] |= hiddenBit
			}
		}
	}
	return o, root, nil
}

// tube returns tube i of position s and its height.
func (o *oracleSearch) tube(s []byte, i int) ([]byte, int) {
	t := s[i*o.w : (i+1)*o.w]
	h := 0
	for h < o.cap && t[1+h] != 0 {
		h++
	}
	return t, h
}

// pour plays from→to on position s into dst (a copy) and reports whether it is legal.
func (o *oracleSearch) pour(dst, s []byte, from, to int) bool {
	a, ha := o.tube(s, from)
	b, hb := o.tube(s, to)
	if a[0] != 0 || b[0] != 0 || ha == 0 || hb == o.cap {
		return false
	}
	c := a[ha] &^ hiddenBit
	if hb > 0 && (b[hb] != c) { // a top always shows, so b's top is a bare colour
		return false
	}
	run := 0
	for run < ha && a[ha-run]&^hiddenBit == c && (a[ha-run]&hiddenBit == 0 || o.carry) {
		run++
	}
	if run == 0 {
		return false
	}
	k := min(run, o.cap-hb)
	copy(dst, s)
	na, nb := dst[from*o.w:(from+1)*o.w], dst[to*o.w:(to+1)*o.w]
	for j := range k {
		nb[1+hb+j] = c
		na[ha-j] = 0
	}
	if h := ha - k; h > 0 {
		na[h] &^= hiddenBit // the new top shows
	}
	o.openCurtains(dst)
	return true
}

// openCurtains opens, until none is left to open, the covered tubes whose colour is complete.
// (Game.openCurtains makes one pass in tube order; with one curtain, or curtains that do not
// open each other, the two agree.)
func (o *oracleSearch) openCurtains(s []byte) {
	for again := true; again; {
		again = false
		for i := range o.n {
			t, h := o.tube(s, i)
			if t[0] == 0 || !o.complete(s, t[0]) {
				continue
			}
			t[0] = 0
			for j := 1; j <= h; j++ {
				t[j] &^= hiddenBit
			}
			again = true
		}
	}
}

// complete reports whether an open tube of s is full of colour c, every unit showing.
func (o *oracleSearch) complete(s []byte, c byte) bool {
	for i := range o.n {
		t, h := o.tube(s, i)
		if t[0] != 0 || h != o.cap {
			continue
		}
		if !slices.ContainsFunc(t[1:], func(u byte) bool { return u != c }) {
			return true
		}
	}
	return false
}

// estimate is a lower bound on the pours that finish s, lowered by at most one by a pour (so
// A* with it is exact): package solver's colour blocks minus the distinct colours at a tube
// bottom, where under the default rule a block above its tube's bottom block counts one pour
// for each face-down unit in it and one more if its top unit shows — each face-down unit
// leaves its tube in a pour of its own, once it is the top. Units behind a curtain count as
// showing (opening it shows them all at once); with Carry every block counts one.
func (o *oracleSearch) estimate(s []byte) int {
	sum, tubes := 0, 0
	var bottoms [4]uint64
	distinct := 0
	for i := range o.n {
		t, h := o.tube(s, i)
		if h == 0 {
			continue
		}
		tubes++
		c0 := t[1] &^ hiddenBit
		if bottoms[c0>>6]&(1<<(c0&63)) == 0 {
			bottoms[c0>>6] |= 1 << (c0 & 63)
			distinct++
		}
		plain := o.carry || t[0] != 0
		j := 1
		for j <= h && t[j]&^hiddenBit == c0 {
			j++
		}
		for j <= h {
			c, down := t[j]&^hiddenBit, 0
			for j <= h && t[j]&^hiddenBit == c {
				if t[j]&hiddenBit != 0 {
					down++
				}
				j++
			}
			switch {
			case plain:
				sum++
			case t[j-1]&hiddenBit == 0:
				sum += down + 1
			default:
				sum += down
			}
		}
	}
	return sum + tubes - distinct
}

// solved reports whether every tube of s is empty or full of one colour.
func (o *oracleSearch) solved(s []byte) bool {
	for i := range o.n {
		t, h := o.tube(s, i)
		if h == 0 {
			continue
		}
		if h != o.cap || slices.ContainsFunc(t[1:], func(u byte) bool { return u&^hiddenBit != t[1]&^hiddenBit }) {
			return false
		}
	}
	return true
}

// key returns position s with its tubes sorted.
func (o *oracleSearch) key(s []byte) string {
	if o.sortBuf == nil {
		o.sortBuf = make([][]byte, o.n)
	}
	for i := range o.n {
		o.sortBuf[i] = s[i*o.w : (i+1)*o.w]
	}
	slices.SortFunc(o.sortBuf, bytes.Compare)
	out := make([]byte, 0, len(s))
	for _, t := range o.sortBuf {
		out = append(out, t...)
	}
	return string(out)
}

// oracleEntry is a position waiting in the open set with the g it was pushed at.
type oracleEntry struct {
	id int32
	g  uint16
}

// run is A* from root; it returns the goal's id and solver.StatusSolved, or the status that
// stopped it.
func (o *oracleSearch) run(ctx context.Context, root []byte, maxStates int) (int32, solver.Status) {
	var open [][]oracleEntry
	push := func(f int, e oracleEntry) {
		for len(open) <= f {
			open = append(open, nil)
		}
		open[f] = append(open[f], e)
	}
	add := func(key string, parent int32, g int) (int32, bool) {
		if id, ok := o.index[key]; ok {
			if o.closed[id] || int(o.g[id]) <= g {
				return id, false
			}
			o.g[id], o.parent[id] = uint16(g), parent
			return id, true
		}
		id := int32(len(o.keys))
		o.index[key] = id
		o.keys = append(o.keys, key)
		o.parent = append(o.parent, parent)
		o.g = append(o.g, uint16(g))
		o.closed = append(o.closed, false)
		return id, true
	}
	rk := o.key(root)
	id, _ := add(rk, -1, 0)
	push(o.estimate([]byte(rk)), oracleEntry{id, 0})
	child := make([]byte, len(root))
	expanded := 0
	for f := 0; f < len(open); f++ {
		for len(open[f]) > 0 {
			e := open[f][len(open[f])-1]
			open[f] = open[f][:len(open[f])-1]
			if o.closed[e.id] || o.g[e.id] != e.g {
				continue
			}
			s := []byte(o.keys[e.id])
			if o.solved(s) {
				return e.id, solver.StatusSolved
			}
			o.closed[e.id] = true
			if expanded++; expanded%1024 == 0 && ctx.Err() != nil {
				return -1, solver.StatusUnknown
			}
			g := int(e.g) + 1
			for a := range o.n {
				for b := range o.n {
					if a == b || !o.pour(child, s, a, b) {
						continue
					}
					k := o.key(child)
					cid, ok := add(k, e.id, g)
					if !ok {
						continue
					}
					if len(o.keys) > maxStates {
						return -1, solver.StatusUnknown
					}
					// max: f never falls with a consistent estimate; this keeps a
					// mistaken one from losing positions below the current f.
					push(max(f, g+o.estimate(child)), oracleEntry{cid, uint16(g)})
				}
			}
		}
	}
	return -1, solver.StatusUnsolvable
}

// path returns the pours from g's position to goal in g's tube order: it walks the parents
// back, then replays forward, at each step finding the pour that leads to the next key.
func (o *oracleSearch) path(g *Game, goal int32) []solver.Move {
	var ids []int32
	for id := goal; id >= 0; id = o.parent[id] {
		ids = append(ids, id)
	}
	slices.Reverse(ids)
	_, s, _ := newOracleSearch(g)
	child := make([]byte, len(s))
	var moves []solver.Move
	for _, id := range ids[1:] {
	find:
		for a := range o.n {
			for b := range o.n {
				if a != b && o.pour(child, s, a, b) && o.key(child) == o.keys[id] {
					t, h := o.tube(s, a)
					_, hb := o.tube(child, b)
					_, hb0 := o.tube(s, b)
					moves = append(moves, solver.Move{From: a, To: b, Count: hb - hb0, Color: solver.Color(t[h] &^ hiddenBit)})
					s, child = child, s
					break find
				}
			}
		}
	}
	return moves
}
