package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnitHeight: the unit is the largest height that explains the gaps between colour
// changes, the columns' heights and the top runs; a top run is a unit of its own colour, never
// the meniscus of the run below it.
func TestUnitHeight(t *testing.T) {
	col := func(bottom int, bounds []int, top int) column {
		return column{box: image.Rect(0, 0, 40, 400), bottom: bottom, bounds: bounds, top: top}
	}
	for _, tc := range []struct {
		name string
		cols []column
		want float64
	}{
		// A mystery board: one unit of colour on a hidden run of four, in every tube.
		{"one unit on a hidden run of four", []column{
			col(333, []int{233}, 207), col(333, []int{233}, 208), col(332, []int{233}, 207),
		}, 25},
		{"one unit on a hidden run of five", []column{
			col(330, []int{205}, 179), col(330, []int{205}, 180), col(331, []int{205}, 179),
		}, 25},
		// Two tubes' top runs do not vote (a button over a tube cuts a run of one colour):
		// nothing tells this from two tall units under a meniscus.
		{"two tubes of one unit on a run of four", []column{
			col(333, []int{233}, 207), col(333, []int{233}, 208),
		}, 100},
		// A top unit with a meniscus a third of a unit tall over two units of one colour.
		{"meniscus on the top unit", []column{
			col(300, []int{250}, 217), col(300, []int{275}, 242),
		}, 25},
		{"whole tubes, no colour change", []column{
			col(300, nil, 200), col(300, nil, 250),
		}, 50},
		// Tubes of 6 holding 4, 1+5, 1 and 1 units of 56 pixels: a unit of 68 fits every
		// height too (3.3, 5.0, 0.8 units, each top short or tall by its own share) and the
		// one gap at 0.82; the true unit fits them all alike.
		{"a unit a fifth too tall fits loosely", []column{
			col(720, nil, 494), col(720, []int{664}, 380), col(720, nil, 663), col(720, nil, 664),
		}, 56},
	} {
		got, _ := unitHeight(tc.cols)
		if math.Abs(got-tc.want) > 1.5 {
			t.Errorf("%s: got unit %.1f, want %.0f", tc.name, got, tc.want)
		}
	}
}

// TestMedian checks the selection against sorting, on values with many repeats (pixels of
// flat colour) and without.
func TestMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 300; n++ {
		for _, spread := range []int{2, 5, 1000} {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(rng.IntN(spread))
			}
			want := slices.Sorted(slices.Values(v))[n/2]
			if got := median(slices.Clone(v)); got != want {
				t.Fatalf("n=%d spread=%d: median %v, want %v (%v)", n, spread, got, want, v)
			}
		}
	}
}
