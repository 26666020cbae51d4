package solver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// A search stopped by a budget proves nothing: it must say unknown, never unsolvable.
func TestBudgetsSayUnknown(t *testing.T) {
	unsolvable := gen.Deal(3, 24, 4, 2) // proven unsolvable after ~150,000 states
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		opts    solver.Options
		stopped solver.StopReason
	}{
		{"states", context.Background(), solver.Options{MaxStates: 5000}, "states"},
		{"memory", context.Background(), solver.Options{MaxMemory: 1 << 20}, "memory"},
		{"cancelled", cancelled, solver.Options{}, "timeout"},
		{"fast states", context.Background(), solver.Options{Fast: true, MaxStates: 5000}, "states"},
		{"bfs memory", context.Background(), solver.Options{Algorithm: solver.BFS, MaxMemory: 1 << 20}, "memory"},
		{"mcts cancelled", cancelled, solver.Options{Algorithm: solver.MCTS}, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, stats, err := solver.Solve(tc.ctx, unsolvable, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Status != solver.StatusUnknown || stats.Stopped != tc.stopped {
				t.Fatalf("got %s stopped by %q, want unknown stopped by %q", plan.Status, stats.Stopped, tc.stopped)
			}
		})
	}
	plan, _, err := solver.Solve(context.Background(), unsolvable, solver.Options{})
	if err != nil || plan.Status != solver.StatusUnsolvable {
		t.Fatalf("without budgets: got %s, %v; want unsolvable", plan.Status, err)
	}
}

// When the exact search runs out of budget after the quick search found a plan, that plan is
// the answer: unknown, valid, not claimed optimal.
func TestBudgetKeepsBestPlanSoFar(t *testing.T) {
	l := gen.Deal(7, 20, 4, 2)
	plan, stats, err := solver.Solve(context.Background(), l, solver.Options{MaxStates: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Status != solver.StatusUnknown || plan.Optimal || len(plan.Moves) == 0 {
		t.Fatalf("got %s optimal=%v with %d pours (stopped %q), want unknown with a plan", plan.Status, plan.Optimal, len(plan.Moves), stats.Stopped)
	}
	if err := solver.CheckPlan(l, plan.Moves); err != nil {
		t.Fatal(err)
	}
}

// A cap on stored states is exact: no search stores more states than --max-states allows.
func TestMaxStatesIsExact(t *testing.T) {
	l := gen.Deal(3, 24, 4, 2)
	for _, max := range []int{1, 10, 257, 1000} {
		for _, opts := range []solver.Options{{}, {Fast: true}, {Algorithm: solver.BFS}, {NoMacros: true}, {Algorithm: solver.MCTS, Simulations: 20}} {
			opts.MaxStates = max
			t.Run(fmt.Sprintf("%d/%s/fast=%v/nomacros=%v", max, opts.Algorithm, opts.Fast, opts.NoMacros), func(t *testing.T) {
				plan, stats, err := solver.Solve(context.Background(), l, opts)
				if err != nil {
					t.Fatal(err)
				}
				if stats.Stored > max || plan.Status != solver.StatusUnknown {
					t.Fatalf("got %s with %d states stored; want unknown with at most %d", plan.Status, stats.Stored, max)
				}
				if opts.Algorithm != solver.MCTS && (stats.Stopped != solver.StopStates || stats.Stored != max) {
					t.Fatalf("stopped %q with %d states stored, want stopped by states at %d", stats.Stopped, stats.Stored, max)
				}
			})
		}
	}
}

// Yield is called between batches of expansions, in every algorithm, and a caller that ends
// the search from it (a paused search whose deadline passed) gets unknown, stopped by timeout.
func TestYield(t *testing.T) {
	l := gen.Deal(3, 24, 4, 2) // ~150,000 states to prove unsolvable
	for _, algo := range []solver.Algorithm{solver.AStar, solver.BFS, solver.MCTS} {
		t.Run(string(algo), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			opts := solver.Options{Algorithm: algo, Simulations: 20, Yield: func() {
				if calls++; calls == 3 {
					cancel()
				}
			}}
			plan, stats, err := solver.Solve(ctx, l, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := calls, 3; got != want {
				t.Errorf("Yield called %d times, want %d (the search ends at the check after the third)", got, want)
			}
			if plan.Status != solver.StatusUnknown || stats.Stopped != solver.StopTimeout {
				t.Errorf("got %s stopped by %q, want unknown stopped by timeout", plan.Status, stats.Stopped)
			}
			if algo != solver.MCTS && stats.Expanded > 3*256+256 {
				t.Errorf("expanded %d states after Yield ended the search at its third call (every 256)", stats.Expanded)
			}
		})
	}
}

// The clock cuts a search short only at its own checks of the context (every 256 expansions),
// never when the search has already finished: a level settled before the first check gets the
// same verdict, plan and work with a deadline long past as without one. The server relies on
// it: its quick run has a deadline of milliseconds, and a quick level it answered unknown under
// load went to wait behind the long searches.
func TestVerdictBeforeTheFirstClockCheck(t *testing.T) {
	tiny, err := solver.ParseLevel([]byte("3: red blue red | blue red blue | |"))
	if err != nil {
		t.Fatal(err)
	}
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		l    *solver.Level
	}{
		{"tiny", tiny},
		{"quick search's plan at the lower bound", gen.Deal(1, 10, 4, 2)},
		{"exact search after the quick one", gen.Deal(5, 12, 4, 2)},
	} {
		for _, opts := range []solver.Options{{}, {NoMacros: true}, {Fast: true}} {
			t.Run(fmt.Sprintf("%s/fast=%v/nomacros=%v", tc.name, opts.Fast, opts.NoMacros), func(t *testing.T) {
				want, wantStats, err := solver.Solve(context.Background(), tc.l, opts)
				if err != nil {
					t.Fatal(err)
				}
				if want.Status != solver.StatusSolved || wantStats.Expanded >= 256 {
					t.Fatalf("without a deadline: %s after %d expansions; the test needs a level solved before the first check", want.Status, wantStats.Expanded)
				}
				got, gotStats, err := solver.Solve(expired, tc.l, opts)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != want.Status || got.Optimal != want.Optimal || len(got.Moves) != len(want.Moves) || gotStats.Expanded != wantStats.Expanded {
					t.Errorf("deadline passed: %s optimal=%v, %d pours, %d expanded (stopped %q); without one: %s optimal=%v, %d pours, %d expanded",
						got.Status, got.Optimal, len(got.Moves), gotStats.Expanded, gotStats.Stopped, want.Status, want.Optimal, len(want.Moves), wantStats.Expanded)
				}
			})
		}
	}
}
