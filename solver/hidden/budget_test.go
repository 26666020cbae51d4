package hidden

import (
	"math/rand/v2"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

func TestPruningKeepsTheChoice(t *testing.T) {
	for seed := range uint64(6) {
		// One empty tube: many pours lose on some completions.
		truth := gen.Deal(40+seed, 4+int(seed%3), 3, 1)
		b, err := Belief(mustView(NewGame(truth, Mystery(truth), nil, Rules{})), Rules{})
		if err != nil {
			t.Fatal(err)
		}
		for _, keep := range []int{1, 2} {
			run := func(keep int) (int, []score, int) {
				p := &planner{ctx: t.Context(), opts: Options{Samples: 12}.withDefaults(), rng: rand.New(rand.NewPCG(seed, 1)), cache: map[string]int{}}
				samples, err := p.draw(b, p.opts.Samples)
				if err != nil {
					t.Fatal(err)
				}
				i, _, scores := p.best(b, candidates(b, nil), samples, keep)
				return i, scores, p.searches
			}
			gotI, got, pruned := run(keep)
			wantI, want, all := run(0)
			if gotI != wantI || got[gotI] != want[wantI] {
				t.Errorf("seed %d keep %d: best %d %+v, want %d %+v", seed, keep, gotI, got[gotI], wantI, want[wantI])
			}
			// The keep best scores are exact.
			for i := range want {
				better := 0
				for j := range want {
					if want[j].ok > want[i].ok {
						better++
					}
				}
				if better < keep && got[i] != want[i] {
					t.Errorf("seed %d keep %d: pour %d scored %+v, want %+v", seed, keep, i, got[i], want[i])
				}
			}
			t.Logf("seed %d keep %d: %d searches, %d without pruning", seed, keep, pruned, all)
		}
	}
}

func TestDecisionStatesBoundTheRounds(t *testing.T) {
	l, _ := mysteryView(t, 3, 8, 4)
	for _, tc := range []struct {
		name      string
		budget    int
		wantCount int
	}{
		{"no budget to speak of: one round", 1, 1},
		{"the default", 0, DefaultSamples},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Plan(t.Context(), l, Options{Method: Determinised, Seed: 1, MaxDecisionStates: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != solver.StatusPartial || a.PSamples != tc.wantCount {
				t.Errorf("got %s over %d completions, want partial over %d", a.Status, a.PSamples, tc.wantCount)
			}
		})
	}
}
