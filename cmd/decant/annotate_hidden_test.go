//go:build !novision

package main

import (
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// solve --annotate on a level with hidden units draws the segment to play now, as it draws a
// whole plan: the image is the rendered level with exactly the answer's pours on it.
func TestAnnotateHiddenSegment(t *testing.T) {
	text := "4: ? ? ? red | ? ? ? blue | ? ? ? green | ? ? ? red | ? ? ? yellow | |"
	levelFile := writeLevel(t, text)
	ann := filepath.Join(t.TempDir(), "segment.png")
	out, errOut, code := decant(t, "", "solve", levelFile, "--annotate", ann)
	if code != 0 || !strings.Contains(out, "partial: play") || !strings.Contains(out, "annotated image: "+ann) {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	out, _, code = decant(t, "", "solve", "--json", levelFile)
	var doc struct {
		Status string `json:"status"`
		Moves  []struct {
			From int `json:"from"`
			To   int `json:"to"`
		} `json:"moves"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.Status != "partial" || len(doc.Moves) == 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	plan := solver.Plan{Status: solver.StatusPartial}
	for _, m := range doc.Moves {
		plan.Moves = append(plan.Moves, solver.Move{From: m.From, To: m.To})
	}
	level, err := solver.ParseLevel([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	annotated, err := os.ReadFile(ann)
	if err != nil {
		t.Fatal(err)
	}
	got := decodePNG(t, annotated)
	want := decodePNG(t, mustAnnotate(t, level, plan))
	bare := decodePNG(t, mustAnnotate(t, level, solver.Plan{Status: solver.StatusPartial}))
	if d := differing(got, want); d != 0 {
		t.Errorf("%d pixels differ from the level rendered with the segment's %d pours drawn", d, len(plan.Moves))
	}
	if d := differing(got, bare); d < 100 {
		t.Errorf("only %d pixels differ from the level rendered without pours: no arrows drawn", d)
	}
	if _, _, code := decant(t, "", "solve", levelFile, "--interactive", "--annotate", ann); code != exitUsage {
		t.Errorf("--annotate with --interactive: exit %d, want %d", code, exitUsage)
	}
}

func mustAnnotate(t *testing.T, level *solver.Level, plan solver.Plan) []byte {
	t.Helper()
	b, err := annotateRendered(level, plan)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// differing counts the pixels where a and b differ (all of b's when the sizes differ).
func differing(a, b image.Image) int {
	r := b.Bounds()
	if a.Bounds() != r {
		return r.Dx() * r.Dy()
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}
