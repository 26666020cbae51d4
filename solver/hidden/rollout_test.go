package hidden

import (
	"math/rand/v2"
	"testing"

	"github.com/decant/decant/solver/gen"
)

// The careful policy never looks at a hidden unit (completions of one view get the same
// pour), plays legal pours, and never pours a sorted tube into an empty one.
func TestPolicySeesOnlyWhatShows(t *testing.T) {
	truth := gen.Deal(41, 8, 4, 2)
	g := NewGame(truth, Mystery(truth), nil, Rules{})
	// Play a few pours so that the view has merges as well as empty tubes on offer.
	for range 3 {
		m, ok := policy(g, rand.New(rand.NewPCG(1, 1)))
		if !ok {
			t.Fatal("no pour at the start")
		}
		if _, _, err := g.Pour(m.From, m.To); err != nil {
			t.Fatal(err)
		}
	}
	view, err := g.View()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Belief(view, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	want, _ := policy(g, rand.New(rand.NewPCG(7, 7)))
	for i := range 20 {
		s, err := b.Sample(r)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := policy(s, rand.New(rand.NewPCG(7, 7))); got != want {
			t.Fatalf("completion %d: pour %+v, the truth's %+v", i, got, want)
		}
		for step := 0; step < 100 && !s.Solved(); step++ {
			m, ok := policy(s, r)
			if !ok {
				break
			}
			if len(s.Tubes[m.To]) == 0 && s.sorted(m.From) {
				t.Fatalf("completion %d step %d: sorted tube %d into empty tube %d", i, step, m.From+1, m.To+1)
			}
			if _, _, err := s.Pour(m.From, m.To); err != nil {
				t.Fatalf("completion %d step %d: %v", i, step, err)
			}
		}
	}
}

func TestRolloutMethodPlays(t *testing.T) {
	truth := gen.Deal(500, 4, 3, 2)
	g := NewGame(truth, Mystery(truth), nil, Rules{})
	res, err := Play(t.Context(), g, Options{Method: Rollout, Horizon: 3}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished {
		t.Errorf("not finished in %d pours", res.Pours)
	}
}
