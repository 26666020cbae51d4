package vision

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

func TestSolveHomography(t *testing.T) {
	rect := [4]pt{{0, 0}, {100, 0}, {100, 200}, {0, 200}}
	for _, tc := range []struct {
		name string
		to   [4]pt
		ok   bool
	}{
		{"identity", rect, true},
		{"scaled and moved", [4]pt{{10, 20}, {310, 20}, {310, 620}, {10, 620}}, true},
		{"tilted", [4]pt{{13, 40}, {300, 8}, {320, 590}, {-5, 560}}, true},
		{"three in a line", [4]pt{{0, 0}, {50, 50}, {100, 100}, {0, 200}}, false},
		{"a corner twice", [4]pt{{0, 0}, {0, 0}, {100, 200}, {0, 200}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := solveHomography(rect, tc.to)
			if ok != tc.ok {
				t.Fatalf("got ok %v, want %v (%v)", ok, tc.ok, h)
			}
			if !ok {
				return
			}
			for i, p := range rect {
				if got, want := h.apply(p), tc.to[i]; math.Hypot(got.X-want.X, got.Y-want.Y) > 1e-6 {
					t.Errorf("corner %d goes to %v, want %v", i, got, want)
				}
			}
		})
	}
}

// photoOf draws a phone photo of a screenshot as the renderer does, with the screen's corners
// known: the screen warped onto corners q of a w×h picture, inside a dark phone body reaching
// margin (a share of the screen's width) beyond it, on a light table.
func photoOf(t testing.TB, shot image.Image, q [4]pt, w, h int, margin float64) []byte {
	sw, sh := float64(shot.Bounds().Dx()), float64(shot.Bounds().Dy())
	toShot, ok := solveHomography(q, [4]pt{{0, 0}, {sw, 0}, {sw, sh}, {0, sh}})
	if !ok {
		t.Fatalf("corners %v make no map", q)
	}
	m := margin * sw
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			p := toShot.apply(pt{float64(x) + 0.5, float64(y) + 0.5})
			switch {
			case p.X >= 0 && p.Y >= 0 && p.X < sw && p.Y < sh:
				out.Set(x, y, shot.At(int(p.X), int(p.Y)))
			case p.X >= -m && p.Y >= -2*m && p.X < sw+m && p.Y < sh+2*m:
				out.Set(x, y, color.RGBA{22, 22, 26, 255})
			default:
				out.Set(x, y, color.RGBA{170, 150, 120, 255})
			}
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func imageFile(t testing.TB, name string) image.Image {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// photoCases are screenshots photographed at a tilt: the screen's corners in a w×h photo and
// the phone's body around them. A light screen is found by its edges; a dark one (level 98's
// background is near black) by the phone's outline, the screen with its bezel.
type photoCase struct {
	name, file string
	w, h       int
	q          [4]pt
	margin     float64
	phone      bool // the corners found are the phone's, not the screen's
}

var photoCases = []photoCase{
	{"leaning right", "../testdata/fixtures/light-mid12.png", 720, 1280, [4]pt{{110, 80}, {620, 60}, {640, 1200}, {90, 1190}}, 0.05, false},
	{"seen from below", "../testdata/fixtures/light-mid12.png", 720, 1280, [4]pt{{150, 60}, {570, 60}, {660, 1220}, {60, 1220}}, 0.05, false},
	{"turned", "../testdata/fixtures/light-mid12.png", 720, 1280, [4]pt{{80, 110}, {560, 50}, {660, 1180}, {150, 1230}}, 0.05, false},
	{"body cut off by the picture's edges", "../testdata/fixtures/light-mid12.png", 720, 1280, [4]pt{{40, 30}, {690, 45}, {680, 1250}, {30, 1235}}, 0.08, false},
	{"dark screen", "../testdata/seed-98.png", 900, 1700, [4]pt{{160, 110}, {770, 80}, {800, 1560}, {120, 1590}}, 0.05, true},
}

// corners is where the test photo's screen, or its phone, has its corners.
func (tc photoCase) corners(shot image.Image) [4]pt {
	if !tc.phone {
		return tc.q
	}
	sw, sh := float64(shot.Bounds().Dx()), float64(shot.Bounds().Dy())
	toPhoto, _ := solveHomography([4]pt{{0, 0}, {sw, 0}, {sw, sh}, {0, sh}}, tc.q)
	m := tc.margin * sw
	var out [4]pt
	for i, p := range [4]pt{{-m, -2 * m}, {sw + m, -2 * m}, {sw + m, sh + 2*m}, {-m, sh + 2*m}} {
		out[i] = toPhoto.apply(p)
	}
	return out
}

// A tilted screen in a photo is found where it is: every corner within 1% of the photo's
// width of the truth.
func TestFindScreen(t *testing.T) {
	for _, tc := range photoCases {
		t.Run(tc.name, func(t *testing.T) {
			shot := imageFile(t, tc.file)
			mat, err := decode(photoOf(t, shot, tc.q, tc.w, tc.h, tc.margin))
			if err != nil {
				t.Fatal(err)
			}
			defer mat.Close()
			s, ok := findScreen(mat)
			if !ok {
				t.Fatal("no screen found")
			}
			for i, want := range tc.corners(shot) {
				if got := s.corners[i]; math.Hypot(got.X-want.X, got.Y-want.Y) > 0.01*float64(tc.w) {
					t.Errorf("corner %d at (%.0f, %.0f), want (%.0f, %.0f)", i, got.X, got.Y, want.X, want.Y)
				}
			}
		})
	}
}

// A photo of a screenshot reads as the screenshot does, and the tubes' boxes are given in the
// photo's pixels: each covers the photographed tube (the screenshot's box carried through the
// same map). Annotate draws on the photo.
func TestReadPhoto(t *testing.T) {
	for _, tc := range photoCases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			shot := imageFile(t, tc.file)
			sw, sh := float64(shot.Bounds().Dx()), float64(shot.Bounds().Dy())
			r, err := Read(photoOf(t, shot, tc.q, tc.w, tc.h, tc.margin))
			if err != nil {
				t.Fatal(err)
			}
			if r.Level.Canonical() != want.Level.Canonical() {
				t.Fatalf("got  %s\nwant %s", r.Level.Compact(), want.Level.Compact())
			}
			if r.Width != tc.w || r.Height != tc.h {
				t.Errorf("reading is of a %d×%d image, want the photo's %d×%d", r.Width, r.Height, tc.w, tc.h)
			}
			toPhoto, _ := solveHomography([4]pt{{0, 0}, {sw, 0}, {sw, sh}, {0, sh}}, tc.q)
			for i, tube := range r.Tubes {
				b := want.Tubes[i].Box
				photographed := (&frame{scale: 1, screen: &screen{toImage: toPhoto}}).toImage(float64(b.Min.X), float64(b.Min.Y), float64(b.Max.X), float64(b.Max.Y))
				if iou := overlap(tube.Box, photographed); iou < 0.6 {
					t.Errorf("tube %d: box %v, the photographed tube is at %v (overlap %.2f)", i+1, tube.Box, photographed, iou)
				}
			}
			plan, _, err := solver.Solve(context.Background(), r.Level, solver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Annotate(r, plan); err != nil {
				t.Errorf("annotating the photo: %v", err)
			}
		})
	}
}

// overlap is the intersection over union of two boxes.
func overlap(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	i := float64(in.Dx() * in.Dy())
	u := float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - i
	if u <= 0 {
		return 0
	}
	return i / u
}

// Screenshots are read as they are: no screen is found in the committed fixtures, in drawn
// screenshots that are not photos, or in the shared real screenshots.
func TestFindScreenNotInScreenshots(t *testing.T) {
	check := func(t *testing.T, name string, data []byte) {
		t.Helper()
		mat, err := decode(data)
		if err != nil {
			return // not an image Read would read
		}
		defer mat.Close()
		if s, ok := findScreen(mat); ok {
			t.Errorf("%s: a screen found at %v in a screenshot", name, s.corners)
		}
	}
	files, _ := filepath.Glob("../testdata/fixtures/*.[jp][pn]g")
	files = append(files, "../testdata/seed-98.png")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(t, f, data)
	}
	for i := range 40 {
		seed := sceneSeed(ciSeed, i, false)
		sc, err := render.RandomWith(seed, map[string]string{"photo": "no"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "drawn scene "+sc.Factors["background"], sc.Data)
	}
	for name := range loadTruth(t) {
		data, err := os.ReadFile(filepath.Join(shared, name))
		if err != nil {
			t.Fatal(err)
		}
		check(t, name, data)
	}
}

// A reading of a photo whose two nearest colours are nearer than games' near pairs is refused
// where hidden units or covered tubes keep the counts from checking its colours: a photo's
// glare and colour cast make it a guess. One whose colours lie well apart stands, and so does
// one whose every unit is in view, the counts checking its colours.
func TestDoubtPhoto(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tubes   [][]string
		nearest float64
		code    solver.Code
	}{
		{"counts confirm, near pair", [][]string{{"red", "blue", "red", "blue"}, {"blue", "red", "blue", "red"}, {}, {}}, 8.7, ""},
		{"counts confirm, colours apart", [][]string{{"red", "blue", "red", "blue"}, {"blue", "red", "blue", "red"}, {}, {}}, 17.7, ""},
		{"hidden units, near pair", [][]string{{"?", "?", "?", "red"}, {"?", "?", "?", "blue"}, {}, {}}, 13.7, solver.CodeLowConfidence},
		{"hidden units, colours apart", [][]string{{"?", "?", "?", "red"}, {"?", "?", "?", "blue"}, {}, {}}, 17.7, ""},
		{"covered tube, near pair", [][]string{{"red", "blue", "red", "blue"}, {"blue", "red", "blue", "red"}, {solver.CurtainPrefix + "red"}, {}}, 13.7, solver.CodeLowConfidence},
		{"covered tube, colours apart", [][]string{{"red", "blue", "red", "blue"}, {"blue", "red", "blue", "red"}, {solver.CurtainPrefix + "red"}, {}}, 30, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := solver.BuildLevel(4, tc.tubes)
			if err != nil {
				t.Fatal(err)
			}
			r := &Reading{Level: l, Confidence: 1, photo: true, nearest: tc.nearest}
			err = r.doubtPhoto()
			if got := solver.ErrorCode(err); got != tc.code {
				t.Fatalf("got %q (%v), want %q", got, err, tc.code)
			}
			if refused := r.Confidence < LowConfidence; refused != (tc.code != "") {
				t.Errorf("confidence %.2f: refused %v, want %v", r.Confidence, refused, tc.code != "")
			}
		})
	}
}

func TestPlausibleScreen(t *testing.T) {
	const w, h = 320, 700
	for _, tc := range []struct {
		name   string
		q      []pt
		ok     bool
		tilted bool
	}{
		{"tilted screen", []pt{{30, 40}, {290, 25}, {300, 670}, {20, 660}}, true, true},
		{"upright rectangle", []pt{{30, 40}, {290, 40}, {290, 660}, {30, 660}}, true, false},
		{"a corner cut off", []pt{{-5, 10}, {300, 30}, {310, 690}, {10, 670}}, true, true},
		{"corners far outside", []pt{{-200, 40}, {290, 25}, {300, 670}, {20, 660}}, false, true},
		{"too small", []pt{{100, 200}, {200, 190}, {210, 400}, {100, 410}}, false, true},
		{"skewed", []pt{{30, 40}, {200, 300}, {300, 670}, {20, 660}}, false, true},
		{"too long and thin", []pt{{100, 0}, {200, 2}, {200, 700}, {100, 698}}, false, true},
		{"corners out of order", []pt{{290, 25}, {30, 40}, {20, 660}, {300, 670}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := plausibleScreen(tc.q, w, h); got != tc.ok {
				t.Errorf("plausible: got %v, want %v", got, tc.ok)
			}
			if got := tilted(tc.q, minTilt); got != tc.tilted {
				t.Errorf("tilted: got %v, want %v", got, tc.tilted)
			}
		})
	}
}
