package vision

import (
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// TestTopColourIsNotGlass: a liquid on top of most tubes, with empty glass above it, is
// liquid. (Taking the top layer most tubes share for tinted glass once dropped the red here.)
func TestTopColourIsNotGlass(t *testing.T) {
	for _, lv := range []string{
		"3: blue red | blue blue red | red | green | | curtain:red | curtain:blue",
		"4: blue red | green blue red | red | green green blue red | blue green | |",
	} {
		level, err := solver.ParseCompact(lv)
		if err != nil {
			t.Fatal(err)
		}
		for _, theme := range []string{"light", "dark"} {
			scene, err := render.Render(level, render.Options{Theme: theme, Width: 540, Height: 1200})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(scene.Data)
			if err != nil {
				t.Errorf("%s, %s theme: %v", lv, theme, err)
				continue
			}
			if got, want := r.Level.Canonical(), level.Canonical(); got != want {
				t.Errorf("%s theme:\ngot  %s\nwant %s", theme, got, want)
			}
		}
	}
}

// TestOneColourIsNoPuzzle: bars or a map's path can read as tubes of one colour; one colour
// is nothing to sort, so the reader says no_puzzle (a level map was read as one before).
func TestOneColourIsNoPuzzle(t *testing.T) {
	level, err := solver.ParseCompact("4: red red red | red | | ")
	if err != nil {
		t.Fatal(err)
	}
	scene, err := render.Render(level, render.Options{Theme: "light", Width: 540, Height: 1200})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(scene.Data)
	if solver.ErrorCode(err) != solver.CodeNoPuzzle {
		t.Errorf("read %v, %v; want a no_puzzle error", r, err)
	}
}
