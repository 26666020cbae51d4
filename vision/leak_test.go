//go:build matprofile

package vision

import (
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
)

// TestNoMatLeaks reads, annotates and rejects images many times and checks that every Mat
// was closed (run with -tags matprofile, as CI does).
func TestNoMatLeaks(t *testing.T) {
	data := seed98PNG(t)
	jpg, err := os.ReadFile("../testdata/fixtures/wood-hidden.jpg")
	if err != nil {
		t.Fatal(err)
	}
	before := gocv.MatProfile.Count()
	for range 5 {
		r, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Annotate(r, solver.Plan{Status: solver.StatusUnsolvable}); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(jpg); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(data[:len(data)/3]); err == nil {
			t.Fatal("truncated image read")
		}
		if _, err := Read([]byte("not an image")); err == nil {
			t.Fatal("text read as an image")
		}
	}
	if after := gocv.MatProfile.Count(); after != before {
		t.Errorf("%d Mats leaked", after-before)
	}
}
