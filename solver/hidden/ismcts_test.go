package hidden

import (
	"math/rand/v2"
	"testing"

	"github.com/decant/decant/solver"
)

// mysteryTree is a seeded planner, the belief of a dealt mystery level (7 colours, 9 tubes,
// capacity 4) and a tree rooted at it.
func mysteryTree(t *testing.T) (*planner, *Game, *isNode) {
	t.Helper()
	l, _ := mysteryView(t, 7, 9, 4)
	b, err := Belief(l, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	p := &planner{ctx: t.Context(), opts: Options{}.withDefaults(), rng: rand.New(rand.NewPCG(1, 2)), cache: map[string]int{}}
	return p, b, newISNode(b, map[string]bool{b.Key(): true})
}

// TestISMCTSNodesAreInformationStates checks that the tree's nodes are what the player sees:
// completions that agree on what a pour reveals share the node after it, whatever else they
// hide, so that no choice in the tree rests on a unit still hidden.
func TestISMCTSNodesAreInformationStates(t *testing.T) {
	p, b, root := mysteryTree(t)
	root.moves = root.moves[:1] // one pour, that reveals a unit
	if _, reveal, err := b.Clone().Pour(root.moves[0].From, root.moves[0].To); err != nil || reveal < 0 {
		t.Fatalf("the first candidate reveals nothing (%v): pick another level", err)
	}
	const iterations = 200
	colours := map[byte]bool{}
	for range iterations {
		g, err := b.Sample(p.rng)
		if err != nil {
			t.Fatal(err)
		}
		c := g.Clone()
		_, reveal, _ := c.Pour(root.moves[0].From, root.moves[0].To)
		colours[byte(c.Tubes[reveal][len(c.Tubes[reveal])-1])] = true
		p.iterate(root, g)
	}
	if got, want := len(root.kids[0]), len(colours); got != want {
		t.Errorf("%d nodes after the pour, want one for each colour it revealed (%d)", got, want)
	}
	if root.visits != iterations || root.n[0] != iterations {
		t.Errorf("root visited %d times, its pour %d, want %d", root.visits, root.n[0], iterations)
	}
	depth := 0
	var walk func(n *isNode, d int)
	walk = func(n *isNode, d int) {
		depth = max(depth, d)
		for _, kids := range n.kids {
			for _, c := range kids {
				walk(c, d+1)
			}
		}
	}
	walk(root, 0)
	if depth < 2 {
		t.Errorf("tree %d deep after %d iterations, want the choices after the reveal searched too", depth, iterations)
	}
}

// TestISMCTSShortest checks the root's choice among pours visited about as often as the most:
// the one whose finishing iterations took the fewest pours, none visited too little, and the
// most visited where it has no finish to compare.
func TestISMCTSShortest(t *testing.T) {
	n := &isNode{moves: make([]solver.Move, 4),
		n:     []int{100, 95, 80, 91},
		fin:   []int{90, 90, 70, 0},
		pours: []float64{2700, 2610, 1400, 0}}
	if got := n.shortest(0); got != 1 {
		t.Errorf("shortest = %d, want 1 (29 pours a finish against 30; 2 is visited too little, 3 never finished)", got)
	}
	n.fin[0], n.pours[0] = 0, 0
	if got := n.shortest(0); got != 0 {
		t.Errorf("shortest = %d, want the most visited (0) when it never finished", got)
	}
}

// TestISMCTSRootCountsPours checks that the tree records at its root, for each pour, the
// iterations that finished after it and their pours, which the shorter-way choice rests on.
func TestISMCTSRootCountsPours(t *testing.T) {
	p, b, root := mysteryTree(t)
	root.fin, root.pours = make([]int, len(root.moves)), make([]float64, len(root.moves))
	for range 100 {
		g, err := b.Sample(p.rng)
		if err != nil {
			t.Fatal(err)
		}
		p.iterate(root, g)
	}
	total := 0
	for i := range root.moves {
		if root.fin[i] > root.n[i] {
			t.Errorf("pour %d: %d finishes in %d visits", i, root.fin[i], root.n[i])
		}
		if root.fin[i] > 0 && root.pours[i] < float64(root.fin[i]) {
			t.Errorf("pour %d: %v pours over %d finishes, want at least one a finish", i, root.pours[i], root.fin[i])
		}
		total += root.fin[i]
	}
	if total == 0 {
		t.Error("no iteration finished: nothing recorded")
	}
}
