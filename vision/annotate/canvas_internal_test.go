package annotate

import "testing"

// div255 equals rounded division over its whole range.
func TestDiv255(t *testing.T) {
	for v := range uint32(255*255 + 1) {
		if got, want := div255(v), (v+127)/255; got != want {
			t.Fatalf("div255(%d) = %d, want %d", v, got, want)
		}
	}
}
