package solver_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// Benchmarks and the report behind the README's tables:
//
//	go test ./solver -run '^$' -bench . -benchtime 20x
//	go test ./solver -run TestReport -report -v
//	go test ./solver -run TestHardTier -hard -v -timeout 30m
//	go test ./solver -run TestMacroSummary -macros -v -timeout 30m
//	go test ./solver -run TestMacroSummary -macros -heldout -v -timeout 30m
//	go test ./solver -run TestThreeEmpty -three -v -timeout 60m
//
// Times are measured, never asserted: the machine is shared and noisy.

var (
	report      = flag.Bool("report", false, "print the solver's benchmark tables (seed levels and level classes)")
	hard        = flag.Bool("hard", false, "run the hard tier: every default-mode verdict within hardStates stored states")
	macroTables = flag.Bool("macros", false, "compare states expanded with and without macros on every benchmark level (gate: 1.1× the better)")
	heldOut     = flag.Bool("heldout", false, "with -macros: compare on 235 held-out levels (the benchmark's generators, seeds from 100) instead")
	threeEmpty  = flag.Bool("three", false, "solve 170 seeded 26-colour levels with three empty tubes within the default budget")
)

var seedFiles = []string{"seed-89", "seed-97", "seed-98"}

var algos = []struct {
	name string
	opts solver.Options
}{
	{"astar", solver.Options{}},
	{"astar-nomacros", solver.Options{NoMacros: true}},
	{"fast", solver.Options{Fast: true}},
	{"bfs", solver.Options{Algorithm: solver.BFS}},
	{"mcts", solver.Options{Algorithm: solver.MCTS}},
}

func BenchmarkSeeds(b *testing.B) {
	for _, f := range seedFiles {
		l := loadLevel(b, "../testdata/levels/"+f+".txt")
		for _, a := range algos {
			b.Run(f+"/"+a.name, func(b *testing.B) {
				b.ReportAllocs()
				var plan solver.Plan
				var stats solver.Stats
				for b.Loop() {
					plan, stats, _ = solver.Solve(context.Background(), l, a.opts)
				}
				b.ReportMetric(float64(len(plan.Moves)), "pours")
				b.ReportMetric(float64(stats.Expanded), "expanded")
			})
		}
	}
}

// levelClass is a seeded family of generated levels.
type levelClass struct {
	name   string
	levels []*solver.Level
	opts   solver.Options
}

func deals(colors []int, capacity, empties, seeds int) []*solver.Level {
	var out []*solver.Level
	for _, c := range colors {
		for s := range seeds {
			out = append(out, gen.Deal(uint64(s), c, capacity, empties))
		}
	}
	return out
}

func midGame(colors, seeds int) []*solver.Level {
	var out []*solver.Level
	for s := range seeds {
		out = append(out, gen.Scramble(gen.Deal(uint64(s), colors, 4, 2), uint64(s), 15))
	}
	return out
}

func levelClasses() []levelClass {
	return []levelClass{
		{"4-14 colours, 2 empty, cap 4", deals([]int{4, 6, 8, 10, 12, 14}, 4, 2, 10), solver.Options{}},
		{"14 colours, 2 empty, cap 4", deals([]int{14}, 4, 2, 30), solver.Options{}},
		{"8 colours, 2 empty, cap 3", deals([]int{8}, 3, 2, 10), solver.Options{}},
		{"8 colours, 2 empty, cap 5", deals([]int{8}, 5, 2, 10), solver.Options{}},
		{"8 colours, 2 empty, cap 6", deals([]int{8}, 6, 2, 10), solver.Options{}},
		{"4-10 colours, 1 empty", deals([]int{4, 6, 8, 10}, 4, 1, 10), solver.Options{}},
		{"12 colours mid-game", midGame(12, 20), solver.Options{}},
		{"20-28 colours, 2 empty", deals([]int{20, 24, 28}, 4, 2, 12), solver.Options{}},
		{"20-24 colours, 2 empty, fast", deals([]int{20, 22, 24}, 4, 2, 10), solver.Options{Fast: true}},
		{"10 colours, 3 empty, fast", deals([]int{10}, 4, 3, 20), solver.Options{Fast: true}},
		{"10 colours, 3 empty", deals([]int{10}, 4, 3, 20), solver.Options{}},
	}
}

// classResult sums a class: verdicts, and the time of each level.
type classResult struct {
	verdicts        map[solver.Status]int
	times           []time.Duration
	unsolvableTimes []time.Duration
	maxStored       int
	maxMemory       int64
}

func runClass(t testing.TB, c levelClass) classResult {
	r := classResult{verdicts: map[solver.Status]int{}}
	for _, l := range c.levels {
		plan, stats := solveChecked(t, l, c.opts)
		r.verdicts[plan.Status]++
		r.times = append(r.times, stats.Elapsed)
		if plan.Status == solver.StatusUnsolvable {
			r.unsolvableTimes = append(r.unsolvableTimes, stats.Elapsed)
		}
		r.maxStored = max(r.maxStored, stats.Stored)
		r.maxMemory = max(r.maxMemory, int64(stats.Stored)*solver.StateBytes(l))
	}
	slices.Sort(r.times)
	slices.Sort(r.unsolvableTimes)
	return r
}

func BenchmarkClasses(b *testing.B) {
	for _, c := range levelClasses() {
		b.Run(strings.NewReplacer(" ", "_", ",", "").Replace(c.name), func(b *testing.B) {
			var r classResult
			for b.Loop() {
				r = runClass(b, c)
			}
			b.ReportMetric(ms(r.times[len(r.times)/2]), "median-ms")
			b.ReportMetric(ms(r.times[len(r.times)-1]), "worst-ms")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -report to print the benchmark tables")
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "level\talgorithm\tpours\toptimal\texpanded\tstored\tmedian ms of 5\ttime vs bfs\t")
	for _, f := range seedFiles {
		l := loadLevel(t, "../testdata/levels/"+f+".txt")
		type row struct {
			name   string
			plan   solver.Plan
			stats  solver.Stats
			median time.Duration
		}
		var rows []row
		var bfs time.Duration
		for _, a := range algos {
			var times []time.Duration
			var plan solver.Plan
			var stats solver.Stats
			for range 5 {
				plan, stats, _ = solver.Solve(context.Background(), l, a.opts)
				times = append(times, stats.Elapsed)
			}
			slices.Sort(times)
			rows = append(rows, row{a.name, plan, stats, times[2]})
			if a.opts.Algorithm == solver.BFS {
				bfs = times[2]
			}
		}
		for _, r := range rows {
			fmt.Fprintf(w, "%s\t%s\t%d\t%v\t%d\t%d\t%.2f\t%.3f\t\n", f, r.name, len(r.plan.Moves), r.plan.Optimal,
				r.stats.Expanded, r.stats.Stored, ms(r.median), float64(r.median)/float64(bfs))
		}
	}
	w.Flush()
	fmt.Println()
	w = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "class\tlevels\tsolved\tunsolvable\tunknown\tmedian ms\tworst ms\tworst unsolvable ms\tmax states\tmax est. MB\t")
	for _, c := range levelClasses() {
		r := runClass(t, c)
		worstU := "-"
		if n := len(r.unsolvableTimes); n > 0 {
			worstU = fmt.Sprintf("%.1f", ms(r.unsolvableTimes[n-1]))
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.1f\t%s\t%d\t%.1f\t\n", c.name, len(c.levels),
			r.verdicts[solver.StatusSolved], r.verdicts[solver.StatusUnsolvable], r.verdicts[solver.StatusUnknown],
			ms(r.times[len(r.times)/2]), ms(r.times[len(r.times)-1]), worstU, r.maxStored, float64(r.maxMemory)/(1<<20))
	}
	w.Flush()
}

// hardStates is the hard tier's gate: every default-mode verdict (an optimal plan or a proof of
// unsolvability) within this many stored states. Stored states do not depend on the machine.
const hardStates = 100_000

// hardTier is a seeded set of levels where proofs are slow: many colours with two empty tubes
// (often unsolvable), with three (26 colours used to run out of memory), and capacities 5-6.
func hardTier() []levelClass {
	return []levelClass{
		{"24-30 colours, 2 empty, cap 4", deals([]int{24, 26, 28, 30}, 4, 2, 5), solver.Options{}},
		{"14-26 colours, 3 empty, cap 4", deals([]int{14, 18, 22, 26}, 4, 3, 5), solver.Options{}},
		{"12-16 colours, 2 empty, cap 5", deals([]int{12, 14, 16}, 5, 2, 3), solver.Options{}},
		{"12-16 colours, 2 empty, cap 6", deals([]int{12, 14, 16}, 6, 2, 3), solver.Options{}},
	}
}

// TestHardTier prints each hard level's verdict, stored states and time, and fails when a
// verdict needs more than hardStates stored states or is missing.
func TestHardTier(t *testing.T) {
	if !*hard {
		t.Skip("run with -hard to run the hard tier")
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "class\tlevel\tverdict\tpours\tlower bound\texpanded\tstored\tdead tests\tskeletons\tms\t")
	over := 0
	for _, c := range hardTier() {
		for i, l := range c.levels {
			plan, stats := solveChecked(t, l, c.opts)
			verdict := string(plan.Status)
			if plan.Status == solver.StatusSolved && !plan.Optimal || plan.Status == solver.StatusUnknown || stats.Stored > hardStates {
				verdict += " (over)"
				over++
			}
			drains, skeletons := solver.DrainStats(stats)
			fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t\n", c.name, i, verdict, len(plan.Moves), stats.LowerBound,
				stats.Expanded, stats.Stored, drains, skeletons, ms(stats.Elapsed))
		}
	}
	w.Flush()
	if over > 0 {
		t.Errorf("%d hard levels without a verdict within %d stored states", over, hardStates)
	}
}

// TestThreeEmpty solves 170 seeded 26-colour deals with three empty tubes (capacity 4) with the
// default options, prints the levels over hardStates stored states and a summary, and fails
// when a level gets no verdict within the default budget.
func TestThreeEmpty(t *testing.T) {
	if !*threeEmpty {
		t.Skip("run with -three to solve the 26-colour levels with three empty tubes")
	}
	var stored []int
	var elapsed []time.Duration
	verdicts := map[solver.Status]int{}
	for seed := range 170 {
		l := gen.Deal(uint64(seed), 26, 4, 3)
		plan, stats := solveChecked(t, l, solver.Options{})
		verdicts[plan.Status]++
		if plan.Status == solver.StatusSolved && !plan.Optimal {
			t.Errorf("seed %d: a plan without proof of optimality", seed)
		}
		stored = append(stored, stats.Stored)
		elapsed = append(elapsed, stats.Elapsed)
		if plan.Status == solver.StatusUnknown || stats.Stored > hardStates {
			fmt.Printf("seed %d: %s, %d pours, %d stored, stopped %q, %.0f ms\n", seed, plan.Status, len(plan.Moves), stats.Stored, stats.Stopped, ms(stats.Elapsed))
		}
	}
	slices.Sort(stored)
	slices.Sort(elapsed)
	over := len(stored) - sort.SearchInts(stored, hardStates+1)
	fmt.Printf("170 levels: %d solved, %d unsolvable, %d unknown; stored median %d, p90 %d, max %d, %d over %d; ms median %.0f, max %.0f\n",
		verdicts[solver.StatusSolved], verdicts[solver.StatusUnsolvable], verdicts[solver.StatusUnknown],
		stored[len(stored)/2], stored[len(stored)*9/10], stored[len(stored)-1], over, hardStates,
		ms(elapsed[len(elapsed)/2]), ms(elapsed[len(elapsed)-1]))
	if verdicts[solver.StatusUnknown] > 0 {
		t.Errorf("%d levels without a verdict within the default budget", verdicts[solver.StatusUnknown])
	}
}

// TestMacroSummary compares states expanded by the default search (macros) and without macros
// on every benchmark level of the report and the hard tier (the 14-colour seeds 0-9 are in two
// classes, so 10 of the 297 levels are counted twice), or with -heldout on levels the search
// was not tuned on, and fails when the default expands more than 1.1× the states of the better
// of the two on any level.
func TestMacroSummary(t *testing.T) {
	if !*macroTables {
		t.Skip("run with -macros to compare macros and no macros")
	}
	var levels []*solver.Level
	for _, f := range seedFiles {
		levels = append(levels, loadLevel(t, "../testdata/levels/"+f+".txt"))
	}
	for _, c := range append(levelClasses(), hardTier()...) {
		if !c.opts.Fast {
			levels = append(levels, c.levels...)
		}
	}
	if *heldOut {
		levels = heldOutLevels()
	}
	var within, plainWithin, macrosBetter, plainBetter int
	var sumM, sumP int
	worst := 0.0
	for _, l := range levels {
		_, m, _ := solver.Solve(context.Background(), l, solver.Options{})
		_, p, _ := solver.Solve(context.Background(), l, solver.Options{NoMacros: true})
		sumM += m.Expanded
		sumP += p.Expanded
		r := float64(m.Expanded) / float64(max(1, min(m.Expanded, p.Expanded)))
		worst = max(worst, r)
		if float64(p.Expanded) <= 1.1*float64(max(1, min(m.Expanded, p.Expanded))) {
			plainWithin++
		} else {
			t.Logf("no macros expand %.2f× the states of macros: %s (%d vs %d)", float64(p.Expanded)/float64(m.Expanded), l.Compact(), p.Expanded, m.Expanded)
		}
		switch {
		case r <= 1.1:
			within++
		default:
			t.Logf("macros expand %.2f× the states of no macros: %s (%d vs %d)", r, l.Compact(), m.Expanded, p.Expanded)
		}
		switch {
		case m.Expanded < p.Expanded:
			macrosBetter++
		case p.Expanded < m.Expanded:
			plainBetter++
		}
	}
	fmt.Printf("%d levels: default (macros) within 1.1× of the better of the two on %d (no macros on %d); macros expand fewer on %d, more on %d; worst %.2f×; total expanded %d with macros, %d without\n",
		len(levels), within, plainWithin, macrosBetter, plainBetter, worst, sumM, sumP)
	if within < len(levels) {
		t.Errorf("macros expand more than 1.1× the states of the better mode on %d of %d levels", len(levels)-within, len(levels))
	}
}

// heldOutLevels are 235 levels from the benchmark's generators with seeds the benchmark does
// not use (from 100): the check that a change to the search's order is not fitted to the
// benchmark's levels.
func heldOutLevels() []*solver.Level {
	seeds := func(colors []int, capacity, empties, n int) []*solver.Level {
		var out []*solver.Level
		for _, c := range colors {
			for s := 100; s < 100+n; s++ {
				out = append(out, gen.Deal(uint64(s), c, capacity, empties))
			}
		}
		return out
	}
	var levels []*solver.Level
	levels = append(levels, seeds([]int{4, 6, 8, 10, 12, 14}, 4, 2, 20)...)
	levels = append(levels, seeds([]int{10, 12}, 4, 3, 20)...)
	levels = append(levels, seeds([]int{8}, 5, 2, 20)...)
	levels = append(levels, seeds([]int{8}, 6, 2, 20)...)
	levels = append(levels, seeds([]int{14, 18, 22}, 4, 3, 5)...)
	levels = append(levels, seeds([]int{12, 14}, 5, 2, 5)...)
	levels = append(levels, seeds([]int{12, 14}, 6, 2, 5)...)
	return levels
}

// solveChecked solves l and replays any plan it calls solved, failing the test on an error or
// an illegal plan.
func solveChecked(t testing.TB, l *solver.Level, opts solver.Options) (solver.Plan, solver.Stats) {
	t.Helper()
	plan, stats, err := solver.Solve(context.Background(), l, opts)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Status == solver.StatusSolved {
		if err := solver.CheckPlan(l, plan.Moves); err != nil {
			t.Fatal(err)
		}
	}
	return plan, stats
}
