package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/decant/decant/solver"
)

// testSeeds are the seeds the default tests draw (a slice of the distribution small enough
// for CI; TestContactSheet and the reader's evaluation draw many more).
func testSeeds() []uint64 {
	n := 40
	if testing.Short() {
		n = 12
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(1000 + 7*i)
	}
	return out
}

func TestRandomIsDeterministic(t *testing.T) {
	for _, seed := range []uint64{3, 21, 4242} {
		a, err := Random(seed)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Random(seed)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Data, b.Data) || fmt.Sprint(a.Factors) != fmt.Sprint(b.Factors) {
			t.Errorf("seed %d: two draws differ", seed)
		}
		c, err := Random(seed + 1)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(a.Data, c.Data) {
			t.Errorf("seeds %d and %d draw the same image", seed, seed+1)
		}
		n1, _ := NonPuzzle(seed)
		n2, _ := NonPuzzle(seed)
		if !bytes.Equal(n1.Data, n2.Data) {
			t.Errorf("non-puzzle seed %d: two draws differ", seed)
		}
	}
}

// TestRandomTruth checks every scene's truth against its level and its pixels.
func TestRandomTruth(t *testing.T) {
	for _, seed := range testSeeds() {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			s, err := Random(seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkTruth(s); err != nil {
				t.Fatalf("%v\nfactors: %s", err, draws(s.Factors))
			}
			if err := checkFactors(s.Factors, Factors); err != nil {
				t.Fatal(err)
			}
			if v := s.Factors["per-row"]; !slices.Contains(Derived["per-row"], v) {
				t.Errorf("per-row %q: not one of %v", v, Derived["per-row"])
			}
		})
	}
}

func TestNonPuzzleTruth(t *testing.T) {
	seen := map[string]bool{}
	for _, seed := range testSeeds()[:min(len(testSeeds()), 24)] {
		s, err := NonPuzzle(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		seen[s.Factors["screen"]] = true
		tr := s.Truth
		if !tr.NoPuzzle || tr.Level != nil || len(tr.Tubes) != 0 {
			t.Errorf("seed %d: truth %+v, want NoPuzzle with no level and no tubes", seed, tr)
		}
		if err := checkSceneSize(s); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
	if len(seen) < 4 {
		t.Errorf("24 seeds drew only the screens %v", seen)
	}
}

// TestFactorsReached draws the factors of 500 seeds: every value of every factor must come up,
// so no value is dead weight.
func TestFactorsReached(t *testing.T) {
	seen := map[string]map[string]int{}
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 0x7a2d00))
		d := sample(r)
		dealLevel(r, d, seed)
		for k, v := range d {
			if seen[k] == nil {
				seen[k] = map[string]int{}
			}
			seen[k][v]++
		}
	}
	if len(FactorNames()) != len(Factors) {
		t.Errorf("factorOrder lists %d factors, Factors %d", len(FactorNames()), len(Factors))
	}
	seen["screen"] = map[string]int{}
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 0x90b1e))
		seen["screen"][NonPuzzleFactors["screen"].pick(r)]++
	}
	for _, k := range append(FactorNames(), "screen") {
		values := FactorValues(k)
		if len(values) == 0 {
			t.Errorf("factor %s has no values", k)
		}
		for _, v := range values {
			if seen[k][v] == 0 {
				t.Errorf("factor %s: value %q never drawn in 500 seeds", k, v)
			}
		}
	}
}

// checkFactors checks that every factor has a recorded value the distribution can draw.
func checkFactors(got map[string]string, want map[string]choice) error {
	for k, c := range want {
		v, ok := got[k]
		if !ok {
			return fmt.Errorf("factor %s not recorded", k)
		}
		if !slices.Contains(c.values(), v) && v != "theme" && !(k == "background" && len(v) > 6 && v[:6] == "theme-") && !(k == "position" && v == "given") && !(k == "outline-tone" && v == "none" && got["outline"] == "none") {
			return fmt.Errorf("factor %s = %q: not one of %v", k, v, c.values())
		}
	}
	return nil
}

// checkSceneSize checks that the image, the truth and the encoded bytes agree: the bytes
// decode, after their EXIF orientation is applied, to the image's size and (up to JPEG loss)
// its pixels.
func checkSceneSize(s *Scene) error {
	b := s.Image.Bounds()
	if b.Dx() != s.Truth.Width || b.Dy() != s.Truth.Height {
		return fmt.Errorf("image %v, truth %d×%d", b, s.Truth.Width, s.Truth.Height)
	}
	dec, _, err := image.Decode(bytes.NewReader(s.Data))
	if err != nil {
		return err
	}
	switch s.Factors["exif"] { // undo what the camera stored
	case "90":
		dec = imaging.Rotate270(dec)
	case "180":
		dec = imaging.Rotate180(dec)
	case "270":
		dec = imaging.Rotate90(dec)
	}
	if db := dec.Bounds(); db.Dx() != b.Dx() || db.Dy() != b.Dy() {
		return fmt.Errorf("encoded %v (exif %s), image %v", db, s.Factors["exif"], b)
	}
	sum, n := 0, 0
	for y := 0; y < b.Dy(); y += 7 {
		for x := 0; x < b.Dx(); x += 7 {
			r1, g1, b1, _ := dec.At(x, y).RGBA()
			r2, g2, b2, _ := s.Image.At(x, y).RGBA()
			sum += absInt(int(r1>>8)-int(r2>>8)) + absInt(int(g1>>8)-int(g2>>8)) + absInt(int(b1>>8)-int(b2>>8))
			n += 3
		}
	}
	if mean := float64(sum) / float64(n); mean > maxCodingError {
		return fmt.Errorf("the encoded image differs from the drawn one by %.1f a channel on average", mean)
	}
	return nil
}

// maxCodingError is the mean difference a channel may take from JPEG coding at quality 40.
const maxCodingError = 6

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkTruth checks a puzzle scene's truth: a valid level, one tube box per tube inside the
// image and apart from the others, one unit box per unit inside its tube and stacked bottom
// up, the mystery convention (a tube's top unit is shown), and the pixels: units of one
// colour look alike and units of different colours look different.
func checkTruth(s *Scene) error {
	tr := s.Truth
	if tr.NoPuzzle || tr.Level == nil {
		return fmt.Errorf("a puzzle scene with NoPuzzle %v, level %v", tr.NoPuzzle, tr.Level)
	}
	if err := checkSceneSize(s); err != nil {
		return err
	}
	l := tr.Level
	if err := l.Validate(); err != nil {
		return err
	}
	if len(tr.Tubes) != len(l.Tubes) {
		return fmt.Errorf("%d tube boxes for %d tubes", len(tr.Tubes), len(l.Tubes))
	}
	frame := image.Rect(0, 0, tr.Width, tr.Height)
	for i, tube := range tr.Tubes {
		if tube.Box.Empty() || !tube.Box.In(frame) {
			return fmt.Errorf("tube %d: box %v outside the %v frame", i+1, tube.Box, frame)
		}
		overlap := 20 // a photo's tilt widens bounding boxes: they may overlap more
		if s.Factors["photo"] == "yes" {
			overlap = 4
		}
		for j := range i {
			if in := tube.Box.Intersect(tr.Tubes[j].Box); in.Dx()*in.Dy() > tube.Box.Dx()*tube.Box.Dy()/overlap {
				return fmt.Errorf("tubes %d and %d overlap: %v, %v", j+1, i+1, tr.Tubes[j].Box, tube.Box)
			}
		}
		if len(tube.Units) != len(l.Tubes[i]) {
			return fmt.Errorf("tube %d: %d unit boxes for %d units", i+1, len(tube.Units), len(l.Tubes[i]))
		}
		legible := s.Factors["style"] == "random" && s.Factors["photo"] == "no"
		if legible && tube.Box.Dx() < minTubeWidth {
			return fmt.Errorf("tube %d: %d px wide, under %d", i+1, tube.Box.Dx(), minTubeWidth)
		}
		if m := tube.Box.Dx() / 8; legible && (tube.Box.Min.X < m || tube.Box.Max.X > tr.Width-m) {
			return fmt.Errorf("tube %d: box %v leaves no room for its lip in a %d px wide image", i+1, tube.Box, tr.Width)
		}
		for j, u := range tube.Units {
			if legible && u.Dy() < minUnitH-1 {
				return fmt.Errorf("tube %d unit %d: %d px high, under %d", i+1, j+1, u.Dy(), minUnitH)
			}
			if u.Empty() || !u.In(tube.Box) {
				return fmt.Errorf("tube %d unit %d: box %v not inside the tube's %v", i+1, j+1, u, tube.Box)
			}
			if j > 0 && (u.Max.Y > tube.Units[j-1].Min.Y+u.Dy()/3 || u.Min.Y+u.Max.Y >= tube.Units[j-1].Min.Y+tube.Units[j-1].Max.Y) {
				return fmt.Errorf("tube %d unit %d: box %v is not above unit %d's %v", i+1, j+1, u, j, tube.Units[j-1])
			}
		}
		if n := len(l.Tubes[i]); n > 0 && l.Tubes[i][n-1] == solver.Hidden && s.Factors["position"] != "given" {
			return fmt.Errorf("tube %d: its top unit is hidden", i+1)
		}
	}
	return checkUnitColours(s)
}

// Colour agreement of the drawn units (CIEDE2000 between the median colours of the units'
// centres): units of one colour stay within sameDE of their colour's median (shading,
// glare, bubbles and JPEG move them a little; a photo's glare spot and moiré more, up to
// samePhotoDE); each colour's median stays apartDE from every other colour's, and from the
// hidden units'.
const (
	sameDE      = 15
	samePhotoDE = 22
	apartDE     = 5
)

func checkUnitColours(s *Scene) error {
	img := s.Image
	l := s.Truth.Level
	same := float64(sameDE)
	if s.Factors["photo"] == "yes" {
		same = samePhotoDE
	}
	byColour := map[solver.Color][]color.RGBA{}
	for i, tube := range s.Truth.Tubes {
		for j, u := range tube.Units {
			c := l.Tubes[i][j]
			byColour[c] = append(byColour[c], medianOf(img, u.Inset(min(u.Dx(), u.Dy())/4)))
		}
	}
	med := map[solver.Color]color.RGBA{}
	for c, cs := range byColour {
		m := medianColour(cs)
		med[c] = m
		for _, x := range cs {
			if d := dE(x, m); d > same && c != solver.Hidden {
				return fmt.Errorf("colour %s: a unit at ΔE %.1f from the colour's median %v", l.Name(c), d, m)
			}
		}
	}
	var ids []solver.Color
	for c := range med {
		ids = append(ids, c)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			if d := dE(med[a], med[b]); d < apartDE {
				return fmt.Errorf("colours %s and %s are drawn ΔE %.1f apart", l.Name(a), l.Name(b), d)
			}
		}
	}
	return nil
}

func medianOf(img image.Image, r image.Rectangle) color.RGBA {
	var cs []color.RGBA
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			cs = append(cs, rgb(uint8(r>>8), uint8(g>>8), uint8(b>>8)))
		}
	}
	return medianColour(cs)
}

func medianColour(cs []color.RGBA) color.RGBA {
	if len(cs) == 0 {
		return color.RGBA{}
	}
	ch := func(f func(color.RGBA) uint8) uint8 {
		v := make([]int, len(cs))
		for i, c := range cs {
			v[i] = int(f(c))
		}
		sort.Ints(v)
		return uint8(v[len(v)/2])
	}
	return rgb(ch(func(c color.RGBA) uint8 { return c.R }), ch(func(c color.RGBA) uint8 { return c.G }), ch(func(c color.RGBA) uint8 { return c.B }))
}
