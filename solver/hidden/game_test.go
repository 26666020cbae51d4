package hidden

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// game builds a game from a compact truth and a mask of the same shape in which "?" hides
// the truth's unit (other tokens are ignored).
func game(t *testing.T, truth, mask string, rules Rules) *Game {
	t.Helper()
	tl := mustLevel(t, truth)
	hidden := make([][]bool, len(tl.Tubes))
	_, body, _ := strings.Cut(mask, ":")
	for i, tube := range strings.Split(body, "|") {
		for _, tok := range strings.Fields(tube) {
			hidden[i] = append(hidden[i], tok == "?")
		}
	}
	return NewGame(tl, hidden, nil, rules)
}

// mustLevel parses a level in the compact form.
func mustLevel(t *testing.T, s string) *solver.Level {
	t.Helper()
	l, err := solver.ParseCompact(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func view(t *testing.T, g *Game) string {
	t.Helper()
	l, err := g.View()
	if err != nil {
		t.Fatal(err)
	}
	return l.Compact()
}

func TestPourReveals(t *testing.T) {
	const truth, mask = "3: b r r | g g r | b b g | |", "3: b ? r | g g r | ? ? g | |"
	for _, tc := range []struct {
		name       string
		rules      Rules
		from, to   int
		wantCount  int
		wantReveal int
		wantView   string
	}{
		{"the visible run only", Rules{}, 0, 3, 1, 0, "3: b r | g g r | ? ? g | r |"},
		{"carry moves the hidden red along", Rules{Carry: true}, 0, 3, 2, 0, "3: b | g g r | ? ? g | r r |"},
		{"nothing hidden below", Rules{}, 1, 3, 1, -1, "3: b ? r | g g | ? ? g | r |"},
		{"reveals under a pour onto a same colour", Rules{}, 2, 1, 0, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, truth, mask, tc.rules)
			m, reveal, err := g.Pour(tc.from, tc.to)
			if tc.wantView == "" {
				if err == nil {
					t.Fatalf("pour %d→%d onto a full tube: got no error", tc.from+1, tc.to+1)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Count != tc.wantCount || reveal != tc.wantReveal {
				t.Errorf("got count %d reveal %d, want %d and %d", m.Count, reveal, tc.wantCount, tc.wantReveal)
			}
			if got := view(t, g); got != tc.wantView {
				t.Errorf("view: got %q, want %q", got, tc.wantView)
			}
		})
	}
}

func TestCurtainOpensWhenItsColourIsComplete(t *testing.T) {
	l := mustLevel(t, "2: g r | r | g | |")
	covers := []solver.Color{0, 0, l.Tubes[0][1], 0, 0} // tube 3 waits for red
	g := NewGame(l, nil, covers, Rules{})
	if got, want := view(t, g), "2: g r | r | curtain:r | |"; got != want {
		t.Fatalf("view: got %q, want %q", got, want)
	}
	if _, _, err := g.Pour(3, 2); err == nil {
		t.Error("pour into a covered tube: got no error")
	}
	_, reveal, err := g.Pour(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if reveal != 2 {
		t.Errorf("reveal: got tube %d, want 2 (the curtain)", reveal)
	}
	if got, want := view(t, g), "2: g | r r | g | |"; got != want {
		t.Errorf("view: got %q, want %q", got, want)
	}
}

// TestCurtainsOpenInTurn: a curtain that opens may complete the colour another waits for,
// wherever that one stands; both open on the same pour.
func TestCurtainsOpenInTurn(t *testing.T) {
	l := mustLevel(t, "2: b r | r | b | g g |")
	red, green := l.Tubes[1][0], l.Tubes[3][0]
	g := NewGame(l, nil, []solver.Color{0, 0, green, red, 0}, Rules{})
	if got, want := view(t, g), "2: b r | r | curtain:g | curtain:r |"; got != want {
		t.Fatalf("view: got %q, want %q", got, want)
	}
	if _, _, err := g.Pour(0, 1); err != nil {
		t.Fatal(err)
	}
	if got, want := view(t, g), "2: b | r r | b | g g |"; got != want {
		t.Errorf("view: got %q, want %q (red completes, its curtain shows green complete, which opens the first)", got, want)
	}
}

func TestSamplesAgreeWithCounts(t *testing.T) {
	l := mustLevel(t, "3: ? ? red | ? ? blue | red | blue blue | |")
	b, err := Belief(l, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	units, _, err := b.unseen()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(units)
	if got, want := units, []solver.Color{1, 3, 3, 3}; !slices.Equal(got, want) {
		t.Fatalf("unseen: got %v, want %v (one red, three of an anonymous colour)", got, want)
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 200 {
		s, err := b.Sample(r)
		if err != nil {
			t.Fatal(err)
		}
		full := s.Full()
		if err := full.Validate(); err != nil {
			t.Fatalf("sample %v breaks the counts: %v", s.Tubes, err)
		}
		for i, tube := range b.Tubes {
			for j, c := range tube {
				if c != 0 && s.Tubes[i][j] != c {
					t.Fatalf("sample %v changes shown unit %d of tube %d", s.Tubes, j+1, i+1)
				}
			}
		}
		seen[completionKey(full)] = true
	}
	// The red can be any of the four hidden units; the rest is the anonymous colour.
	if got, want := len(seen), 4; got != want {
		t.Errorf("distinct completions: got %d, want %d", got, want)
	}
}
