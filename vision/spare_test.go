package vision

import (
	"image"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// TestSpareTubes: the room a level leaves is its tubes less its units over the capacity, a
// covered tube counted full.
func TestSpareTubes(t *testing.T) {
	for _, tc := range []struct {
		level string
		want  float64
	}{
		{"3: a b c | b c a | c a b", 0},
		{"3: a b c | b c a | c a b | |", 2},
		{"4: a b | b a a | b | b a | |", 4},
		{"3: a b a | b a | curtain:b | |", 2 + 1.0/3},
		{"3: a a a | | | | | |", 6},
	} {
		l, err := solver.ParseCompact(tc.level)
		if err != nil {
			t.Fatalf("%s: %v", tc.level, err)
		}
		if got := spareTubes(l); got != tc.want {
			t.Errorf("%s: %.2f tubes' worth of room, want %.2f", tc.level, got, tc.want)
		}
	}
}

// TestReadRefusesFullBoard: a board of full tubes allows no pour; a reading of one missed the
// tubes with room, and is refused with the reason.
func TestReadRefusesFullBoard(t *testing.T) {
	l, err := solver.ParseCompact("3: red blue green | blue green red | green red blue")
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 3} {
		scene, err := render.RandomLevel(l, seed)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		if solver.ErrorCode(err) != solver.CodeLowConfidence || !strings.Contains(err.Error(), "no pour is possible") {
			t.Errorf("seed %d: got %v, want a refusal because no pour is possible", seed, err)
		}
		if r == nil || r.Level == nil || r.Level.Canonical() != l.Canonical() {
			t.Errorf("seed %d: the refused reading should be attached for inspection", seed)
		}
	}
}

// TestRepeatedTubes: three tubes alike down to the order of their layers, in two colours or
// more and with nothing hidden, are a decoration; fewer tubes, shorter ones, one colour or
// hidden units are not.
func TestRepeatedTubes(t *testing.T) {
	for _, tc := range []struct {
		tubes       string
		want, first int
	}{
		{"a b a b | c c | a b a b | a b a b | c c c", 3, 0},
		{"c c | b a b | b a b | b a b | b a b", 4, 1},
		{"a b a | a b a | c c c", 0, -1},             // two tubes alike
		{"a b | a b | a b | c c c", 0, -1},           // two units
		{"a a a | a a a | a a a | b", 0, -1},         // one colour: full tubes
		{"? ? a | ? ? a | ? ? a | ? ? b", 0, -1},     // hidden units
		{"curtain:a | curtain:a | curtain:a", 0, -1}, // curtains
	} {
		var tubes [][]string
		for _, s := range strings.Split(tc.tubes, "|") {
			tubes = append(tubes, strings.Fields(s))
		}
		if n, first := repeatedTubes(tubes); n != tc.want || first != tc.first {
			t.Errorf("%s: %d tubes alike from %d, want %d from %d", tc.tubes, n, first, tc.want, tc.first)
		}
	}
}

// TestUnevenBottom: a tube whose liquid rests half a unit or more off its row's is named, in
// reading order; curtains, empty tubes and rows of fewer than three tubes with liquid are left
// out. Those rows' tubes are compared across the board, by how far their liquid rests above
// their boxes' feet, where three or more boxes of one height hold liquid.
func TestUnevenBottom(t *testing.T) {
	box := image.Rect(0, 0, 10, 100)
	liquid := func(bottom int) column { return column{box: box, bottom: bottom, top: 20} }
	empty, covered := column{box: box}, column{box: box, curtain: true}
	for _, tc := range []struct {
		name  string
		rows  []int // tubes per row
		cols  []column
		want  int
		units float64
	}{
		{"a stand read as a unit", []int{4}, []column{liquid(100), liquid(100), liquid(118), liquid(100)}, 2, 1},
		{"within a third of a unit", []int{4}, []column{liquid(100), liquid(106), liquid(94), liquid(100)}, -1, 0},
		{"second row", []int{3, 3}, []column{liquid(50), liquid(50), liquid(50), liquid(100), liquid(91), liquid(100)}, 4, 0.5},
		{"empty and covered tubes left out", []int{5}, []column{liquid(100), empty, covered, liquid(100), liquid(100)}, -1, 0},
		{"two tubes with liquid", []int{3}, []column{liquid(100), liquid(130), empty}, -1, 0},
		{"rows of two with liquid, compared across the board", []int{3, 3}, []column{liquid(100), covered, liquid(100), liquid(100), empty, liquid(82)}, 5, 1},
		{"across the board within a third of a unit", []int{3, 3}, []column{liquid(100), covered, liquid(100), liquid(100), empty, liquid(94)}, -1, 0},
		{"across the board, a box of another size left out", []int{3, 3}, []column{liquid(100), covered, liquid(100), liquid(100), empty, {box: image.Rect(0, 0, 10, 60), bottom: 42, top: 20}}, -1, 0},
	} {
		var rows [][]image.Rectangle
		for _, n := range tc.rows {
			rows = append(rows, make([]image.Rectangle, n))
		}
		if got, units := unevenBottom(rows, tc.cols, 18); got != tc.want || units != tc.units {
			t.Errorf("%s: tube %d, %.2f units off; want %d, %.2f", tc.name, got, units, tc.want, tc.units)
		}
	}
}

// TestLoneFullTube: a tube full of one colour in view that no other tube shows is what a
// cover's panel raised as liquid reads as; a full tube whose colour shows elsewhere, one not
// full, or one of hidden units is not.
func TestLoneFullTube(t *testing.T) {
	const h = solver.Hidden
	for _, tc := range []struct {
		name  string
		tubes [][]solver.Color
		want  bool
	}{
		{"a lone full tube", [][]solver.Color{{h, h, 2}, {1, 1, 1}, {h, 2}}, true},
		{"its colour shown elsewhere", [][]solver.Color{{h, h, 1}, {1, 1, 1}, {h, 2}}, false},
		{"not full", [][]solver.Color{{h, h, 2}, {1, 1}, {h, 2}}, false},
		{"full of hidden units", [][]solver.Color{{h, h, h}, {h, 2}}, false},
		{"two colours", [][]solver.Color{{h, h, 2}, {1, 1, 3}}, false},
	} {
		if got := loneFullTube(&solver.Level{Capacity: 3, Tubes: tc.tubes}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
