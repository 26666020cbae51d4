// Package gen makes seeded levels for tests, benchmarks and tools: random deals of full tubes
// plus empty ones, and mid-game positions reached by random legal pours. The same arguments
// always give the same level, so a test or a table can name a level by its seed.
package gen

import (
	"fmt"
	"math/rand/v2"

	"github.com/decant/decant/solver"
)

// colorNames names generated colours; colours past the list are named c32, c33, ...
var colorNames = []string{
	"red", "blue", "green", "yellow", "orange", "purple", "pink", "cyan", "brown", "grey",
	"lime", "navy", "olive", "teal", "maroon", "violet", "beige", "mint", "coral", "sky",
	"gold", "plum", "rose", "sand", "jade", "ruby", "slate", "peach", "lilac", "moss", "ink",
}

// Deal is a seeded random level: colors colours of capacity units each, shuffled into colors
// full tubes, plus empties empty tubes. The same seed gives the same level. The level is not
// validated: a deal beyond the solver's limits is refused by Solve.
func Deal(seed uint64, colors, capacity, empties int) *solver.Level {
	r := rand.New(rand.NewPCG(seed, uint64(colors)<<32|uint64(capacity)<<16|uint64(empties)))
	units := make([]solver.Color, 0, colors*capacity)
	for c := 1; c <= colors; c++ {
		for range capacity {
			units = append(units, solver.Color(c))
		}
	}
	r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	l := &solver.Level{Capacity: capacity, Names: make([]string, colors+1)}
	for c := 1; c <= colors; c++ {
		l.Names[c] = colorName(c)
	}
	for i := range colors {
		l.Tubes = append(l.Tubes, units[i*capacity:(i+1)*capacity:(i+1)*capacity])
	}
	for range empties {
		l.Tubes = append(l.Tubes, []solver.Color{})
	}
	return l
}

func colorName(c int) string {
	if c <= len(colorNames) {
		return colorNames[c-1]
	}
	return fmt.Sprintf("c%d", c)
}

// Scramble plays up to moves random legal pours from l (never straight back) and returns the
// position reached: a mid-game position of the kind a stuck player photographs. l must be a
// valid level without hidden units or curtains.
func Scramble(l *solver.Level, seed uint64, moves int) *solver.Level {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	p := l.Clone()
	last := solver.Move{From: -1}
	for range moves {
		var pick []solver.Move
		for _, m := range p.Moves() {
			if m.From != last.To || m.To != last.From {
				pick = append(pick, m)
			}
		}
		if len(pick) == 0 {
			break
		}
		last = pick[r.IntN(len(pick))]
		next, err := solver.Replay(p, []solver.Move{last})
		if err != nil {
			break // cannot happen: Moves lists legal pours only
		}
		p = next
	}
	return p
}
