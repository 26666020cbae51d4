package annotate_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/annotate"
	"github.com/decant/decant/vision/annotate/annotatetest"
)

var update = flag.Bool("update", false, "rewrite the golden annotations in testdata/")

// scene is a w×h screenshot-like image: a background and two rows of four tubes (outlines
// with some liquid), returned with the tubes' boxes.
func scene(w, h int, bg color.RGBA) (*image.RGBA, []image.Rectangle) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		c := bg
		c.B = uint8(int(bg.B) * (h + y/4) / (h + h/4)) // a slight gradient
		draw.Draw(img, image.Rect(0, y, w, y+1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	tw := w / 9
	th := tw * 3
	liquids := []color.RGBA{{220, 40, 50, 255}, {40, 110, 230, 255}, {250, 200, 40, 255}, {150, 60, 200, 255}}
	var boxes []image.Rectangle
	for row := range 2 {
		top := h*3/10 + row*(th+2*tw)
		for col := range 4 {
			x := w/8 + col*2*tw
			b := image.Rect(x, top, x+tw, top+th)
			outline := color.RGBA{128, 128, 128, 255}
			draw.Draw(img, b, image.NewUniform(outline), image.Point{}, draw.Src)
			draw.Draw(img, b.Inset(max(2, tw/20)), image.NewUniform(bg), image.Point{}, draw.Src)
			for u := range (col + row) % 4 {
				unit := image.Rect(b.Min.X+tw/8, b.Max.Y-(u+1)*th/4+tw/16, b.Max.X-tw/8, b.Max.Y-u*th/4-tw/16)
				draw.Draw(img, unit, image.NewUniform(liquids[(col+u)%4]), image.Point{}, draw.Src)
			}
			boxes = append(boxes, b)
		}
	}
	return img, boxes
}

// toBGR copies img into a BGR image, as Read keeps a screenshot.
func toBGR(img image.Image) *annotate.BGR {
	m := annotate.NewBGR(img.Bounds())
	draw.Draw(m, m.Rect, img, m.Rect.Min, draw.Src)
	return m
}

var (
	dark  = color.RGBA{22, 26, 44, 255}
	light = color.RGBA{236, 234, 226, 255}
)

// plans has one plan of each kind the legend words differently.
var plans = map[string]solver.Plan{
	"optimal": {Status: solver.StatusSolved, Optimal: true, Moves: []solver.Move{
		{From: 0, To: 2}, {From: 5, To: 7}, {From: 4, To: 1}, {From: 3, To: 6}, {From: 1, To: 0},
		{From: 2, To: 3}, {From: 7, To: 4}, {From: 6, To: 5}, {From: 0, To: 7}, {From: 3, To: 1},
		{From: 4, To: 2}, {From: 5, To: 6}, {From: 1, To: 4}, {From: 2, To: 0},
	}},
	"early stop":  {Status: solver.StatusUnknown, Moves: []solver.Move{{From: 6, To: 1}, {From: 1, To: 6}}},
	"unsolvable":  {Status: solver.StatusUnsolvable},
	"no plan":     {Status: solver.StatusUnknown},
	"solved":      {Status: solver.StatusSolved, Optimal: true},
	"single pour": {Status: solver.StatusSolved, Moves: []solver.Move{{From: 7, To: 0}}},
	"partial":     {Status: solver.StatusPartial, Moves: []solver.Move{{From: 2, To: 5}, {From: 4, To: 2}, {From: 0, To: 4}}},
}

// TestAnnotate draws every kind of plan on light and dark scenes, small and large, and checks
// every tube number, arrow and legend line where the layout puts it, and nothing elsewhere.
func TestAnnotate(t *testing.T) {
	for _, size := range []image.Point{{360, 640}, {1440, 2560}} {
		for bgName, bg := range map[string]color.RGBA{"dark": dark, "light": light} {
			for name, plan := range plans {
				if size.X > 360 && name != "optimal" {
					continue // the large scene once: the checks walk every pixel
				}
				t.Run(fmt.Sprintf("%dx%d/%s/%s", size.X, size.Y, bgName, name), func(t *testing.T) {
					orig, boxes := scene(size.X, size.Y, bg)
					l, err := annotate.NewLayout(orig.Rect, boxes, plan)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := len(l.Numbers), len(boxes); got != want {
						t.Errorf("%d tube numbers, want %d", got, want)
					}
					if got, want := len(l.Arrows), min(annotate.MaxArrows, len(plan.Moves)); got != want {
						t.Errorf("%d arrows, want %d", got, want)
					}
					for _, img := range []draw.Image{annotate.Copy(orig), toBGR(orig)} {
						if err := l.Draw(img); err != nil {
							t.Fatal(err)
						}
						for _, problem := range annotatetest.Verify(orig, img, l) {
							t.Errorf("on %T: %s", img, problem)
						}
					}
				})
			}
		}
	}
}

// TestLegendText checks the legend's words and that its lines fit the image.
func TestLegendText(t *testing.T) {
	orig, boxes := scene(360, 640, dark)
	for _, tc := range []struct {
		plan  string
		first string
		lines int // at least
	}{
		{"optimal", "Shortest plan: 14 pours", 3},
		{"early stop", "Best plan found: 2 pours", 2},
		{"unsolvable", "Unsolvable: no sequence of pours", 1},
		{"no plan", "No plan found", 1},
		{"solved", "Already solved.", 1},
		{"single pour", "Plan: 1 pours", 2},
		{"partial", "Play now: 3 pours, then see what the last one reveals", 2},
	} {
		t.Run(tc.plan, func(t *testing.T) {
			l, err := annotate.NewLayout(orig.Rect, boxes, plans[tc.plan])
			if err != nil {
				t.Fatal(err)
			}
			lines := l.Legend.Lines
			if len(lines) < tc.lines || !strings.HasPrefix(lines[0], tc.first) {
				t.Errorf("got lines %q, want at least %d starting %q", lines, tc.lines, tc.first)
			}
			if !l.Legend.Band.In(orig.Rect) || l.Legend.Band.Min.Y < boxes[len(boxes)-1].Max.Y && l.Legend.Band.Max.Y != orig.Rect.Max.Y {
				t.Errorf("band %v: want it below the tubes or at the image's foot", l.Legend.Band)
			}
		})
	}
	l, err := annotate.NewLayout(orig.Rect, boxes, plans["optimal"])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Legend.Lines[1], "1→3   6→8   5→2"; !strings.HasPrefix(got, want) {
		t.Errorf("second legend line %q: want the pours as from→to, starting %q", got, want)
	}
	for _, line := range l.Legend.Lines {
		if !utf8.ValidString(line) || strings.ContainsRune(line, '?') {
			t.Errorf("legend line %q", line)
		}
	}
}

// TestLayoutErrors checks boxes and moves that do not fit the image.
func TestLayoutErrors(t *testing.T) {
	orig, boxes := scene(360, 640, dark)
	outside := append([]image.Rectangle{}, boxes...)
	outside[3] = outside[3].Add(image.Pt(400, 0))
	empty := append([]image.Rectangle{}, boxes...)
	empty[1] = image.Rectangle{}
	for _, tc := range []struct {
		name  string
		boxes []image.Rectangle
		moves []solver.Move
		want  solver.Code
	}{
		{"box outside", outside, nil, solver.CodeInvalidArgument},
		{"empty box", empty, nil, solver.CodeInvalidArgument},
		{"no tubes", nil, nil, solver.CodeInvalidArgument},
		{"move to tube 9", boxes, []solver.Move{{From: 0, To: 8}}, solver.CodeInvalidPlan},
		{"move from tube 0", boxes, []solver.Move{{From: -1, To: 2}}, solver.CodeInvalidPlan},
		{"pour into itself", boxes, []solver.Move{{From: 2, To: 2}}, solver.CodeInvalidPlan},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotate.PNG(orig, tc.boxes, solver.Plan{Status: solver.StatusSolved, Moves: tc.moves})
			if got := solver.ErrorCode(err); got != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestGolden compares small annotations with the committed ones, within a tolerance for
// changes in antialiasing; -update rewrites them (look at them before committing).
func TestGolden(t *testing.T) {
	for bgName, bg := range map[string]color.RGBA{"dark": dark, "light": light} {
		t.Run(bgName, func(t *testing.T) {
			orig, boxes := scene(360, 640, bg)
			data, err := annotate.PNG(orig, boxes, plans["optimal"])
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "annotated-"+bgName+".png")
			if *update {
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			want := decodeFile(t, path)
			if got.Bounds() != want.Bounds() {
				t.Fatalf("got %v, golden %v", got.Bounds(), want.Bounds())
			}
			// Up to 0.5% of the pixels may differ by more than 24 in a channel.
			b, off := got.Bounds(), 0
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					if channelDiff(got.At(x, y), want.At(x, y)) > 24 {
						off++
					}
				}
			}
			if off*200 > b.Dx()*b.Dy() {
				t.Errorf("%d pixels differ from %s (more than 0.5%%); rerun with -update and look", off, path)
			}
		})
	}
}

func decodeFile(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func channelDiff(a, b color.Color) int {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(u, v uint32) int { return max(int(u>>8)-int(v>>8), int(v>>8)-int(u>>8)) }
	return max(d(r1, r2), d(g1, g2), d(b1, b2))
}

// EncodePNG's output decodes to exactly the pixels it was given, RGBA or BGR, also for an
// image that does not start at the origin.
func TestEncodePNG(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(5, 7, 42, 30))
	for i := range rgba.Pix {
		rgba.Pix[i] = byte(i * 131 % 251)
	}
	for _, img := range []image.Image{rgba, toBGR(rgba), rgba.SubImage(image.Rect(9, 8, 20, 29))} {
		data, err := annotate.EncodePNG(img)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if got.Bounds().Size() != b.Size() {
			t.Fatalf("%T: got %v, want %v", img, got.Bounds().Size(), b.Size())
		}
		for y := range b.Dy() {
			for x := range b.Dx() {
				if g, w := channelDiff(got.At(x, y), img.At(b.Min.X+x, b.Min.Y+y)), 0; g != w {
					t.Fatalf("%T pixel %d,%d: got %v, want %v", img, x, y, got.At(x, y), img.At(b.Min.X+x, b.Min.Y+y))
				}
			}
		}
	}
	if _, err := annotate.EncodePNG(&image.RGBA{}); solver.ErrorCode(err) != solver.CodeInvalidArgument {
		t.Errorf("empty image: got %v, want invalid_argument", err)
	}
}

// Annotations drawn at once (as the server does) share the glyph cache safely and come out
// the same as one drawn alone; run with -race to check the cache's locking.
func TestDrawConcurrently(t *testing.T) {
	orig, boxes := scene(360, 640, dark)
	want, err := annotate.PNG(orig, boxes, plans["optimal"])
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			// Several sizes, so that faces are created while others draw.
			w := 360 + 40*i
			img, bx := scene(w, w*16/9, dark)
			if _, err := annotate.PNG(img, bx, plans["optimal"]); err != nil {
				errs <- err
				return
			}
			got, err := annotate.PNG(orig, boxes, plans["optimal"])
			if err == nil && !bytes.Equal(got, want) {
				err = fmt.Errorf("annotation %d differs from the one drawn alone", i)
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
