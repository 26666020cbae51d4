package hidden

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// truthKey is the whole truth of g in its tube order: colours, face-down flags and covers.
// The brute force below keys on it, independently of the oracle's packing.
func truthKey(g *Game) string {
	return fmt.Sprint(g.Tubes, g.Shown, g.Covers)
}

// bruteForce is a breadth-first search over Game.Pour on every pair of tubes: the fewest
// pours that finish g, or -1 when none does (or past limit positions).
func bruteForce(g *Game, limit int) int {
	seen := map[string]bool{truthKey(g): true}
	level := []*Game{g}
	for depth := 0; len(level) > 0; depth++ {
		var next []*Game
		for _, p := range level {
			if p.Solved() {
				return depth
			}
			for a := range p.Tubes {
				for b := range p.Tubes {
					if a == b {
						continue
					}
					c := p.Clone()
					if _, _, err := c.Pour(a, b); err != nil {
						continue
					}
					if k := truthKey(c); !seen[k] {
						seen[k] = true
						next = append(next, c)
					}
				}
			}
		}
		if len(seen) > limit {
			return -2
		}
		level = next
	}
	return -1
}

// checkPlan replays the oracle's plan on g with Game.Pour and checks that it finishes.
func checkPlan(t *testing.T, g *Game, moves []solver.Move) {
	t.Helper()
	g = g.Clone()
	for i, m := range moves {
		played, _, err := g.Pour(m.From, m.To)
		if err != nil {
			t.Fatalf("pour %d (%d→%d): %v", i+1, m.From+1, m.To+1, err)
		}
		if played != m {
			t.Fatalf("pour %d: played %+v, the plan says %+v", i+1, played, m)
		}
	}
	if !g.Solved() {
		t.Fatalf("the plan of %d pours leaves the level unsolved", len(moves))
	}
}

// smallGames are hand and generated levels small enough for the brute force.
func smallGames(t *testing.T) map[string]*Game {
	games := map[string]*Game{
		"a hidden unit under its own colour":  game(t, "3: r r b | b b r | |", "3: ? r b | ? b r | |", Rules{}),
		"the same, carry":                     game(t, "3: r r b | b b r | |", "3: ? r b | ? b r | |", Rules{Carry: true}),
		"face-down units above the bottom":    game(t, "3: b r r | g g r | b b g | |", "3: b ? r | g ? r | ? ? g | |", Rules{}),
		"nothing hidden":                      game(t, "3: b r r | g g r | b b g | |", "3: b r r | g g r | b b g | |", Rules{}),
		"shown unit under a face-down one":    game(t, "4: r r r b | b b b r | |", "4: ? r ? b | b ? b r | |", Rules{}),
		"hidden bottoms needing no pour":      game(t, "3: r r r | b b g | g g b | |", "3: ? ? r | ? b g | ? g b | |", Rules{}),
		"mystery, face-down same colour runs": game(t, "4: r r b b | b b r r | |", "4: ? ? ? b | ? ? ? r | |", Rules{}),
	}
	cl := mustLevel(t, "3: r b r | b r b | | y y y")
	red := solver.Color(slices.Index(cl.Names, "r"))
	curtained := NewGame(cl, Mystery(cl), []solver.Color{0, 0, 0, red}, Rules{})
	games["a curtain opened by red"] = curtained
	cl = mustLevel(t, "3: r b r | b r b | y | y y")
	red = solver.Color(slices.Index(cl.Names, "r"))
	games["a curtain in the way"] = NewGame(cl, Mystery(cl), []solver.Color{0, 0, 0, red}, Rules{})
	// 7 pours with the curtain, 6 without it.
	cl = gen.Deal(900, 3, 3, 2)
	games["a curtain that costs a pour"] = NewGame(cl, Mystery(cl), []solver.Color{0, 3, 0, 0, 0}, Rules{})
	cl = mustLevel(t, "3: r b r | b r b | | y y | y")
	red = solver.Color(slices.Index(cl.Names, "r"))
	games["a curtain to wait for"] = NewGame(cl, Mystery(cl), []solver.Color{0, 0, 0, red, 0}, Rules{})
	for i := range 12 {
		l := gen.Deal(uint64(500+i), 3+i%2, 3+i/2%2, 1+i/4%2)
		r := rand.New(rand.NewPCG(uint64(i), 9))
		hide := Mystery(l)
		if i%3 == 1 {
			hide = HideFraction(l, 0.5, r)
		}
		games[fmt.Sprintf("deal %d", i)] = NewGame(l, hide, nil, Rules{Carry: i%3 == 2})
	}
	return games
}

func TestOracleMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	solvedSome, unsolvable := 0, 0
	for name, g := range smallGames(t) {
		t.Run(name, func(t *testing.T) {
			want := bruteForce(g, 300_000)
			if want == -2 {
				t.Skip("too big for the brute force")
			}
			got, err := Oracle(ctx, g, 0)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case want < 0 && got.Status != solver.StatusUnsolvable:
				t.Fatalf("brute force: unsolvable; oracle: %s with %d pours", got.Status, len(got.Moves))
			case want >= 0 && (got.Status != solver.StatusSolved || len(got.Moves) != want):
				t.Fatalf("brute force: %d pours; oracle: %s with %d pours", want, got.Status, len(got.Moves))
			}
			if want >= 0 {
				solvedSome++
				checkPlan(t, g, got.Moves)
			} else {
				unsolvable++
			}
		})
	}
	if solvedSome < 10 {
		t.Errorf("only %d levels solved: the test compares too little", solvedSome)
	}
	t.Logf("%d solved, %d unsolvable", solvedSome, unsolvable)
}

// TestOracleSeesLikeSolve checks that with nothing hidden the oracle's optimum is the exact
// solver's.
func TestOracleSeesLikeSolve(t *testing.T) {
	ctx := context.Background()
	for i := range 12 {
		l := gen.Deal(uint64(700+i), 5+i%4, 4, 2)
		g := NewGame(l, nil, nil, Rules{})
		plan, _, err := solver.Solve(ctx, l, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Oracle(ctx, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != plan.Status || len(got.Moves) != len(plan.Moves) {
			t.Errorf("deal %d: oracle %s with %d pours, solver %s with %d", i, got.Status, len(got.Moves), plan.Status, len(plan.Moves))
		}
		if got.Status == solver.StatusSolved {
			checkPlan(t, g, got.Moves)
		}
	}
}

// TestOracleBudget checks that a budget answers unknown, never unsolvable.
func TestOracleBudget(t *testing.T) {
	l := gen.Deal(1000, 10, 4, 2)
	got, err := Oracle(context.Background(), NewGame(l, Mystery(l), nil, Rules{}), 50)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != solver.StatusUnknown || got.States > 51 {
		t.Fatalf("got %s after %d states, want unknown within the budget of 50", got.Status, got.States)
	}
}
