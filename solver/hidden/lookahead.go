package hidden

import (
	"maps"
	"slices"

	"github.com/decant/decant/solver"
)

// Lookahead's effort: the pours refined, and the completions drawn for each revealed colour.
const (
	refineTop     = 2
	refineSamples = 4
)

// refine re-scores the determinised search's best pours by an expectimax over what they
// reveal, and returns the index of the best pour and its score. When the call's work budget
// (planner.spent) cuts a refinement short, the determinised choice bi stands.
func (p *planner) refine(b *Game, samples []*Game, cands []solver.Move, scores []score, bi int) (int, score) {
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	byScore(order, scores)
	best, bs := -1, score{}
	for _, i := range order[:min(refineTop, len(order))] {
		if scores[i].ok == 0 || p.states >= p.opts.MaxDecisionStates || p.spent() {
			break // nothing to refine, or the decision's budget spent
		}
		p.cutFirst = true // a refinement cut short by the call's budget counts for nothing
		s, ok := p.expect(b, cands[i])
		p.cutFirst = false
		if !ok {
			return bi, scores[bi] // a pour whose outcomes cannot be enumerated: keep the scores
		}
		if best < 0 || s.better(bs) {
			best, bs = i, s
		}
	}
	if best < 0 {
		return bi, scores[bi]
	}
	return best, bs
}

// byScore sorts the indices of pours best score first, ties keeping their order.
func byScore(order []int, scores []score) {
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case scores[x].better(scores[y]):
			return -1
		case scores[y].better(scores[x]):
			return 1
		}
		return 0
	})
}

// expect scores pour m on belief b knowing only what it reveals: for each colour the revealed
// unit may have, weighted by its probability under the counts, the best next pour on fresh
// completions that agree with that colour. A pour that reveals nothing is scored by the best
// pour after it. ok is false when the outcomes cannot be enumerated (a curtain opens, or the
// Carry rule moves hidden units).
func (p *planner) expect(b *Game, m solver.Move) (score, bool) {
	child := b.Clone()
	if _, reveal, err := child.Pour(m.From, m.To); err != nil || p.opts.Rules.Carry {
		return score{}, false
	} else if reveal >= 0 {
		return p.expectReveal(child, reveal)
	}
	if child.Solved() {
		return score{ok: 1, n: 1, cost: 1}, true
	}
	samples, err := p.draw(child, refineSamples)
	if err != nil {
		return score{}, false
	}
	_, s, _ := p.best(child, candidates(child, map[string]bool{b.Key(): true}), samples, 1)
	if p.spent() {
		return score{}, false
	}
	return score{ok: s.ok, n: s.n, cost: s.cost + s.ok}, true
}

// expectReveal is expect for a child position whose tube t has just revealed its top unit.
func (p *planner) expectReveal(child *Game, t int) (score, bool) {
	top := len(child.Tubes[t]) - 1
	if top < 0 || child.Tubes[t][top] != 0 {
		return score{}, false // a curtain opened
	}
	units, _, err := child.unseen()
	if err != nil || len(units) == 0 {
		return score{}, false
	}
	counts := map[solver.Color]int{}
	for _, c := range units {
		if int(c) >= len(child.Names) {
			c = solver.Color(len(child.Names)) // anonymous colours are interchangeable
		}
		counts[c]++
	}
	var total score
	total.n = 1
	colors := slices.Sorted(maps.Keys(counts))
	for _, c := range colors {
		w := float64(counts[c]) / float64(len(units))
		g := child.Clone()
		if int(c) == len(g.Names) {
			g.Names = append(slices.Clone(g.Names), g.name(c))
		}
		g.Tubes[t][top] = c
		samples, err := p.draw(g, refineSamples)
		if err != nil {
			return score{}, false
		}
		var s score
		if g.Solved() {
			s = score{ok: 1, n: 1}
		} else {
			_, s, _ = p.best(g, candidates(g, nil), samples, 1)
		}
		if p.spent() {
			return score{}, false
		}
		total.ok += w * s.p()
		total.cost += w * s.p() * (1 + s.mean())
	}
	return total, true
}
