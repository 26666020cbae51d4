package hidden

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

var (
	benchHidden  = flag.Bool("bench-hidden", false, "run the hidden-units benchmark (minutes)")
	benchLevels  = flag.Int("hidden-levels", 40, "levels per class in the hidden-units benchmark")
	benchTruths  = flag.Int("hidden-truths", 1, "truths each small-class level is played against: its own and completions resampled from what it shows")
	benchCeiling = flag.Bool("hidden-ceiling", true, "compute the exact ceiling on the small classes")
	benchBeliefs = flag.Int("hidden-ceiling-beliefs", 0, "the ceiling's budget of beliefs (0: DefaultMaxBeliefs; the mid class needs about 2,000,000, 300 bytes each)")
	benchMethods = flag.String("hidden-methods", "", "comma-separated methods to run: pimc,lookahead,endgame (default all of a class's), and exact (small levels) and ismcts, played only when named")
	benchEndgame = flag.Int("hidden-endgame-beliefs", 0, "endgame's budget of beliefs a decision (0: DefaultEndgameBeliefs; 4 times it on small levels)")
	benchSkip    = flag.Int("hidden-skip", 0, "levels skipped in each class: -hidden-skip 20 -hidden-levels 100 plays levels 20–119")
	benchSeed    = flag.Uint64("hidden-seed", 0, "added to the planner's seed: the same levels played with other samples")
	benchDump    = flag.String("hidden-decisions", "", "write every sampled decision (class, method, level, raw p, hidden share, curtain, finished) to this CSV file")
	benchWork    = flag.Int("hidden-work", 0, "the planner's work budget a decision (0: DefaultMaxDecisionWork)")
	benchTime    = flag.Duration("hidden-time", 0, "the planner's time cap a decision (0: DefaultMaxDecisionTime; negative: none, so that runs repeat exactly)")
	benchSlow    = flag.Duration("hidden-slow", 0, "log every decision that takes longer than this, with its work")
	benchClasses = flag.String("hidden-classes", "", "comma-separated class ids to run: small2,small1,mid,mystery,random,curtain,carry (default all)")
	benchOracle  = flag.Int("hidden-oracle-states", DefaultOracleStates, "the budget in states of the oracle under the rule (Oracle), a level; over it that level's oracle is unknown and left out of its ratio; negative: skip it")
)

// benchClass is one family of simulated levels.
type benchClass struct {
	id, name string
	methods  []Method
	ceiling  bool // compute the exact expectimax ceiling
	generate func(i int) *Game
}

// mystery is a class of mystery levels: seeded deals, every unit but the tops hidden.
func mystery(id, name string, colors, capacity, empties func(i int) int, ceiling bool, rules Rules) benchClass {
	return benchClass{id: id, name: name, methods: allMethods, ceiling: ceiling, generate: func(i int) *Game {
		l := gen.Deal(uint64(1000+i), colors(i), capacity(i), empties(i))
		return NewGame(l, Mystery(l), nil, rules)
	}}
}

var allMethods = []Method{Determinised, Lookahead, Endgame}

func benchClassList() []benchClass {
	n := func(k int) func(int) int { return func(int) int { return k } }
	smallColors := func(i int) int { return 4 + i%3 }
	smallCap := func(i int) int { return 3 + i/3%2 }
	carry := mystery("carry", "mystery, carry rule, cap 4, 8–10 colours", func(i int) int { return 8 + i%3 }, n(4), n(2), false, Rules{Carry: true})
	carry.methods = []Method{Determinised} // the other methods fall back to it under Carry
	return []benchClass{
		mystery("small2", "mystery, cap 3–4, 4–6 colours, 2 empty", smallColors, smallCap, n(2), true, Rules{}),
		mystery("small1", "mystery, cap 3–4, 4–6 colours, 1 empty", smallColors, smallCap, n(1), true, Rules{}),
		mystery("mid", "mystery, cap 4, 7 colours, 2 empty", n(7), n(4), n(2), true, Rules{}),
		mystery("mystery", "mystery, cap 4, 8–12 colours, 2 empty", func(i int) int { return 8 + i%5 }, n(4), n(2), false, Rules{}),
		{id: "random", name: "15–75% hidden, cap 4, 8–12 colours", methods: allMethods, generate: func(i int) *Game {
			l := gen.Deal(uint64(2000+i), 8+i%5, 4, 2)
			r := rand.New(rand.NewPCG(uint64(i), 7))
			return NewGame(l, HideFraction(l, 0.15+0.6*r.Float64(), r), nil, Rules{})
		}},
		{id: "curtain", name: "mystery + 1 curtain, cap 4, 8–10 colours", methods: allMethods, generate: func(i int) *Game {
			l := gen.Deal(uint64(3000+i), 8+i%3, 4, 2)
			return NewGame(l, Mystery(l), coverOne(l, i), Rules{})
		}},
		carry,
	}
}

// coverOne covers the first full tube with a curtain naming a colour it does not hold.
func coverOne(l *solver.Level, seed int) []solver.Color {
	covers := make([]solver.Color, len(l.Tubes))
	i := seed % (len(l.Tubes) - 2)
	for c := solver.Color(1); int(c) < len(l.Names); c++ {
		if !slices.Contains(l.Tubes[i], c) {
			covers[i] = c
			return covers
		}
	}
	return covers
}

// methodStats gathers one method's games in one class.
type methodStats struct {
	finished, games int
	ratios          []float64
	ruleRatios      []float64 // pours over the oracle's plan played under the level's pour rule
	optRatios       []float64 // pours over the optimum under the level's rules (Oracle)
	times           []time.Duration
	timeCuts        int             // decisions cut by the time cap (Options.MaxDecisionTime)
	states          []int           // the peak states of each decision
	works           []int           // the work of each decision (Options.MaxDecisionWork)
	preds           []float64       // p_success of each decision
	raws            []float64       // the same before calibration
	outcomes        []float64       // 1 if that game finished
	perLevel        map[int]*[2]int // games finished and played on each level
}

// finishError returns the finish rate's standard error over the truths within the levels:
// the levels fixed (as the ceiling, averaged over them, fixes them), each level's games a
// binomial sample of its own rate — and the plain binomial one, which counts the spread
// between levels as noise too.
func (s *methodStats) finishError() (within, binomial float64) {
	p := float64(s.finished) / float64(s.games)
	binomial = math.Sqrt(p * (1 - p) / float64(s.games))
	sum := 0.0
	for _, fg := range s.perLevel {
		if fg[1] < 2 {
			return math.NaN(), binomial
		}
		q, n := float64(fg[0])/float64(fg[1]), float64(fg[1])
		sum += q * (1 - q) / (n - 1) * n * n // the level's variance of its finish count
	}
	return math.Sqrt(sum) / float64(s.games), binomial
}

// classMethods returns the methods class c is played with: its own that -hidden-methods
// names (all without it), and exact when -hidden-methods names it.
func classMethods(c benchClass) []Method {
	if *benchMethods == "" {
		return c.methods
	}
	names := strings.Split(*benchMethods, ",")
	var out []Method
	for _, m := range c.methods {
		if slices.Contains(names, string(m)) {
			out = append(out, m)
		}
	}
	for _, m := range []Method{Exact, ISMCTS} {
		if slices.Contains(names, string(m)) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// ruleOracle counts the games of a class by the verdict of the oracle under the rule.
type ruleOracle struct{ solved, unsolvable, unknown int }

// playClass plays every level of class c with each method and the oracles.
func playClass(ctx context.Context, t *testing.T, c benchClass, levels int, dump io.Writer) (map[Method]*methodStats, int, ruleOracle, float64, int) {
	stats := map[Method]*methodStats{}
	methods := classMethods(c)
	for _, m := range methods {
		stats[m] = &methodStats{perLevel: map[int]*[2]int{}}
	}
	oracleFinished := 0
	var rule ruleOracle
	ceilingSum, ceilingN := 0.0, 0
	for i := *benchSkip; i < *benchSkip+levels; i++ {
		g0 := c.generate(i)
		if c.ceiling && *benchCeiling {
			view, _ := g0.View()
			if v, err := Ceiling(ctx, view, Options{MaxBeliefs: *benchBeliefs}); err == nil {
				ceilingSum += v
				ceilingN++
				t.Logf("%s level %d: ceiling %.4f", c.id, i, v)
			} else {
				t.Logf("level %d: ceiling: %v", i, err)
			}
		}
		for k, g := range truths(t, c, g0, i) {
			plan, _, err := solver.Solve(ctx, g.Full(), solver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			optimum, ruled := -1, -1
			if plan.Status == solver.StatusSolved {
				oracleFinished++
				optimum, ruled = len(plan.Moves), underRule(g, plan.Moves)
			}
			best := -1 // the optimum under the rule, -1 when unknown or unsolvable
			if *benchOracle >= 0 {
				o, err := Oracle(ctx, g, *benchOracle)
				if err != nil {
					t.Fatal(err)
				}
				switch o.Status {
				case solver.StatusSolved:
					rule.solved++
					best = len(o.Moves)
				case solver.StatusUnsolvable:
					rule.unsolvable++
				default:
					rule.unknown++
				}
				t.Logf("%s level %d truth %d: oracle under the rule %s, %d pours, %d states", c.id, i, k, o.Status, best, o.States)
			}
			for _, m := range methods {
				res, err := Play(ctx, g, Options{Method: m, Seed: uint64(i) + *benchSeed, Rules: g.Rules, EndgameBeliefs: *benchEndgame, MaxDecisionWork: *benchWork, MaxDecisionTime: *benchTime}, 400)
				if err != nil {
					t.Fatalf("%s level %d %s: %v", c.name, i, m, err)
				}
				t.Logf("%s level %d truth %d %s: finished %v, %d pours (oracle %d), %d decisions", c.id, i, k, m, res.Finished, res.Pours, optimum, len(res.Decisions))
				s := stats[m]
				s.games++
				if s.perLevel[i] == nil {
					s.perLevel[i] = &[2]int{}
				}
				s.perLevel[i][1]++
				out := 0.0
				if res.Finished {
					s.finished++
					s.perLevel[i][0]++
					out = 1
					if optimum > 0 {
						s.ratios = append(s.ratios, float64(res.Pours)/float64(optimum))
					}
					if ruled > 0 {
						s.ruleRatios = append(s.ruleRatios, float64(res.Pours)/float64(ruled))
					}
					if best > 0 {
						s.optRatios = append(s.optRatios, float64(res.Pours)/float64(best))
					}
				}
				for j, d := range res.Decisions {
					if *benchSlow > 0 && d.Elapsed > *benchSlow {
						t.Logf("slow: %s level %d truth %d %s decision %d: %v, %d pours, %d searches, %d beliefs, %d work, %d peak states", c.id, i, k, m, j, d.Elapsed, d.Pours, d.Searches, d.beliefs, d.Work, d.States)
					}
					s.times = append(s.times, d.Elapsed)
					if d.TimeCut {
						s.timeCuts++
					}
					s.works = append(s.works, d.Work)
					s.states = append(s.states, d.States)
					if d.Status == solver.StatusPartial || d.Status == solver.StatusUnknown {
						s.preds = append(s.preds, d.PSuccess)
						s.raws = append(s.raws, d.rawP)
						s.outcomes = append(s.outcomes, out)
						if dump != nil {
							fmt.Fprintf(dump, "%s,%s,%d,%d,%.4f,%.4f,%v,%v\n", c.id, m, i, k, d.rawP, d.hiddenShare, d.curtained, res.Finished)
						}
					}
				}
			}
		}
	}
	ceiling := math.NaN()
	if ceilingN > 0 {
		ceiling = ceilingSum / float64(ceilingN)
	}
	return stats, oracleFinished, rule, ceiling, ceilingN
}

// underRule returns the pours the oracle's plan takes when played on game g under its pour
// rule, each pour repeated until it has moved its units (a hidden unit of the run's colour
// stays behind, shows, and follows in the next pour), or -1 when the plan cannot be played so
// (a curtain is in the way). With everything in sight, the best play under the rule lies
// between the oracle's optimum and this.
func underRule(g *Game, moves []solver.Move) int {
	g = g.Clone()
	n := 0
	for _, m := range moves {
		for moved := 0; moved < m.Count; n++ {
			played, _, err := g.Pour(m.From, m.To)
			if err != nil {
				return -1
			}
			moved += played.Count
		}
	}
	return n
}

// truths returns the truths level i of class c is played against: its own, and on the small
// classes -hidden-truths − 1 completions resampled from what it shows (the same distribution
// as the deal's, given the view), so that finish rates compare with the ceiling with less noise.
func truths(t *testing.T, c benchClass, g *Game, i int) []*Game {
	out := []*Game{g}
	if !c.ceiling || *benchTruths <= 1 {
		return out
	}
	view, err := g.View()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Belief(view, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(i), 0x7e57))
	for len(out) < *benchTruths {
		s, err := b.Sample(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func median[T int | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// brier is the mean squared error of the predictions against the outcomes.
func brier(preds, outs []float64) float64 {
	sum := 0.0
	for i := range preds {
		sum += (preds[i] - outs[i]) * (preds[i] - outs[i])
	}
	return sum / float64(max(len(preds), 1))
}

// deciles lists predicted vs observed finish rates per decile of the prediction.
func deciles(preds, outs []float64) string {
	var n [10]int
	var p, o [10]float64
	for i, x := range preds {
		d := min(int(x*10), 9)
		n[d]++
		p[d] += x
		o[d] += outs[i]
	}
	var parts []string
	for d := range 10 {
		if n[d] > 0 {
			parts = append(parts, fmt.Sprintf("%.1f–%.1f: n=%d pred %.2f obs %.2f", float64(d)/10, float64(d+1)/10, n[d], p[d]/float64(n[d]), o[d]/float64(n[d])))
		}
	}
	return strings.Join(parts, "; ")
}

// TestBenchmark plays simulated levels with every method against their hidden truth, compares
// their pours with both oracles (solver.Solve on the full level, and Oracle under the rules) and prints
// the table of the README: go test ./solver/hidden -run TestBenchmark -bench-hidden -v
func TestBenchmark(t *testing.T) {
	if !*benchHidden {
		t.Skip("the hidden-units benchmark runs with -bench-hidden")
	}
	ctx := context.Background()
	var table strings.Builder
	fmt.Fprintf(&table, "| class | method | levels | finished | oracle finished | ceiling | pours / oracle (median) | pours / oracle under the rule | pours / oracle under the rule (optimal), median (games) | oracle under the rule finished (unknown) | decision ms median | worst ms | Brier | Brier uncalibrated | decisions | states a decision, median | worst |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var calib strings.Builder
	var dump io.Writer
	if *benchDump != "" {
		f, err := os.Create(*benchDump)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = f
	}
	for _, c := range benchClassList() {
		if *benchClasses != "" && !slices.Contains(strings.Split(*benchClasses, ","), c.id) {
			continue
		}
		stats, oracle, rule, ceiling, ceilingN := playClass(ctx, t, c, *benchLevels, dump)
		for _, m := range classMethods(c) {
			s := stats[m]
			if s.games == 0 {
				continue
			}
			ceil := "–"
			if c.ceiling && *benchCeiling {
				ceil = fmt.Sprintf("%.1f%% (%d levels)", 100*ceiling, ceilingN)
			}
			worst := slices.Max(append(s.times, 0))
			ruleRate := "–"
			if *benchOracle >= 0 {
				ruleRate = fmt.Sprintf("%.1f%% (%d)", 100*float64(rule.solved)/float64(s.games), rule.unknown)
			}
			row := fmt.Sprintf("| %s | %s | %d | %.1f%% | %.1f%% | %s | %.3f (%d) | %.3f | %.3f (%d) | %s | %.0f | %.0f | %.3f | %.3f | %d | %d | %d |\n",
				c.name, m, s.games, 100*float64(s.finished)/float64(s.games), 100*float64(oracle)/float64(s.games), ceil,
				median(s.ratios), len(s.ratios), median(s.ruleRatios), median(s.optRatios), len(s.optRatios), ruleRate, float64(median(s.times).Microseconds())/1000, float64(worst.Microseconds())/1000,
				brier(s.preds, s.outcomes), brier(s.raws, s.outcomes), len(s.times), median(s.states), slices.Max(append(s.states, 0)))
			table.WriteString(row)
			t.Log(row)
			t.Logf("%s, %s: work a decision, median %d, worst %d; %d of %d decisions cut by the time cap", c.name, m, median(s.works), slices.Max(append(s.works, 0)), s.timeCuts, len(s.times))
			within, binomial := s.finishError()
			rate := 100 * float64(s.finished) / float64(s.games)
			if math.IsNaN(within) {
				t.Logf("%s, %s: finished %.2f%% ± %.2f (binomial standard error)", c.name, m, rate, 100*binomial)
			} else {
				t.Logf("%s, %s: finished %.2f%% ± %.2f (standard error over truths within the levels; 95%% interval %.1f–%.1f%%), binomial ± %.2f",
					c.name, m, rate, 100*within, rate-196*within, rate+196*within, 100*binomial)
			}
			fmt.Fprintf(&calib, "%s, %s: %s\n  uncalibrated: %s\n", c.name, m, deciles(s.preds, s.outcomes), deciles(s.raws, s.outcomes))
		}
	}
	t.Logf("\n%s\ncalibration (p_success of each decision vs the game's outcome):\n%s", table.String(), calib.String())
}
