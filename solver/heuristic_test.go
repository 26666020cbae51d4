package solver

import (
	"context"
	"fmt"
	"testing"
)

// stateGraph is the whole reachable canonical state space of a small level, with every legal
// pour (no pruning), and each state's true distance to a solved state (-1: none reachable).
type stateGraph struct {
	g     *game
	keys  []string
	index map[string]int
	succ  [][]int
	dist  []int
}

func explore(l *Level) *stateGraph {
	g := newGame(l)
	sg := &stateGraph{g: g, index: map[string]int{}}
	codes := g.codesOf(l)
	canon(codes)
	sg.intern(codes)
	for i := 0; i < len(sg.keys); i++ {
		cur := make([]uint64, g.n)
		g.unpack(cur, sg.keys[i])
		var succ []int
		for _, mv := range g.moves(cur) {
			next := append([]uint64(nil), cur...)
			g.play(next, mv)
			canon(next)
			succ = append(succ, sg.intern(next))
		}
		sg.succ = append(sg.succ, succ)
	}
	// Distances by reverse breadth-first search from the solved states.
	pred := make([][]int, len(sg.keys))
	for s, ts := range sg.succ {
		for _, t := range ts {
			pred[t] = append(pred[t], s)
		}
	}
	sg.dist = make([]int, len(sg.keys))
	var queue []int
	for s := range sg.keys {
		sg.dist[s] = -1
		if sg.level(l, s).Solved() {
			sg.dist[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, p := range pred[s] {
			if sg.dist[p] < 0 {
				sg.dist[p] = sg.dist[s] + 1
				queue = append(queue, p)
			}
		}
	}
	return sg
}

func (sg *stateGraph) intern(codes []uint64) int {
	k := string(sg.g.pack(nil, codes))
	if i, ok := sg.index[k]; ok {
		return i
	}
	sg.index[k] = len(sg.keys)
	sg.keys = append(sg.keys, k)
	return len(sg.keys) - 1
}

// level turns state s back into a Level with l's colour names.
func (sg *stateGraph) level(l *Level, s int) *Level {
	codes := make([]uint64, sg.g.n)
	sg.g.unpack(codes, sg.keys[s])
	out := &Level{Capacity: l.Capacity, Names: l.Names, Tubes: make([][]Color, len(codes))}
	for i, code := range codes {
		for j := range sg.g.height(code) {
			out.Tubes[i] = append(out.Tubes[i], sg.g.unit(code, j))
		}
	}
	return out
}

// smallLevels are levels whose whole state space is cheap to enumerate: random deals with one
// and two empty tubes and a few colours, and positions in the middle of play.
func smallLevels() map[string]*Level {
	out := map[string]*Level{}
	for _, c := range []struct{ colors, capacity, empties int }{
		{2, 2, 1}, {3, 3, 1}, {3, 4, 1}, {4, 3, 1}, {4, 4, 1}, {3, 3, 2}, {4, 4, 2}, {5, 3, 2}, {5, 4, 2}, {4, 5, 2},
	} {
		for seed := range 6 {
			l := Deal(uint64(seed), c.colors, c.capacity, c.empties)
			out[fmt.Sprintf("deal-%dx%d+%d-%d", c.colors, c.capacity, c.empties, seed)] = l
			out[fmt.Sprintf("mid-%dx%d+%d-%d", c.colors, c.capacity, c.empties, seed)] = Scramble(l, uint64(seed), 6)
		}
	}
	return out
}

// TestEstimateIsAdmissibleAndConsistent proves the lower bound on every reachable state of the
// small levels: never above the true distance, dropping by at most one per pour, and zero
// exactly on solved states.
func TestEstimateIsAdmissibleAndConsistent(t *testing.T) {
	for name, l := range smallLevels() {
		t.Run(name, func(t *testing.T) {
			sg := explore(l)
			for s, k := range sg.keys {
				codes := make([]uint64, sg.g.n)
				sg.g.unpack(codes, k)
				h := sg.g.estimate(codes)
				if d := sg.dist[s]; d >= 0 && h > d {
					t.Fatalf("state %s: estimate %d > distance %d", sg.level(l, s), h, d)
				}
				if (h == 0) != sg.level(l, s).Solved() {
					t.Fatalf("state %s: estimate %d but solved=%v", sg.level(l, s), h, !(h == 0))
				}
				for _, n := range sg.succ[s] {
					next := make([]uint64, sg.g.n)
					sg.g.unpack(next, sg.keys[n])
					if hn := sg.g.estimate(next); h > hn+1 {
						t.Fatalf("pour %s → %s drops the estimate from %d to %d", sg.level(l, s), sg.level(l, n), h, hn)
					}
				}
			}
		})
	}
}

// TestVerdictsMatchExhaustiveSearch checks every search mode against the enumerated state
// space: exact modes find the true distance, every mode's plan replays to a solved level, and
// "unsolvable" is said exactly when no solved state is reachable.
func TestVerdictsMatchExhaustiveSearch(t *testing.T) {
	modes := map[string]Options{
		"astar": {}, "astar-nomacros": {NoMacros: true}, "bfs": {Algorithm: BFS},
		"fast": {Fast: true}, "mcts": {Algorithm: MCTS, Simulations: 20},
	}
	for name, l := range smallLevels() {
		sg := explore(l)
		want := sg.dist[0]
		for mode, opts := range modes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				plan, _, err := Solve(context.Background(), l, opts)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case want < 0 && opts.Algorithm == MCTS:
					if plan.Status != StatusUnknown {
						t.Fatalf("got %s, want unknown (MCTS proves nothing)", plan.Status)
					}
				case want < 0:
					if plan.Status != StatusUnsolvable {
						t.Fatalf("got %s, want unsolvable", plan.Status)
					}
				case plan.Status == StatusSolved:
					if err := Validate(l, plan.Moves); err != nil {
						t.Fatal(err)
					}
					if plan.Optimal && len(plan.Moves) != want {
						t.Fatalf("got %d pours claimed optimal, want %d", len(plan.Moves), want)
					}
					if opts.Algorithm != MCTS && !opts.Fast && !plan.Optimal {
						t.Fatalf("exact mode returned a plan without proof of optimality")
					}
				case opts.Algorithm == MCTS:
					// MCTS may fail to find a plan; it must not claim anything.
					if plan.Status != StatusUnknown {
						t.Fatalf("got %s", plan.Status)
					}
				default:
					t.Fatalf("got %s, want solved in %d", plan.Status, want)
				}
			})
		}
	}
}
