package vision

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestAssign(t *testing.T) {
	// Against every permutation of a small random matrix.
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		n := 1 + r.IntN(6)
		cost := make([][]float64, n)
		for i := range cost {
			cost[i] = make([]float64, n)
			for j := range cost[i] {
				cost[i][j] = float64(r.IntN(20))
			}
		}
		got := assign(cost)
		sum := func(p []int) float64 {
			s := 0.0
			for i, j := range p {
				s += cost[i][j]
			}
			return s
		}
		best := -1.0
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		var rec func(k int)
		rec = func(k int) {
			if k == n {
				if s := sum(perm); best < 0 || s < best {
					best = s
				}
				return
			}
			for i := k; i < n; i++ {
				perm[k], perm[i] = perm[i], perm[k]
				rec(k + 1)
				perm[k], perm[i] = perm[i], perm[k]
			}
		}
		rec(0)
		if seen := slices.Sorted(slices.Values(slices.Clone(got))); !slices.Equal(seen, perm) {
			t.Fatalf("assign %v is not a permutation", got)
		}
		if s := sum(got); s != best {
			t.Errorf("assign cost %v, want the optimum %v (cost %v)", s, best, cost)
		}
	}
}

// TestBalance: greedy merging under the capacity cap strands a unit; balancing gives every
// colour its capacity.
func TestBalance(t *testing.T) {
	red, pink, blue := labFromRGB(220, 30, 40), labFromRGB(235, 120, 150), labFromRGB(30, 60, 220)
	shade := func(c lab, d float64) lab { return lab{L: c.L + d, A: c.A, B: c.B} }
	colors := []lab{red, shade(red, 2), shade(red, -2), shade(pink, -14), pink, shade(pink, 2), blue, shade(blue, 1), shade(blue, -1)}
	labels := []int{0, 0, 0, 1, 2, 2, 3, 3, 3} // the darkened pink stranded on its own
	got := balance(colors, labels, 3, 3)
	counts := map[int]int{}
	for _, l := range got {
		counts[l]++
	}
	if len(counts) != 3 || got[3] != got[4] || got[0] == got[3] {
		t.Errorf("balance = %v, want three colours of 3 with unit 3 beside the pinks", got)
	}
}

// TestClippedMarks reads a random mystery board of bulb-shaped tubes whose hidden units are
// discs round a glyph: the bottom unit's disc, clipped by the bulb, fills its patch, so it
// showed one tone of the marks and none of their two, and read as a yellow colour of its
// own in every tube (clippedMarks takes it for hidden under the marked units).
func TestClippedMarks(t *testing.T) {
	readExactlyOrDead(t, 20261290783761)
}
