package solver_test

import (
	"context"
	"os"
	"testing"

	"github.com/decant/decant/solver"
)

func loadLevel(t testing.TB, path string) *solver.Level {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestSeedLevels(t *testing.T) {
	for _, tc := range []struct {
		file  string
		pours int
	}{
		{"seed-89.txt", 29},
		{"seed-97.txt", 27},
		{"seed-98.txt", 40},
	} {
		for _, opts := range []solver.Options{{}, {NoMacros: true}, {Algorithm: solver.BFS}} {
			name := tc.file + "/" + string(opts.Algorithm)
			if opts.NoMacros {
				name += "-nomacros"
			}
			t.Run(name, func(t *testing.T) {
				l := loadLevel(t, "../testdata/levels/"+tc.file)
				plan, stats, err := solver.Solve(context.Background(), l, opts)
				if err != nil {
					t.Fatal(err)
				}
				if plan.Status != solver.StatusSolved || !plan.Optimal || len(plan.Moves) != tc.pours {
					t.Fatalf("got %s optimal=%v %d pours, want solved optimal %d", plan.Status, plan.Optimal, len(plan.Moves), tc.pours)
				}
				if err := solver.CheckPlan(l, plan.Moves); err != nil {
					t.Fatal(err)
				}
				t.Logf("%+v", stats)
			})
		}
	}
}
