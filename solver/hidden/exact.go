package hidden

import (
	"context"
	"maps"
	"slices"

	"github.com/decant/decant/solver"
)

// expectimax is the exact AND-OR search over reveals: a player's best probability of finishing
// a level, when the hidden colours are a uniform completion consistent with the counts. Between
// reveals the position is known, so the search explores each reveal-free component
// breadth-first and branches on the colour at each reveal, weighted by the counts.
type expectimax struct {
	p       *planner
	memo    map[string]float64
	beliefs int
	// maxStates, when positive, caps the states its searches on known positions store, with
	// those of the decision before it (planner.states): a decision's budget. capped stops it
	// as well once the planner's work is spent (planner.spent).
	maxStates int
	capped    bool
}

// step is one state of a reveal-free component, with how it was reached.
type step struct {
	g      *Game
	parent int
	move   solver.Move
}

// leafBeliefs is what one exact search on a fully known position counts against the budget
// of beliefs: about its cost in time.
const leafBeliefs = 25

// errBeliefs stops an expectimax over its budget.
var errBeliefs = solver.Errorf(solver.CodeBudgetExhausted, "the exact search over reveals stopped on its budget of beliefs")

// value returns the best probability of finishing from belief b (whose tops all show), with
// the best reveal-free path: the steps to the best state and, when one helps, the revealing
// pour from it (rev.From < 0 when none).
func (e *expectimax) value(b *Game) (float64, []step, int, solver.Move, error) {
	if err := e.p.ctx.Err(); err != nil {
		return 0, nil, -1, solver.Move{}, solver.Errorf(solver.CodeBudgetExhausted, "the exact search over reveals stopped: %v", err)
	}
	if b.Hidden() == 0 && !slices.ContainsFunc(b.Covers, func(c solver.Color) bool { return c != 0 }) {
		v, err := e.known(b)
		return v, nil, -1, solver.Move{From: -1}, err
	}
	comp := []step{{g: b, parent: -1}}
	seen := map[string]bool{b.SymKey(): true}
	best, at, rev := 0.0, -1, solver.Move{From: -1}
	for i := 0; i < len(comp) && best < 1; i++ {
		e.p.beliefs++
		e.p.work += beliefWork
		if e.beliefs++; e.beliefs > e.p.opts.MaxBeliefs || e.capped && e.p.spent() {
			return 0, nil, -1, solver.Move{}, errBeliefs
		}
		s := comp[i].g
		if s.Solved() {
			best, at, rev = 1, i, solver.Move{From: -1}
			break
		}
		for _, m := range candidates(s, nil) {
			c := s.Clone()
			_, t, err := c.Pour(m.From, m.To)
			if err != nil {
				return 0, nil, -1, solver.Move{}, err
			}
			if t < 0 {
				if k := c.SymKey(); !seen[k] {
					seen[k] = true
					comp = append(comp, step{g: c, parent: i, move: m})
				}
				continue
			}
			v, err := e.outcomes(c, t, best)
			if err != nil {
				return 0, nil, -1, solver.Move{}, err
			}
			if v > best {
				best, at, rev = v, i, m
			}
		}
	}
	return best, comp, at, rev, nil
}

// outcomes is the expected value of child position c, whose tube t has just revealed its top.
// It stops early, with a value at most alpha, once the outcomes left cannot lift it above
// alpha (the best value the caller has already).
func (e *expectimax) outcomes(c *Game, t int, alpha float64) (float64, error) {
	top := len(c.Tubes[t]) - 1
	if top < 0 || c.Tubes[t][top] != 0 {
		return 0, solver.Errorf(solver.CodeInvalidArgument, "the exact method plans hidden units only, not curtains")
	}
	units, _, err := c.unseen()
	if err != nil {
		return 0, err
	}
	counts := map[solver.Color]int{}
	for _, u := range units {
		counts[min(u, solver.Color(len(c.Names)))]++ // anonymous colours are interchangeable
	}
	v, left := 0.0, 1.0
	for _, col := range slices.Sorted(maps.Keys(counts)) {
		if v+left <= alpha {
			return v, nil
		}
		g := c.Clone()
		if int(col) == len(g.Names) {
			g.Names = append(slices.Clone(g.Names), g.name(col))
		}
		g.Tubes[t][top] = col
		key := g.SymKey()
		w, ok := e.memo[key]
		if !ok {
			var err error
			if w, _, _, _, err = e.value(g); err != nil {
				return 0, err
			}
			e.memo[key] = w
		}
		p := float64(counts[col]) / float64(len(units))
		v, left = v+p*w, left-p
	}
	return v, nil
}

// known is 1 when the fully known position is solvable (proven), 0 when proven not.
func (e *expectimax) known(b *Game) (float64, error) {
	full := b.Full()
	key := completionKey(full)
	if v, ok := e.memo[key]; ok {
		return v, nil
	}
	e.p.searches++
	// A search on a completion counts as leafBeliefs beliefs against the budget.
	if e.beliefs += leafBeliefs; e.beliefs > e.p.opts.MaxBeliefs {
		return 0, errBeliefs
	}
	plan, st, err := solver.Solve(e.p.ctx, full, solver.Options{MaxStates: e.p.opts.MaxStates})
	e.p.states += st.Stored
	e.p.work += searchWork + st.Stored
	switch {
	case err != nil:
		return 0, err
	case e.maxStates > 0 && e.p.states > e.maxStates, e.capped && e.p.spent():
		return 0, errBeliefs
	case plan.Status == solver.StatusUnknown:
		return 0, solver.Errorf(solver.CodeBudgetExhausted, "the exact search on a completion stopped on its budget")
	}
	v := 0.0
	if plan.Status == solver.StatusSolved {
		v = 1
	}
	e.memo[key] = v
	return v, nil
}

// Ceiling returns the best achievable probability of finishing level l, whose hidden units
// (no curtains) are a uniform completion consistent with the counts, playing under the rules
// without seeing them. It is exact; a budget (opts.MaxBeliefs, ctx) returns budget_exhausted.
func Ceiling(ctx context.Context, l *solver.Level, opts Options) (float64, error) {
	b, err := Belief(l, Rules{})
	if err != nil {
		return 0, err
	}
	p := &planner{ctx: ctx, opts: opts.withDefaults()}
	e := &expectimax{p: p, memo: map[string]float64{}}
	v, _, _, _, err := e.value(b)
	return v, err
}

// exactSegment answers belief b with the exact expectimax: the reveal-free pours to the best
// revealing pour and the exact probability of finishing (PSamples 0: not sampled).
func (p *planner) exactSegment(b *Game) (Answer, error) {
	if p.opts.Rules.Carry {
		return Answer{}, solver.Errorf(solver.CodeInvalidArgument, "the exact method models the default pour rule only")
	}
	e := &expectimax{p: p, memo: map[string]float64{}}
	v, comp, at, rev, err := e.value(b)
	if solver.ErrorCode(err) == solver.CodeBudgetExhausted {
		return Answer{Status: solver.StatusUnknown, Next: mustView(b)}, nil
	}
	if err != nil {
		return Answer{}, err
	}
	if v == 0 {
		// No strategy finishes with any probability: every completion is unsolvable.
		return Answer{Status: solver.StatusUnsolvable, Next: mustView(b)}, nil
	}
	var path []solver.Move
	for i := at; i > 0; i = comp[i].parent {
		path = append(path, comp[i].move)
	}
	slices.Reverse(path)
	g := b.Clone()
	var moves []solver.Move
	for _, m := range append(path, rev) {
		if m.From < 0 {
			break
		}
		played, t, err := g.Pour(m.From, m.To)
		if err != nil {
			return Answer{}, err
		}
		moves = append(moves, played)
		if t >= 0 {
			a, err := answer(g, moves, &Reveal{Move: len(moves) - 1, Tube: t}, score{ok: v, n: 1, exact: true})
			a.ExpectedPours = 0
			return a, err
		}
	}
	a, err := answer(g, moves, nil, score{ok: 1, n: 1})
	a.Status, a.PSamples, a.ExpectedPours = solver.StatusSolved, 0, float64(len(moves))
	return a, err
}
