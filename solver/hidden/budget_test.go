package hidden

import (
	"math/rand/v2"
	"testing"
	"time"

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

// longSegment returns a level with few units hidden whose determinised segment is 4 pours or
// more, and that segment.
func longSegment(t *testing.T) (*solver.Level, Answer) {
	t.Helper()
	var l *solver.Level
	var long Answer
	for seed := uint64(0); seed < 40 && l == nil; seed++ {
		truth := gen.Deal(500+seed, 8, 4, 2)
		r := rand.New(rand.NewPCG(seed, 3))
		v := mustView(NewGame(truth, HideFraction(truth, 0.2, r), nil, Rules{}))
		a, err := Plan(t.Context(), v, Options{Method: Determinised, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if a.Status == solver.StatusPartial && len(a.Moves) >= 4 {
			l, long = v, a
		}
	}
	if l == nil {
		t.Fatal("no level with a segment of 4 pours or more")
	}
	return l, long
}

// TestBudgetsCutTheSegment checks that a call's budgets hold over a whole segment: with no
// work (or no time on the clock) to speak of, a long segment is scored one round on its first
// pour and then follows one completion's plan to the reveal, for one search more; an answer
// cut by the time cap says so, and one with no cap is not cut.
func TestBudgetsCutTheSegment(t *testing.T) {
	l, long := longSegment(t)
	b, err := Belief(l, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	first := len(candidates(b, map[string]bool{b.Key(): true}))
	for _, budget := range []struct {
		name string
		opts Options
	}{
		{"work", Options{MaxDecisionWork: 1}},
		{"time", Options{MaxDecisionTime: time.Nanosecond}},
	} {
		for _, m := range []Method{Determinised, Lookahead, Endgame, ISMCTS} {
			t.Run(budget.name+"/"+string(m), func(t *testing.T) {
				opts := budget.opts
				opts.Method, opts.Seed = m, 1
				a, err := Plan(t.Context(), l, opts)
				if err != nil {
					t.Fatal(err)
				}
				if a.Status != solver.StatusPartial || a.Reveal == nil || a.Reveal.Move != len(a.Moves)-1 {
					t.Fatalf("got %s with reveal %+v after %d pours, want a partial plan ending at its reveal", a.Status, a.Reveal, len(a.Moves))
				}
				if cut := opts.MaxDecisionTime > 0; a.TimeCut != cut {
					t.Errorf("cut by the time cap %v, want %v", a.TimeCut, cut)
				}
				if _, err := solver.Replay(l, a.Moves); err != nil {
					t.Fatal(err)
				}
				if a.Searches > first+1 {
					t.Errorf("%d searches, want at most %d (one round on the first pour's %d candidates, one plan)", a.Searches, first+1, first)
				}
				t.Logf("%d pours, %d searches; %d pours, %d searches without the budget (pimc)", len(a.Moves), a.Searches, len(long.Moves), long.Searches)
			})
		}
	}
	free, err := Plan(t.Context(), l, Options{Method: ISMCTS, Seed: 1, MaxDecisionTime: -1})
	if err != nil {
		t.Fatal(err)
	}
	if free.TimeCut || free.Searches <= first+1 {
		t.Errorf("ismcts with no cap: cut %v after %d searches, want uncut and more than %d", free.TimeCut, free.Searches, first+1)
	}
}

// TestDecisionWorkOverrunsByASearch checks that the call's work budget is exceeded by little:
// past it, at most the first round of the segment's first pour (which every answer needs), a
// search cut short and the plan followed to the reveal.
func TestDecisionWorkOverrunsByASearch(t *testing.T) {
	const maxStates = 300 // a search's overrun
	for seed := range uint64(8) {
		// Mystery levels, and levels with few units hidden, whose segments are long.
		l, _ := mysteryView(t, 20+seed, 9, 4)
		if seed%2 == 1 {
			truth := gen.Deal(500+seed, 8, 4, 2)
			l = mustView(NewGame(truth, HideFraction(truth, 0.2, rand.New(rand.NewPCG(seed, 3))), nil, Rules{}))
		}
		for _, m := range []Method{Determinised, Lookahead, Endgame, ISMCTS} {
			plan := func(work int) Answer {
				a, err := Plan(t.Context(), l, Options{Method: m, Seed: seed, MaxDecisionWork: work, MaxStates: maxStates})
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			floor := plan(1).work // the first round, and the plan followed
			for _, w := range []int{2_000, 5_000, 10_000, 20_000} {
				a := plan(w)
				if limit := max(w, floor) + 2*(searchWork+maxStates); a.work > limit {
					t.Errorf("level %d %s, budget %d: work %d, want at most %d", seed, m, w, a.work, limit)
				}
			}
		}
	}
}
