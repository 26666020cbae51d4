package vision

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// TestCurtainsAlike reads random scenes with two curtains or more whose first pass found one
// and missed another (its lantern within distinctDE of the cloth: a dark padlock on a grey lid,
// a pale one on a sheet; a pale lantern, white or pastel, no more saturated than a wooden or
// coloured cloth): the cloth of the curtain found tells the others. A board whose every
// open tube is full allows no pour and is refused, with the reading attached right.
func TestCurtainsAlike(t *testing.T) {
	readExactlyOrDead(t, 31000310, 33000102, 33000183, 65000426, 65000454, 65000585, 67000454, 67000717, 67000753)
}

// readExactlyOrDead reads random scenes that must read exactly; a board whose every open
// tube is full allows no pour and must be refused, with the reading attached right.
func readExactlyOrDead(t *testing.T, seeds ...uint64) {
	t.Helper()
	for _, seed := range seeds {
		scene, err := render.Random(seed)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		dead := spareTubes(scene.Truth.Level) == 0
		switch {
		case dead && (err == nil || r == nil || r.Level.Canonical() != scene.Truth.Level.Canonical()):
			t.Errorf("seed %d: a board with no pour: %v; want it refused with the level read exactly", seed, err)
		case dead:
		case err != nil:
			t.Errorf("seed %d: %v; want the level read exactly", seed, err)
		case r.Level.Canonical() != scene.Truth.Level.Canonical():
			t.Errorf("seed %d: silently wrong:\ngot  %s\nwant %s", seed, r.Level.Compact(), scene.Truth.Level.Compact())
		}
	}
}

// TestLidNarrowerThanTube: lids narrower than the tubes' bulbs, the boxes found, are
// curtains whose padlocks hang between cloth: the strips beside a lantern are taken at the
// cloth's sides, not the box's (the box's sides show the background there). Without it the
// two lids read as tubes of grey, silently (the grey made one whole colour).
func TestLidNarrowerThanTube(t *testing.T) {
	sc, err := render.RandomWith(73000335, map[string]string{"cover": "lid"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(sc.Data)
	if err != nil {
		t.Fatalf("%v; want %s", err, sc.Truth.Level.Compact())
	}
	if got, want := r.Level.Canonical(), sc.Truth.Level.Canonical(); got != want {
		t.Errorf("got  %s\nwant %s", r.Level.Compact(), sc.Truth.Level.Compact())
	}
}

// TestPaleLantern reads random scenes whose only curtain (or every one) shows a lantern no
// more saturated than its cloth (a grey, brown or navy disc on a sheet, a pane of such a
// colour in a gilt frame): no curtain found tells the cloth, so only the hypothesis of pale
// lanterns (lanternMode) finds them. Without it each tube's cloth read as liquid, refused.
func TestPaleLantern(t *testing.T) {
	for _, seed := range []uint64{83000271, 83000336, 83000381, 83000459, 83000615} {
		scene, err := render.Random(seed)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		switch {
		case err != nil:
			t.Errorf("seed %d: %v; want the level read exactly", seed, err)
		case r.Level.Canonical() != scene.Truth.Level.Canonical():
			t.Errorf("seed %d: silently wrong:\ngot  %s\nwant %s", seed, r.Level.Compact(), scene.Truth.Level.Compact())
		}
	}
}

// TestPaleRefusedAside: a layout read with pale lanterns that the rules refuse does not
// displace the refusal of the layout without them. On two finished boards a tube's patch
// passed for a pale lantern, and the board was refused as unsure instead of as finished.
func TestPaleRefusedAside(t *testing.T) {
	for _, seed := range []uint64{83000682, 83000824} {
		scene, err := render.Random(seed)
		if err != nil {
			t.Fatal(err)
		}
		if !scene.Truth.Level.Solved() {
			t.Fatalf("seed %d: the scene is no finished board", seed)
		}
		if _, err := Read(scene.Data); solver.ErrorCode(err) != solver.CodeNoPuzzle {
			t.Errorf("seed %d: %v; want no_puzzle (a finished board)", seed, err)
		}
	}
}

func TestTurns(t *testing.T) {
	for _, tc := range []struct {
		p    []float64
		want int
	}{
		{nil, 0},
		{[]float64{50, 50, 50, 50}, 0},
		{[]float64{50, 52, 49, 53, 50}, 0},                     // noise under foldContrast
		{[]float64{40, 40, 70, 70, 70, 40, 40}, 2},             // a glare stripe: one band
		{[]float64{38, 43, 33, 43, 33, 43, 33, 43, 33}, 7},     // folds (the first rise, 5, is too small)
		{[]float64{60, 58, 55, 52, 49, 46, 43, 40, 37, 34}, 1}, // a gradient falls once
	} {
		if got := turns(tc.p); got != tc.want {
			t.Errorf("turns(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
	a := []float64{1, 2, 3, 2, 1}
	if c := correlation(a, a); math.Abs(c-1) > 1e-9 {
		t.Errorf("correlation of a profile with itself = %v, want 1", c)
	}
	if c := correlation(a, []float64{3, 2, 1, 2, 3}); math.Abs(c+1) > 1e-9 {
		t.Errorf("correlation with the inverted profile = %v, want -1", c)
	}
	if c := correlation(a, []float64{5, 5, 5, 5, 5}); c != 0 {
		t.Errorf("correlation with a flat profile = %v, want 0", c)
	}
}

// TestLanternRunAndGroup reads random scenes whose curtains were missed: a stand under a
// sheet, or one row of a lid's rim, in the lantern's colour at the box's foot read as the
// lantern reaching down to it (liquid resting on the bottom); a pale padlock on a grey lid
// grouped with the cloth round it came out wider than a lantern. The lantern is the longest
// run of its colour down the box, and its group takes the pixels nearer it than the cloth.
func TestLanternRunAndGroup(t *testing.T) {
	readExactlyOrDead(t, 85000519, 89000381, 91000321, 20261290783964)
}

// TestCurtainAmongTubesReadAsTube reads random scenes in which a tube among the others was
// taken for a curtain, its top layer (shaded, or on grey hidden boxes as grey as a lid) for
// a lantern: every other tube then looked like the cloth, and the board was refused. The
// reading with the curtains found among the tubes read as tubes keeps the rules.
func TestCurtainAmongTubesReadAsTube(t *testing.T) {
	readExactlyOrDead(t, 85000365, 87000375, 20261293783751)
}

// TestLargestBlob: pixels touching at a corner are one blob; the larger of two is kept,
// whatever the order the pixels come in.
func TestLargestBlob(t *testing.T) {
	r := image.Rect(10, 20, 20, 30)
	var px []pixel
	for _, p := range []image.Point{{10, 20}, {19, 29}, {11, 21}, {12, 22}, {18, 29}, {12, 23}, {19, 28}} {
		px = append(px, pixel{x: p.X, y: p.Y})
	}
	var got []image.Point
	for _, p := range largestBlob(px, r) {
		got = append(got, image.Pt(p.x, p.y))
	}
	slices.SortFunc(got, func(a, b image.Point) int { return a.X*100 + a.Y - b.X*100 - b.Y })
	if want := []image.Point{{10, 20}, {11, 21}, {12, 22}, {12, 23}}; !slices.Equal(got, want) {
		t.Errorf("largestBlob = %v, want %v", got, want)
	}
	if b := largestBlob(nil, r); len(b) != 0 {
		t.Errorf("largestBlob(nil) = %v, want none", b)
	}
}

// TestLanternBlobOnKnownCloth reads random scenes with several curtains of one cloth, one of
// them missed: its lantern's colour shows elsewhere on the box too (a fold's shadow down the
// cloth, the gilt of its frame and rod), and the colour's bounding box came out as tall or as
// wide as the cloth. On a cloth known from another curtain, the lantern is the colour's
// largest blob.
func TestLanternBlobOnKnownCloth(t *testing.T) {
	readExactlyOrDead(t, 91000416, 91000503)
}

// TestNoBlobOnLiquid reads random scenes (fresh seed 20261243) where a lantern taken as its
// colour's largest blob on any cloth found one in a tube of liquid: a layer that a wide
// glare stripe parts, one side shaded out of the colour's group, passed for a lantern on the
// layers above. Only on a cloth known from another curtain is a blob enough.
func TestNoBlobOnLiquid(t *testing.T) {
	readExactlyOrDead(t, 20261303783798, 20261303784269)
}

// TestLanternNoUnit: a curtain of dark cloth round a small saturated lantern, beside a tube
// whose units look like the cloth, was read as a tube full of the cloth's colour (the reading
// with the curtains among the tubes read as tubes), a colour of its own that kept the rules.
// A tube's top layer taken for a lantern shows as one of its units when read as a tube; a
// lantern on cloth shows in none, so its curtain stands, and the board is refused for the
// tube like the cloth. Scenes of seed 86 with every board curtained.
func TestLanternNoUnit(t *testing.T) {
	refusedOrExact(t, 86000322, map[string]string{"cover": "curtain"}, "a curtain read as a tube of its cloth's colour")
}

// TestCurtainsInUnevenRow: a row spaced unevenly has no pitch, and its own boxes were not
// looked at for curtains either, so a sheet or a lid among its tubes read as a tube of its
// cloth's colour and the board was refused for the count.
func TestCurtainsInUnevenRow(t *testing.T) {
	readsExactly(t, 83000259, map[string]string{"cover": "sheet"}, "a sheet among an uneven row's tubes")
	readsExactly(t, 84000401, map[string]string{"cover": "lid"}, "two lids among an uneven row's tubes")
	readsExactly(t, 84000490, map[string]string{"cover": "lid"}, "the same")
}

// TestLanternOfTheClothsHue: a blue padlock on a blue-grey lid stands ΔE 15 from it by
// CIEDE2000 (which compresses differences of chroma in blue), under distinctDE and at the
// edge of clothDE, though its chroma is four times the cloth's: on a grey cloth known from
// other curtains a lantern is told by its saturation alone, and its flanks by the halfway
// colour between it and the cloth. The board's every open tube is full, so it is refused for
// allowing no pour, with the level read right.
func TestLanternOfTheClothsHue(t *testing.T) {
	scene, err := render.RandomWith(84000272, map[string]string{"cover": "lid"})
	if err != nil {
		t.Fatal(err)
	}
	if spareTubes(scene.Truth.Level) != 0 {
		t.Fatal("the scene is no board without a pour")
	}
	r, err := Read(scene.Data)
	if err == nil || r == nil || r.Level.Canonical() != scene.Truth.Level.Canonical() {
		t.Errorf("%v; want the board refused for allowing no pour, with its level read right", err)
	}
}

// TestShadedLiquidIsNoLantern: a tube of olive liquid whose middle is more saturated than its
// edges (a coloured "cloth" with a saturated "lantern") is no curtain: saturation alone tells
// a lantern only on a grey cloth. On this finished board such a tube, read as a curtain
// waiting for a colour complete in view, turned the finished board's no_puzzle into a
// refusal for the rules.
func TestShadedLiquidIsNoLantern(t *testing.T) {
	scene, err := render.Random(85000501)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(scene.Data); solver.ErrorCode(err) != solver.CodeNoPuzzle {
		t.Errorf("%v; want no_puzzle (a finished board)", err)
	}
}

// TestEnclosedPane: the pane of a lantern drawn as a frame is what the frame encloses, with
// the rod it hangs from enclosing nothing; a solid disc, or a frame open at a side, encloses
// no pane.
func TestEnclosedPane(t *testing.T) {
	const w, h = 20, 30
	gilt, olive, cloth := lab{L: 72, A: 3, B: 57}, lab{L: 51, A: -15, B: 48}, lab{L: 41, A: -26, B: -2}
	f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
	set := func(x, y int, c lab) { copy(f.lab[3*(y*w+x):], []float32{float32(c.L), float32(c.A), float32(c.B)}) }
	for y := range h {
		for x := range w {
			set(x, y, cloth)
		}
	}
	var frame []pixel
	add := func(x, y int) { set(x, y, gilt); frame = append(frame, pixel{x, y, gilt}) }
	for y := range 12 { // the rod
		add(10, y)
	}
	for y := 12; y < 24; y++ { // the frame, two pixels thick, round an olive pane
		for x := 5; x < 16; x++ {
			if x < 7 || x > 13 || y < 14 || y > 21 {
				add(x, y)
			} else {
				set(x, y, olive)
			}
		}
	}
	if pane, at, ok := f.enclosed(frame); !ok || deltaE(pane, olive) > 1 || at != image.Rect(7, 14, 14, 22) {
		t.Errorf("pane %v at %v, %v; want the olive pane at (7,14)-(14,22)", pane, at, ok)
	}
	open := slices.DeleteFunc(slices.Clone(frame), func(p pixel) bool { return p.x > 13 && p.y >= 12 })
	if pane, _, ok := f.enclosed(open); ok {
		t.Errorf("a frame open at its right encloses %v; want no pane", pane)
	}
	var disc []pixel
	for y := 12; y < 24; y++ {
		for x := 5; x < 16; x++ {
			disc = append(disc, pixel{x, y, gilt})
		}
	}
	if pane, _, ok := f.enclosed(disc); ok {
		t.Errorf("a solid block encloses %v; want no pane", pane)
	}
}

// TestFramedPaneOnSaturatedCloth: a teal pane in a gilt frame hung from a gilt string, on a
// navy cloth more saturated than either (fresh seed 20261266's 20261326784162). The frame and
// its string stand taller than a lantern told by its colour alone may; the pane they enclose,
// unlike both, is the lantern, and a place on the curtain finds it.
func TestFramedPaneOnSaturatedCloth(t *testing.T) {
	f := sceneFrame(t, 20261326784162)
	teal := lab{L: 49, A: -36, B: 6}
	if l := f.lantern(image.Rect(75, 426, 159, 563), paleLantern); !l.ok || deltaE(l.c, teal) > 5 {
		t.Errorf("lantern %+v; want the teal pane", l)
	}
	// The curtain hangs from 75 to 159 beside a row of tubes 66 wide, 97 apart.
	if c, ok := f.curtainAt(f.tubeCandidates(), 117, 426, 563, 66, 137, 97, paleLantern); !ok || deltaE(c.color, teal) > 5 {
		t.Errorf("curtain %+v, %v; want the teal lantern's", c, ok)
	}
}

// TestSpeckIsNoLantern: a cloth with a few pixels of a saturated colour reaching its area's
// edge (a glare stripe crossing a layer's edge, 3 by 4, or broken down the cloth, 2 wide)
// shows no lantern; as few inside the cloth are a small lantern (a small image's); the
// same colour as a lantern's blob does, a narrow one too (5 by 11 on a cloth 33 wide, as in
// 89000441), and a ring, its outline fewer pixels than a speck's limit (20261290783896).
func TestSpeckIsNoLantern(t *testing.T) {
	const w, h = 41, 140
	green, brown, red := lab{L: 30, A: -20, B: 15}, lab{L: 28, A: 10, B: 18}, lab{L: 50, A: 70, B: 50}
	box := image.Rect(4, 20, 37, 128)
	rect := func(x0, y0, w, h int) func(x, y int) bool {
		return func(x, y int) bool { return x >= x0 && x < x0+w && y >= y0 && y < y0+h }
	}
	for _, tc := range []struct {
		name string
		red  func(x, y int) bool
		want bool
	}{
		{"a speck at the cloth area's foot", rect(16, 88, 3, 4), false},
		{"a speck inside the cloth: a small lantern", rect(16, 50, 3, 4), true},
		{"a stripe broken down the cloth", func(x, y int) bool { return rect(16, 30, 2, 70)(x, y) && y%7 == 0 }, false},
		{"a narrow lantern", rect(16, 50, 5, 11), true},
		{"a dotted ring", func(x, y int) bool { return rect(14, 50, 12, 12)(x, y) && !rect(15, 51, 10, 10)(x, y) && (x+y)%3 == 0 }, true},
		{"a lantern", rect(16, 50, 10, 10), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
			for y := range h {
				for x := range w {
					c := green
					switch {
					case tc.red(x, y):
						c = red
					case image.Pt(x, y).In(box):
						c = brown
					}
					copy(f.lab[3*(y*w+x):], []float32{float32(c.L), float32(c.A), float32(c.B)})
				}
			}
			if l := f.findLantern(box, saturatedLantern); l.ok != tc.want {
				t.Errorf("lantern %+v, want found %v", l, tc.want)
			}
		})
	}
}

// paintedFrame is a w×h frame painted by colorAt.
func paintedFrame(w, h int, colorAt func(x, y int) lab) *frame {
	f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
	for y := range h {
		for x := range w {
			c := colorAt(x, y)
			copy(f.lab[3*(y*w+x):], []float32{float32(c.L), float32(c.A), float32(c.B)})
		}
	}
	return f
}

// TestLayerBandIsNoLantern: a tube with a layer of blue under a grey room, the room just
// over half its cloth area, looks like a grey cloth, and a light bubble on the layer like a
// lantern (20261343783949, a tube read as a curtain on a board with none); but the layer
// spans the box from wall to wall, as no lantern does. A band across fewer rows (a rim), or
// no band at all, leaves the lantern.
func TestLayerBandIsNoLantern(t *testing.T) {
	bg, grey, blue, bubble := lab{L: 20, B: -5}, lab{L: 41, A: 3, B: -10}, lab{L: 44, A: 36, B: -75}, lab{L: 62, A: 17, B: -54}
	box := image.Rect(5, 20, 35, 140) // its cloth area spans rows 37 to 100
	for _, tc := range []struct {
		name      string
		layerFrom int // the first row of blue
		want      bool
	}{
		{"a layer under the room", 70, false},
		{"a band of 8 rows across the area's foot", 92, true},
		{"no layer", box.Max.Y, true},
	} {
		f := paintedFrame(40, 150, func(x, y int) lab {
			switch p := image.Pt(x, y); {
			case !p.In(box):
				return bg
			case p.In(image.Rect(14, 78, 18, 82)):
				return bubble
			case y >= tc.layerFrom && y < 100:
				return blue
			}
			return grey
		})
		if l := f.findLantern(box, saturatedLantern); l.ok != tc.want {
			t.Errorf("%s: lantern %+v, want found %v", tc.name, l, tc.want)
		}
	}
}

// TestShackleIsNoLantern: a padlock on a lid is a body under a shackle. The dark shackle
// stands apart from the grey lid as a lantern does, but the lantern has the cloth below it,
// and the shackle has the body (20261343784039: a teal body 13 pixels wide on a lid of 23,
// too wide for a lantern, left the shackle to name the tube's colour).
func TestShackleIsNoLantern(t *testing.T) {
	red, grey, teal, dark := lab{L: 50, A: 55, B: 35}, lab{L: 56, B: -8}, lab{L: 61, A: -22, B: -12}, lab{L: 35, A: 1, B: -7}
	box := image.Rect(4, 10, 28, 110)
	shackle := func(p image.Point) bool {
		return p.In(image.Rect(11, 39, 18, 46)) && !p.In(image.Rect(13, 41, 16, 46))
	}
	f := paintedFrame(32, 120, func(x, y int) lab {
		switch p := image.Pt(x, y); {
		case !p.In(box):
			return red
		case shackle(p):
			return dark
		case p.In(image.Rect(8, 46, 22, 58)):
			return teal
		}
		return grey
	})
	if f.flankedLantern(box, dark) {
		t.Error("the shackle, the body below it, passes for a lantern")
	}
	if !f.flankedLantern(box, teal) {
		t.Error("the body, the lid below it, is no lantern")
	}
}

// TestLanternBesideTheMiddle: a box at a tube's place in a row spaced unevenly may stand off
// the middle of the curtain hung wider than the tube, its own middle beside the lantern
// (20261344783900: two curtains missed, read as empty tubes at 1.00). The lantern is looked
// for down the column where its colour shows.
func TestLanternBesideTheMiddle(t *testing.T) {
	purple, lime := lab{L: 22, A: 34, B: -28}, lab{L: 82, A: -69, B: 79}
	f := paintedFrame(60, 120, func(x, y int) lab {
		if x >= 36 && x < 44 && y >= 40 && y < 60 {
			return lime
		}
		return purple
	})
	if !f.flankedLantern(image.Rect(10, 10, 50, 110), lime) {
		t.Error("a lantern right of the box's middle is missed")
	}
	if f.flankedLantern(image.Rect(10, 10, 50, 110), lab{L: 50, A: 60, B: 40}) {
		t.Error("a colour the box does not show passes for its lantern")
	}
}

// TestClothCovered: a tube whose units, all but one, look like a curtain's cloth is a cover
// the curtain search missed; hidden units on grey boxes as grey as a lid are no cloth for the
// doubt (it refused right readings of the lidded and sheeted corner sets, 83 and 84 x300),
// only for the hypothesis that the curtain is a tube of them.
func TestClothCovered(t *testing.T) {
	grey, red, green := lab{L: 60, B: -5}, lab{L: 50, A: 60, B: 40}, lab{L: 60, A: -50, B: 40}
	lid := []curtain{{cloth: grey}}
	for _, tc := range []struct {
		name    string
		samples []unitSample
		want    int
	}{
		{"a lid read as liquid under its padlock", []unitSample{{color: grey}, {color: grey}, {color: grey}, {color: red}}, 1},
		{"hidden units as grey as the lid", []unitSample{{color: grey, hidden: true}, {color: grey, hidden: true}, {color: grey, hidden: true}, {color: red}}, -1},
		{"liquid", []unitSample{{color: green}, {color: red}, {color: green}, {color: red}}, -1},
	} {
		samples := append([]unitSample{{color: red}, {color: green}}, tc.samples...)
		// Hidden units as grey as the cloth may be a tube the curtain stands for.
		want := tc.want
		if tc.samples[0].hidden {
			want = 1
		}
		if got, orHidden := clothCovered(lid, []int{2, 4}, samples); got != tc.want || orHidden != want {
			t.Errorf("%s: clothCovered = %d, %d, want %d, %d", tc.name, got, orHidden, tc.want, want)
		}
	}
}

// TestGlareOnALayerIsNoLantern: a layer of navy resting on a tube's bottom under tinted
// glass, a wide glare stripe down its middle, looks like a cloth with a lantern where the
// stripe crosses the cloth area's foot (20261346784347: a tube whose outline was missed,
// found at its row's pitch among the candidates as a curtain). The stripe runs on to the
// tube's foot, as no lantern does; the same patch hanging higher, cloth below it, is one.
func TestGlareOnALayerIsNoLantern(t *testing.T) {
	wood, glass, navy, glare := lab{L: 45, A: 12, B: 25}, lab{L: 34, A: 17, B: 4}, lab{L: 18, A: 24, B: -48}, lab{L: 40, A: 12, B: -42}
	box := image.Rect(10, 20, 30, 132) // its cloth area spans rows 36 to 94
	stripe := func(p image.Point) bool { return p.X >= 17 && p.X < 23 }
	for _, tc := range []struct {
		name    string
		paint   func(p image.Point) (lab, bool)
		curtain bool
	}{
		{"a layer from row 86 to the foot, the stripe down it", func(p image.Point) (lab, bool) {
			switch {
			case p.Y >= 86 && stripe(p):
				return glare, true
			case p.Y >= 86:
				return navy, true
			}
			return lab{}, false
		}, false},
		{"a lantern hanging at rows 50 to 60, cloth below", func(p image.Point) (lab, bool) {
			if p.Y >= 50 && p.Y < 60 && stripe(p) {
				return glare, true
			}
			return lab{}, false
		}, true},
	} {
		f := paintedFrame(40, 150, func(x, y int) lab {
			p := image.Pt(x, y)
			if !p.In(box) {
				return wood
			}
			if c, ok := tc.paint(p); ok {
				return c
			}
			return glass
		})
		if got := f.restsOnFoot(box, glare, glass); got == tc.curtain {
			t.Errorf("%s: rests on the foot %v", tc.name, got)
		}
		if _, ok := f.curtainAt([]image.Rectangle{box}, 20, 20, 132, 20, 112, 30, saturatedLantern); ok != tc.curtain {
			t.Errorf("%s: curtain found %v, want %v", tc.name, ok, tc.curtain)
		}
	}
}
