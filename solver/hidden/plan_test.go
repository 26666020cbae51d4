package hidden

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

func parse(t *testing.T, s string) *solver.Level {
	t.Helper()
	l, err := solver.ParseLevel([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// mysteryView is seeded level i as a mystery level shows it, with its truth.
func mysteryView(t *testing.T, seed uint64, colors, capacity int) (*solver.Level, *Game) {
	t.Helper()
	truth := gen.Deal(seed, colors, capacity, 2)
	g := NewGame(truth, Mystery(truth), nil, Rules{})
	v, err := g.View()
	if err != nil {
		t.Fatal(err)
	}
	return v, g
}

func TestPartialPlanStopsAtTheReveal(t *testing.T) {
	l, _ := mysteryView(t, 3, 5, 3)
	for _, m := range []Method{Determinised, Lookahead, Endgame, ISMCTS, Exact} {
		t.Run(string(m), func(t *testing.T) {
			a, err := Plan(t.Context(), l, Options{Method: m, Seed: 1, MaxBeliefs: 50_000})
			if err != nil {
				t.Fatal(err)
			}
			if m == Exact && a.Status == solver.StatusUnknown {
				t.Skip("the exact search needs more than its budget here")
			}
			if a.Status != solver.StatusPartial || a.Reveal == nil || a.Reveal.Move != len(a.Moves)-1 {
				t.Fatalf("got status %s, %d moves, reveal %+v; want partial with the reveal on the last move", a.Status, len(a.Moves), a.Reveal)
			}
			if a.PSuccess <= 0 || a.PSuccess > 1 {
				t.Errorf("p_success %v out of (0, 1]", a.PSuccess)
			}
			// The next level marks exactly the revealed unit "!", on top of the revealed tube.
			var marks [][2]int
			for i, tube := range a.Next.Tubes {
				for j, c := range tube {
					if c == solver.Pending {
						marks = append(marks, [2]int{i, j})
					}
				}
			}
			top := len(a.Next.Tubes[a.Reveal.Tube]) - 1
			if want := [][2]int{{a.Reveal.Tube, top}}; !slices.Equal(marks, want) {
				t.Errorf("\"!\" units at %v, want %v", marks, want)
			}
			// The pours are legal under every completion.
			b, err := Belief(l, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(9, 9))
			for range 50 {
				s, err := b.Sample(r)
				if err != nil {
					t.Fatal(err)
				}
				for i, mv := range a.Moves {
					if got, _, err := s.Pour(mv.From, mv.To); err != nil || got != mv {
						t.Fatalf("move %d %+v on a completion: got %+v, %v", i+1, mv, got, err)
					}
				}
			}
		})
	}
}

func TestRevealLoopIsStateless(t *testing.T) {
	l, truth := mysteryView(t, 5, 7, 4)
	a, err := Plan(t.Context(), l, Options{Method: Determinised, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Play the segment on the truth and write the revealed colour into next_level's "!".
	for _, m := range a.Moves {
		if _, _, err := truth.Pour(m.From, m.To); err != nil {
			t.Fatal(err)
		}
	}
	js, err := json.Marshal(a.Next)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Capacity int     `json:"capacity"`
		Tubes    [][]any `json:"tubes"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	tube := truth.Tubes[a.Reveal.Tube]
	doc.Tubes[a.Reveal.Tube][len(tube)-1] = truth.name(tube[len(tube)-1])
	filled, _ := json.Marshal(doc)
	next, err := solver.ParseLevel(filled)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := truth.View()
	if next.Canonical() != want.Canonical() {
		t.Fatalf("next level with the colour written in: got %s, want %s", next.Canonical(), want.Canonical())
	}
	if _, err := Plan(t.Context(), a.Next, Options{}); solver.ErrorCode(err) != solver.CodeHiddenUnits {
		t.Errorf("next_level sent back with its \"!\": got %v, want hidden_units", err)
	}
	if _, err := Plan(t.Context(), next, Options{Method: Determinised, Seed: 2}); err != nil {
		t.Errorf("next segment: %v", err)
	}
}

func TestVerdicts(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		level string
		opts  Options
		want  solver.Status
	}{
		// Tops r, b and a full tube: no pour is legal, whatever the hidden units are.
		{"stuck under every completion", context.Background(), "2: ? r | ? b | r b", Options{}, solver.StatusUnsolvable},
		{"stuck, exact", context.Background(), "2: ? r | ? b | r b", Options{Method: Exact}, solver.StatusUnsolvable},
		{"nothing hidden", context.Background(), "2: r b | b r | |", Options{}, solver.StatusSolved},
		{"a stopped search proves nothing", canceled, "3: ? ? r | ? ? b | ? ? g | |", Options{}, solver.StatusUnknown},
		{"a stopped exact search proves nothing", canceled, "3: ? ? r | ? ? b | ? ? g | |", Options{Method: Exact}, solver.StatusUnknown},
		{"exact over budget", context.Background(), "3: ? ? r | ? ? b | ? ? g | |", Options{Method: Exact, MaxBeliefs: 3}, solver.StatusUnknown},
		{"exact", context.Background(), "3: ? ? r | ? ? b | ? ? g | |", Options{Method: Exact}, solver.StatusPartial},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Plan(tc.ctx, parse(t, tc.level), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != tc.want {
				t.Errorf("got %s, want %s", a.Status, tc.want)
			}
		})
	}
}

func TestPlanRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, level string
		opts        Options
		want        solver.Code
	}{
		{"a \"!\" to fill in", "2: ? r | b ! | |", Options{}, solver.CodeHiddenUnits},
		{"a hidden top", "2: ? r | b ? | |", Options{}, solver.CodeHiddenUnits},
		{"an unknown method", "2: ? r | ? b | |", Options{Method: "dice"}, solver.CodeInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Plan(t.Context(), parse(t, tc.level), tc.opts)
			if got := solver.ErrorCode(err); got != tc.want {
				t.Errorf("got %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestCeilingOfSmallLevels(t *testing.T) {
	for _, tc := range []struct {
		name, level string
		want        float64
	}{
		{"stuck", "2: ? r | ? b | r b", 0},
		// Two hidden units, one red and one blue; with an empty tube either order finishes.
		{"always finishes", "2: ? r | ? b | |", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Ceiling(t.Context(), parse(t, tc.level), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDeadlineAnswersUnknown(t *testing.T) {
	l, _ := mysteryView(t, 11, 12, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	a, err := Plan(ctx, l, Options{Method: Determinised})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != solver.StatusUnknown || len(a.Moves) != 0 {
		t.Errorf("got %s with %d moves, want unknown with none", a.Status, len(a.Moves))
	}
}
