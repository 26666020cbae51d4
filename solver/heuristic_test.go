package solver_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// The exhaustive checker below is independent of the solver: it states the pour rule on plain
// slices of colours, keys a position by its tubes written out and sorted, and searches the
// whole reachable state space breadth-first. It shares nothing with the search but the Level
// type, so a pruning or encoding bug in the solver cannot hide in it.

// position is a level's tubes; the checker never changes one in place.
type position [][]solver.Color

// key is the position with tube order ignored.
func (p position) key() string {
	tubes := make([]string, len(p))
	for i, t := range p {
		tubes[i] = fmt.Sprint(t)
	}
	slices.Sort(tubes)
	return strings.Join(tubes, "|")
}

func (p position) solved(capacity int) bool {
	for _, t := range p {
		if len(t) > 0 && (len(t) != capacity || slices.ContainsFunc(t, func(c solver.Color) bool { return c != t[0] })) {
			return false
		}
	}
	return true
}

// next lists the positions one pour away: a non-empty tube pours its top run onto an empty
// tube or a tube with the same top colour, as many units as fit.
func (p position) next(capacity int) []position {
	var out []position
	for a, ta := range p {
		if len(ta) == 0 {
			continue
		}
		c := ta[len(ta)-1]
		run := 0
		for run < len(ta) && ta[len(ta)-1-run] == c {
			run++
		}
		for b, tb := range p {
			if a == b || len(tb) == capacity || (len(tb) > 0 && tb[len(tb)-1] != c) {
				continue
			}
			k := min(run, capacity-len(tb))
			q := slices.Clone(p)
			q[a] = slices.Clone(ta[:len(ta)-k])
			q[b] = append(slices.Clone(tb), ta[len(ta)-k:]...)
			out = append(out, q)
		}
	}
	return out
}

// stateSpace is the whole reachable state space of a small level and each state's true
// distance to a solved state (-1: none reachable).
type stateSpace struct {
	states []position
	succ   [][]int
	dist   []int
}

func explore(l *solver.Level) *stateSpace {
	sp := &stateSpace{}
	index := map[string]int{}
	intern := func(p position) int {
		k := p.key()
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(sp.states)
		sp.states = append(sp.states, p)
		return len(sp.states) - 1
	}
	intern(position(l.Clone().Tubes))
	for i := 0; i < len(sp.states); i++ {
		var succ []int
		for _, q := range sp.states[i].next(l.Capacity) {
			succ = append(succ, intern(q))
		}
		sp.succ = append(sp.succ, succ)
	}
	pred := make([][]int, len(sp.states))
	for s, ts := range sp.succ {
		for _, t := range ts {
			pred[t] = append(pred[t], s)
		}
	}
	sp.dist = make([]int, len(sp.states))
	var queue []int
	for s, p := range sp.states {
		sp.dist[s] = -1
		if p.solved(l.Capacity) {
			sp.dist[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, p := range pred[s] {
			if sp.dist[p] < 0 {
				sp.dist[p] = sp.dist[s] + 1
				queue = append(queue, p)
			}
		}
	}
	return sp
}

// level turns state s back into a Level with l's colour names.
func (sp *stateSpace) level(l *solver.Level, s int) *solver.Level {
	return &solver.Level{Capacity: l.Capacity, Names: l.Names, Tubes: sp.states[s]}
}

// smallLevels are levels whose whole state space is cheap to enumerate: random deals with one,
// two and three empty tubes and a few colours, and positions in the middle of play.
func smallLevels() map[string]*solver.Level {
	out := map[string]*solver.Level{}
	for _, c := range []struct{ colors, capacity, empties int }{
		{2, 2, 1}, {3, 3, 1}, {3, 4, 1}, {4, 3, 1}, {4, 4, 1}, {3, 3, 2}, {4, 4, 2}, {5, 3, 2}, {5, 4, 2}, {4, 5, 2},
		{3, 4, 3}, {4, 3, 3},
	} {
		for seed := range 6 {
			l := gen.Deal(uint64(seed), c.colors, c.capacity, c.empties)
			out[fmt.Sprintf("deal-%dx%d+%d-%d", c.colors, c.capacity, c.empties, seed)] = l
			out[fmt.Sprintf("mid-%dx%d+%d-%d", c.colors, c.capacity, c.empties, seed)] = gen.Scramble(l, uint64(seed), 6)
		}
	}
	return out
}

// TestEstimateIsAdmissibleAndConsistent proves the lower bound on every reachable state of the
// small levels: never above the true distance, dropping by at most one per pour, and zero
// exactly on solved states.
func TestEstimateIsAdmissibleAndConsistent(t *testing.T) {
	for name, l := range smallLevels() {
		t.Run(name, func(t *testing.T) {
			sp := explore(l)
			for s := range sp.states {
				h := solver.Estimate(sp.level(l, s))
				if d := sp.dist[s]; d >= 0 && h > d {
					t.Fatalf("state %s: estimate %d > distance %d", sp.level(l, s), h, d)
				}
				if (h == 0) != sp.level(l, s).Solved() {
					t.Fatalf("state %s: estimate %d but solved=%v", sp.level(l, s), h, !(h == 0))
				}
				for _, n := range sp.succ[s] {
					if hn := solver.Estimate(sp.level(l, n)); h > hn+1 {
						t.Fatalf("pour %s → %s drops the estimate from %d to %d", sp.level(l, s), sp.level(l, n), h, hn)
					}
				}
			}
		})
	}
}

// TestDeadNeverSolvable checks the search's dead-position test on every reachable state of
// the small levels: it never fires on a state from which the checker reaches a solved one, and
// it fires on some, with the pruned state that the earlier test missed among them.
func TestDeadNeverSolvable(t *testing.T) {
	fired := 0
	for name, l := range smallLevels() {
		t.Run(name, func(t *testing.T) {
			sp := explore(l)
			for s := range sp.states {
				if !solver.Dead(sp.level(l, s)) {
					continue
				}
				fired++
				if sp.dist[s] >= 0 {
					t.Fatalf("state %s is called dead but is solved in %d pours", sp.level(l, s), sp.dist[s])
				}
			}
		})
	}
	missed, err := solver.ParseCompact("4: d c | a b b | a b b d | a c c d | a | d c")
	if err != nil {
		t.Fatal(err)
	}
	if !solver.Dead(missed) {
		t.Errorf("%s is not called dead", missed)
	}
	if fired == 0 {
		t.Error("no state of the small levels called dead")
	}
	t.Logf("%d states called dead", fired)
}

// TestMovesMatchTheIndependentRule checks Level.Moves, the packed pour rule, against the
// checker's rule on every reachable state: the same successors, and each Move replays.
func TestMovesMatchTheIndependentRule(t *testing.T) {
	for name, l := range smallLevels() {
		t.Run(name, func(t *testing.T) {
			sp := explore(l)
			for s, p := range sp.states {
				lv := sp.level(l, s)
				var got []string
				for _, m := range lv.Moves() {
					q, err := solver.Replay(lv, []solver.Move{m})
					if err != nil {
						t.Fatalf("%s: move %+v: %v", lv, m, err)
					}
					got = append(got, position(q.Tubes).key())
				}
				var want []string
				for _, q := range p.next(l.Capacity) {
					want = append(want, q.key())
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: Moves gives %d positions, the rule %d:\n%q\n%q", lv, len(got), len(want), got, want)
				}
			}
		})
	}
}

// TestVerdictsMatchExhaustiveSearch checks every search mode against the enumerated state
// space: exact modes find the true distance, every mode's plan replays to a solved level, and
// "unsolvable" is said exactly when no solved state is reachable.
func TestVerdictsMatchExhaustiveSearch(t *testing.T) {
	modes := map[string]solver.Options{
		"astar": {}, "astar-nomacros": {NoMacros: true}, "bfs": {Algorithm: solver.BFS},
		"fast": {Fast: true}, "mcts": {Algorithm: solver.MCTS, Simulations: 20},
	}
	for name, l := range smallLevels() {
		sp := explore(l)
		want := sp.dist[0]
		for mode, opts := range modes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				checkVerdict(t, l, opts, want)
			})
		}
	}
}

// checkVerdict checks one search against the true distance want (-1: unsolvable).
func checkVerdict(t *testing.T, l *solver.Level, opts solver.Options, want int) {
	t.Helper()
	plan, _, err := solver.Solve(context.Background(), l, opts)
	if err != nil {
		t.Fatal(err)
	}
	mcts := opts.Algorithm == solver.MCTS
	switch {
	case want < 0 && mcts:
		if plan.Status != solver.StatusUnknown {
			t.Fatalf("got %s, want unknown (MCTS proves nothing)", plan.Status)
		}
	case want < 0:
		if plan.Status != solver.StatusUnsolvable {
			t.Fatalf("got %s, want unsolvable", plan.Status)
		}
	case plan.Status == solver.StatusSolved:
		if err := solver.CheckPlan(l, plan.Moves); err != nil {
			t.Fatal(err)
		}
		if plan.Optimal && len(plan.Moves) != want {
			t.Fatalf("got %d pours claimed optimal, want %d", len(plan.Moves), want)
		}
		if !mcts && !opts.Fast && !plan.Optimal {
			t.Fatalf("exact mode returned a plan without proof of optimality")
		}
	case mcts:
		// MCTS may fail to find a plan; it must not claim anything.
		if plan.Status != solver.StatusUnknown {
			t.Fatalf("got %s", plan.Status)
		}
	default:
		t.Fatalf("got %s, want solved in %d", plan.Status, want)
	}
}

// TestWideLevels runs the packed rule and the search on levels past the old one-byte limits:
// 127 colours at capacity 9 (7 bits a unit, 63 bits a tube) in 128 tubes, and 200 colours at
// capacity 4. The moves must match the independent rule, and a level with the top units of
// `swaps` pairs of tubes exchanged must be solved with a plan that replays, of at most three
// pours a swap.
func TestWideLevels(t *testing.T) {
	for _, c := range []struct{ colors, capacity, empties, swaps int }{{127, 9, 1, 5}, {200, 4, 2, 6}} {
		t.Run(fmt.Sprintf("%dx%d+%d", c.colors, c.capacity, c.empties), func(t *testing.T) {
			l := &solver.Level{Capacity: c.capacity, Names: []string{""}}
			for i := 1; i <= c.colors; i++ {
				l.Names = append(l.Names, fmt.Sprintf("c%d", i))
				l.Tubes = append(l.Tubes, slices.Repeat([]solver.Color{solver.Color(i)}, c.capacity))
			}
			for range c.empties {
				l.Tubes = append(l.Tubes, []solver.Color{})
			}
			for i := range c.swaps {
				a, b := l.Tubes[2*i], l.Tubes[2*i+1]
				a[len(a)-1], b[len(b)-1] = b[len(b)-1], a[len(a)-1]
			}
			if err := l.Validate(); err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, m := range l.Moves() {
				q, err := solver.Replay(l, []solver.Move{m})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, position(q.Tubes).key())
			}
			for _, q := range position(l.Tubes).next(l.Capacity) {
				want = append(want, q.key())
			}
			if !slices.Equal(got, want) || len(got) == 0 {
				t.Fatalf("Moves gives %d positions, the rule %d", len(got), len(want))
			}
			plan, stats, err := solver.Solve(context.Background(), l, solver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if plan.Status != solver.StatusSolved || len(plan.Moves) > 3*c.swaps {
				t.Fatalf("got %s in %d pours, want solved in at most %d", plan.Status, len(plan.Moves), 3*c.swaps)
			}
			if err := solver.CheckPlan(l, plan.Moves); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d pours (optimal %v), %d states stored", len(plan.Moves), plan.Optimal, stats.Stored)
		})
	}
}
