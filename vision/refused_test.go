package vision

import (
	"image"
	"slices"
	"testing"

	"github.com/decant/decant/vision/render"
)

// TestOnceRefused reads random scenes that each were once refused for a reading the rules of
// the level settle, one per kind of mistake. Each must now read exactly.
func TestOnceRefused(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		kind string
	}{
		{55000246, "a top unit near the background's colour, taken for the glass"},
		{55000690, "a tube's one unit near the background's colour, the tube taken for empty"},
		{55000636, "two empty tubes of tinted glass, each taken for a full tube of one colour"},
		{55000514, "hidden boxes with a glare stripe down their middle, glyph beside it"},
		{55000445, "hidden boxes, some glyphs told, the others under a glare stripe"},
		{55000674, "an empty tube with no outline found, inside its row: it looks like the row's empty tubes"},
	} {
		scene, err := render.Random(tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		switch {
		case err != nil:
			t.Errorf("seed %d (%s): %v; want the level read exactly", tc.seed, tc.kind, err)
		case r.Level.Canonical() != scene.Truth.Level.Canonical():
			t.Errorf("seed %d (%s): silently wrong:\ngot  %s\nwant %s", tc.seed, tc.kind, r.Level.Compact(), scene.Truth.Level.Compact())
		}
	}
}

// TestMissedGlyphs: units that look like the hidden units told by glyphs, at a tube's bottom
// and short of its top, are taken for hidden units too.
func TestMissedGlyphs(t *testing.T) {
	box := lab{L: 25, A: 1, B: 1}
	hid := unitSample{color: box, hidden: true}
	dark := unitSample{color: lab{L: 27, A: 1, B: 0}}
	red := unitSample{color: lab{L: 50, A: 60, B: 40}}
	for _, tc := range []struct {
		name    string
		samples []unitSample
		counts  []int
		want    []bool // nil: no proposal
	}{
		{"a box like the told ones", []unitSample{hid, red, dark, dark, red}, []int{2, 3}, []bool{true, false, true, true, false}},
		{"a tube's top shows its colour", []unitSample{hid, red, dark}, []int{2, 1}, nil},
		{"above a visible unit", []unitSample{hid, red, red, dark, red}, []int{2, 3}, nil},
		{"no glyph told", []unitSample{dark, red, dark, red}, []int{2, 2}, nil},
	} {
		got := missedGlyphs(tc.samples, tc.counts)
		if tc.want == nil {
			if got != nil {
				t.Errorf("%s: proposed a reading, want none", tc.name)
			}
			continue
		}
		hidden := make([]bool, len(got))
		for i, s := range got {
			hidden[i] = s.hidden
		}
		if !slices.Equal(hidden, tc.want) {
			t.Errorf("%s: hidden %v, want %v", tc.name, hidden, tc.want)
		}
	}
}

// TestRaisePaleTops: the run above a tube's liquid is liquid only when it is whole units tall,
// keeps the tube within the others' units, is no glass and shows elsewhere as liquid.
func TestRaisePaleTops(t *testing.T) {
	liquid := lab{L: 70, A: 10, B: -30} // near the background, between two liquids in tube 0
	other := lab{L: 40, A: 50, B: 30}
	glassLook := lab{L: 85, A: 5, B: -10}
	box := func(x int) column {
		return column{box: image.Rect(x, 0, x+20, 100)}
	}
	full := box(0)
	full.bottom, full.top, full.bounds, full.runs = 100, 20, []int{80, 60, 40}, []lab{other, liquid, other, other}
	short := box(30)
	short.bottom, short.top, short.bounds, short.runs = 100, 40, []int{80, 60}, []lab{other, other, other}
	short.pale = segment{y0: 20, y1: 40, color: liquid}
	glass := func([]column) []lab { return []lab{glassLook} }
	for _, tc := range []struct {
		name string
		edit func(c *column)
		want int
	}{
		{"a unit of a liquid seen elsewhere", func(*column) {}, 1},
		{"the glass's look", func(c *column) { c.pale.color = glassLook }, 0},
		{"a colour seen nowhere", func(c *column) { c.pale.color = lab{L: 60, A: -40, B: 40} }, 0},
		{"half a unit", func(c *column) { c.pale.y0 = 30 }, 0},
		{"more units than any tube", func(c *column) { c.pale.y0 = 0 }, 0},
	} {
		s := short
		s.pale = short.pale
		tc.edit(&s)
		cols := []column{full, s}
		if got := raisePaleTops(cols, 20, glass); got != tc.want {
			t.Errorf("%s: raised %d tubes, want %d", tc.name, got, tc.want)
		}
		if tc.want == 1 && (cols[1].top != 20 || len(cols[1].bounds) != 3) {
			t.Errorf("%s: tube reads top %d bounds %v, want top 20 and 3 bounds", tc.name, cols[1].top, cols[1].bounds)
		}
	}
}
