package hidden

import (
	"slices"

	"github.com/decant/decant/solver"
)

// smallUnits is the size of level (in units) on which Endgame tries the exact expectimax from
// the start: capacity 4 and 6 colours, the small levels of the benchmark.
const smallUnits = 24

// endgame replaces the determinised choice by the exact one once few units are hidden, or on a
// small level (at most smallUnits units) from the start: each
// candidate's exact probability of finishing (expectimax over every reveal to come), taken in
// the determinised order so that ties go to the pour with the fewest expected pours. Over its
// budget (its beliefs, or the call's work), or with curtains or the Carry rule, it keeps the
// determinised choice bi.
func (p *planner) endgame(b *Game, cands []solver.Move, scores []score, bi int, bs score) (int, score) {
	if !p.endgameApplies(b) {
		return bi, bs
	}
	units := b.units()
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case p.prefer(scores[x], scores[y]):
			return -1
		case p.prefer(scores[y], scores[x]):
			return 1
		}
		return 0
	})
	sub := *p
	sub.opts.MaxBeliefs = p.opts.EndgameBeliefs
	if units <= smallUnits {
		sub.opts.MaxBeliefs *= 4 // a small level's beliefs are cheap, and worth solving whole
	}
	defer func() {
		p.searches, p.states, p.work, p.beliefs, p.timeCut = sub.searches, sub.states, sub.work, sub.beliefs, sub.timeCut
	}()
	e := &expectimax{p: &sub, memo: map[string]float64{}, maxStates: p.opts.MaxDecisionStates, capped: true}
	best, bv := -1, -1.0
	for _, i := range order {
		c := b.Clone()
		_, t, err := c.Pour(cands[i].From, cands[i].To)
		if err != nil {
			return bi, bs
		}
		var v float64
		if t >= 0 {
			v, err = e.outcomes(c, t, bv)
		} else {
			v, _, _, _, err = e.value(c)
		}
		if err != nil {
			return bi, bs // over budget: the determinised choice stands
		}
		if v > bv+1e-12 {
			best, bv = i, v
		}
		if bv >= 1-1e-12 {
			break
		}
	}
	// The score keeps the determinised pours estimate, with the exact probability.
	s := scores[best]
	return best, score{ok: bv, n: 1, cost: bv * s.mean(), exact: true}
}

// endgameApplies reports whether Endgame tries the exact expectimax on belief b: few units
// hidden or a small level, no curtain, the default pour rule.
func (p *planner) endgameApplies(b *Game) bool {
	small := b.Hidden() <= p.opts.EndgameHidden || b.units() <= smallUnits
	return small && !p.opts.Rules.Carry && !slices.ContainsFunc(b.Covers, func(c solver.Color) bool { return c != 0 })
}

// units counts the units in b's open tubes.
func (g *Game) units() int {
	n := 0
	for _, t := range g.Tubes {
		n += len(t)
	}
	return n
}
