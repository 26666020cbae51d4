package vision

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/decant/decant/vision/render"
)

// TestGlassLaw: frosted glass over a background of blobs, magenta behind the first row's
// top, green behind the second row (20261328783804). The room above tube 1's liquid shows
// the glass over the magenta-to-green blend; fitted there, the law tells the glass over the
// green beside tube 15, whose top three units' worth of glass, unlike tube 1's, read as a
// colour of their own. Tube 9's top layers, liquid, look like no glass.
func TestGlassLaw(t *testing.T) {
	f := sceneFrame(t, 20261328783804)
	boxes := []image.Rectangle{
		image.Rect(72, 208, 108, 369),  // tube 1: one unit, glass above
		image.Rect(72, 391, 109, 553),  // tube 9: four units
		image.Rect(381, 391, 419, 553), // tube 15: one unit, glass above over green
	}
	var cols []column
	var rooms [][2]int
	for _, b := range boxes {
		rm := [2]int{12, 12}
		cols = append(cols, f.readColumn(b, rm))
		rooms = append(rooms, rm)
	}
	// Tube 1 as the reader settles it: its one unit, the glass above (its gradient read
	// alone, the column takes part of it for a lid).
	cols[0] = column{box: boxes[0], top: 329, bottom: 366, runs: cols[0].runs[:1]}
	if !cols[2].reachesTop() {
		t.Fatalf("tube 15's glass no longer reads as liquid up to its top (top %d): the test shows nothing", cols[2].top)
	}
	law, ok := f.fitGlass(cols[:2], rooms[:2])
	if !ok || law.s < 0.3 || law.s > 0.8 {
		t.Fatalf("law %+v, %v; want frosted glass letting about half the background through", law, ok)
	}
	if got := f.glassyTops(cols, rooms, law); !slices.Equal(got, []int{2}) {
		t.Errorf("glassyTops = %v, want [2] (tube 15)", got)
	}
	// Clear glass (the background itself) tells nothing over a liquid like the background.
	bg, _ := f.beside(boxes[2], rooms[2], 392, 513)
	pale := []column{{box: boxes[2], top: 392, bottom: 550, bounds: []int{513}, runs: []lab{cols[2].runs[0], bg}}}
	if got := f.glassyTops(pale, rooms[2:], glassLaw{s: 1}); got != nil {
		t.Errorf("glassyTops with clear glass over a run like the background = %v, want none", got)
	}
}

// TestFitLaw fits the glass law to pairs of glass and background drawn by a known law, and
// refuses pairs that tell none.
func TestFitLaw(t *testing.T) {
	frosted := glassLaw{s: 0.55, u: [3]float64{110, 112, 115}}
	gradient := [][3]float64{{188, 79, 148}, {179, 102, 149}, {161, 125, 141}, {149, 139, 132}, {180, 220, 170}}
	one := [][3]float64{{180, 220, 170}, {181, 219, 171}, {179, 221, 169}, {180, 220, 171}}
	for _, tc := range []struct {
		name          string
		glass, behind [][3]float64
		ok            bool
	}{
		{"frosted glass over a gradient", drawGlass(frosted, 2, gradient...), gradient, true},
		{"over one background", drawGlass(frosted, 0.5, one...), one, false},
		{"a glass hiding the background", drawGlass(glassLaw{s: 0.05, u: [3]float64{200, 200, 200}}, 0, gradient...), gradient, false},
		{"no law: the samples stray", drawGlass(frosted, 20, gradient...), gradient, false},
		{"one pair", drawGlass(frosted, 0, gradient[0]), gradient[:1], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			law, ok := fitLaw(tc.glass, tc.behind)
			if ok != tc.ok {
				t.Fatalf("fitted %v (%+v), want %v", ok, law, tc.ok)
			}
			if ok && math.Abs(law.s-frosted.s) > 0.05 {
				t.Errorf("s = %.2f, want %.2f", law.s, frosted.s)
			}
		})
	}
}

// TestInGamut: a glass darkens white and shows its tint over black, in the sRGB range.
func TestInGamut(t *testing.T) {
	for _, tc := range []struct {
		name string
		law  glassLaw
		want bool
	}{
		{"frosted glass", glassLaw{s: 0.6, u: [3]float64{100, 100, 104}}, true},
		{"clear glass", glassLaw{s: 0.94, u: [3]float64{15, 15, 15}}, true},
		{"lighter than white over white", glassLaw{s: 0.7, u: [3]float64{120, 110, 100}}, false},
		{"darker than black over black", glassLaw{s: 1, u: [3]float64{-40, -35, -30}}, false},
	} {
		if got := tc.law.inGamut(); got != tc.want {
			t.Errorf("%s %+v: inGamut %v, want %v", tc.name, tc.law, got, tc.want)
		}
	}
}

// TestConsensusLaw finds the law that most bands follow, frosted glass over four
// backgrounds, among liquid bands that follow none, and finds none where fewer than
// minLawBands bands follow one.
func TestConsensusLaw(t *testing.T) {
	frosted := glassLaw{s: 0.6, u: [3]float64{100, 100, 104}}
	band := func(col int, law glassLaw, behind ...[3]float64) glassBand {
		return glassBand{col: col, glass: drawGlass(law, 1, behind...), behind: behind}
	}
	liquid := func(col int, c [3]float64, behind ...[3]float64) glassBand {
		return band(col, glassLaw{u: c}, behind...)
	}
	magenta := [][3]float64{{150, 40, 120}, {145, 45, 125}, {140, 50, 130}}
	green := [][3]float64{{40, 140, 60}, {45, 135, 65}, {50, 130, 70}}
	dark := [][3]float64{{20, 15, 30}, {22, 17, 32}, {25, 20, 35}}
	light := [][3]float64{{200, 190, 210}, {195, 185, 205}, {190, 180, 200}}
	glass := []glassBand{band(0, frosted, magenta...), band(2, frosted, green...), band(3, frosted, dark...), band(5, frosted, light...)}
	liquids := []glassBand{liquid(1, [3]float64{230, 40, 40}, green...), liquid(4, [3]float64{40, 60, 220}, magenta...)}

	law, in, ok := consensusLaw(append(slices.Clone(glass), liquids...))
	if !ok {
		t.Fatal("no law found among four bands of one glass")
	}
	if math.Abs(law.s-frosted.s) > 0.05 {
		t.Errorf("s = %.2f, want %.2f", law.s, frosted.s)
	}
	var cols []int
	for _, b := range in {
		cols = append(cols, b.col)
	}
	if !slices.Equal(cols, []int{0, 2, 3, 5}) {
		t.Errorf("bands agreeing: columns %v, want [0 2 3 5] (the glass, not the liquids)", cols)
	}
	if _, in, ok := consensusLaw(append(slices.Clone(glass[:2]), liquids...)); ok {
		t.Errorf("two bands of glass among liquids: a law found, followed by %d bands", len(in))
	}
	// Runs that follow a law lighter than white over white are no glass (89000345: three
	// liquid tops of a photo of a screen).
	bright := glassLaw{s: 0.7, u: [3]float64{120, 110, 100}}
	if law, _, ok := consensusLaw([]glassBand{band(0, bright, magenta...), band(1, bright, green...), band(2, bright, dark...)}); ok {
		t.Errorf("bands following a law out of the sRGB range: law %+v found", law)
	}
}

// TestGlassColour finds the tubes whose top colour lies all in glassy top runs.
func TestGlassColour(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tubes  [][]string
		glassy []int
		want   []int
	}{
		{"one tube's glass, a colour of its own", [][]string{{"r", "g"}, {"g", "r"}, {"b", "s", "s", "s"}}, []int{2}, []int{2}},
		{"two tubes' glass making a colour's worth", [][]string{{"r", "o", "o"}, {"b", "o", "o"}, {"r", "b"}}, []int{0, 1}, []int{0, 1}},
		{"a liquid like the glass, shown lower too", [][]string{{"s", "g"}, {"g", "s"}, {"b", "s", "s"}}, []int{2}, nil},
		{"a liquid like the glass on one tube's top but not another's", [][]string{{"r", "s"}, {"g", "s"}}, []int{0}, nil},
		{"no glassy run", [][]string{{"r", "g"}, {"g", "r"}}, nil, nil},
		{"beside a curtain", [][]string{{"r", "g"}, {"curtain:r"}, {"g", "s"}}, []int{2}, []int{2}},
		{"beside hidden units: colours show a unit or two", [][]string{{"?", "?", "g"}, {"?", "r", "s"}}, []int{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := glassColour(tc.tubes, tc.glassy); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// drawGlass is the glass law draws over the backgrounds behind, each channel off by noise
// levels one way or the other, or not, in turn.
func drawGlass(law glassLaw, noise float64, behind ...[3]float64) (glass [][3]float64) {
	for k, b := range behind {
		var g [3]float64
		for ch := range 3 {
			g[ch] = law.s*b[ch] + law.u[ch] + noise*float64((k+ch)%3-1)
		}
		glass = append(glass, g)
	}
	return glass
}

// sceneFrame is the frame of random scene seed, its image freed when the test ends.
func sceneFrame(t *testing.T, seed uint64) *frame {
	t.Helper()
	scene, err := render.Random(seed)
	if err != nil {
		t.Fatal(err)
	}
	mat, err := decode(scene.Data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mat.Close() })
	f, err := newFrame(mat)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
