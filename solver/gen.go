package solver

import (
	"fmt"
	"math/rand/v2"
)

// colorNames names generated colours; the first 31 cover MaxColors.
var colorNames = []string{
	"red", "blue", "green", "yellow", "orange", "purple", "pink", "cyan", "brown", "grey",
	"lime", "navy", "olive", "teal", "maroon", "violet", "beige", "mint", "coral", "sky",
	"gold", "plum", "rose", "sand", "jade", "ruby", "slate", "peach", "lilac", "moss", "ink",
}

// Deal is a seeded random level: colors colours of capacity units each, shuffled into colors
// full tubes, plus empties empty tubes. The same seed gives the same level.
func Deal(seed uint64, colors, capacity, empties int) *Level {
	r := rand.New(rand.NewPCG(seed, uint64(colors)<<32|uint64(capacity)<<16|uint64(empties)))
	units := make([]Color, 0, colors*capacity)
	for c := 1; c <= colors; c++ {
		for range capacity {
			units = append(units, Color(c))
		}
	}
	r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	l := &Level{Capacity: capacity, Names: make([]string, colors+1)}
	for c := 1; c <= colors; c++ {
		l.Names[c] = colorName(c)
	}
	for i := range colors {
		l.Tubes = append(l.Tubes, units[i*capacity:(i+1)*capacity:(i+1)*capacity])
	}
	for range empties {
		l.Tubes = append(l.Tubes, []Color{})
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
// position reached: a mid-game position of the kind a stuck player photographs.
func Scramble(l *Level, seed uint64, moves int) *Level {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	p := l.Clone()
	last := Move{From: -1}
	for range moves {
		legal := p.legalMoves()
		var pick []Move
		for _, m := range legal {
			if m.From != last.To || m.To != last.From {
				pick = append(pick, m)
			}
		}
		if len(pick) == 0 {
			break
		}
		last = pick[r.IntN(len(pick))]
		if p.apply(last) != nil {
			break // cannot happen: legalMoves lists legal pours only
		}
	}
	return p
}

// legalMoves lists every legal pour in the position.
func (l *Level) legalMoves() []Move {
	var out []Move
	for a, ta := range l.Tubes {
		if len(ta) == 0 {
			continue
		}
		c := ta[len(ta)-1]
		run := 1
		for run < len(ta) && ta[len(ta)-1-run] == c {
			run++
		}
		for b, tb := range l.Tubes {
			if a == b || len(tb) == l.Capacity || (len(tb) > 0 && tb[len(tb)-1] != c) {
				continue
			}
			out = append(out, Move{From: a, To: b, Count: min(run, l.Capacity-len(tb)), Color: c})
		}
	}
	return out
}
