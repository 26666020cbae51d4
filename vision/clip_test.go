package vision

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/decant/decant/solver"
)

// repro holds inputs that once made decant misbehave (beside the checkout, never in it).
const repro = "../../shared/repro"

// A screenshot whose lower row of covered tubes is cut off by the bottom edge once panicked
// the reader: a box extended past the frame reached a pixel accessor. Every box is clipped to
// the frame now; the read answers with a reading or an application error, and whatever tube
// geometry it reports lies inside the image.
func TestReadCutOffRow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repro, "cut-off-curtain-row.png"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the shared reproducers are missing: %v", err)
		}
		t.Skipf("no shared reproducers: %v", err)
	}
	r, err := Read(data)
	if code := solver.ErrorCode(err); err != nil && code == solver.CodeInternal {
		t.Fatalf("internal error: %v", err)
	}
	if r == nil {
		t.Logf("refused: %v", err)
		return
	}
	bounds := image.Rect(0, 0, r.Width, r.Height)
	for i, tube := range r.Tubes {
		if !tube.Box.In(bounds) {
			t.Errorf("tube %d: box %v outside the image %v", i+1, tube.Box, bounds)
		}
		for j, u := range tube.Units {
			if !u.In(bounds) {
				t.Errorf("tube %d unit %d: box %v outside the image %v", i+1, j+1, u, bounds)
			}
		}
	}
	t.Logf("read %v (confidence %.2f, %v)", err, r.Confidence, r.Reasons)
}

// The frame's accessors take any rectangle or point and clip it to the frame.
func TestFrameClips(t *testing.T) {
	f := &frame{w: 4, h: 3, scale: 1, lab: make([]float32, 3*4*3)}
	for i := range f.lab {
		f.lab[i] = float32(i)
	}
	for _, tc := range []struct {
		name string
		r    image.Rectangle
		want image.Rectangle
	}{
		{"inside", image.Rect(1, 1, 3, 2), image.Rect(1, 1, 3, 2)},
		{"past the bottom right", image.Rect(2, 1, 9, 9), image.Rect(2, 1, 4, 3)},
		{"past the top left", image.Rect(-5, -5, 1, 1), image.Rect(0, 0, 1, 1)},
		{"outside", image.Rect(10, 10, 20, 20), image.Rectangle{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := f.clip(tc.r); got != tc.want {
				t.Errorf("clip(%v) = %v, want %v", tc.r, got, tc.want)
			}
			if _, ok := f.medianLab(tc.r); ok != !tc.want.Empty() {
				t.Errorf("medianLab(%v) ok = %v, want %v", tc.r, ok, !tc.want.Empty())
			}
		})
	}
	for _, p := range []image.Point{{-1, 0}, {4, 2}, {3, 3}, {100, -100}} {
		want := f.at(min(max(p.X, 0), 3), min(max(p.Y, 0), 2))
		if got := f.at(p.X, p.Y); got != want {
			t.Errorf("at(%v) = %v, want the nearest pixel inside, %v", p, got, want)
		}
	}
}
