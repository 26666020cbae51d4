package render

import (
	"bytes"
	"image"
	plan9 "image/color/palette"
	"image/draw"
	"testing"

	"github.com/decant/decant/solver"
)

// The cached palette mapping picks the colour draw.Draw would for every pixel of a frame.
func TestPalettedMatchesDraw(t *testing.T) {
	l, err := solver.ParseCompact("4: red blue green red | blue green red blue | green red blue green | |")
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := drawLevel(l, Options{Width: 360, Height: 800, Theme: "wood"})
	if err != nil {
		t.Fatal(err)
	}
	want := image.NewPaletted(img.Bounds(), plan9.Plan9)
	draw.Draw(want, want.Rect, img, image.Point{}, draw.Src)
	p := newPaletter(plan9.Plan9)
	for range 2 { // the second pass answers from the cache
		got := p.paletted(img)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatal("the paletted frame differs from draw.Draw's")
		}
	}
}
