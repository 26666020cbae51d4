//go:build !novision

package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/hidden"
	"github.com/decant/decant/vision"
)

// sharedScreens holds the third-party screenshots, beside the checkout.
const sharedScreens = "../../../shared/screenshots"

// TestHiddenScreenshotsGetLegalSegments reads every real water-sort screenshot with hidden
// units or curtains, and for each that reads exactly as truth.json says (up to colour names),
// checks that the planner answers with a partial plan whose pours are legal under every
// completion it can sample.
func TestHiddenScreenshotsGetLegalSegments(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedScreens, "truth.json"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs the shared screenshots: %v", err)
		}
		t.Skipf("no shared screenshots: %v", err)
	}
	var truth map[string]struct {
		Kind   string          `json:"kind"`
		Level  json.RawMessage `json:"level"`
		Hidden bool            `json:"hidden"`
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(truth))
	for name, e := range truth {
		if e.Kind == "water" && e.Hidden {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	planned := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			img, err := os.ReadFile(filepath.Join(sharedScreens, name))
			if err != nil {
				t.Fatal(err)
			}
			reading, err := vision.Read(img)
			if err != nil {
				t.Skipf("not read: %v", err)
			}
			want, err := solver.ParseLevel(truth[name].Level)
			if err != nil {
				t.Skipf("truth.json's level breaks the rules: %v", err)
			}
			if reading.Level.Canonical() != want.Canonical() {
				t.Skipf("read %s, truth %s", reading.Level.Canonical(), want.Canonical())
			}
			a, err := hidden.Plan(t.Context(), reading.Level, hidden.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != solver.StatusPartial && a.Status != solver.StatusUnsolvable {
				t.Fatalf("got %s, want partial (or a proven unsolvable)", a.Status)
			}
			b, err := hidden.Belief(reading.Level, hidden.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(3, 4))
			for range 100 {
				s, err := b.Sample(r)
				if err != nil {
					t.Fatal(err)
				}
				for i, m := range a.Moves {
					if got, _, err := s.Pour(m.From, m.To); err != nil || got != m {
						t.Fatalf("move %d (%d→%d) under a completion: got %+v, %v", i+1, m.From+1, m.To+1, got, err)
					}
				}
			}
			planned++
			if a.Reveal != nil {
				t.Logf("%s: %d pours, reveals tube %d, p_success %.2f", a.Status, len(a.Moves), a.Reveal.Tube+1, a.PSuccess)
			} else {
				t.Logf("%s: %s", a.Status, reading.Level.Compact())
			}
		})
	}
	if planned == 0 && len(names) > 0 {
		t.Errorf("none of the %d screenshots with hidden units read exactly", len(names))
	}
}
