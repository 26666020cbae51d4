package vision

import (
	"bytes"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/decant/decant/solver"
)

// A JPEG cut short with its end marker put back is refused as unreadable: OpenCV would decode
// it with a grey band and read a wrong level. The whole JPEG still reads.
func TestReadRefusesTruncatedJPEG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(seed98PNG(t)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	if _, err := Read(whole); err != nil {
		t.Fatalf("the whole JPEG: %v", err)
	}
	for _, cut := range []float64{0.5, 0.9} {
		n := int(cut * float64(len(whole)))
		data := append(whole[:n:n], 0xFF, 0xD9)
		_, err := Read(data)
		if got, want := solver.ErrorCode(err), solver.CodeUnreadableImage; got != want {
			t.Errorf("cut at %.0f%% with an end marker: got %q (%v), want %q", cut*100, got, err, want)
		}
	}
}
