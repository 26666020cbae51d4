package hidden

import (
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// TestSimulatorSlice is the CI-sized slice of the benchmark: small mystery levels played by
// every sampling method against their hidden truth. Each must finish every level the oracle
// (seeing everything) finishes — on these levels the exact ceiling is 1 — and its p_success
// must be a probability; and its pours, summed over the levels, stay within 1.3 times the
// oracle's (the methods play 1.05–1.15 times; choosing the costliest pours plays 1.8).
func TestSimulatorSlice(t *testing.T) {
	pours, optimum := map[Method]int{}, map[Method]int{}
	defer func() {
		for m, n := range pours {
			if float64(n) > 1.3*float64(optimum[m]) {
				t.Errorf("%s: %d pours in all, the oracle %d", m, n, optimum[m])
			}
		}
	}()
	for i := range 4 {
		truth := gen.Deal(uint64(500+i), 4+i%2, 3, 2)
		g := NewGame(truth, Mystery(truth), nil, Rules{})
		oracle, _, err := solver.Solve(t.Context(), g.Full(), solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Method{Determinised, Lookahead, Endgame, ISMCTS} {
			if (m == Lookahead || m == ISMCTS) && i > 1 {
				continue // the slowest methods, on two levels only
			}
			res, err := Play(t.Context(), g, Options{Method: m, Seed: uint64(i)}, 200)
			if err != nil {
				t.Fatalf("level %d %s: %v", i, m, err)
			}
			if oracle.Status == solver.StatusSolved && !res.Finished {
				t.Errorf("level %d %s: not finished in %d pours; the oracle needs %d", i, m, res.Pours, len(oracle.Moves))
			}
			t.Logf("level %d %s: finished %v in %d pours, oracle %d", i, m, res.Finished, res.Pours, len(oracle.Moves))
			pours[m] += res.Pours
			optimum[m] += len(oracle.Moves)
			if res.Finished && res.Pours < len(oracle.Moves) {
				t.Errorf("level %d %s: %d pours beat the optimum %d", i, m, res.Pours, len(oracle.Moves))
			}
			for _, d := range res.Decisions {
				if d.PSuccess < 0 || d.PSuccess > 1 {
					t.Errorf("level %d %s: p_success %v", i, m, d.PSuccess)
				}
			}
		}
	}
}

func TestCarryRulePlays(t *testing.T) {
	truth := gen.Deal(77, 5, 4, 2)
	g := NewGame(truth, Mystery(truth), nil, Rules{Carry: true})
	res, err := Play(t.Context(), g, Options{Method: Determinised, Rules: Rules{Carry: true}}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished {
		t.Errorf("not finished in %d pours", res.Pours)
	}
}

func TestCurtainLevelPlays(t *testing.T) {
	truth := gen.Deal(78, 6, 4, 2)
	g := NewGame(truth, Mystery(truth), coverOne(truth, 1), Rules{})
	v, err := g.View()
	if err != nil {
		t.Fatal(err)
	}
	if !v.HasCurtains() {
		t.Fatalf("no curtain in %s", v)
	}
	res, err := Play(t.Context(), g, Options{}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished {
		t.Errorf("not finished in %d pours", res.Pours)
	}
}
