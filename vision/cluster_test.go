package vision

import (
	"math"
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

// naiveClusters is clusterUnits as first written: every distance computed once per call,
// every linkage summed afresh over both groups' members, every pair of groups looked at for
// each merge.
func naiveClusters(colors []lab, capacity, k int, maxDE float64) []int {
	n := len(colors)
	dist := make([][]float64, n)
	for i := range dist {
		dist[i] = make([]float64, n)
		for j := range i {
			dist[i][j] = deltaE(colors[i], colors[j])
			dist[j][i] = dist[i][j]
		}
	}
	groups := make([][]int, n)
	for i := range groups {
		groups[i] = []int{i}
	}
	linkage := func(a, b []int) float64 {
		s := 0.0
		for _, i := range a {
			for _, j := range b {
				s += dist[i][j]
			}
		}
		return s / float64(len(a)*len(b))
	}
	for len(groups) > max(k, 1) {
		bi, bj, bd := -1, -1, math.Inf(1)
		for i := range groups {
			for j := range i {
				if len(groups[i])+len(groups[j]) > capacity {
					continue
				}
				if d := linkage(groups[i], groups[j]); d < bd {
					bi, bj, bd = i, j, d
				}
			}
		}
		if bi < 0 || (k == 0 && bd > maxDE) {
			break
		}
		groups[bj] = append(groups[bj], groups[bi]...)
		groups = slices.Delete(groups, bi, bi+1)
	}
	labels := make([]int, n)
	for g, members := range groups {
		for _, i := range members {
			labels[i] = g
		}
	}
	return labels
}

// TestClusterUnitsAsNaive checks that clusterUnits, which keeps its linkages and each group's
// nearest as groups merge and takes its distances from a memo shared between calls, groups
// colours as the plain algorithm does: random colours round a few centres, repeated colours
// among them (ties), every capacity and stopping rule.
func TestClusterUnitsAsNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var memo deltaMemo
	for trial := range 600 {
		centres := make([]lab, 1+r.IntN(12))
		for i := range centres {
			centres[i] = lab{L: 20 + 70*r.Float64(), A: -60 + 120*r.Float64(), B: -60 + 120*r.Float64()}
		}
		colors := make([]lab, 1+r.IntN(80))
		for i := range colors {
			if i > 0 && r.IntN(4) == 0 {
				colors[i] = colors[r.IntN(i)]
				continue
			}
			c := centres[r.IntN(len(centres))]
			spread := []float64{0, 1, 4, 12}[r.IntN(4)]
			colors[i] = lab{L: c.L + spread*r.NormFloat64(), A: c.A + spread*r.NormFloat64(), B: c.B + spread*r.NormFloat64()}
		}
		capacity := []int{2, 3, 4, 7, len(colors)}[r.IntN(5)]
		k := 0
		if r.IntN(2) == 0 {
			k = 1 + r.IntN(len(colors))
		}
		maxDE := []float64{5, 12, 30}[r.IntN(3)]
		m := &memo
		if trial%3 == 0 {
			m = nil
		}
		got, want := clusterUnits(colors, capacity, k, maxDE, m), naiveClusters(colors, capacity, k, maxDE)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d colours, capacity %d, k %d, maxDE %.0f): got %v, want %v", trial, len(colors), capacity, k, maxDE, got, want)
		}
	}
}

// BenchmarkClusterUnits clusters 140 unit colours (20 tubes of 7, 20 colours, the renderer's
// largest boards) the way a read does, k = 0 under looseDE, against naiveClusters in the same
// run: "memo" keeps one deltaMemo over the calls, as a read does over its hypotheses.
//
//	go test -run '^$' -bench BenchmarkClusterUnits ./vision
func BenchmarkClusterUnits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 5))
	colors := make([]lab, 140)
	for i := range colors {
		c := lab{L: 20 + 3.5*float64(i%20), A: -60 + 6*float64(i%20), B: 40 - 4*float64(i%20)}
		colors[i] = lab{L: c.L + r.NormFloat64(), A: c.A + r.NormFloat64(), B: c.B + r.NormFloat64()}
	}
	b.Run("naive", func(b *testing.B) {
		for range b.N {
			naiveClusters(colors, len(colors), 0, looseDE)
		}
	})
	b.Run("kept", func(b *testing.B) {
		for range b.N {
			clusterUnits(colors, len(colors), 0, looseDE, nil)
		}
	})
	b.Run("memo", func(b *testing.B) {
		var memo deltaMemo
		for range b.N {
			clusterUnits(colors, len(colors), 0, looseDE, &memo)
		}
	})
}
