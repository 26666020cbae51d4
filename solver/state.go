package solver

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// A position inside the search is a slice of tube codes: tube units packed bottom-first,
// `bits` bits apiece, colour ids 1..K so that a tube's height follows from its code. Tube order
// carries no meaning; the canonical form sorts the codes, and the visited-set key is the sorted
// codes packed into ceil(n*cap*bits/8) bytes, compared in full (never a bare hash).

// game holds the constants of one level's encoding.
type game struct {
	n, cap   int
	colors   int
	bits     uint
	mask     uint64
	keyBytes int
	// needsEmpty: a solved position has an empty tube (more tubes than colours).
	needsEmpty bool
}

func newGame(l *Level) *game {
	b := unitBits(l.Colors())
	g := &game{n: len(l.Tubes), cap: l.Capacity, colors: l.Colors(), bits: b, mask: 1<<b - 1}
	g.keyBytes = (g.n*g.cap*int(b) + 7) / 8
	var present colorSet
	for _, t := range l.Tubes {
		for _, c := range t {
			present.add(c)
		}
	}
	g.needsEmpty = g.n > present.len()
	return g
}

// codesOf packs the level's tubes in their given order.
func (g *game) codesOf(l *Level) []uint64 {
	codes := make([]uint64, g.n)
	for i, t := range l.Tubes {
		for j, c := range t {
			codes[i] |= uint64(c) << (g.bits * uint(j))
		}
	}
	return codes
}

// height is the number of units in a tube.
func (g *game) height(code uint64) int {
	return (bits.Len64(code) + int(g.bits) - 1) / int(g.bits)
}

// unit returns the colour at position j (0 = bottom).
func (g *game) unit(code uint64, j int) Color {
	return Color(code >> (g.bits * uint(j)) & g.mask)
}

// top returns a non-empty tube's top colour, the length of its top run, and its height.
func (g *game) top(code uint64) (c Color, run, h int) {
	h = g.height(code)
	c = g.unit(code, h-1)
	run = 1
	for run < h && g.unit(code, h-1-run) == c {
		run++
	}
	return c, run, h
}

// tubeInfo is what the pour rule reads of a tube: its top colour, the length of its top run
// and its height (all zero for an empty tube).
type tubeInfo struct {
	top    Color
	run, h uint8
}

// info returns the tubeInfo of a tube code.
func (g *game) info(code uint64) tubeInfo {
	if code == 0 {
		return tubeInfo{}
	}
	c, run, h := g.top(code)
	return tubeInfo{c, uint8(run), uint8(h)}
}

// pourable is the rule of the game: the number of units tube a pours onto tube b, 0 when the
// pour is illegal. A non-empty tube pours its top run onto an empty tube or onto a tube of the
// same top colour, as many units as fit. Everything in the package that pours (the search,
// Level.Moves, plan reconstruction, MCTS) goes through it; Replay checks plans with its own,
// independent rule (Level.apply).
func (g *game) pourable(a, b tubeInfo) int {
	if a.h == 0 || int(b.h) == g.cap || (b.h > 0 && b.top != a.top) {
		return 0
	}
	return min(int(a.run), g.cap-int(b.h))
}

// move performs the pour from tube a to tube b of codes in place and returns it as a Move; ok
// is false (codes untouched) when the pour is illegal.
func (g *game) move(codes []uint64, a, b int) (m Move, ok bool) {
	ta, tb := g.info(codes[a]), g.info(codes[b])
	k := g.pourable(ta, tb)
	if k == 0 || a == b {
		return Move{}, false
	}
	codes[a], codes[b] = g.pour(codes[a], int(ta.h), codes[b], int(tb.h), ta.top, k)
	return Move{From: a, To: b, Count: k, Color: ta.top}, true
}

// pour moves k units of colour c from tube code a (height ha) onto b (height hb): the packed
// form of a pour that pourable allowed.
func (g *game) pour(a uint64, ha int, b uint64, hb int, c Color, k int) (uint64, uint64) {
	na := a & (1<<(g.bits*uint(ha-k)) - 1)
	for i := 0; i < k; i++ {
		b |= uint64(c) << (g.bits * uint(hb+i))
	}
	return na, b
}

// estimate is the admissible lower bound on the pours still needed: colour blocks (maximal
// same-colour runs) minus the distinct colours at a tube bottom. A pour lowers it by at most
// one, and it is zero exactly when the position is solved (see heuristic_test.go).
func (g *game) estimate(codes []uint64) int {
	blocks := 0
	var bottoms colorSet
	for _, code := range codes {
		if code == 0 {
			continue
		}
		prev := Color(code & g.mask)
		bottoms.add(prev)
		blocks++
		for code >>= g.bits; code != 0; code >>= g.bits {
			if c := Color(code & g.mask); c != prev {
				blocks++
				prev = c
			}
		}
	}
	return blocks - bottoms.len()
}

// finished counts the tubes that are full of one colour.
func (g *game) finished(codes []uint64) int {
	n := 0
	for _, code := range codes {
		if code == 0 {
			continue
		}
		if _, run, h := g.top(code); run == g.cap && h == g.cap {
			n++
		}
	}
	return n
}

// colorSet is a set of colour ids.
type colorSet [4]uint64

func (s *colorSet) add(c Color)      { s[c>>6] |= 1 << (c & 63) }
func (s *colorSet) has(c Color) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *colorSet) len() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// canon sorts codes in place, making the position canonical.
func canon(codes []uint64) {
	// Insertion sort: positions hold a few dozen tubes and a child differs from its sorted
	// parent in two places.
	for i := 1; i < len(codes); i++ {
		for j := i; j > 0 && codes[j] < codes[j-1]; j-- {
			codes[j], codes[j-1] = codes[j-1], codes[j]
		}
	}
}

// pack appends the key of canonical codes to dst: each code in cap*bits bits, little-endian.
func (g *game) pack(dst []byte, codes []uint64) []byte {
	width := uint(g.cap) * g.bits
	var acc uint64
	var have uint
	for _, code := range codes {
		acc |= code << have // Go defines shifts of 64 or more as 0
		if have+width < 64 {
			have += width
			continue
		}
		dst = binary.LittleEndian.AppendUint64(dst, acc)
		acc = code >> (64 - have)
		have = have + width - 64
	}
	for ; have > 0; have -= min(have, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// unpack decodes a key into codes (len g.n).
func (g *game) unpack(codes []uint64, key []byte) {
	width := uint(g.cap) * g.bits
	var acc uint64
	var have uint
	p := 0
	for i := range codes {
		var code uint64
		var got uint
		for got < width {
			if have == 0 {
				acc = uint64(key[p])
				p++
				have = 8
			}
			take := min(width-got, have)
			code |= (acc & (1<<take - 1)) << got
			acc >>= take
			have -= take
			got += take
		}
		codes[i] = code
	}
}

// sortedOrder returns perm such that codes[perm[i]] is the i-th smallest code: canonical index
// i stands for the real tube perm[i].
func sortedOrder(codes []uint64) []int {
	perm := make([]int, len(codes))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		switch {
		case codes[a] < codes[b]:
			return -1
		case codes[a] > codes[b]:
			return 1
		}
		return 0
	})
	return perm
}
