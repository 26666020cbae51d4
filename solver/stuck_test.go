package solver

import (
	"math/rand/v2"
	"testing"
)

// TestStuck checks the dead-position test against a search of every position reachable from
// random positions without an empty tube: a position called stuck must never reach one with an
// empty tube. It must also call some positions stuck, or it prunes nothing.
func TestStuck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	stuckN, dead := 0, 0
	for range 400 {
		colors, capacity := 3+r.IntN(4), 3+r.IntN(2)
		l := randomFull(r, colors, capacity, colors+1+r.IntN(2))
		if l == nil {
			continue
		}
		g := newGame(l)
		codes := g.codesOf(l)
		canon(codes)
		reach := reachesEmpty(g, codes)
		if !reach {
			dead++
		}
		info := make([]tubeInfo, g.n)
		for i, c := range codes {
			info[i] = g.info(c)
		}
		if g.stuck(codes, info, make([]int, g.n), make([]int, g.colors+1)) {
			stuckN++
			if reach {
				t.Errorf("stuck, but a position with an empty tube is reachable: %s", l.Compact())
			}
		}
	}
	if stuckN == 0 {
		t.Errorf("no position called stuck (%d dead ones)", dead)
	}
	t.Logf("%d positions called stuck of %d dead ones", stuckN, dead)
}

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
