package vision

import (
	"flag"
	"fmt"

	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// The randomised evaluation reads screenshots drawn by render.Random (puzzles) and
// render.NonPuzzle (screens a reader must refuse) and compares with their exact truth. The
// normal test command runs a fixed slice; the full evaluation is
//
//	go test ./vision -run TestRandomScenes -random 2000 -seed S -v
//
// and -random-fix hidden=grey-box,cover=none draws the puzzle scenes with those factors
// fixed (render.RandomWith), to evaluate one corner of the distribution.
//
// Seeds used while tuning the reader: 1 (the CI slice's) and 7. Report on others.
var (
	randomN    = flag.Int("random", 0, "TestRandomScenes: evaluate this many random puzzle screenshots (and a quarter as many non-puzzle screens) instead of the CI slice")
	randomSeed = flag.Uint64("seed", 1, "TestRandomScenes: the seed the scenes' seeds derive from")
	randomList = flag.Bool("random-list", false, "TestRandomScenes: list every scene not read exactly, with its seed and the reason")
	randomFix  = flag.String("random-fix", "", "TestRandomScenes: draw the puzzle scenes with these factors fixed (factor=value,factor=value; render.RandomWith), to evaluate one corner of the distribution")
)

// fixedFactors parses -random-fix.
func fixedFactors(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	fixed := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("-random-fix: %q is not factor=value", kv)
		}
		fixed[k] = v
	}
	return fixed, nil
}

// The CI slice: puzzle and non-puzzle scenes from seed 1, and what the reader must hold on them.
const (
	ciPuzzles    = 150
	ciNonPuzzles = 50
	ciSeed       = 1
	// ciMinExact is the share of puzzle scenes read exactly, ciMaxSilent the number read wrong
	// without an error, ciMinRefusal the share of non-puzzle scenes refused. Measured on the
	// slice when set (reader of session 9): 46.0% exact (43.3% in sessions 7 and 8, 37.3% in
	// session 6, 41.3% in session 5), 0 silently wrong (1 in sessions 5 to 8), 100% refused.
	// The floors are far from the targets (98%, 0.2%): they guard against regressions.
	ciMinExact   = 0.44
	ciMaxSilent  = 0
	ciMinRefusal = 0.96
)

// slowRead is the read time over which -random-list names a scene (the budget is 80 ms of one
// core at 1080×2400; the sweep shares the machine).
const slowRead = 2 * time.Second

// sceneResult is the reader's outcome on one drawn scene.
type sceneResult struct {
	seed       uint64
	noPuzzle   bool
	outcome    outcome
	code       solver.Code
	confidence float64 // of the reading, when one was returned (with or without an error)
	right      bool    // the reading (returned or attached to an error) is the truth
	factors    map[string]string
	took       time.Duration
	why        string
	doubts     string // the returned reading's reasons, numbers and colour names blanked
}

// sceneSeed spreads scene i of a run over the seed space; puzzles and non-puzzles differ.
func sceneSeed(base uint64, i int, noPuzzle bool) uint64 {
	s := base*1_000_003 + uint64(i)
	if noPuzzle {
		s += 1 << 40
	}
	return s
}

// readScene draws scene seed (a puzzle with the factors in fixed, if any) and reads it.
func readScene(t testing.TB, seed uint64, noPuzzle bool, fixed map[string]string) sceneResult {
	var sc *render.Scene
	var err error
	if noPuzzle {
		sc, err = render.NonPuzzle(seed)
	} else {
		sc, err = render.RandomWith(seed, fixed)
	}
	if err != nil {
		t.Errorf("drawing scene %d: %v", seed, err)
		return sceneResult{seed: seed, noPuzzle: noPuzzle, outcome: refused, why: "not drawn"}
	}
	res := sceneResult{seed: seed, noPuzzle: sc.Truth.NoPuzzle, factors: sc.Factors}
	start := time.Now()
	r, err := Read(sc.Data)
	res.took = time.Since(start)
	res.code = solver.ErrorCode(err)
	if r != nil && r.Level != nil {
		res.confidence = r.Confidence
		res.right = !res.noPuzzle && r.Level.Canonical() == sc.Truth.Level.Canonical()
		res.doubts = blank(strings.Join(r.Reasons, " + "))
	}
	// A position already finished is nothing to solve: refusing it as no_puzzle is right. One
	// whose every uncovered tube is full allows no pour, a covered tube taking none either
	// (the renderer deals some; no game does): a reading of it right to the unit is exact,
	// refused for that or not.
	finished := !res.noPuzzle && sc.Truth.Level.Solved() && !sc.Truth.Level.HasHidden() && !sc.Truth.Level.HasCurtains()
	dead := !res.noPuzzle && spareTubes(sc.Truth.Level) == 0
	switch {
	case finished && res.code == solver.CodeNoPuzzle:
		res.outcome, res.why = exact, fmt.Sprint(err)
	case dead && res.right:
		res.outcome, res.why = exact, fmt.Sprint(err)
	case res.noPuzzle && err != nil:
		res.outcome, res.why = exact, fmt.Sprint(err)
	case res.noPuzzle:
		res.outcome, res.why = silentWrong, "read a level from a screen without one: "+r.Level.Compact()
	case err != nil:
		res.outcome, res.why = refused, fmt.Sprint(err)
	case res.right:
		res.outcome = exact
	default:
		res.outcome = silentWrong
		res.why = fmt.Sprintf("got  %s\nwant %s\nconfidence %.2f %q", r.Level.Compact(), sc.Truth.Level.Compact(), r.Confidence, r.Reasons)
	}
	return res
}

// TestRandomScenes reads drawn screenshots: the CI slice by default, the full evaluation with
// -random N. It asserts the slice's floors and prints the evaluation's figures.
func TestRandomScenes(t *testing.T) {
	n, m, seed := ciPuzzles, ciNonPuzzles, uint64(ciSeed)
	if *randomN > 0 {
		n, m, seed = *randomN, max(1, *randomN/4), *randomSeed
	}
	fixed, err := fixedFactors(*randomFix)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := render.RandomWith(seed, fixed); err != nil {
		t.Fatal(err)
	}
	results := make([]sceneResult, n+m)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if i < n {
					results[i] = readScene(t, sceneSeed(seed, i, false), false, fixed)
				} else {
					results[i] = readScene(t, sceneSeed(seed, i-n, true), true, nil)
				}
			}
		}()
	}
	for i := range n + m {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	s := summarise(results)
	t.Logf("seed %d: %d puzzle scenes, %d non-puzzle scenes", seed, s.puzzles, s.nonPuzzles)
	if fixed != nil {
		t.Logf("puzzle scenes drawn with %v fixed", fixed)
	}
	for _, line := range s.report(results) {
		t.Log(line)
	}
	for _, r := range results {
		if *randomList && r.outcome == refused {
			kind := "refused"
			if r.right {
				kind = "refused a right reading" // the confidence cut's price
			}
			t.Logf("%s, scene %d (puzzle %v; %s): %s", kind, r.seed, !r.noPuzzle, factorList(r.factors), r.why)
		}
		if r.outcome == silentWrong {
			t.Logf("silently wrong, scene %d (%v):\n%s", r.seed, factorList(r.factors), r.why)
		}
		if *randomList && r.took > slowRead {
			t.Logf("slow read, scene %d (%v): %v", r.seed, factorList(r.factors), r.took.Round(time.Millisecond))
		}
	}
	if *randomN > 0 {
		return
	}
	if got := float64(s.exact) / float64(s.puzzles); got < ciMinExact {
		t.Errorf("exact %.1f%% of puzzle scenes, want at least %.0f%%", 100*got, 100*ciMinExact)
	}
	if s.silent > ciMaxSilent {
		t.Errorf("%d scenes silently wrong, want at most %d", s.silent, ciMaxSilent)
	}
	if got := float64(s.npRefused) / float64(s.nonPuzzles); got < ciMinRefusal {
		t.Errorf("%.1f%% of non-puzzle scenes refused, want at least %.0f%%", 100*got, 100*ciMinRefusal)
	}
}

// summary holds an evaluation's counts.
type summary struct {
	puzzles, exact, refused, silent      int
	nonPuzzles, npRefused, npAsNoPuzzle  int
	rightRefused, wrongPassed, wrongSeen int
}

func summarise(results []sceneResult) summary {
	var s summary
	for _, r := range results {
		if r.noPuzzle {
			s.nonPuzzles++
			if r.outcome == exact {
				s.npRefused++
			}
			if r.code == solver.CodeNoPuzzle {
				s.npAsNoPuzzle++
			}
			continue
		}
		s.puzzles++
		switch r.outcome {
		case exact:
			s.exact++
		case refused:
			s.refused++
		case silentWrong:
			s.silent++
		}
		// The confidence cut: of the readings that came back (passed or refused as
		// low_confidence), right ones refused and wrong ones passed. (A right reading of a
		// level allowing no pour, refused for it, counts as exact: refusing it is no price.)
		if r.code == solver.CodeLowConfidence && r.right && r.outcome == refused {
			s.rightRefused++
		}
		if r.confidence > 0 && !r.right {
			s.wrongSeen++
			if r.outcome == silentWrong {
				s.wrongPassed++
			}
		}
	}
	return s
}

// report renders the summary, the per-factor table and the read times as lines.
func (s summary) report(results []sceneResult) []string {
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	all := s.puzzles + s.nonPuzzles
	lines := []string{
		fmt.Sprintf("puzzles: exact %.1f%% (%d/%d), refused %.1f%% (%d), silently wrong %.2f%% of all images (%d of %d)",
			pct(s.exact, s.puzzles), s.exact, s.puzzles, pct(s.refused, s.puzzles), s.refused, pct(s.silent, all), s.silent, all),
		fmt.Sprintf("non-puzzle screens refused %.1f%% (%d/%d; %d as no_puzzle)", pct(s.npRefused, s.nonPuzzles), s.npRefused, s.nonPuzzles, s.npAsNoPuzzle),
		fmt.Sprintf("confidence cut: %d right readings refused as low_confidence; %d of %d wrong readings passed it",
			s.rightRefused, s.wrongPassed, s.wrongSeen),
	}
	var times []time.Duration
	for _, r := range results {
		times = append(times, r.took)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	lines = append(lines, fmt.Sprintf("read time: median %v, worst %v (one read at a time, on a loaded machine)",
		times[len(times)/2].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond)))
	reasons := map[string]int{}
	for _, r := range results {
		if !r.noPuzzle && r.outcome == refused {
			reasons[blank(r.why)]++
		}
	}
	type reason struct {
		why string
		n   int
	}
	var rs []reason
	for why, n := range reasons {
		rs = append(rs, reason{why, n})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].n > rs[j].n || (rs[i].n == rs[j].n && rs[i].why < rs[j].why) })
	for i, r := range rs {
		if i == 12 {
			break
		}
		lines = append(lines, fmt.Sprintf("refused %4d× %s", r.n, r.why))
	}
	// The confidence cut's other side: the readings returned without an error, grouped by
	// their reasons, so that a doubt that passes wrong readings shows.
	type passed struct{ right, wrong int }
	byDoubts := map[string]*passed{}
	for _, r := range results {
		if r.noPuzzle || r.code != "" || r.confidence == 0 {
			continue
		}
		if byDoubts[r.doubts] == nil {
			byDoubts[r.doubts] = &passed{}
		}
		if r.right {
			byDoubts[r.doubts].right++
		} else {
			byDoubts[r.doubts].wrong++
		}
	}
	doubts := make([]string, 0, len(byDoubts))
	for d := range byDoubts {
		doubts = append(doubts, d)
	}
	sort.Strings(doubts)
	for _, d := range doubts {
		p, label := byDoubts[d], d
		if label == "" {
			label = "(no reasons)"
		}
		lines = append(lines, fmt.Sprintf("passed %4d right %3d wrong: %s", p.right, p.wrong, label))
	}
	lines = append(lines, fmt.Sprintf("%-26s %6s %7s %8s %7s", "factor=value (puzzles)", "scenes", "exact%", "refused", "silent"))
	type tally struct{ n, exact, refused, silent int }
	per := map[string]*tally{}
	for _, r := range results {
		if r.noPuzzle {
			continue
		}
		for k, v := range r.factors {
			key := k + "=" + v
			if per[key] == nil {
				per[key] = &tally{}
			}
			c := per[key]
			c.n++
			switch r.outcome {
			case exact:
				c.exact++
			case refused:
				c.refused++
			case silentWrong:
				c.silent++
			}
		}
	}
	keys := make([]string, 0, len(per))
	for k := range per {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := per[k]
		lines = append(lines, fmt.Sprintf("%-26s %6d %6.1f%% %8d %7d", k, c.n, pct(c.exact, c.n), c.refused, c.silent))
	}
	return lines
}

// digits matches the numbers in a message, names its colour names, so that messages group by
// their reason.
var digits, names = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`), regexp.MustCompile(`"[a-z-]+"`)

// blank blanks a message's numbers and colour names.
func blank(why string) string {
	return names.ReplaceAllString(digits.ReplaceAllString(why, "#"), `"C"`)
}

func factorList(f map[string]string) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+f[k])
	}
	return strings.Join(parts, " ")
}
