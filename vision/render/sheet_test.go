package render

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
)

var (
	sheetDir   = flag.String("sheet", "", "write PNG contact sheets of random scenes into this directory")
	sheetFirst = flag.Uint64("sheet-seed", 1, "first seed of the contact sheets")
	sheetCount = flag.Int("sheet-n", 24, "scenes a contact sheet shows")
)

// TestContactSheet writes contact sheets of random puzzle scenes (with their unit boxes
// outlined in a second sheet) and of non-puzzle scenes, and each scene (boxes outlined) on
// its own, for a person to look at:
//
//	go test ./vision/render -run TestContactSheet -sheet /tmp/sheets
func TestContactSheet(t *testing.T) {
	if *sheetDir == "" {
		t.Skip("run with -sheet DIR")
	}
	if err := os.MkdirAll(*sheetDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var plain, boxed, non []image.Image
	for i := range *sheetCount {
		seed := *sheetFirst + uint64(i)
		s, err := Random(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Logf("seed %d: %s", seed, draws(s.Factors))
		plain = append(plain, s.Image)
		if err := imaging.Save(withBoxes(s), filepath.Join(*sheetDir, fmt.Sprintf("scene-%d.png", seed))); err != nil {
			t.Fatal(err)
		}
		boxed = append(boxed, withBoxes(s))
		n, err := NonPuzzle(seed)
		if err != nil {
			t.Fatalf("non-puzzle seed %d: %v", seed, err)
		}
		t.Logf("non-puzzle seed %d: %v", seed, n.Factors)
		non = append(non, n.Image)
		if err := imaging.Save(n.Image, filepath.Join(*sheetDir, fmt.Sprintf("nopuzzle-%d.png", seed))); err != nil {
			t.Fatal(err)
		}
	}
	for name, imgs := range map[string][]image.Image{"random": plain, "boxes": boxed, "nopuzzle": non} {
		path := filepath.Join(*sheetDir, fmt.Sprintf("%s-%d.png", name, *sheetFirst))
		if err := imaging.Save(contactSheet(imgs, 6, 300), path); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
}

// withBoxes is the scene's image with its tube boxes outlined in magenta and unit boxes in
// green.
func withBoxes(s *Scene) image.Image {
	img := image.NewRGBA(s.Image.Bounds())
	draw.Draw(img, img.Rect, s.Image, image.Point{}, draw.Src)
	for _, tube := range s.Truth.Tubes {
		outlineRect(img, tube.Box, rgb(255, 0, 255))
		for _, u := range tube.Units {
			outlineRect(img, u.Inset(1), rgb(0, 255, 0))
		}
	}
	return img
}

func outlineRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	w := max(1, img.Rect.Dx()/300)
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	fillRect(img, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), c)
	fillRect(img, image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// contactSheet lays images out cols a row, each scaled to fit a cell×(2·cell) box.
func contactSheet(imgs []image.Image, cols, cell int) image.Image {
	rows := (len(imgs) + cols - 1) / cols
	out := imaging.New(cols*cell, rows*cell*2, color.RGBA{128, 128, 128, 255})
	for i, img := range imgs {
		th := imaging.Fit(img, cell-4, 2*cell-4, imaging.Linear)
		out = imaging.Paste(out, th, image.Pt((i%cols)*cell+2, (i/cols)*cell*2+2))
	}
	return out
}

var table = flag.Int("table", 0, "draw this many random scenes and print how often each factor value was drawn")

// TestFactorTable prints the share of each factor value over -table N scenes (seeds 1..N), as
// drawn after every fallback:
//
//	go test ./vision/render -run TestFactorTable -table 300 -v
func TestFactorTable(t *testing.T) {
	if *table == 0 {
		t.Skip("run with -table N")
	}
	counts := map[string]map[string]int{}
	for seed := range uint64(*table) {
		s, err := Random(seed + 1)
		if err != nil {
			t.Fatalf("seed %d: %v", seed+1, err)
		}
		for k, v := range s.Factors {
			if counts[k] == nil {
				counts[k] = map[string]int{}
			}
			counts[k][v]++
		}
	}
	for _, k := range append(FactorNames(), "per-row") {
		line := fmt.Sprintf("%-13s", k)
		for _, v := range append(FactorValues(k), "theme", "none") {
			if n := counts[k][v]; n > 0 {
				line += fmt.Sprintf(" %s %d,", v, n)
				delete(counts[k], v)
			}
		}
		for v, n := range counts[k] {
			line += fmt.Sprintf(" %s %d,", v, n)
		}
		fmt.Println(line)
	}
}
