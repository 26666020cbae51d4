package hidden

import (
	"slices"

	"github.com/decant/decant/solver"
)

// explore ends a segment begun on belief start, now at b after moves, once the scores no
// longer point anywhere new: no sampled completion finishes after any pour (score s finishes
// none), or every pour leads back to a position of the segment. The only progress left is
// information: it plays the fewest pours that reveal something, found breadth-first over the
// positions reachable without a reveal (at most MaxStates of them), and answers with s's
// chance — unknown, p_success 0, when s finishes nothing: a guess, not a plan. When no reveal
// can be reached it answers unknown with no pours from start (stuck: playing on only goes
// round), unsolvable when the search saw every position reachable from start and none of them
// can be solved whatever is hidden.
func (p *planner) explore(start, b *Game, moves []solver.Move, s score) (Answer, error) {
	a, found, maybe, err := p.toReveal(b, moves, s)
	if err != nil || found {
		return a, err
	}
	if len(moves) > 0 {
		// Pours do not always undo: start may reach what b cannot.
		if a, found, maybe, err = p.toReveal(start, nil, s); err != nil || found {
			return a, err
		}
	}
	a, err = answer(start, nil, nil, s)
	a.Status = solver.StatusUnknown
	if !maybe {
		a.Status, a.PSuccess, a.PSamples = solver.StatusUnsolvable, 0, 0
	}
	return a, err
}

// toReveal searches breadth-first from b, reached by moves, for the fewest pours to a reveal
// and answers with them (found). Otherwise maybe reports whether the search may have missed
// a position that can be solved under some completion: over its budget, stopped, or one it
// saw.
func (p *planner) toReveal(b *Game, moves []solver.Move, s score) (a Answer, found, maybe bool, err error) {
	type node struct {
		g      *Game
		parent int
		move   solver.Move
	}
	nodes := []node{{g: b, parent: -1}}
	seen := map[string]bool{b.Key(): true}
	for i := 0; i < len(nodes); i++ {
		if p.ctx.Err() != nil {
			return Answer{}, false, true, nil
		}
		g := nodes[i].g
		maybe = maybe || g.maybeSolved()
		for _, m := range candidates(g, nil) {
			c := g.Clone()
			played, reveal, err := c.Pour(m.From, m.To)
			if err != nil {
				return Answer{}, false, true, err
			}
			if reveal >= 0 {
				path := []solver.Move{played}
				for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
					path = append(path, nodes[j].move)
				}
				slices.Reverse(path)
				a, err := answer(c, append(slices.Clone(moves), path...), &Reveal{Move: len(moves) + len(path) - 1, Tube: reveal}, s)
				return a, true, true, err
			}
			if k := c.Key(); !seen[k] && len(seen) < p.opts.MaxStates {
				seen[k] = true
				nodes = append(nodes, node{g: c, parent: i, move: played})
			} else if !seen[k] {
				maybe = true // over budget: a position not explored may be anything
			}
		}
	}
	return Answer{}, false, maybe, nil
}

// maybeSolved reports whether position g may be solved under some completion: every tube is
// empty, closed behind a curtain, or full with all its shown units of one colour.
func (g *Game) maybeSolved() bool {
	for i, t := range g.Tubes {
		if g.Covers[i] != 0 || len(t) == 0 {
			continue
		}
		if len(t) != g.Capacity {
			return false
		}
		var c solver.Color
		for j, u := range t {
			if !g.Shown[i][j] {
				continue
			}
			if c != 0 && u != c {
				return false
			}
			c = u
		}
	}
	return true
}
