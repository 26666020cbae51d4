//go:build matprofile

package vision

import (
	"testing"

	"gocv.io/x/gocv"
)

// Reading photos closes every Mat the warp makes (counted with -tags matprofile, as CI runs).
func TestRectifyNoMatLeaks(t *testing.T) {
	tc := photoCases[0]
	data := photoOf(t, imageFile(t, tc.file), tc.q, tc.w, tc.h, tc.margin)
	before := gocv.MatProfile.Count()
	for range 3 {
		if _, err := Read(data); err != nil {
			t.Fatal(err)
		}
	}
	if after := gocv.MatProfile.Count(); after != before {
		t.Errorf("%d Mats leaked", after-before)
	}
}
