package solver

import (
	"context"
	"testing"
)

// A search stopped by a budget proves nothing: it must say unknown, never unsolvable.
func TestBudgetsSayUnknown(t *testing.T) {
	unsolvable := Deal(3, 24, 4, 2) // proven unsolvable after ~150,000 states
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		opts    Options
		stopped string
	}{
		{"states", context.Background(), Options{MaxStates: 5000}, "states"},
		{"memory", context.Background(), Options{MaxMemory: 1 << 20}, "memory"},
		{"cancelled", cancelled, Options{}, "timeout"},
		{"fast states", context.Background(), Options{Fast: true, MaxStates: 5000}, "states"},
		{"bfs memory", context.Background(), Options{Algorithm: BFS, MaxMemory: 1 << 20}, "memory"},
		{"mcts cancelled", cancelled, Options{Algorithm: MCTS}, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, stats, err := Solve(tc.ctx, unsolvable, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Status != StatusUnknown || stats.Stopped != tc.stopped {
				t.Fatalf("got %s stopped by %q, want unknown stopped by %q", plan.Status, stats.Stopped, tc.stopped)
			}
		})
	}
	plan, _, err := Solve(context.Background(), unsolvable, Options{})
	if err != nil || plan.Status != StatusUnsolvable {
		t.Fatalf("without budgets: got %s, %v; want unsolvable", plan.Status, err)
	}
}

// When the exact search runs out of budget after the quick search found a plan, that plan is
// the answer: unknown, valid, not claimed optimal.
func TestBudgetKeepsBestPlanSoFar(t *testing.T) {
	l := Deal(7, 20, 4, 2)
	plan, stats, err := Solve(context.Background(), l, Options{MaxStates: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Status != StatusUnknown || plan.Optimal || len(plan.Moves) == 0 {
		t.Fatalf("got %s optimal=%v with %d pours (stopped %q), want unknown with a plan", plan.Status, plan.Optimal, len(plan.Moves), stats.Stopped)
	}
	if err := Validate(l, plan.Moves); err != nil {
		t.Fatal(err)
	}
}
