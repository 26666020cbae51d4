package vision

import (
	"image"
	"slices"
	"testing"

	"gocv.io/x/gocv"

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

// TestStrayRows: a row of empty boxes is left out when it stands beside the board, is not as
// tall as the tubes holding liquid, or stands further than a tube's height from their rows; a
// row of empty tubes of the board's size, close under it, stays.
func TestStrayRows(t *testing.T) {
	mat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 800, 400, gocv.MatTypeCV8UC3)
	defer mat.Close()
	f, err := newFrame(mat)
	if err != nil {
		t.Fatal(err)
	}
	board := []image.Rectangle{image.Rect(60, 200, 100, 360), image.Rect(140, 200, 180, 360), image.Rect(220, 200, 260, 360), image.Rect(300, 200, 340, 360)}
	for _, tc := range []struct {
		name string
		row  []image.Rectangle
		kept bool
	}{
		{"empty tubes close under the board", []image.Rectangle{image.Rect(60, 400, 100, 560), image.Rect(140, 400, 180, 560)}, true},
		{"a button under the board", []image.Rectangle{image.Rect(60, 400, 100, 500)}, false},
		{"a box far under the board", []image.Rectangle{image.Rect(140, 600, 180, 760)}, false},
		{"a box beside the board", []image.Rectangle{image.Rect(355, 400, 395, 560)}, false},
	} {
		var cols []column
		for _, b := range board {
			cols = append(cols, column{box: b, top: 300, bottom: 355})
		}
		for _, b := range tc.row {
			cols = append(cols, column{box: b})
		}
		h := &hypothesis{tubeLayout: tubeLayout{rows: [][]image.Rectangle{board, tc.row}}, cols: cols}
		l, dropped := f.withoutStrayRows(h, nil)
		if dropped == tc.kept || (dropped && len(l.rows) != 1) {
			t.Errorf("%s: rows %v, dropped %v; want kept %v", tc.name, l.rows, dropped, tc.kept)
		}
	}
}

// TestOnBeat: a row's box off the pitch stays when it is the twin of a box on the beat (a
// tube of a row spaced unevenly) and is dropped otherwise (a doodle or button beside the row).
func TestOnBeat(t *testing.T) {
	tube := func(x int) image.Rectangle { return image.Rect(x, 100, x+40, 300) }
	row := []image.Rectangle{tube(0), tube(100), tube(200), tube(345)} // pitch 100, the last off it
	for _, tc := range []struct {
		name string
		last image.Rectangle
		kept bool
	}{
		{"the twin of the row's tubes", tube(345), true},
		{"a box a fifth shorter", image.Rect(345, 140, 385, 300), false},
		{"a box half as wide again", image.Rect(345, 100, 405, 300), false},
	} {
		r := slices.Clone(row)
		r[3] = tc.last
		got := onBeat(r, 100)
		if kept := slices.Contains(got, tc.last); kept != tc.kept || len(got) < 3 {
			t.Errorf("%s: got %v, want the last box kept %v", tc.name, got, tc.kept)
		}
	}
}

func TestUnevenRows(t *testing.T) {
	row := func(n int) []image.Rectangle { return make([]image.Rectangle, n) }
	for _, tc := range []struct {
		name  string
		rows  [][]image.Rectangle
		short int
	}{
		{"one row", [][]image.Rectangle{row(7)}, 0},
		{"rows of 5 and 4", [][]image.Rectangle{row(5), row(4)}, 0},
		{"rows of 4, 4 and 3", [][]image.Rectangle{row(4), row(4), row(3)}, 0},
		{"rows of 3 and 1: too few to tell", [][]image.Rectangle{row(3), row(1)}, 0},
		{"rows of 6 and 3: half", [][]image.Rectangle{row(6), row(3)}, 0},
		{"rows of 6 and 1", [][]image.Rectangle{row(6), row(1)}, 1},
		{"rows of 2 and 7, the short one first", [][]image.Rectangle{row(2), row(7)}, 2},
		{"rows of 7, 7 and 2", [][]image.Rectangle{row(7), row(7), row(2)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if short, _ := unevenRows(tc.rows); short != tc.short {
				t.Errorf("got short row %d, want %d", short, tc.short)
			}
		})
	}
}

func TestFlushShortRow(t *testing.T) {
	row := func(y int, xs ...int) []image.Rectangle {
		var out []image.Rectangle
		for _, x := range xs {
			out = append(out, image.Rect(x, y, x+40, y+200))
		}
		return out
	}
	long := row(100, 0, 100, 200, 300, 400)
	for _, tc := range []struct {
		name string
		rows [][]image.Rectangle
		want int
	}{
		{"one row", [][]image.Rectangle{long}, -1},
		{"rows alike", [][]image.Rectangle{long, row(400, 0, 100, 200, 300, 400)}, -1},
		{"one short, centred", [][]image.Rectangle{long, row(400, 50, 150, 250, 350)}, -1},
		{"one short, staggered: under the places from the right end", [][]image.Rectangle{long, row(400, 100, 200, 300, 400)}, -1},
		{"one short, under the places from the left end", [][]image.Rectangle{long, row(400, 0, 100, 200, 300)}, 1},
		{"two short, centred", [][]image.Rectangle{long, row(400, 100, 200, 300)}, -1},
		{"one tube, centred", [][]image.Rectangle{long, row(400, 200)}, -1},
		{"one tube, under the first place", [][]image.Rectangle{long, row(400, 0)}, 1},
		{"two short, under the places from the left end", [][]image.Rectangle{long, row(400, 0, 100, 200)}, 1},
		{"the third row one short of the second", [][]image.Rectangle{long, long, row(700, 0, 100, 200, 300)}, 2},
		{"staggered, the third row two short of the first from its left end", [][]image.Rectangle{long, row(400, 50, 150, 250, 350, 450), row(700, 0, 100, 200)}, 2},
		{"staggered and centred, the third row one short of the second from its left end", [][]image.Rectangle{row(100, 0, 100, 200, 300), row(400, 50, 150, 250, 350), row(700, 50, 150, 250)}, -1},
		{"staggered, the third row one short of the second from its left end, off the first's centre", [][]image.Rectangle{row(100, 0, 100, 200, 300), row(400, 50, 150, 250, 350), row(700, 50, 150)}, 2},
		{"a row above one short, staggered: over the places from the left end", [][]image.Rectangle{row(100, 0, 100, 200, 300), row(400, 0, 100, 200, 300, 400)}, -1},
		{"a row above one short, centred", [][]image.Rectangle{row(100, 50, 150, 250, 350), row(400, 0, 100, 200, 300, 400)}, -1},
		{"a row above one short, over the places from the right end", [][]image.Rectangle{row(100, 100, 200, 300, 400), row(400, 0, 100, 200, 300, 400)}, 0},
		{"a row above two short of the third, over its places from the right end", [][]image.Rectangle{row(100, 200, 300, 400), row(400, 150, 250, 350), row(700, 0, 100, 200, 300, 400)}, 0},
		{"spaced unevenly, one short, centred", [][]image.Rectangle{row(100, 0, 95, 200, 300, 410), row(400, 45, 150, 250, 365)}, -1},
		{"spaced unevenly, one short, staggered half a pitch right", [][]image.Rectangle{row(100, 0, 95, 200, 300, 410), row(400, 95, 205, 300, 417)}, -1},
		{"spaced unevenly, one short, half a pitch left: its last tube missed", [][]image.Rectangle{row(100, 0, 95, 200, 300, 410), row(400, -5, 115, 190, 315)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _, _ := flushShortRow(tc.rows); got != tc.want {
				t.Errorf("got row %d, want %d", got, tc.want)
			}
		})
	}
}

// evenRow is a row of n boxes 40 wide and 200 tall, 100 apart, from x 0, at y.
func evenRow(y, n int) []image.Rectangle {
	var out []image.Rectangle
	for k := range n {
		out = append(out, image.Rect(100*k, y, 100*k+40, y+200))
	}
	return out
}

func TestShortAbove(t *testing.T) {
	row := evenRow
	for _, tc := range []struct {
		name     string
		rows     [][]image.Rectangle
		up, down int
	}{
		{"one row", [][]image.Rectangle{row(100, 5)}, -1, -1},
		{"rows alike", [][]image.Rectangle{row(100, 4), row(400, 4)}, -1, -1},
		{"the upper row one longer", [][]image.Rectangle{row(100, 4), row(400, 3)}, -1, -1},
		{"three rows, the last short", [][]image.Rectangle{row(100, 4), row(400, 4), row(700, 2)}, -1, -1},
		{"the upper row one short", [][]image.Rectangle{row(100, 3), row(400, 4)}, 0, 1},
		{"a tube over a row of three", [][]image.Rectangle{row(100, 1), row(400, 3)}, 0, 1},
		{"the middle row short of the last", [][]image.Rectangle{row(100, 5), row(400, 3), row(700, 4)}, 1, 2},
		{"the first row short of the last", [][]image.Rectangle{row(100, 4), row(400, 5), row(700, 5)}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if up, down := shortAbove(tc.rows); up != tc.up || down != tc.down {
				t.Errorf("got rows %d over %d, want %d over %d", up, down, tc.up, tc.down)
			}
		})
	}
}

// TestRowGapMissed: rows a fraction of a tube apart, or staggered, keep their places; a gap
// taller than a tube between two rows holds a row the layout missed.
func TestRowGapMissed(t *testing.T) {
	row := evenRow
	for _, tc := range []struct {
		name string
		rows [][]image.Rectangle
		want int
	}{
		{"one row", [][]image.Rectangle{row(100, 5)}, -1},
		{"two rows half a tube apart", [][]image.Rectangle{row(100, 5), row(400, 5)}, -1},
		{"three rows a tube apart", [][]image.Rectangle{row(100, 5), row(500, 5), row(900, 5)}, -1},
		{"the middle row of three missed", [][]image.Rectangle{row(100, 5), row(700, 5)}, 0},
		{"an empty row between", [][]image.Rectangle{row(100, 5), {}, row(400, 5)}, -1},
		{"the third row far below the second", [][]image.Rectangle{row(100, 4), row(400, 4), row(1000, 3)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rowGapMissed(tc.rows); got != tc.want {
				t.Errorf("got row %d, want %d", got, tc.want)
			}
		})
	}
}

func TestRowGaps(t *testing.T) {
	tube := func(x int) image.Rectangle { return image.Rect(x, 100, x+40, 300) }
	for _, tc := range []struct {
		name   string
		row    []image.Rectangle
		lo, hi int
	}{
		{"even gaps of 60", []image.Rectangle{tube(0), tube(100), tube(200)}, 30, 90},
		{"gaps of 40 and 80", []image.Rectangle{tube(0), tube(80), tube(200)}, 20, 120},
		{"a row of one: the pitch less its width", []image.Rectangle{tube(0)}, 60, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if lo, hi := rowGaps(tc.row, 100); lo != tc.lo || hi != tc.hi {
				t.Errorf("got gaps %d to %d, want %d to %d", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

// TestWithoutLines: a horizontal run of edge pixels as long as the rail is cleared (a shelf
// under a row of tubes), a shorter one (a tube's rim, a layer's edge) and vertical ones (its
// walls) are kept.
func TestWithoutLines(t *testing.T) {
	const w, h = 40, 6
	px := make([]byte, w*h)
	for x := 2; x < 38; x++ {
		px[4*w+x] = 255 // the shelf, 36 long
	}
	for x := 5; x < 15; x++ {
		px[1*w+x] = 255 // a rim, 10 long
	}
	for y := 0; y < 4; y++ {
		px[y*w+5], px[y*w+14] = 255, 255 // walls
	}
	m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, px)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, cleared := withoutLines(m, 20)
	if want := []image.Rectangle{image.Rect(2, 4, 38, 5)}; !slices.Equal(cleared, want) {
		t.Fatalf("lines cleared %v, want %v (the shelf)", cleared, want)
	}
	for i, v := range got {
		want := px[i]
		if i/w == 4 {
			want = 0
		}
		if v != want {
			t.Errorf("pixel (%d, %d) = %d, want %d", i%w, i/w, v, want)
		}
	}
	if _, none := withoutLines(m, 37); len(none) > 0 {
		t.Error("a line found longer than any run")
	}
	if !standsOnLine(image.Rect(4, 0, 16, 4), cleared) {
		t.Error("a box whose foot is on the shelf does not stand on it")
	}
	if standsOnLine(image.Rect(4, 0, 16, 1), cleared) {
		t.Error("a box ending three rows above the shelf stands on it")
	}
}

func TestHoles(t *testing.T) {
	row := func(xs ...int) []image.Rectangle {
		var out []image.Rectangle
		for _, x := range xs {
			out = append(out, image.Rect(x, 100, x+40, 300))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		row  []image.Rectangle
		want int
	}{
		{"even", row(0, 100, 200, 300, 400), 0},
		{"one place free", row(0, 100, 300, 400, 500), 1},
		{"two places free in one gap", row(0, 100, 400, 500, 600), 2},
		// Five gaps of 100 and two of 130: the pitch is 100 (130 is no whole multiple of it),
		// and the row's span, 7.6 pitches, would round to a place more than its eight tubes.
		{"uneven, no gap two pitches wide", row(0, 100, 200, 300, 400, 500, 630, 760), 0},
		// Gaps of 25, 10 and 45 between boxes 40 wide: no pitch; a gap of 100 holds a box
		// with the narrowest gap on each side.
		{"spaced unevenly, no pitch", row(0, 65, 115, 200), 0},
		{"spaced unevenly, a tube's room free", row(0, 65, 115, 200, 340), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (tubeLayout{rows: [][]image.Rectangle{tc.row}}).holes(); got != tc.want {
				t.Errorf("got %d holes, want %d", got, tc.want)
			}
		})
	}
}

// TestEmptyTemplateLiquidOnly: a tube added at a row's end for the liquid resting in its
// place alone (a bokeh spot, 20261330784352) shows the background above it, not an empty
// tube's glass: it stands for no empty tube's look, while a tube found by its outline does.
func TestEmptyTemplateLiquidOnly(t *testing.T) {
	f := sceneFrame(t, 20261330784352)
	full := column{box: image.Rect(415, 209, 454, 331), bottom: 328, top: 235}
	spot := column{box: image.Rect(474, 209, 512, 331), bottom: 328, top: 300}
	cols := []column{full, spot}
	if tpl, ok := f.emptyTemplate(cols, nil); !ok || tpl != image.Rect(474, 209, 512, 300) {
		t.Errorf("outlined: template %v (%v), want the spot's headroom", tpl, ok)
	}
	if tpl, ok := f.emptyTemplate(cols, []image.Rectangle{spot.box}); ok {
		t.Errorf("added for its liquid alone: template %v, want none", tpl)
	}
}

// TestWedged: a box filling the gap between two boxes of its row from wall to wall, touching
// or reaching into both, is the background between two tubes; one clear of either is not.
func TestWedged(t *testing.T) {
	box := func(x0, x1 int) image.Rectangle { return image.Rect(x0, 100, x1, 300) }
	row := []image.Rectangle{box(0, 27), box(54, 81)}
	for _, tc := range []struct {
		name string
		b    image.Rectangle
		want bool
	}{
		{"touching both", box(28, 53), true},
		{"reaching into both", box(25, 56), true},
		{"touching one, clear of the other", box(28, 50), false},
		{"clear of both", box(30, 50), false},
		{"beyond the row's end", box(82, 109), false},
	} {
		if got := wedged(tc.b, append(slices.Clone(row), tc.b)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAsTall: a place matched to the glass above a tube's liquid stands as tall as its row's
// tubes; a place as tall or taller keeps its height.
func TestAsTall(t *testing.T) {
	row := []image.Rectangle{image.Rect(0, 10, 20, 110), image.Rect(30, 10, 50, 112), image.Rect(60, 10, 80, 60)}
	if got, want := asTall(image.Rect(90, 10, 110, 50), row), image.Rect(90, 10, 110, 110); got != want {
		t.Errorf("asTall = %v, want %v", got, want)
	}
	if got, want := asTall(image.Rect(90, 10, 110, 130), row), image.Rect(90, 10, 110, 130); got != want {
		t.Errorf("asTall = %v, want %v", got, want)
	}
}
