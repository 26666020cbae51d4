package hidden

import (
	"math/rand/v2"

	"github.com/decant/decant/solver"
)

// rolloutSteps bounds a rollout's pours per unit of the level (it cannot loop forever).
const rolloutSteps = 3

// rollScore scores pour m on every completion in samples by rollouts: the pour, then the
// careful policy, which sees only what shows, plays each completion to its end. Unlike the
// determinised search it does not see the hidden units it plans around, so a pour that leaves
// the next reveals to luck scores what that luck is worth.
func (p *planner) rollScore(samples []*Game, m solver.Move) score {
	var s score
	for k, smp := range samples {
		s.n++
		g := smp.Clone()
		if _, _, err := g.Pour(m.From, m.To); err != nil {
			continue
		}
		r := rand.New(rand.NewPCG(p.rollSeed, uint64(k)))
		if ok, pours := p.rollout(g, r); ok {
			s.ok++
			s.cost += float64(1 + pours)
		}
	}
	return s
}

// rollout plays completion g with the careful policy, which sees only what shows, for
// Options.Horizon reveals, then asks the exact search on the completion (clairvoyant from
// there), and reports whether it finished, and in how many pours.
func (p *planner) rollout(g *Game, r *rand.Rand) (bool, int) {
	units := 0
	for _, t := range g.Tubes {
		units += len(t)
	}
	reveals := 0
	for steps := 0; ; steps++ {
		if g.Solved() {
			return true, steps
		}
		m, ok := policy(g, r)
		if !ok || steps >= rolloutSteps*units || reveals >= p.opts.Horizon || g.Hidden() == 0 {
			if v := p.finish(g); v >= 0 {
				return true, steps + v
			}
			return false, steps
		}
		p.work++
		_, t, err := g.Pour(m.From, m.To)
		if err != nil {
			return false, steps // cannot happen: policy plays legal pours
		}
		if t >= 0 {
			reveals++
		}
	}
}

// Policy weights: what a careful player values in a pour, seeing only what shows.
const (
	wMerge      = 1000 // the whole run joins its colour: one fewer segment
	wBury       = 150  // ... a hidden unit under it, buried deeper
	wSplit      = 300  // part of the run joins its colour (the destination fills)
	wReveal     = 200  // a hidden unit comes to the top
	wComplete   = 150  // the destination becomes a full tube of one colour
	wFree       = 100  // the source empties
	wEmptyBase  = 60   // a run goes into an empty tube
	wLastEmpty  = -250 // ... the last empty tube
	wOpensMerge = 40   // the unit the pour uncovers (shown) can join its colour elsewhere
	wNoise      = 30   // random tie-breaks, so that rollouts differ
)

// policy chooses a pour in completion g seeing only what shows: merge runs first, reveal
// hidden units, fill the last empty tube only when nothing else moves. It never pours a
// sorted tube, or part of a run, into an empty tube (pours that change nothing).
func policy(g *Game, r *rand.Rand) (solver.Move, bool) {
	empties := 0
	for i, t := range g.Tubes {
		if len(t) == 0 && g.Covers[i] == 0 {
			empties++
		}
	}
	best, bv := solver.Move{}, -1<<30
	for _, m := range g.Legal() {
		src, dst := g.Tubes[m.From], g.Tubes[m.To]
		run := 0
		for run < len(src) && src[len(src)-1-run] == m.Color && g.Shown[m.From][len(src)-1-run] {
			run++
		}
		v := 0
		if len(dst) == 0 {
			if g.sorted(m.From) || m.Count < run {
				continue
			}
			v = wEmptyBase
			if empties == 1 {
				v += wLastEmpty
			}
		} else if m.Count == run {
			v = wMerge - wBury*buried(g, m.To)
		} else if len(dst)+m.Count == g.Capacity && g.sorted(m.To) {
			v = wSplit
		} else {
			continue // part of a run onto a mixed tube: nothing gained, and pours could loop
		}
		rest := len(src) - m.Count
		switch {
		case rest == 0:
			v += wFree
		case !g.Shown[m.From][rest-1]:
			v += wReveal
		case m.Count == run && opensMerge(g, m.From, rest-1):
			v += wOpensMerge
		}
		if len(dst)+m.Count == g.Capacity && (len(dst) == 0 || g.sorted(m.To)) {
			v += wComplete
		}
		v += r.IntN(wNoise)
		if v > bv {
			best, bv = m, v
		}
	}
	return best, bv > -1<<30
}

// opensMerge reports whether the shown unit j of tube a, once on top, could join its colour
// on top of another tube.
func opensMerge(g *Game, a, j int) bool {
	c := g.Tubes[a][j]
	for b, t := range g.Tubes {
		if b != a && g.Covers[b] == 0 && len(t) > 0 && len(t) < g.Capacity && t[len(t)-1] == c && g.Shown[b][len(t)-1] {
			return true
		}
	}
	return false
}

// buried counts the hidden units of tube i.
func buried(g *Game, i int) int {
	n := 0
	for _, s := range g.Shown[i] {
		if !s {
			n++
		}
	}
	return n
}
