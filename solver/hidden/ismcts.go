package hidden

import (
	"math"
	"slices"
	"time"

	"github.com/decant/decant/solver"
)

// ISMCTS's effort and shape.
const (
	// ismctsTop is the number of the determinised search's best pours the tree chooses among
	// at its root (those that finish at least one completion).
	ismctsTop = 6
	// ismctsShare is the share of the call's remaining work (and time, Options.MaxDecisionTime)
	// one decision's tree may spend, leaving the rest to the segment's later pours.
	ismctsShare = 0.7
	// ismctsRounds is the share of the call's work budget that the work outside the trees
	// (the determinised scores of each pour of the segment, the expectimax) may spend, the
	// trees' work left out: 60,000 of DefaultISMCTSWork, the other methods' budget. Counted
	// together with the trees' (session 11), a long segment's later pours were scored on 3
	// completions of 16 or none (the segment then followed one completion's plan). Split so
	// (session 16): the 15–75% class's first 24 levels 15 → 16 finished, mystery levels
	// 0–119 58 → 58; over 48 levels of that class 33 finished, against pimc's 35.
	ismctsRounds = 0.4
	// ismctsIterations caps the iterations of one tree.
	ismctsIterations = 3000
	// ismctsDepth caps the pours of one descent below the root.
	ismctsDepth = 12
	// ismctsExplore is the UCB1 exploration constant (rewards lie in [0, 1]).
	ismctsExplore = 0.7
	// ismctsPour is the reward a finish loses for each pour it takes, so that among pours
	// finishing as often the tree prefers the shorter way (a pour weighs 1/500 of a finish).
	ismctsPour = 0.002
	// ismctsMargin is how close to the most visited root pour another must be visited (a share
	// of its visits) to be played instead for fewer pours (see planner.ismcts).
	ismctsMargin = 0.1
)

// isNode is an information state of the tree: a position as the player sees it, reached by
// the pours of its path from the root, with the pours worth trying there and, for each, the
// information states they lead to, keyed by what the player then sees (the revealed colour).
type isNode struct {
	moves  []solver.Move
	n      []int     // visits of each pour
	w      []float64 // sum of rewards after each pour
	kids   []map[string]*isNode
	visits int
	sum    float64
	avoid  map[string]bool // the positions of the path, root included: a pour back is no pour
	fin    []int           // at the root only: the iterations that finished after each pour
	pours  []float64       // at the root only: the sum of their pours
}

// newISNode returns a node for the information state of truth g, whose pours are the
// candidates of its belief not leading back to a position in avoid.
func newISNode(g *Game, avoid map[string]bool) *isNode {
	moves := candidates(beliefOf(g), avoid)
	orderCareful(g, moves)
	return &isNode{moves: moves, n: make([]int, len(moves)), w: make([]float64, len(moves)),
		kids: make([]map[string]*isNode, len(moves)), avoid: avoid}
}

// beliefOf returns what the player sees of truth g: hidden units unknown, curtains closed on
// unknown contents.
func beliefOf(g *Game) *Game {
	b := g.Clone()
	for i := range b.Tubes {
		if b.Covers[i] != 0 {
			b.Tubes[i], b.Shown[i] = nil, nil
			continue
		}
		for j, shown := range b.Shown[i] {
			if !shown {
				b.Tubes[i][j] = 0
			}
		}
	}
	return b
}

// orderCareful orders pours as the careful methods break ties (fewest hidden units buried,
// then most empty tubes kept), so that the tree tries those first.
func orderCareful(g *Game, moves []solver.Move) {
	keys := make(map[solver.Move][2]int, len(moves))
	for _, m := range moves {
		var s score
		features(g, m, &s)
		keys[m] = [2]int{s.bury, -s.empties}
	}
	slices.SortStableFunc(moves, func(x, y solver.Move) int {
		kx, ky := keys[x], keys[y]
		if kx[0] != ky[0] {
			return kx[0] - ky[0]
		}
		return kx[1] - ky[1]
	})
}

// choose returns the pour to descend by: UCB1, a pour not yet tried valued at the node's mean
// (first-play urgency), so that the tree keeps to pours found good rather than trying every
// pour once before any twice.
func (n *isNode) choose() int {
	fpu := 1.0
	if n.visits > 0 {
		fpu = n.sum / float64(n.visits)
	}
	logN := math.Log(float64(n.visits + 1))
	bi, bv := -1, math.Inf(-1)
	for i := range n.moves {
		mean, k := fpu, 1.0
		if n.n[i] > 0 {
			mean, k = n.w[i]/float64(n.n[i]), float64(n.n[i])
		}
		if v := mean + ismctsExplore*math.Sqrt(logN/k); v > bv+1e-12 {
			bi, bv = i, v
		}
	}
	return bi
}

// ismcts chooses among the determinised search's best pours on belief b (its scores over
// cands, best bi) by information-set Monte Carlo tree search: each iteration draws a completion
// of b, descends the tree of the player's information states — choosing among the pours legal
// there by UCB1, with no sight of what is hidden, so that a pour's value is that of the choices
// a player could make after it — down to the first information state not in the tree, adds
// it, and scores it by the exact search on that completion (1 for a finish, less a little for
// each pour, 0 otherwise). The pour visited most at the root is played, its score the
// determinised one (so PSuccess keeps its meaning and calibration) — or, among the pours
// visited at least 1 − ismctsMargin times as often as it, the one whose finishing iterations
// took the fewest pours on average (the tree rates them alike; the shorter way is worth
// taking). avoid holds the segment's positions. The tree's work is bounded by
// ismctsIterations and a share of the call's budget.
func (p *planner) ismcts(b *Game, cands []solver.Move, scores []score, bi int, avoid map[string]bool) (int, score) {
	order := make([]int, 0, len(cands))
	for i := range cands {
		if scores[i].ok > 0 {
			order = append(order, i)
		}
	}
	byScore(order, scores)
	order = order[:min(ismctsTop, len(order))]
	if len(order) < 2 || p.spent() {
		return bi, scores[bi]
	}
	root := &isNode{avoid: avoid, n: make([]int, len(order)), w: make([]float64, len(order)), kids: make([]map[string]*isNode, len(order)),
		fin: make([]int, len(order)), pours: make([]float64, len(order))}
	for _, i := range order {
		root.moves = append(root.moves, cands[i])
	}
	limit := p.work + int(ismctsShare*float64(p.opts.MaxDecisionWork-p.work))
	var until time.Time
	if !p.deadline.IsZero() {
		until = time.Now().Add(time.Duration(ismctsShare * float64(time.Until(p.deadline))))
	}
	before := p.work
	defer func() { p.treeWork += p.work - before }()
	for it := 0; it < ismctsIterations && p.work < limit && !p.late(until) && p.ctx.Err() == nil; it++ {
		g, err := b.Sample(p.rng)
		if err != nil {
			return bi, scores[bi]
		}
		p.iterate(root, g)
	}
	best := 0
	for i := range root.moves {
		if root.n[i] > root.n[best] || root.n[i] == root.n[best] && root.w[i] > root.w[best] {
			best = i
		}
	}
	if root.n[best] == 0 {
		return bi, scores[bi]
	}
	best = root.shortest(best)
	return order[best], scores[order[best]]
}

// shortest returns, among the root's pours visited at least 1 − ismctsMargin times as often
// as pour most, the one whose finishing iterations took the fewest pours on average (most
// itself when none took fewer, or when none of its iterations finished: nothing to compare).
func (n *isNode) shortest(most int) int {
	if n.fin == nil || n.fin[most] == 0 {
		return most
	}
	mean := func(i int) float64 { return n.pours[i] / float64(n.fin[i]) }
	best := most
	for i := range n.moves {
		if float64(n.n[i]) >= (1-ismctsMargin)*float64(n.n[most]) && n.fin[i] > 0 && mean(i) < mean(best) {
			best = i
		}
	}
	return best
}

// iterate runs one iteration of the tree search from root on completion g (consumed).
func (p *planner) iterate(root *isNode, g *Game) {
	type step struct {
		node *isNode
		i    int
	}
	var path []step
	node, r, pours := root, 0.0, -1 // pours: those of a finish, -1 for none
	for depth := 1; ; depth++ {
		if len(node.moves) == 0 {
			break // no pour leads anywhere new: counted as lost
		}
		i := node.choose()
		m := node.moves[i]
		path = append(path, step{node, i})
		if _, _, err := g.Pour(m.From, m.To); err != nil {
			break // cannot happen: the completion agrees with the node on what shows
		}
		if g.Solved() {
			r, pours = 1-ismctsPour*float64(depth), depth
			break
		}
		k := g.Key()
		child := node.kids[i][k]
		if child == nil || depth >= ismctsDepth {
			if child == nil {
				avoid := make(map[string]bool, len(node.avoid)+1)
				for a := range node.avoid {
					avoid[a] = true
				}
				avoid[k] = true
				child = newISNode(g, avoid)
				p.work += len(child.moves) // the candidates' clones, about a state each
				if node.kids[i] == nil {
					node.kids[i] = map[string]*isNode{}
				}
				node.kids[i][k] = child
			}
			if v := p.finish(g); v >= 0 {
				r, pours = 1-ismctsPour*float64(depth+v), depth+v
			}
			child.visits++
			child.sum += r
			break
		}
		node = child
	}
	if root.fin != nil && len(path) > 0 && pours >= 0 {
		root.fin[path[0].i]++
		root.pours[path[0].i] += float64(pours)
	}
	for _, s := range path {
		s.node.visits++
		s.node.sum += r
		s.node.n[s.i]++
		s.node.w[s.i] += r
	}
}
