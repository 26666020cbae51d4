package solver

import (
	"context"
	"math"
	"time"
)

// Algorithm selects the search. AStar is the product; BFS and MCTS are baselines kept for
// comparison tables.
type Algorithm string

// The algorithms behind decant's --algo flag.
const (
	AStar Algorithm = "astar"
	BFS   Algorithm = "bfs"
	MCTS  Algorithm = "mcts"
)

// Defaults for the budgets in Options.
const (
	DefaultMaxMemory   = 1 << 30
	DefaultSimulations = 200
	fastWeight         = 4
)

// Options tune Solve. The zero value is the default: optimal A* with macros, limited by
// DefaultMaxMemory and the context.
type Options struct {
	Algorithm Algorithm
	// Fast trades optimality for speed: weighted best-first search whose plans are valid but
	// not proven shortest (Plan.Optimal is false).
	Fast bool
	// NoMacros turns off the "gather one colour into an empty tube" search steps.
	NoMacros bool
	// MaxStates caps the number of distinct states stored (0: no cap beyond MaxMemory).
	MaxStates int
	// MaxMemory caps the estimated bytes held by the search (0: DefaultMaxMemory).
	MaxMemory int64
	// Simulations is MCTS's number of simulations per committed move (0: DefaultSimulations).
	Simulations int
	// Seed seeds MCTS's random rollouts.
	Seed int64
	// Yield, when set, is called between batches of a few hundred expansions (a millisecond or
	// so of work). A caller whose CPU is wanted by more urgent work blocks in it to let that
	// work run first; ctx's deadline keeps running meanwhile.
	Yield func()
}

// Solve searches for the shortest sequence of pours that solves l from the given position.
//
// With the default options the plan is optimal and says so; the search keeps one entry per
// canonical state (tube order ignored) keyed by the full packed state, so exhausting the open
// set proves the level unsolvable. A search stopped by ctx or a budget returns StatusUnknown,
// never StatusUnsolvable. The error is non-nil only for a level that cannot be searched.
func Solve(ctx context.Context, l *Level, opts Options) (Plan, Stats, error) {
	start := time.Now()
	if err := l.Validate(); err != nil {
		return Plan{}, Stats{}, err
	}
	if l.HasCurtains() {
		return Plan{}, Stats{}, Errorf(CodeHiddenUnits, "the level has curtain tubes: their contents must be revealed before it can be planned")
	}
	if l.HasHidden() {
		return Plan{}, Stats{}, Errorf(CodeHiddenUnits, "the level has hidden units (\"?\"): they must be revealed before it can be planned")
	}
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = DefaultMaxMemory
	}
	var (
		plan  Plan
		stats Stats
	)
	switch opts.Algorithm {
	case AStar, "":
		opts.Algorithm = AStar
		plan, stats = solveBestFirst(ctx, l, opts)
	case BFS:
		opts.NoMacros = true
		plan, stats = solveBestFirst(ctx, l, opts)
	case MCTS:
		plan, stats = solveMCTS(ctx, l, opts)
	default:
		return Plan{}, Stats{}, Errorf(CodeInvalidArgument, "unknown algorithm %q: want astar, bfs or mcts", opts.Algorithm)
	}
	stats.Algorithm = opts.Algorithm
	stats.Elapsed = time.Since(start)
	return plan, stats, nil
}

// node is one stored state. Its move is in the parent's canonical tube indices: a pour a→b, or
// (macro) colour b gathered into the empty tube a.
type node struct {
	parent int32
	g      uint16
	a, b   uint8
	macro  bool
	closed bool
}

// nodeStore holds the nodes in pages of pageStates, by state id: growing it copies nothing and
// leaves no garbage, where a slice growing by doubling held up to three times its nodes.
type nodeStore struct {
	pages [][]node
	n     int
}

// at returns node id.
func (s *nodeStore) at(id int32) *node {
	return &s.pages[uint32(id)/pageStates][uint32(id)%pageStates]
}

// push stores n as the next id.
func (s *nodeStore) push(n node) {
	if s.n%pageStates == 0 {
		s.pages = append(s.pages, make([]node, pageStates))
	}
	s.n++
	*s.at(int32(s.n - 1)) = n
}

// nodeBytes estimates the memory one stored state costs beyond its key: the node (12 bytes,
// in pages), its slots in the state table's index (two to four int32s and their hash tags, and
// the old index while it doubles), open-set entries with the slack of their slices, and the
// garbage the collector has yet to free (little: nothing in the search or the drain cache
// allocates per state). On 26 colours with three empty tubes (seed 154, 5.9 M states to the
// optimum) the heap peaked at 857 MB, 152 bytes a state with 73-byte keys and the drain cache
// included, against 985 MB counted; before the nodes were paged and the drain cache kept its keys in a table of its
// own, it took about 250 bytes a state, and a map of string keys about 370.
const nodeBytes = 72

// stateBytes is the memory one stored state is counted at: its key and nodeBytes.
func (g *game) stateBytes() int64 { return int64(g.keyBytes + nodeBytes) }

// engine is one best-first search: A* (weight 1), weighted A* (Fast), or uniform-cost (BFS).
type engine struct {
	g      *game
	ctx    context.Context
	opts   Options
	weight int
	bound  int
	useH   bool
	macros bool
	table  *stateTable
	// partial turns on partial expansion (exact A*): expanding a node at f = fLimit stores only
	// the children of f up to fLimit, and puts the node back at deferred, the smallest f of
	// the children it held back. The states stored are then those of f up to the optimum,
	// not every child generated on the way; each node is expanded once per f of its children.
	partial  bool
	fLimit   int
	deferred int
	// maxStored is the number of states the budgets allow, storeLimit the budget it comes from.
	maxStored  int
	storeLimit StopReason
	nodes      nodeStore
	open       bucketQueue
	stats      Stats
	keyBuf     []byte
	scratch    []uint64
	info       []tubeInfo
	drainer    *drainer
}

// presearchStates caps the weighted search that runs before the exact one.
const presearchStates = 250_000

// solveBestFirst runs A* (exact, or weighted when opts.Fast) or uniform-cost search. The exact
// A* first runs a quick weighted search: its plan bounds the exact search (states with
// g + h at or above its length are not kept) and is the answer if a budget stops that search;
// and when it exhausts the state space it has proven the level unsolvable on its own. That
// presearch never uses macros: with them it wandered (up to 18× the states of the whole
// search without macros), and the exact search, which tries them, settles the length.
func solveBestFirst(ctx context.Context, l *Level, opts Options) (Plan, Stats) {
	g := newGame(l)
	root := g.codesOf(l)
	var total Stats
	var incumbent []Move
	if opts.Algorithm == AStar && !opts.Fast {
		pre := opts
		pre.Fast = true
		pre.NoMacros = true
		pre.MaxStates = presearchStates
		if opts.MaxStates > 0 {
			pre.MaxStates = min(pre.MaxStates, opts.MaxStates)
		}
		plan, st := runEngine(ctx, g, l, root, pre, 0)
		total.merge(st)
		switch {
		case plan.Status == StatusUnsolvable:
			return plan, total
		case st.Stopped == StopTimeout:
			// Stopped by the context. A presearch that finished goes on to the exact
			// search even if the deadline has passed since: whether a search is cut short
			// depends only on its own checks of the context (every few hundred
			// expansions), not on the clock at the moment it ends, so a level settled
			// before the first check gets its verdict however slow the machine.
			return Plan{Status: StatusUnknown, Moves: plan.Moves}, total
		}
		incumbent = plan.Moves
	}
	plan, st := runEngine(ctx, g, l, root, opts, len(incumbent))
	total.merge(st)
	total.Stopped = st.Stopped
	switch {
	case incumbent == nil || plan.Status == StatusSolved:
		return plan, total
	case plan.Status == StatusUnsolvable:
		// Exhausted below the bound: no plan is shorter than the incumbent.
		return Plan{Status: StatusSolved, Optimal: true, Moves: incumbent}, total
	default:
		return Plan{Status: StatusUnknown, Moves: incumbent}, total
	}
}

// runEngine runs one best-first search. With bound > 0 it keeps only states that may lie on a
// plan shorter than bound, so exhausting the open set proves there is none.
func runEngine(ctx context.Context, g *game, l *Level, root []uint64, opts Options, bound int) (Plan, Stats) {
	e := &engine{
		g: g, ctx: ctx, opts: opts, weight: 1, useH: opts.Algorithm != BFS, bound: bound,
		macros: !opts.NoMacros, table: newStateTable(g.keyBytes),
		scratch: make([]uint64, g.n), info: make([]tubeInfo, g.n),
	}
	if opts.Fast {
		e.weight = fastWeight
	}
	e.partial = e.useH && e.weight == 1
	e.fLimit = math.MaxInt
	// Budgets on stored states are exact: the state past either one is not stored. The drain
	// searches' cache of verdicts has its own share of the memory budget.
	cacheShare := opts.MaxMemory / drainCacheShare
	e.drainer = newDrainer(g, int(cacheShare/g.drainEntryBytes()))
	e.maxStored, e.storeLimit = int((opts.MaxMemory-cacheShare)/g.stateBytes()), StopMemory
	if opts.MaxStates > 0 && opts.MaxStates <= e.maxStored {
		e.maxStored, e.storeLimit = opts.MaxStates, StopStates
	}
	e.stats.Macros = e.macros
	e.stats.LowerBound = g.estimate(root)
	if e.useH {
		// The estimate is consistent: no state has g + h, nor g + weight·h, below the root's
		// estimate, so no priority lies below that f's, and the queue's buckets start there.
		e.open.base = e.stats.LowerBound * e.perF()
	}
	goal, status := e.run(root)
	plan := Plan{Status: status}
	if goal >= 0 {
		plan.Moves = e.path(l, goal)
		plan.Optimal = !opts.Fast
	}
	return plan, e.stats
}

// merge adds the work of another search phase.
func (s *Stats) merge(o Stats) {
	s.Macros = o.Macros
	s.LowerBound = o.LowerBound
	s.Expanded += o.Expanded
	s.drains += o.drains
	s.skeletons += o.skeletons
	s.Generated += o.Generated
	s.Stored = max(s.Stored, o.Stored)
	s.PeakOpen = max(s.PeakOpen, o.PeakOpen)
	s.Stopped = o.Stopped
}

// priority orders the open set: by f = g + weight·h, then smaller h first (deeper first), and
// in the exact search then more tubes full of one colour first (counted up to three, so four
// priorities for each f and h): of two states equally far from the goal by the estimate, the
// one with more colours done has fewer left to untangle.
func (e *engine) priority(g, h int, codes []uint64) int {
	if !e.useH {
		return g
	}
	p := (g+e.weight*h)*64 + min(h, 63)
	if !e.partial {
		return p
	}
	return p*4 + 3 - min(e.g.finished(codes), 3)
}

// perF is the number of priorities for each f.
func (e *engine) perF() int {
	if !e.partial {
		return 64
	}
	return 256
}

// fOf is the f = g + weight·h of a priority.
func (e *engine) fOf(p int) int { return p / e.perF() }

func (e *engine) add(codes []uint64, parent int32, g int, a, b int, macro bool) (int32, int) {
	canon(codes)
	e.keyBuf = e.g.pack(e.keyBuf[:0], codes)
	e.stats.Generated++
	id, slot := e.table.find(e.keyBuf)
	seen := id >= 0
	if seen {
		n := e.nodes.at(id)
		if int(n.g) <= g || (n.closed && e.opts.Fast) {
			// Fast mode does not reopen expanded states: its plans carry no optimality
			// claim, and exhausting the state space (the unsolvability proof) needs each
			// state expanded once only.
			return -1, 0
		}
	}
	h := e.g.estimate(codes)
	if e.bound > 0 && g+h >= e.bound {
		// Cannot beat the incumbent plan: neither kept nor stored. Reached again with a
		// smaller g, it is judged again.
		return -1, h
	}
	if g+h > e.fLimit && g+h >= e.deferred {
		// Held back, and a sibling already holds its parent back to an f no higher: whether
		// it is dead changes nothing now, and it is tested when generated again.
		return -1, h
	}
	if e.g.needsEmpty && codes[0] != 0 && e.dead(codes) {
		// No tube can ever be emptied, and a solved position has an empty tube.
		return -1, 0
	}
	if g+h > e.fLimit {
		// Partial expansion: a child above the f being expanded waits in its parent.
		e.deferred = min(e.deferred, g+h)
		return -1, h
	}
	if seen {
		n := e.nodes.at(id)
		n.g, n.parent, n.a, n.b, n.macro, n.closed = uint16(g), parent, uint8(a), uint8(b), macro, false
	} else {
		if e.nodes.n >= e.maxStored {
			// The budget is exact: the state is not stored, and the search stops.
			e.stats.Stopped = e.storeLimit
			return -1, 0
		}
		id = e.table.insert(e.keyBuf, slot)
		e.nodes.push(node{parent: parent, g: uint16(g), a: uint8(a), b: uint8(b), macro: macro})
	}
	e.open.push(e.priority(g, h, codes), entry{id: id, g: uint16(g)})
	e.stats.PeakOpen = max(e.stats.PeakOpen, e.open.n)
	return id, h
}

// run searches from root and returns the goal node, or -1 with the verdict.
func (e *engine) run(root []uint64) (int32, Status) {
	codes := append([]uint64(nil), root...)
	id, h := e.add(codes, -1, 0, 0, 0, false)
	e.stats.Stored = e.nodes.n
	switch {
	case id >= 0 && h == 0:
		return id, StatusSolved
	case e.stats.Stopped != "":
		return -1, StatusUnknown // a budget below one state
	}
	for {
		ent, p, ok := e.open.pop()
		if !ok {
			return -1, StatusUnsolvable
		}
		n := e.nodes.at(ent.id)
		if n.closed || n.g != ent.g {
			continue
		}
		n.closed = true
		e.g.unpack(codes, e.table.key(ent.id))
		h := e.g.estimate(codes)
		if !e.opts.Fast && h == 0 {
			return ent.id, StatusSolved
		}
		if e.partial {
			e.fLimit, e.deferred = e.fOf(p), math.MaxInt
		}
		e.stats.Expanded++
		if e.stats.Expanded&255 == 0 {
			if e.opts.Yield != nil {
				e.opts.Yield()
			}
			if e.ctx.Err() != nil {
				e.stats.Stopped = StopTimeout
			}
		}
		if e.stats.Stopped != "" {
			return -1, StatusUnknown
		}
		goal := e.expand(ent.id, codes, h)
		if e.partial && e.deferred < math.MaxInt && goal < 0 {
			// Children were held back: the node goes back into the open set at the f of
			// the best of them, to generate them when the search reaches that f.
			n := e.nodes.at(ent.id)
			n.closed = false
			e.open.push(e.priority(e.deferred-e.weight*h, h, codes), entry{id: ent.id, g: n.g})
		}
		e.stats.Stored = e.nodes.n
		switch {
		case goal >= 0:
			return goal, StatusSolved
		case e.stats.Stopped != "":
			return -1, StatusUnknown
		}
	}
}

// expand adds every successor of node id (position codes, canonical, estimate h). In fast mode
// it returns a successor that is solved, else -1. Macro steps are added first: the open set
// pops the newest of equal priority first, so a macro step is tried after the single pours
// that tie with it (when the bound is exact, trying the long step first led the search into
// dead ends at the optimum's f: up to 10× the states of no macros on levels with 3 empty tubes).
func (e *engine) expand(id int32, codes []uint64, h int) int32 {
	g := e.g
	base := int(e.nodes.at(id).g)
	child := e.scratch
	info := e.info[:len(codes)]
	for i, code := range codes {
		info[i] = g.info(code)
	}
	if e.macros {
		if cid := e.expandMacros(id, codes, base, h); cid >= 0 {
			return cid
		}
	}
	for a, ca := range codes {
		if ca == 0 || (a > 0 && ca == codes[a-1]) {
			continue // empty, or the same as the tube before it
		}
		ta := info[a]
		for b, tb := range info {
			if b == a || (tb.h == 0 && ta.run == ta.h) {
				continue // a one-colour tube into an empty one changes nothing
			}
			k := g.pourable(ta, tb)
			if k == 0 || sameAsEarlier(codes, b, a) {
				continue
			}
			copy(child, codes)
			child[a], child[b] = g.pour(ca, int(ta.h), codes[b], int(tb.h), ta.top, k)
			if cid, h := e.add(child, id, base+1, a, b, false); cid >= 0 && h == 0 && e.opts.Fast {
				return cid
			}
		}
	}
	return -1
}

// sameAsEarlier reports whether tube b equals an earlier tube other than a: pouring into either
// gives the same canonical state.
func sameAsEarlier(codes []uint64, b, a int) bool {
	for j := b - 1; j >= 0 && codes[j] == codes[b]; j-- {
		if j != a {
			return true
		}
	}
	return false
}

// expandMacros adds, for each colour topping two or more mixed tubes, the step that gathers
// those top runs into the first empty tube. The exact search (partial expansion) adds only the
// steps that keep f = g + h of the parent (estimate h), and only gathers that fill the tube or
// leave it one unit short. A step that raises f is left out, as its single pours reach the same
// state through states of f no higher (a pour lowers the estimate by at most one), so
// optimality and the unsolvability proof depend neither on it nor on the gathers left out.
//
// Why only nearly full gathers: a gather of k runs ranks k pours deeper, so at equal f it is
// tried before every single pour, and it takes an empty tube for one colour. A gather that
// leaves its colour two or more units short led the dive, on levels whose lower bound is the
// optimum, into subtrees without a plan at that f (8 colours, capacity 5, seed 101: 412
// expansions against 84 without macros), while the single pours, which take empty tubes last,
// did not.
func (e *engine) expandMacros(id int32, codes []uint64, base, h int) int32 {
	if codes[0] != 0 {
		return -1 // sorted: an empty tube would come first
	}
	var seen colorSet
	for _, code := range codes {
		if code == 0 {
			continue
		}
		col, _, _ := e.g.top(code)
		if seen.has(col) {
			continue
		}
		seen.add(col)
		sources := gatherSources(e.g, codes, col)
		if len(sources) < 2 {
			continue
		}
		child := e.scratch
		copy(child, codes)
		applyGather(e.g, child, 0, sources)
		if e.partial && len(sources)+e.g.estimate(child) > h {
			continue
		}
		if e.partial && e.g.height(child[0]) < e.g.cap-1 {
			continue // two or more units short of a full tube
		}
		if cid, h := e.add(child, id, base+len(sources), 0, int(col), true); cid >= 0 && h == 0 && e.opts.Fast {
			return cid
		}
	}
	return -1
}

// gatherSources lists the mixed tubes topped by col, or nil when a one-colour tube of col
// exists (pouring onto it beats gathering elsewhere).
func gatherSources(g *game, codes []uint64, col Color) []int {
	var src []int
	for i, code := range codes {
		if code == 0 {
			continue
		}
		c, run, h := g.top(code)
		if c != col {
			continue
		}
		if run == h {
			return nil
		}
		src = append(src, i)
	}
	return src
}

// applyGather pours each source's top run into tube dst, in order. The runs of one colour in
// mixed tubes never exceed the capacity, so each pour moves its whole run.
func applyGather(g *game, codes []uint64, dst int, sources []int) {
	for _, s := range sources {
		g.move(codes, s, dst)
	}
}

// path rebuilds the plan from the root to goal as single pours in the level's own tube order.
func (e *engine) path(l *Level, goal int32) []Move {
	var chain []int32
	for id := goal; e.nodes.at(id).parent >= 0; id = e.nodes.at(id).parent {
		chain = append(chain, id)
	}
	g := e.g
	real := g.codesOf(l)
	var moves []Move
	pour := func(from, to int) {
		m, _ := g.move(real, from, to) // legal: the search generated it
		moves = append(moves, m)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		n := *e.nodes.at(chain[i])
		perm := sortedOrder(real)
		if !n.macro {
			pour(perm[n.a], perm[n.b])
			continue
		}
		sorted := make([]uint64, len(real))
		for j, p := range perm {
			sorted[j] = real[p]
		}
		for _, s := range gatherSources(g, sorted, Color(n.b)) {
			pour(perm[s], perm[n.a])
		}
	}
	return moves
}

// entry is an open-set entry; g tells stale entries (the node since reached more cheaply).
type entry struct {
	id int32
	g  uint16
}

// bucketQueue is a priority queue for small integer priorities, none below base: a stack per
// priority, popped last-in first-out, which breaks ties towards the newest (deepest) states.
type bucketQueue struct {
	buckets [][]entry // by priority - base
	base    int
	cur, n  int
}

func (q *bucketQueue) push(p int, e entry) {
	p -= q.base
	for p >= len(q.buckets) {
		q.buckets = append(q.buckets, nil)
	}
	q.buckets[p] = append(q.buckets[p], e)
	q.cur = min(q.cur, p)
	q.n++
}

// pop removes an entry of the smallest priority and returns it with that priority.
func (q *bucketQueue) pop() (entry, int, bool) {
	for q.cur < len(q.buckets) && len(q.buckets[q.cur]) == 0 {
		q.cur++
	}
	if q.cur == len(q.buckets) {
		return entry{}, 0, false
	}
	b := q.buckets[q.cur]
	e := b[len(b)-1]
	q.buckets[q.cur] = b[:len(b)-1]
	q.n--
	return e, q.base + q.cur, true
}

// dead reports that a position without an empty tube can never have one (see drainer).
func (e *engine) dead(codes []uint64) bool {
	v := e.drainer.drain(codes)
	e.stats.drains++
	e.stats.skeletons += e.drainer.visited
	return v == drainNever
}
