package solver

import (
	"context"
	"math"
	"math/rand/v2"
)

// MCTS is a baseline for comparison tables, after the published water-sort Monte Carlo tree
// search: UCT selection, random rollouts that refuse already-visited states (so they cannot
// cycle), and a fixed number of simulations before each committed pour. It finds plans, but
// neither proves them shortest nor proves a level unsolvable.

const (
	mctsExploration = 1.4
	mctsMaxSteps    = 1000 // committed pours before giving up
	mctsRolloutCap  = 300  // pours per rollout
)

type mctsNode struct {
	codes    []uint64 // the level's tube order, not canonical
	moves    []Move   // untried moves
	children []int32
	move     Move
	visits   int
	reward   float64
}

type mcts struct {
	g       *game
	rng     *rand.Rand
	nodes   []mctsNode
	h0      float64
	stats   Stats
	keyBuf  []byte
	sorted  []uint64
	visited map[string]bool // states of the committed path
	// maxNodes caps the tree (Options.MaxStates, 0: no cap): past it, simulations roll out
	// from the leaves without adding nodes, and the search stops before its next pour.
	maxNodes int
}

func solveMCTS(ctx context.Context, l *Level, opts Options) (Plan, Stats) {
	g := newGame(l)
	m := &mcts{
		g: g, rng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x3c75)),
		sorted: make([]uint64, g.n), visited: map[string]bool{}, maxNodes: opts.MaxStates,
	}
	sims := opts.Simulations
	if sims <= 0 {
		sims = DefaultSimulations
	}
	cur := m.newNode(g.codesOf(l), Move{})
	m.h0 = float64(max(1, g.estimate(m.nodes[cur].codes)))
	m.stats.LowerBound = g.estimate(m.nodes[cur].codes)
	m.visited[m.key(m.nodes[cur].codes)] = true
	var plan []Move
	for len(plan) < mctsMaxSteps {
		if g.estimate(m.nodes[cur].codes) == 0 {
			return Plan{Status: StatusSolved, Moves: plan}, m.done()
		}
		if opts.Yield != nil {
			opts.Yield()
		}
		if ctx.Err() != nil || (opts.MaxStates > 0 && len(m.nodes) >= opts.MaxStates) {
			m.stats.Stopped = StopTimeout
			if ctx.Err() == nil {
				m.stats.Stopped = StopStates
			}
			break
		}
		for range sims {
			m.simulate(cur)
		}
		best := int32(-1)
		for _, c := range m.nodes[cur].children {
			if m.visited[m.key(m.nodes[c].codes)] {
				continue
			}
			if best < 0 || m.nodes[c].visits > m.nodes[best].visits {
				best = c
			}
		}
		if best < 0 {
			break // every move leads back to the committed path: stuck
		}
		cur = best
		plan = append(plan, m.nodes[cur].move)
		m.visited[m.key(m.nodes[cur].codes)] = true
	}
	return Plan{Status: StatusUnknown, Moves: nil}, m.done()
}

func (m *mcts) done() Stats {
	m.stats.Stored = len(m.nodes)
	return m.stats
}

func (m *mcts) key(codes []uint64) string {
	copy(m.sorted, codes)
	canon(m.sorted)
	m.keyBuf = m.g.pack(m.keyBuf[:0], m.sorted)
	return string(m.keyBuf)
}

func (m *mcts) newNode(codes []uint64, mv Move) int32 {
	m.nodes = append(m.nodes, mctsNode{codes: codes, moves: m.g.moves(codes), move: mv})
	m.stats.Expanded++
	return int32(len(m.nodes) - 1)
}

// simulate runs one selection, expansion, rollout and backup from root.
func (m *mcts) simulate(root int32) {
	path := []int32{root}
	id := root
	for len(m.nodes[id].moves) == 0 && len(m.nodes[id].children) > 0 {
		id = m.selectChild(id)
		path = append(path, id)
	}
	if n := &m.nodes[id]; len(n.moves) > 0 && (m.maxNodes == 0 || len(m.nodes) < m.maxNodes) {
		i := m.rng.IntN(len(n.moves))
		mv := n.moves[i]
		n.moves[i] = n.moves[len(n.moves)-1]
		n.moves = n.moves[:len(n.moves)-1]
		codes := append([]uint64(nil), n.codes...)
		m.g.play(codes, mv)
		child := m.newNode(codes, mv)
		m.nodes[id].children = append(m.nodes[id].children, child)
		id = child
		path = append(path, id)
	}
	r := m.rollout(m.nodes[id].codes)
	for _, p := range path {
		m.nodes[p].visits++
		m.nodes[p].reward += r
	}
}

func (m *mcts) selectChild(id int32) int32 {
	n := &m.nodes[id]
	best, bestScore := n.children[0], math.Inf(-1)
	lnN := math.Log(float64(n.visits + 1))
	for _, c := range n.children {
		cn := &m.nodes[c]
		score := cn.reward/float64(cn.visits+1) + mctsExploration*math.Sqrt(lnN/float64(cn.visits+1))
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// rollout plays random pours, refusing states seen in this rollout, and scores the end: 1 for
// solved (more for fewer pours), else the share of the estimate it removed, halved.
func (m *mcts) rollout(start []uint64) float64 {
	codes := append([]uint64(nil), start...)
	seen := map[string]bool{m.key(codes): true}
	for step := 0; step < mctsRolloutCap; step++ {
		h := m.g.estimate(codes)
		if h == 0 {
			return 1 + 1/float64(step+1)
		}
		moves := m.g.moves(codes)
		m.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		moved := false
		for _, mv := range moves {
			next := append([]uint64(nil), codes...)
			m.g.play(next, mv)
			m.stats.Generated++
			if k := m.key(next); !seen[k] {
				seen[k] = true
				codes, moved = next, true
				break
			}
		}
		if !moved {
			break
		}
	}
	return 0.5 * (1 - float64(m.g.estimate(codes))/m.h0)
}

// moves lists the legal pours of a position in its own tube order.
func (g *game) moves(codes []uint64) []Move {
	var out []Move
	for a, ca := range codes {
		ta := g.info(ca)
		for b, cb := range codes {
			if k := g.pourable(ta, g.info(cb)); k > 0 && a != b {
				out = append(out, Move{From: a, To: b, Count: k, Color: ta.top})
			}
		}
	}
	return out
}

// play applies a legal pour in place.
func (g *game) play(codes []uint64, mv Move) {
	g.move(codes, mv.From, mv.To)
}
