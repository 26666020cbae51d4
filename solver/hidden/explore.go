package hidden

import (
	"slices"

	"github.com/decant/decant/solver"
)

// explore ends a segment on belief b (already advanced by moves) once no sampled completion
// finishes after any pour: where the scores no longer point anywhere, the only progress left
// is information. It plays the fewest pours that reveal something, found breadth-first over
// the positions reachable without a reveal (at most MaxStates of them), and answers unknown
// with p_success 0 — a guess, not a plan. When no reveal can be reached it stops: unknown
// with the pours so far, or, when the search saw every reachable position, no pour was played
// and none of them can be solved whatever is hidden, unsolvable.
func (p *planner) explore(b *Game, moves []solver.Move, s score) (Answer, error) {
	type node struct {
		g      *Game
		parent int
		move   solver.Move
	}
	nodes := []node{{g: b, parent: -1}}
	seen := map[string]bool{b.Key(): true}
	maybe := false // some reachable position may be solved under some completion
	for i := 0; i < len(nodes); i++ {
		if p.ctx.Err() != nil {
			break
		}
		g := nodes[i].g
		maybe = maybe || g.maybeSolved()
		for _, m := range candidates(g, nil) {
			c := g.Clone()
			played, reveal, err := c.Pour(m.From, m.To)
			if err != nil {
				return Answer{}, err
			}
			if reveal >= 0 {
				path := []solver.Move{played}
				for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
					path = append(path, nodes[j].move)
				}
				slices.Reverse(path)
				return answer(c, append(moves, path...), &Reveal{Move: len(moves) + len(path) - 1, Tube: reveal}, s)
			}
			if k := c.Key(); !seen[k] && len(seen) < p.opts.MaxStates {
				seen[k] = true
				nodes = append(nodes, node{g: c, parent: i, move: played})
			} else if !seen[k] {
				maybe = true // over budget: a position not explored may be anything
			}
		}
	}
	a, err := answer(b, moves, nil, s)
	if p.ctx.Err() != nil {
		maybe = true
	}
	if len(moves) == 0 && !maybe {
		a.Status, a.PSuccess, a.PSamples = solver.StatusUnsolvable, 0, 0
	}
	return a, err
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
