package hidden

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

func TestExploreReachesTheNearestReveal(t *testing.T) {
	// Tube 1's red can leave only once tube 4 tops red with room: the yellow run moves from
	// tube 2 to 3, tube 4's blue onto tube 2, then red from tube 1 to 4 reveals its hidden unit.
	l := parse(t, "3: ? red | blue yellow | green yellow | red red blue | blue yellow green")
	b, err := Belief(l, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	p := &planner{ctx: t.Context(), opts: Options{MaxStates: 1000}.withDefaults(), rng: rand.New(rand.NewPCG(1, 1)), cache: map[string]int{}}
	a, err := p.explore(b, b, nil, score{n: 16})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != solver.StatusUnknown || a.PSuccess != 0 || a.PSamples != 16 {
		t.Errorf("got %s, p_success %v over %d; want unknown, 0 over 16", a.Status, a.PSuccess, a.PSamples)
	}
	if len(a.Moves) != 3 || a.Reveal == nil || *a.Reveal != (Reveal{Move: 2, Tube: 0}) {
		t.Fatalf("got %d moves %v, reveal %+v; want 3 ending in the reveal of tube 1", len(a.Moves), a.Moves, a.Reveal)
	}
	if got := a.Next.Tubes[0]; len(got) != 1 || got[0] != solver.Pending {
		t.Errorf("tube 1 after the pours: got %v, want the pending unit alone", got)
	}
}

func TestNoFinishingPourEndsTheSegment(t *testing.T) {
	for _, tc := range []struct {
		name, level string
		want        solver.Status
		moves       int
		says        string
	}{
		// The yellow runs of tubes 2 and 3 can swap, nothing else moves, and no tube can fill:
		// no completion finishes and nothing can be revealed, whatever is hidden.
		{"stuck with legal pours", "3: ? red | blue yellow | blue yellow | red red green | green yellow green", solver.StatusUnsolvable, 0, "unsolvable"},
		// Over the budget of positions the same search proves nothing.
		{"stuck over the budget", "3: ? red | blue yellow | blue yellow | red red green | green yellow green", solver.StatusUnknown, 0, "unknown: stuck, not proven"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Method: Determinised}
			if tc.want == solver.StatusUnknown {
				opts.MaxStates = 1
			}
			a, err := Plan(t.Context(), parse(t, tc.level), opts)
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != tc.want || len(a.Moves) != tc.moves || a.PSuccess != 0 {
				t.Errorf("got %s with %d moves, p_success %v; want %s with %d, 0", a.Status, len(a.Moves), a.PSuccess, tc.want, tc.moves)
			}
			if got := a.Format(parse(t, tc.level)); !strings.HasPrefix(got, tc.says) {
				t.Errorf("says %q, want it to start %q", got, tc.says)
			}
		})
	}
}

func TestCurtainLevelDoesNotGoRound(t *testing.T) {
	// The benchmark's curtain level 2: the completions finish through the closed curtain, so
	// the best pours went back and forth between two positions until the 400-pour cap.
	truth := gen.Deal(3002, 10, 4, 2)
	g := NewGame(truth, Mystery(truth), coverOne(truth, 2), Rules{})
	res, err := Play(t.Context(), g, Options{Method: Determinised, Seed: 2}, 400)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pours > 60 || len(res.Decisions) > 60 {
		t.Errorf("%d pours in %d decisions, want a game that ends (the oracle needs 30)", res.Pours, len(res.Decisions))
	}
	last := res.Decisions[len(res.Decisions)-1]
	t.Logf("finished %v after %d pours; last decision %s", res.Finished, res.Pours, last.Status)
}
