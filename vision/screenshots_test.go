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
}

func loadTruth(t testing.TB) map[string]truthEntry {
	data, err := os.ReadFile(filepath.Join(shared, "truth.json"))
	if err != nil {
		t.Skipf("no shared screenshots: %v", err)
	}
	var truth map[string]truthEntry
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	return truth
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

// TestRealScreenshots reads every third-party screenshot and compares with truth.json: every
// water-sort level exact (but the unsupported ones), every screen without a puzzle rejected as
// such. Ball-sort screenshots are reported, not required. Run with -v for the per-image and
// per-game table.
func TestRealScreenshots(t *testing.T) {
	truth := loadTruth(t)
	names := make([]string, 0, len(truth))
	for n := range truth {
		names = append(names, n)
	}
	sort.Strings(names)
	type tally struct{ ok, n int }
	games := map[string]*tally{}
	for _, n := range names {
		e := truth[n]
		data, err := os.ReadFile(filepath.Join(shared, n))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(data)
		var ok bool
		var why string
		switch {
		case e.NoPuzzle:
			ok = solver.ErrorCode(err) == solver.CodeNoPuzzle
			why = fmt.Sprint(err)
		case r == nil:
			why = fmt.Sprint(err)
		default:
			ok, why = compare(r.Level, e.Level)
		}
		game := strings.SplitN(n, "__", 2)[0] + " (" + e.Kind + ")"
		if games[game] == nil {
			games[game] = &tally{}
		}
		games[game].n++
		if ok {
			games[game].ok++
		}
		t.Logf("%-5v %-6s %-40s %s", ok, e.Kind, n, why)
		if !ok && e.Kind == "water" && unsupported[n] == "" {
			t.Errorf("%s: %s (read error: %v)", n, why, err)
		}
	}
	keys := make([]string, 0, len(games))
	for g := range games {
		keys = append(keys, g)
	}
	sort.Strings(keys)
	for _, g := range keys {
		t.Logf("%-28s %d/%d exact", g, games[g].ok, games[g].n)
	}
}
