package vision

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// shared is where the third-party screenshots live: beside the checkout, never in it.
const shared = "../../shared/screenshots"

type truthEntry struct {
	Kind     string          `json:"kind"`
	Level    json.RawMessage `json:"level"`
	NoPuzzle bool            `json:"no_puzzle"`
	Hidden   bool            `json:"hidden"`
	Curtain  bool            `json:"curtain"`
	Note     string          `json:"note"`
}

// truthFolders are the folders of ../shared/screenshots with a truth.json of their own.
var truthFolders = []string{".", "new-games"}

// loadTruth reads every folder's truth.json, keyed by the image's path under shared. The
// screenshots live beside the checkout: missing, the test fails under CI and skips elsewhere.
func loadTruth(t testing.TB) map[string]truthEntry {
	all := map[string]truthEntry{}
	for _, dir := range truthFolders {
		data, err := os.ReadFile(filepath.Join(shared, dir, "truth.json"))
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the shared screenshots are missing under CI: %v", err)
			}
			t.Skipf("no shared screenshots: %v", err)
		}
		var truth map[string]truthEntry
		if err := json.Unmarshal(data, &truth); err != nil {
			t.Fatalf("%s/truth.json: %v", dir, err)
		}
		for name, e := range truth {
			all[filepath.ToSlash(filepath.Join(dir, name))] = e
		}
	}
	return all
}

// unsupported lists the water-sort screenshots the reader is known not to read, and why.
var unsupported = map[string]string{}

// compare checks a reading against ground truth up to a renaming of colours. A truth that
// labels two colours alike where the image shows two (its colour then has twice the capacity
// in units, which no level can have) is accepted when the reading splits exactly that colour.
func compare(got *solver.Level, raw json.RawMessage) (ok bool, why string) {
	var doc struct {
		Capacity int               `json:"capacity"`
		Tubes    []json.RawMessage `json:"tubes"`
	}
	json.Unmarshal(raw, &doc)
	if got == nil {
		return false, "no level read"
	}
	if got.Capacity != doc.Capacity || len(got.Tubes) != len(doc.Tubes) {
		return false, fmt.Sprintf("capacity %d, %d tubes; want %d, %d", got.Capacity, len(got.Tubes), doc.Capacity, len(doc.Tubes))
	}
	toTruth := map[string]string{}
	fromTruth := map[string]map[string]bool{}
	truthCount := map[string]int{}
	curtainOf := map[string]string{} // got colour → truth curtain label, kept one-to-one
	curtainFrom := map[string]string{}
	for i, raw := range doc.Tubes {
		var want []string
		if json.Unmarshal(raw, &want) != nil {
			var c struct{ Curtain string }
			json.Unmarshal(raw, &c)
			if !got.Curtained(i) {
				return false, fmt.Sprintf("tube %d: read %v, want a curtain", i+1, got.Tokens(i))
			}
			g := got.Name(got.Curtains[i])
			if prev, ok := curtainOf[g]; ok && prev != c.Curtain {
				return false, fmt.Sprintf("curtain colour %s stands for both %s and %s", g, prev, c.Curtain)
			}
			if prev, ok := curtainFrom[c.Curtain]; ok && prev != g {
				return false, fmt.Sprintf("curtain %s read as both %s and %s", c.Curtain, prev, g)
			}
			curtainOf[g], curtainFrom[c.Curtain] = c.Curtain, g
			continue
		}
		if got.Curtained(i) {
			return false, fmt.Sprintf("tube %d: read a curtain, want %v", i+1, want)
		}
		if len(want) != len(got.Tubes[i]) {
			return false, fmt.Sprintf("tube %d holds %d units, want %d", i+1, len(got.Tubes[i]), len(want))
		}
		for j, w := range want {
			g := got.Name(got.Tubes[i][j])
			if (g == "?") != (w == "?") {
				return false, fmt.Sprintf("tube %d unit %d: %s, want %s", i+1, j+1, g, w)
			}
			if w == "?" {
				continue
			}
			truthCount[w]++
			if prev, ok := toTruth[g]; ok && prev != w {
				return false, fmt.Sprintf("colour %s stands for both %s and %s", g, prev, w)
			}
			toTruth[g] = w
			if fromTruth[w] == nil {
				fromTruth[w] = map[string]bool{}
			}
			fromTruth[w][g] = true
		}
	}
	for w, gs := range fromTruth {
		if len(gs) > 1 {
			if truthCount[w] == doc.Capacity {
				return false, fmt.Sprintf("truth colour %s read as %d colours", w, len(gs))
			}
			why = fmt.Sprintf("truth erratum: its colour %s has %d units; the image shows %d colours", w, truthCount[w], len(gs))
		}
	}
	return true, why
}

// screenKind sorts a screenshot into the kinds the reader is measured on: a screen without a
// puzzle, one with covered (curtained) tubes, with hidden units, a photo of a screen, a small
// image, or a plain screenshot.
func screenKind(e truthEntry, width int) string {
	switch {
	case e.NoPuzzle:
		return "no-puzzle"
	case e.Curtain:
		return "covered"
	case e.Hidden:
		return "hidden"
	case strings.Contains(strings.ToLower(e.Note), "photo of"):
		return "photo"
	case width < smallWidth:
		return "small"
	}
	return "plain"
}

// smallWidth is the width below which a screenshot counts as small in the tables.
const smallWidth = 500

// outcome is what became of one screenshot.
type outcome int

const (
	exact       outcome = iota // the level read is the truth, or a screen without a puzzle refused as such
	refused                    // an error: the player is told, no wrong plan follows
	silentWrong                // a wrong level (or a level for no puzzle) returned without an error
)

// judge reads one screenshot and says what became of it. A reading returned with an error
// (low_confidence) is refused, never exact, whatever it holds.
func judge(e truthEntry, data []byte) (o outcome, why string, width int) {
	r, err := Read(data)
	if r != nil {
		width = r.Width
	}
	switch {
	case e.NoPuzzle && solver.ErrorCode(err) == solver.CodeNoPuzzle:
		return exact, fmt.Sprint(err), width
	case e.NoPuzzle && err != nil:
		return refused, fmt.Sprintf("refused, but not as no_puzzle: %v", err), width
	case e.NoPuzzle:
		return silentWrong, fmt.Sprintf("read a level from a screen without one: %s", r.Level.Compact()), width
	case err != nil:
		if r != nil && r.Level != nil {
			if ok, _ := compare(r.Level, e.Level); ok {
				return refused, fmt.Sprintf("right, but refused: %v", err), width
			}
		}
		return refused, fmt.Sprint(err), width
	}
	ok, why := compare(r.Level, e.Level)
	if ok {
		return exact, why, width
	}
	return silentWrong, why, width
}

// TestRealScreenshots reads every third-party screenshot in ../shared/screenshots and its
// new-games folder and compares with their truth.json: every water-sort level exact (a
// reading refused as low_confidence is not exact), every screen without a puzzle refused as
// such, none silently wrong. Ball-sort screenshots are reported apart, not required. Run
// with -v for the per-image, per-game and per-kind tables.
func TestRealScreenshots(t *testing.T) {
	truth := loadTruth(t)
	names := make([]string, 0, len(truth))
	for n := range truth {
		names = append(names, n)
	}
	sort.Strings(names)
	type tally struct{ n, exact, refused, wrong int }
	add := func(m map[string]*tally, key string, o outcome) {
		if m[key] == nil {
			m[key] = &tally{}
		}
		m[key].n++
		switch o {
		case exact:
			m[key].exact++
		case refused:
			m[key].refused++
		case silentWrong:
			m[key].wrong++
		}
	}
	games, kinds := map[string]*tally{}, map[string]*tally{}
	for _, n := range names {
		e := truth[n]
		data, err := os.ReadFile(filepath.Join(shared, n))
		if err != nil {
			t.Fatal(err)
		}
		o, why, width := judge(e, data)
		game := strings.SplitN(filepath.Base(n), "__", 2)[0] + " (" + e.Kind + ")"
		add(games, game, o)
		kind := screenKind(e, width)
		if e.Kind == "ball" && !e.NoPuzzle {
			kind = "ball sort"
		}
		add(kinds, kind, o)
		t.Logf("%-12s %-9s %-58s %s", [...]string{"exact", "refused", "SILENT WRONG"}[o], kind, n, why)
		if kind != "ball sort" && o != exact && unsupported[n] == "" {
			t.Errorf("%s: %s", n, why)
		}
	}
	table := func(title string, m map[string]*tally) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("%-28s %6s %6s %8s %12s", title, "images", "exact", "refused", "silent wrong")
		for _, k := range keys {
			c := m[k]
			t.Logf("%-28s %6d %6d %8d %12d", k, c.n, c.exact, c.refused, c.wrong)
		}
	}
	table("game", games)
	table("kind", kinds)
}
