package solver

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomFull deals colors*capacity units into tubes of random heights, none empty, or returns
// nil when they do not fit.
func randomFull(r *rand.Rand, colors, capacity, tubes int) *Level {
	units := make([]Color, 0, colors*capacity)
	for c := 1; c <= colors; c++ {
		for range capacity {
			units = append(units, Color(c))
		}
	}
	r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	if len(units) < tubes || len(units) > tubes*capacity {
		return nil
	}
	heights := make([]int, tubes)
	for i := range heights {
		heights[i] = 1
	}
	for left := len(units) - tubes; left > 0; {
		if i := r.IntN(tubes); heights[i] < capacity {
			heights[i]++
			left--
		}
	}
	l := &Level{Capacity: capacity, Names: []string{""}}
	for c := 1; c <= colors; c++ {
		l.Names = append(l.Names, string(rune('a'+c-1)))
	}
	for _, h := range heights {
		l.Tubes = append(l.Tubes, append([]Color(nil), units[:h]...))
		units = units[h:]
	}
	return l
}

// reachesEmpty searches every position reachable from codes for one with an empty tube.
func reachesEmpty(g *game, root []uint64) bool {
	seen := map[string]bool{string(g.pack(nil, root)): true}
	stack := [][]uint64{root}
	for len(stack) > 0 {
		codes := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if codes[0] == 0 {
			return true
		}
		for a := range codes {
			for b := range codes {
				child := append([]uint64(nil), codes...)
				if _, ok := g.move(child, a, b); !ok {
					continue
				}
				canon(child)
				if k := string(g.pack(nil, child)); !seen[k] {
					seen[k] = true
					stack = append(stack, child)
				}
			}
		}
	}
	return false
}

// TestDrain checks the drain search against every position reachable from random positions
// without an empty tube: it must say exactly which of them can reach one with an empty tube.
// One drainer answers for all the positions of a level, in random order, so that answers come
// from its cache too; a second one, limited to a few skeletons a search and a cache of a few
// verdicts (emptied when full), may answer "unknown" but nothing else wrong.
func TestDrain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dead, alive, unknown := 0, 0, 0
	for range 600 {
		colors, capacity := 2+r.IntN(5), 2+r.IntN(4)
		l := randomFull(r, colors, capacity, colors+1+r.IntN(3))
		if l == nil {
			continue
		}
		g := newGame(l)
		root := g.codesOf(l)
		canon(root)
		positions, reach := drainSpace(g, root)
		order := r.Perm(len(positions))
		exact, limited := newDrainer(g, 1<<20), newDrainer(g, 1+r.IntN(8))
		limited.limit = 1 + r.IntN(4)
		for _, i := range order {
			codes := positions[i]
			if got := exact.drain(codes); got == drainUnknown || (got == drainCan) != reach[i] {
				t.Fatalf("%s, position %v: drain says %v, an empty tube is reachable: %v", l.Compact(), codes, got, reach[i])
			}
			switch got := limited.drain(codes); {
			case got == drainUnknown:
				unknown++
			case (got == drainCan) != reach[i]:
				t.Fatalf("%s, position %v: drain limited to %d says %v, an empty tube is reachable: %v", l.Compact(), codes, limited.limit, got, reach[i])
			}
			if reach[i] {
				alive++
			} else {
				dead++
			}
		}
	}
	if dead == 0 || alive == 0 || unknown == 0 {
		t.Errorf("%d dead, %d alive, %d unknown with a limit: want some of each", dead, alive, unknown)
	}
	t.Logf("%d dead and %d alive positions without an empty tube; %d unknown with a limit", dead, alive, unknown)
}

// TestDrainMissedPosition: a dead position the earlier relaxation (which ignored room) missed.
func TestDrainMissedPosition(t *testing.T) {
	l, err := ParseCompact("4: d c | a b b | a b b d | a c c d | a | d c")
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(l)
	codes := g.codesOf(l)
	canon(codes)
	if reachesEmpty(g, codes) {
		t.Fatal("the position reaches an empty tube")
	}
	if got := newDrainer(g, 1<<10).drain(codes); got != drainNever {
		t.Errorf("drain says %v, want never", got)
	}
}

// drainSpace lists the positions without an empty tube reachable from root (canonical) by
// pours, without going on from a position with an empty tube, and whether each can reach one
// with an empty tube.
func drainSpace(g *game, root []uint64) ([][]uint64, []bool) {
	index := map[string]int{}
	var positions [][]uint64
	var succ [][]int
	var empty []bool
	intern := func(codes []uint64) int {
		k := string(g.pack(nil, codes))
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(positions)
		positions = append(positions, codes)
		succ = append(succ, nil)
		empty = append(empty, slices.Contains(codes, 0))
		return len(positions) - 1
	}
	intern(root)
	for i := 0; i < len(positions); i++ {
		if empty[i] {
			continue
		}
		for a := range positions[i] {
			for b := range positions[i] {
				child := slices.Clone(positions[i])
				if _, ok := g.move(child, a, b); ok {
					canon(child)
					succ[i] = append(succ[i], intern(child))
				}
			}
		}
	}
	reach := slices.Clone(empty)
	for changed := true; changed; {
		changed = false
		for i, ss := range succ {
			for _, s := range ss {
				if !reach[i] && reach[s] {
					reach[i], changed = true, true
				}
			}
		}
	}
	var out [][]uint64
	var outReach []bool
	for i, p := range positions {
		if !empty[i] {
			out = append(out, p)
			outReach = append(outReach, reach[i])
		}
	}
	return out, outReach
}
