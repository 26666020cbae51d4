package solver_test

import (
	"context"
	"testing"

	"github.com/decant/decant/solver"
)

// TestMacrosNoWorse checks, on cheap benchmark classes where macros used to cost up to 10× the
// states of no macros (two and three empty tubes, capacities 4-6), that the default search
// (macros) expands at most 1.1× the states of the better of the two modes. The whole gate over
// every benchmark level runs under -macros (TestMacroSummary).
func TestMacrosNoWorse(t *testing.T) {
	levels := deals([]int{4, 6, 8, 10}, 4, 2, 10)
	levels = append(levels, deals([]int{10}, 4, 3, 20)...)
	levels = append(levels, deals([]int{8}, 5, 2, 10)...)
	levels = append(levels, deals([]int{8}, 6, 2, 10)...)
	for i, l := range levels {
		_, m, err := solver.Solve(context.Background(), l, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, p, err := solver.Solve(context.Background(), l, solver.Options{NoMacros: true})
		if err != nil {
			t.Fatal(err)
		}
		if got, limit := m.Expanded, 1.1*float64(min(m.Expanded, p.Expanded)); float64(got) > limit {
			t.Errorf("level %d (%s): macros expand %d states, no macros %d: want at most 1.1× the better", i, l.Compact(), got, p.Expanded)
		}
	}
}
