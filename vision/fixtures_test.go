package vision

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

var update = flag.Bool("update", false, "rewrite the rendered fixtures in ../testdata/fixtures")

// fixtureLevels are the levels the rendered fixtures show: starts and mid-game positions,
// capacities 3 to 6, hidden units, no empty tube.
func fixtureLevels(t testing.TB) map[string]*solver.Level {
	seed98, err := os.ReadFile("../testdata/levels/seed-98.txt")
	if err != nil {
		t.Fatal(err)
	}
	l98, err := solver.ParseLevel(seed98)
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := solver.ParseCompact("4: ? ? ? red | ? blue | red | ? ? ? green | ? ? ? blue | ? red | green green | blue | |")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*solver.Level{
		"seed98":    l98,
		"deal5x3":   solver.Deal(5, 5, 3, 2),
		"deal7x5":   solver.Deal(7, 7, 5, 2),
		"deal9x6":   solver.Deal(9, 9, 6, 2),
		"mid12":     solver.Scramble(solver.Deal(12, 12, 4, 2), 3, 9),
		"hidden":    hidden,
		"noempty":   mustCompact(t, "4: red red blue green | blue blue green | green red | blue green red"),
		"deal14x4":  solver.Deal(14, 14, 4, 2),
		"deal3x4+1": solver.Deal(3, 3, 4, 1),
		"deal6x7":   solver.Deal(6, 6, 7, 2),
		"curtains":  mustCompact(t, "4: curtain:orange | ? ? red | ? ? blue | ? green | curtain:green | ? ? red | ? ? orange | |"),
	}
}

func mustCompact(t testing.TB, s string) *solver.Level {
	l, err := solver.ParseCompact(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRenderedMatrix renders levels (capacities 3 to 7, curtains) in every theme, at phone resolutions from 360×800 to
// 1440×3200 and two other aspect ratios, in one to three rows, with and without status bar and
// banner, as PNG and as JPEG down to quality 60, and reads each back: all must be exact.
func TestRenderedMatrix(t *testing.T) {
	levels := fixtureLevels(t)
	names := []string{"seed98", "deal5x3", "deal7x5", "deal9x6", "mid12", "hidden", "noempty", "deal14x4", "deal3x4+1", "deal6x7", "curtains"}
	sizes := [][2]int{{360, 800}, {720, 1600}, {1080, 2400}, {1440, 3200}, {1080, 1920}, {1200, 1600}}
	quality := []int{0, 85, 60}
	n := 0
	for ti, theme := range render.Themes {
		for si, size := range sizes {
			for rows := 1; rows <= 3; rows++ {
				for chrome := 0; chrome < 2; chrome++ {
					n++
					name := names[(ti+si*3+rows+chrome)%len(names)]
					l := levels[name]
					if rows > len(l.Tubes) {
						continue
					}
					opts := render.Options{
						Theme: theme, Width: size[0], Height: size[1], Rows: rows,
						StatusBar: chrome == 1, Banner: chrome == 1,
						JPEGQuality: quality[n%len(quality)], Seed: uint64(n),
					}
					if testing.Short() && n%4 != 0 {
						continue
					}
					t.Run(fmt.Sprintf("%s/%dx%d/rows%d/chrome%d/q%d/%s", theme, size[0], size[1], rows, chrome, opts.JPEGQuality, name), func(t *testing.T) {
						t.Parallel()
						checkRoundTrip(t, l, opts)
					})
				}
			}
		}
	}
}

func checkRoundTrip(t *testing.T, l *solver.Level, opts render.Options) {
	r, err := render.Render(l, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(r.Data)
	if dir := os.Getenv("DECANT_DUMP"); dir != "" && (err != nil || got.Level.Canonical() != l.Canonical()) {
		os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".png"), r.Data, 0o644)
	}
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if g, w := got.Level.Canonical(), l.Canonical(); g != w {
		t.Fatalf("got  %s\nwant %s\nreasons %v", g, w, got.Reasons)
	}
	for i, tube := range got.Tubes {
		want := r.Truth.Tubes[i].Box
		if in := tube.Box.Intersect(want); in.Dx()*in.Dy() < want.Dx()*want.Dy()*7/10 {
			t.Errorf("tube %d: box %v, drawn at %v", i+1, tube.Box, want)
		}
	}
}

// fixture is a committed rendered screenshot and its ground truth.
type fixture struct {
	file string
	opts render.Options
	lvl  string
}

var fixtures = []fixture{
	{"seed-98.png", render.Options{Theme: "dark", StatusBar: true, Title: "LEVEL 98", Seed: 1}, "seed98"},
	{"light-mid12.png", render.Options{Theme: "light", Width: 720, Height: 1600, StatusBar: true}, "mid12"},
	{"wood-hidden.jpg", render.Options{Theme: "wood", Width: 720, Height: 1600, JPEGQuality: 80}, "hidden"},
	{"gradient-deal9x6.png", render.Options{Theme: "gradient", Width: 1080, Height: 1920, Banner: true, Rows: 3}, "deal9x6"},
	{"dark-noempty.jpg", render.Options{Theme: "dark", Width: 360, Height: 800, JPEGQuality: 60, Banner: true}, "noempty"},
}

// TestCommittedFixtures reads the committed rendered screenshots (golden files: run with
// -update to rewrite them) and compares them with the levels they were drawn from.
func TestCommittedFixtures(t *testing.T) {
	levels := fixtureLevels(t)
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			path := filepath.Join("../testdata/fixtures", f.file)
			if f.file == "seed-98.png" {
				path = "../testdata/seed-98.png"
			}
			l := levels[f.lvl]
			if *update {
				r, err := render.Render(l, f.opts)
				if err != nil {
					t.Fatal(err)
				}
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, r.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				js, _ := json.MarshalIndent(l, "", "  ")
				os.WriteFile(path+".json", append(js, '\n'), 0o644)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./vision -run TestCommittedFixtures -update)", err)
			}
			truth, err := os.ReadFile(path + ".json")
			if err != nil {
				t.Fatal(err)
			}
			want, err := solver.ParseLevel(truth)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.Level.Canonical(), want.Canonical(); g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		})
	}
}

// TestAnnotate checks the annotated image: a PNG of the screenshot's size that differs from it
// around the tubes and in the legend, for each kind of plan.
func TestAnnotate(t *testing.T) {
	data, r, plan := solvedSeed98(t)
	for name, p := range map[string]solver.Plan{
		"optimal":    plan,
		"unsolvable": {Status: solver.StatusUnsolvable},
		"unknown":    {Status: solver.StatusUnknown},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := Annotate(data, r, p)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() != r.Width || img.Bounds().Dy() != r.Height {
				t.Fatalf("annotated image is %v, want %d×%d", img.Bounds(), r.Width, r.Height)
			}
			orig, _ := png.Decode(bytes.NewReader(data))
			above := r.Tubes[0].Box
			above = image.Rect(above.Min.X, above.Min.Y-above.Dx(), above.Max.X, above.Min.Y)
			if changed(orig, img, above) == 0 {
				t.Error("no tube number drawn above tube 1")
			}
		})
	}
	bad := *r
	bad.Width++
	if _, err := Annotate(data, &bad, plan); solver.ErrorCode(err) != solver.CodeInvalidArgument {
		t.Errorf("a reading of another image: got %v, want invalid_argument", err)
	}
	wrong := plan
	wrong.Moves = []solver.Move{{From: 0, To: 99}}
	if _, err := Annotate(data, r, wrong); solver.ErrorCode(err) != solver.CodeInvalidPlan {
		t.Errorf("a move to tube 100: got %v, want invalid_plan", err)
	}
}

func changed(a, b image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				n++
			}
		}
	}
	return n
}
