package hidden

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// TestSymKeyMatchesReference checks SymKey against the plain reading of its definition (one
// string a tube, a map for the renaming) on beliefs met in random play: mystery levels, some
// with a curtain, with revealed units not yet written in ("!").
func TestSymKeyMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for seed := range 12 {
		truth := gen.Deal(uint64(300+seed), 4+seed%5, 3+seed%2, 2)
		var covers []solver.Color
		if seed%3 == 0 {
			covers = coverOne(truth, seed)
		}
		g := NewGame(truth, Mystery(truth), covers, Rules{})
		for range 30 {
			view, err := g.View()
			if err != nil {
				t.Fatal(err)
			}
			b, err := Belief(view, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			moves := b.Legal()
			if len(moves) == 0 {
				break
			}
			m := moves[r.IntN(len(moves))]
			if _, rev, err := b.Pour(m.From, m.To); err != nil {
				t.Fatal(err)
			} else if rev >= 0 {
				// b now shows "!" in tube rev: the belief the expectimax keys before branching.
				if got, want := b.SymKey(), symKeyRef(b); got != want {
					t.Fatalf("level %d, %s: SymKey %q, want %q", seed, view, got, want)
				}
				checked++
			}
			if got, want := g.SymKey(), symKeyRef(g); got != want {
				t.Fatalf("level %d truth: SymKey %q, want %q", seed, got, want)
			}
			if _, _, err := g.Pour(m.From, m.To); err != nil {
				t.Fatal(err)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d positions checked", checked)
	}
}

// symKeyRef is SymKey as first written: clear, and slow enough to be half of the exact
// search's time.
func symKeyRef(g *Game) string {
	type tube struct {
		pattern, key string
		i            int
	}
	ts := make([]tube, len(g.Tubes))
	for i, t := range g.Tubes {
		p := make([]byte, 0, len(t)+1)
		if g.Covers[i] != 0 {
			p = append(p, 0xFD)
		}
		for j, c := range t {
			switch {
			case !g.Shown[i][j]:
				p = append(p, 0xFF)
			case c == 0:
				p = append(p, 0xFE)
			default:
				p = append(p, byte(slices.Index(t, c)))
			}
		}
		k := make([]byte, len(t))
		for j, c := range t {
			k[j] = byte(c)
			if !g.Shown[i][j] {
				k[j] = 0xFF
			}
		}
		ts[i] = tube{string(p), string(k), i}
	}
	slices.SortFunc(ts, func(a, b tube) int {
		return cmp.Or(strings.Compare(a.pattern, b.pattern), strings.Compare(a.key, b.key))
	})
	rename := map[solver.Color]byte{}
	id := func(c solver.Color) byte {
		if _, ok := rename[c]; !ok {
			rename[c] = byte(len(rename) + 1)
		}
		return rename[c]
	}
	parts := make([]string, len(ts))
	for n, tb := range ts {
		i := tb.i
		var b []byte
		if g.Covers[i] != 0 {
			b = append(b, 0xFD, id(g.Covers[i]))
		}
		for j, c := range g.Tubes[i] {
			switch {
			case !g.Shown[i][j]:
				b = append(b, 0xFF)
			case c == 0:
				b = append(b, 0xFE)
			default:
				b = append(b, id(c))
			}
		}
		parts[n] = string(b)
	}
	slices.Sort(parts)
	return fmt.Sprintf("%d|%s", len(g.Names)-len(rename), strings.Join(parts, "|"))
}
