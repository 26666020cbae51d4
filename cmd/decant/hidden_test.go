package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeLevel(t *testing.T, level string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "level.txt")
	if err := os.WriteFile(p, []byte(level), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSolveHiddenUnits(t *testing.T) {
	mystery := writeLevel(t, "4: ? ? ? red | ? ? ? blue | ? ? ? green | ? ? ? red | ? ? ? yellow | |")
	out, errOut, code := decant(t, "", "solve", mystery)
	if code != 0 || !strings.Contains(out, "partial: play") || !strings.Contains(out, "next level") || !strings.Contains(out, "!") {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	out, _, code = decant(t, "", "solve", "--json", mystery)
	var doc struct {
		Status    string           `json:"status"`
		Moves     []map[string]any `json:"moves"`
		Reveal    *struct{ Move, Tube int }
		PSuccess  float64 `json:"p_success"`
		PSamples  int     `json:"p_samples"`
		NextLevel struct {
			Tubes [][]string `json:"tubes"`
		} `json:"next_level"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if doc.Status != "partial" || doc.Reveal == nil || doc.Reveal.Move != len(doc.Moves)-1 || doc.PSuccess <= 0 || doc.PSamples == 0 {
		t.Errorf("got %+v", doc)
	}
	if tube := doc.NextLevel.Tubes[doc.Reveal.Tube]; tube[len(tube)-1] != "!" {
		t.Errorf("next_level tube %d: got %v, want \"!\" on top", doc.Reveal.Tube, tube)
	}
	// Tops r, b and a full tube: no pour is legal whatever is hidden.
	if out, _, code := decant(t, "", "solve", writeLevel(t, "2: ? r | ? b | r b")); code != exitUnsolvable {
		t.Errorf("stuck level: exit %d, want %d\n%s", code, exitUnsolvable, out)
	}
	if _, _, code := decant(t, "2: ? r | ? b | |", "solve", "--interactive", "-"); code != exitUsage {
		t.Errorf("--interactive on standard input: exit %d, want %d", code, exitUsage)
	}
	// Every planning method the package has is one --method takes, and no other.
	for _, m := range []string{"pimc", "lookahead", "endgame", "ismcts", "exact"} {
		if out, errOut, code := decant(t, "", "solve", "--method", m, writeLevel(t, "3: ? ? r | ? ? b | ? r b | |")); code != 0 || !strings.Contains(out, "partial: play") {
			t.Errorf("--method %s: exit %d, stderr %q\n%s", m, code, errOut, out)
		}
	}
	if _, errOut, code := decant(t, "", "solve", "--method", "dice", mystery); code != exitUsage || !strings.Contains(errOut, "ismcts") {
		t.Errorf("--method dice: exit %d, want %d and the methods named; stderr %q", code, exitUsage, errOut)
	}
}

func TestInteractiveRevealLoop(t *testing.T) {
	// The hidden units are one blue and one red: whichever tube reveals first shows blue (as
	// typed), so the other holds red, and then nothing is hidden.
	level := writeLevel(t, "2: ? r | ? b | |")
	out, errOut, code := decant(t, "purple\nb\nr\n", "solve", "--interactive", level)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, want := range []string{"which colour appeared in tube", "that does not fit the level", "solved:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
