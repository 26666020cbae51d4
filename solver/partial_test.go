package solver_test

import (
	"context"
	"flag"
	"testing"

	"github.com/decant/decant/solver"
)

var partial = flag.Bool("partial", false, "measure whether partial pours shorten any optimal plan of the small levels")

// TestPartialPours measures what partial pours (moving only the part of a top run that fits)
// are worth on every reachable position of the small levels: the shortest plan when only pours
// that move the whole run are allowed, against the true distance. It also counts the optimal
// plans of the solver that use one. It fails when a whole-run plan is shorter than the true
// distance, which would mean the checker's rule is wrong.
func TestPartialPours(t *testing.T) {
	if !*partial {
		t.Skip("run with -partial to measure partial pours")
	}
	positions, needed, plans, withPartial := 0, 0, 0, 0
	for name, l := range smallLevels() {
		sp := explore(l)
		for s := range sp.states {
			if sp.dist[s] < 0 {
				continue
			}
			positions++
			switch w := wholeRunDistance(sp.states[s], l.Capacity); {
			case w >= 0 && w < sp.dist[s]:
				t.Errorf("%s: whole-run pours solve %s in %d, the true distance is %d", name, sp.level(l, s), w, sp.dist[s])
			case w != sp.dist[s]:
				needed++
				t.Logf("%s: %s needs a partial pour: %d pours, %d with whole runs only", name, sp.level(l, s), sp.dist[s], w)
			}
		}
		plan, _, err := solver.Solve(context.Background(), l, solver.Options{})
		if err != nil || plan.Status != solver.StatusSolved {
			continue
		}
		plans++
		if usesPartial(l, plan.Moves) {
			withPartial++
		}
	}
	t.Logf("%d solvable positions: %d need a partial pour for a shortest plan; %d of %d optimal plans use one", positions, needed, withPartial, plans)
}

// wholeRunDistance is the length of the shortest plan from p using only pours that move the
// source's whole top run (-1: none).
func wholeRunDistance(p position, capacity int) int {
	seen := map[string]bool{p.key(): true}
	frontier := []position{p}
	for d := 0; len(frontier) > 0; d++ {
		var next []position
		for _, q := range frontier {
			if q.solved(capacity) {
				return d
			}
			for _, r := range q.next(capacity) {
				if !wholeRun(q, r) {
					continue
				}
				if k := r.key(); !seen[k] {
					seen[k] = true
					next = append(next, r)
				}
			}
		}
		frontier = next
	}
	return -1
}

// wholeRun reports whether the pour from q to r moved the source's whole top run: the tube
// that lost units is empty or shows another colour on top.
func wholeRun(q, r position) bool {
	for i := range q {
		if len(r[i]) < len(q[i]) {
			return len(r[i]) == 0 || r[i][len(r[i])-1] != q[i][len(q[i])-1]
		}
	}
	return false
}

// usesPartial reports whether a plan from l pours only part of a top run anywhere.
func usesPartial(l *solver.Level, moves []solver.Move) bool {
	cur := l.Clone()
	for _, m := range moves {
		src := cur.Tubes[m.From]
		run := 0
		for run < len(src) && src[len(src)-1-run] == m.Color {
			run++
		}
		if m.Count < run {
			return true
		}
		next, err := solver.Replay(cur, []solver.Move{m})
		if err != nil {
			return false
		}
		cur = next
	}
	return false
}
