package vision

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

func pngOf(t testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is the start of a PNG that claims the given size, with no pixel data.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// Bad input gets an error that names the problem, never a crash or a guess.
func TestReadRejects(t *testing.T) {
	fixture := seed98PNG(t)
	blank := image.NewRGBA(image.Rect(0, 0, 720, 1600))
	for i := range blank.Pix {
		blank.Pix[i] = 40
	}
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, blank, nil)
	for _, tc := range []struct {
		name string
		data []byte
		code solver.Code
	}{
		{"empty", nil, solver.CodeUnreadableImage},
		{"text", []byte("4: r r b b | b b r r | |"), solver.CodeUnreadableImage},
		{"garbage after a PNG signature", append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 500)...), solver.CodeUnreadableImage},
		{"decompression bomb header", pngHeader(60000, 60000), solver.CodeImageTooLarge},
		{"header only", pngHeader(1080, 2400), solver.CodeUnreadableImage},
		{"truncated PNG", fixture[:len(fixture)/2], solver.CodeUnreadableImage},
		{"truncated JPEG", jpg.Bytes()[:jpg.Len()/2], solver.CodeUnreadableImage},
		{"tiny", pngOf(t, image.NewRGBA(image.Rect(0, 0, 100, 200))), solver.CodeImageTooSmall},
		{"blank screen", pngOf(t, blank), solver.CodeNoPuzzle},
		{"blank JPEG", jpg.Bytes(), solver.CodeNoPuzzle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.data)
			if got := solver.ErrorCode(err); got != tc.code {
				t.Fatalf("got %q (%v), want %q", got, err, tc.code)
			}
			if len(err.Error()) < 10 {
				t.Errorf("message %q does not say what is wrong", err)
			}
		})
	}
}

// smallRender draws a five-colour level as a small light-theme screenshot.
func smallRender(t *testing.T) (*solver.Level, *render.Scene) {
	l := fixtureLevels(t)["deal5x3"]
	r, err := render.Render(l, render.Options{Theme: "light", Width: 540, Height: 1200})
	if err != nil {
		t.Fatal(err)
	}
	return l, r
}

// Tubes filled with hundreds of thin stripes are no level: Read must say so promptly rather
// than cluster thousands of "units" (a fuzzed input once stalled it).
func TestReadStripedTubes(t *testing.T) {
	_, r := smallRender(t)
	img := r.Image.(*image.RGBA)
	for _, tube := range r.Truth.Tubes {
		b := tube.Box
		for y := b.Min.Y + b.Dy()/5; y < b.Max.Y-b.Dx()/2; y++ {
			for x := b.Min.X + b.Dx()/4; x < b.Max.X-b.Dx()/4; x++ {
				img.Set(x, y, color.RGBA{uint8(97 * (y / 2) % 256), uint8(31 * (y / 2) % 256), 200, 255})
			}
		}
	}
	got, err := Read(pngOf(t, img))
	if got != nil && got.Level != nil {
		t.Logf("read %s confidence %.2f %v", got.Level.Compact(), got.Confidence, got.Reasons)
	}
	if code := solver.ErrorCode(err); code != solver.CodeNoPuzzle && code != solver.CodeLowConfidence {
		t.Fatalf("got %v, want no_puzzle or low_confidence", err)
	}
}

// A JPEG whose EXIF says "rotate 90° clockwise" is read upright.
func TestReadHonoursEXIFOrientation(t *testing.T) {
	l, r := smallRender(t)
	// Store the image turned 90° counter-clockwise, tagged orientation 6.
	src := r.Image.(*image.RGBA)
	rot := image.NewRGBA(image.Rect(0, 0, src.Rect.Dy(), src.Rect.Dx()))
	for y := 0; y < src.Rect.Dy(); y++ {
		for x := 0; x < src.Rect.Dx(); x++ {
			rot.Set(y, src.Rect.Dx()-1-x, src.At(x, y))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, rot, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	data := render.WithOrientation(buf.Bytes(), 6)
	got, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != 540 || got.Height != 1200 {
		t.Errorf("read as %d×%d, want 540×1200", got.Width, got.Height)
	}
	if g, w := got.Level.Canonical(), l.Canonical(); g != w {
		t.Errorf("got %s, want %s", g, w)
	}
}

// A WebP screenshot (OpenCV encodes one from the PNG fixture) reads like the PNG.
func TestReadWebP(t *testing.T) {
	data := seed98PNG(t)
	m, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	buf, err := gocv.IMEncodeWithParams(".webp", m, []int{gocv.IMWriteWebpQuality, 85})
	if err != nil {
		t.Fatal(err)
	}
	webp := append([]byte(nil), buf.GetBytes()...)
	buf.Close()
	png, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(webp)
	if err != nil {
		t.Fatal(err)
	}
	if got.Level.Canonical() != png.Level.Canonical() {
		t.Errorf("WebP: %s\nPNG:  %s", got.Level.Canonical(), png.Level.Canonical())
	}
}

// FuzzRead feeds Read arbitrary bytes (bounded in size, seeded with real and broken images):
// it must return a level or an application error, and never crash the process.
func FuzzRead(f *testing.F) {
	fixture, _ := os.ReadFile("../testdata/fixtures/dark-noempty.jpg")
	f.Add(fixture)
	f.Add(pngHeader(300, 300))
	small := image.NewRGBA(image.Rect(0, 0, 260, 300))
	for i := range small.Pix {
		small.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	png.Encode(&buf, small)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		r, err := Read(data)
		if err != nil {
			if solver.ErrorCode(err) == solver.CodeInternal {
				t.Fatalf("internal error: %v", err)
			}
			return
		}
		if r.Level == nil || len(r.Tubes) != len(r.Level.Tubes) {
			t.Fatalf("a reading without its level or geometry: %+v", r)
		}
	})
}

// A JPEG that repeats its scan thousands of times is refused before decoding.
func TestReadRefusesScanBomb(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 300))
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	sos := bytes.Index(data, []byte{0xFF, 0xDA})
	scan := data[sos : len(data)-2] // SOS header and entropy data, without EOI
	bomb := append([]byte{}, data[:sos]...)
	for range 1000 {
		bomb = append(bomb, scan...)
	}
	bomb = append(bomb, 0xFF, 0xD9)
	_, err := Read(bomb)
	if solver.ErrorCode(err) != solver.CodeUnreadableImage || !strings.Contains(err.Error(), "scans") {
		t.Fatalf("got %v, want unreadable_image naming the scans", err)
	}
}

func TestCompleteAtStart(t *testing.T) {
	m := func(top string) []string { return []string{"?", "?", "?", top} }
	full := []string{"n", "n", "n", "n"}
	for _, tc := range []struct {
		name  string
		tubes [][]string
		want  int
	}{
		{"a full tube beside an untouched deal", [][]string{m("r"), full, m("g"), m("b"), {}, {}}, 1},
		{"no full tube", [][]string{m("r"), m("g"), m("b"), {}}, -1},
		{"a tube poured from: it shows two units", [][]string{m("r"), full, m("g"), {"?", "?", "b", "b"}, {}}, -1},
		{"a tube poured from: it holds fewer", [][]string{m("r"), full, m("g"), m("b"), {"?", "y"}}, -1},
		{"too few tubes to call it a deal", [][]string{m("r"), full, m("g"), {}}, -1},
		{"two full tubes", [][]string{m("r"), full, full, m("g"), m("b")}, -1},
		{"a full tube of two colours", [][]string{m("r"), {"n", "n", "n", "o"}, m("g"), m("b")}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := completeAtStart(tc.tubes, 4); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

func TestShownAtStart(t *testing.T) {
	m := func(top string) []string { return []string{"?", "?", "?", top} }
	panel := []string{"w", "w", "o", "r"}
	for _, tc := range []struct {
		name     string
		tubes    [][]string
		want     int
		notCloth []int // tubes found as no curtain
	}{
		{"a panel of layers beside an untouched deal", [][]string{m("r"), {}, m("g"), panel, m("b"), {}}, 3, nil},
		{"two panels, beside a curtain", [][]string{m("r"), panel, m("g"), {"curtain:n"}, m("b"), panel}, 1, nil},
		{"a tube of two units in view", [][]string{m("r"), m("g"), {"b", "y"}, m("b")}, 2, nil},
		{"no tube shows more than its top", [][]string{m("r"), m("g"), m("b"), {}}, -1, nil},
		{"a tube poured from: it shows two units", [][]string{m("r"), panel, m("g"), {"?", "?", "b", "b"}, m("y")}, -1, nil},
		{"a tube poured from: it holds fewer", [][]string{m("r"), panel, m("g"), m("b"), {"?", "y"}}, -1, nil},
		{"too few tubes to call it a deal", [][]string{m("r"), panel, m("g"), {}}, -1, nil},
		{"a tube of one unit in view", [][]string{m("r"), {"y"}, m("g"), m("b")}, -1, nil},
		{"a tube all in view found as no curtain: dealt so", [][]string{m("r"), panel, m("g"), m("b")}, -1, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := shownAtStart(tc.tubes, 4, func(i int) bool { return !slices.Contains(tc.notCloth, i) }); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// TestDealtUntouched tells a mystery deal no pour has touched: every tube holding liquid,
// curtains aside, as full as the others, all its units hidden but the top one.
func TestDealtUntouched(t *testing.T) {
	type tube struct {
		curtain bool
		units   string // bottom up: '?' hidden, any other a colour in view
	}
	deal := tube{units: "???r"}
	for _, tc := range []struct {
		name  string
		tubes []tube
		want  bool
	}{
		{"a deal beside curtains and empty tubes", []tube{deal, {curtain: true}, deal, deal, {}, {curtain: true}}, true},
		{"a deal of three", []tube{deal, deal, deal}, true},
		{"too few tubes to call it a deal", []tube{deal, deal, {curtain: true}}, false},
		{"a tube poured from: it holds fewer", []tube{deal, deal, deal, {units: "??r"}}, false},
		{"a tube poured into: it holds more", []tube{deal, deal, deal, {units: "???rr"}}, false},
		{"a tube showing two units", []tube{deal, deal, deal, {units: "??gr"}}, false},
		{"a top unit hidden", []tube{deal, deal, deal, {units: "????"}}, false},
		{"no hidden unit", []tube{{units: "bgyr"}, {units: "bgyr"}, {units: "bgyr"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cols []column
			var counts []int
			var samples []unitSample
			for _, tb := range tc.tubes {
				cols = append(cols, column{curtain: tb.curtain})
				counts = append(counts, len(tb.units))
				for _, u := range tb.units {
					samples = append(samples, unitSample{hidden: u == '?'})
				}
			}
			if got := dealtUntouched(cols, counts, samples); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLabelsUnderTubes: a number label (or a holder) under each tube joins its outline, so
// the box runs below the tube's foot and the background between them reads as one unit more
// at every tube's bottom. The boxes cut above those runs read the level (footCut); without
// that hypothesis each of these is refused.
func TestLabelsUnderTubes(t *testing.T) {
	readExactlyOrDead(t, 85000442, 91000278, 20261293783750)
}

// TestJoinedOutlines: tubes standing so close that the dilated edges of their holders, lips
// or drop shadows join them into one outline too wide for a tube. Each is read from the
// tube-shaped outlines inside the joined one (partedBoxes), and refused without them.
func TestJoinedOutlines(t *testing.T) {
	readExactlyOrDead(t, 20261290783707, 87000269, 20261290783780)
}

// TestUncorked finds the run at a box's top left out as a cork that starts no higher than
// another tube's liquid over a tube not full, like a unit in view, and leaves alone such a
// run over a full tube, a run raised, a cork that may be one, and glass like no unit in view
// (a hidden unit's look aside).
func TestUncorked(t *testing.T) {
	green, glass := lab{L: 80, A: -70, B: 60}, lab{L: 51, A: 24, B: 13}
	lid, pane := segment{y0: 10, y1: 30, color: green}, segment{y0: 10, y1: 30, color: glass}
	samples := []unitSample{{color: green}, {color: lab{L: 40}}, {color: glass, hidden: true}}
	for _, tc := range []struct {
		name   string
		cols   []column
		counts []int
		want   int
	}{
		{"over a tube not full", []column{{lid: lid}, {lid: lid, noCork: true}}, []int{4, 3}, 1},
		{"over a full tube", []column{{lid: lid, noCork: true}, {}}, []int{4, 2}, -1},
		{"raised", []column{{noCork: true}}, []int{3}, -1},
		{"may be a cork", []column{{lid: lid}}, []int{3}, -1},
		{"glass, like no unit in view", []column{{lid: pane, noCork: true}}, []int{2}, -1},
	} {
		if got := uncorked(tc.cols, tc.counts, 4, samples); got != tc.want {
			t.Errorf("%s: uncorked = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestBareCloth finds a curtain read as a tube whose units show none hidden, and leaves
// alone one whose units show hidden ones and the tubes that were never curtains.
func TestBareCloth(t *testing.T) {
	a, b, c := image.Rect(0, 0, 10, 50), image.Rect(20, 0, 30, 50), image.Rect(40, 0, 50, 50)
	cols := []column{{box: a}, {box: b}, {box: c}}
	counts := []int{2, 2, 1}
	hidden, liquid := unitSample{hidden: true}, unitSample{}
	for _, tc := range []struct {
		name    string
		boxes   []image.Rectangle
		samples []unitSample
		want    int
	}{
		{"a panel of layers", []image.Rectangle{b}, []unitSample{hidden, liquid, liquid, liquid, hidden}, 1},
		{"hidden boxes", []image.Rectangle{b}, []unitSample{liquid, liquid, hidden, liquid, liquid}, -1},
		{"no curtain read", nil, []unitSample{liquid, liquid, liquid, liquid, liquid}, -1},
		{"the second of two", []image.Rectangle{a, c}, []unitSample{hidden, liquid, liquid, liquid, liquid}, 2},
	} {
		if got := bareCloth(tc.boxes, cols, counts, tc.samples); got != tc.want {
			t.Errorf("%s: bareCloth = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestOffCentreRow: rows one over the other set the centre; a row half a pitch off it (a
// doodle beside the board read as a tube at its end: 20261320784164) is doubted, centred
// rows of other lengths and staggered rows are not.
func TestOffCentreRow(t *testing.T) {
	row := func(n int, x0 float64) []image.Rectangle {
		var out []image.Rectangle
		for i := range n {
			x := int(x0 + float64(i)*20)
			out = append(out, image.Rect(x, 0, x+15, 60))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		rows [][]image.Rectangle
		want int
	}{
		{"a tube added at the last row's left end", [][]image.Rectangle{row(3, 100), row(3, 100), row(4, 80)}, 2},
		{"a tube missed at the first row's right end", [][]image.Rectangle{row(3, 100), row(4, 100), row(4, 100)}, 0},
		{"centred rows of 3, 4 and 3", [][]image.Rectangle{row(3, 100), row(4, 90), row(3, 100)}, -1},
		{"staggered rows", [][]image.Rectangle{row(4, 100), row(4, 110), row(3, 110)}, -1},
		{"two rows", [][]image.Rectangle{row(3, 100), row(4, 80)}, -1},
	} {
		if got := offCentreRow(tc.rows); got != tc.want {
			t.Errorf("%s: row %d; want %d", tc.name, got, tc.want)
		}
	}
}

// TestShownMarks: a unit read in a colour whose patch shows the two tones of the hidden units'
// marks (a disc round a glyph) is a hidden unit read as liquid (20261320784089: two of one
// tube's discs read as olive); a plain unit, or a curtain's tube, is not doubted.
func TestShownMarks(t *testing.T) {
	const w, h = 40, 10
	dark, light, olive := lab{L: 23, A: -1, B: -11}, lab{L: 86, A: -4, B: 64}, lab{L: 55, A: -10, B: 40}
	f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
	paint := func(r image.Rectangle, c lab) { fillLab(f, r, c) }
	disc := func(x int) image.Rectangle {
		r := image.Rect(x, 0, x+10, 10)
		paint(r, dark)
		paint(image.Rect(x+3, 3, x+8, 8), light)
		return r
	}
	hidden, shown := disc(0), disc(10)
	plain := image.Rect(20, 0, 30, 10)
	paint(plain, olive)
	samples := []unitSample{{hidden: true, patch: hidden, color: dark}, {patch: plain, color: olive}, {patch: shown, color: olive}}
	cols := []column{{}, {curtain: true}, {}}
	if got := f.shownMarks(cols, []int{1, 0, 2}, samples); got != 2 {
		t.Errorf("tube %d; want tube 3 (its second unit a disc)", got+1)
	}
	if got := f.shownMarks(cols, []int{1, 0, 1}, samples[:2]); got != -1 {
		t.Errorf("tube %d; want none (a plain unit)", got+1)
	}
}

// TestBottomsOnly: a colour lying only in runs of two units or more at tubes' bottoms, in
// two tubes or more and under another colour in one, is where hidden units rest; one seen
// anywhere above another colour, as one unit, or in one tube alone, is not.
func TestBottomsOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tubes [][]string
		want  bool
	}{
		{"two bottoms", [][]string{{"grey", "grey", "red"}, {"grey", "grey", "blue"}, {"red"}}, true},
		{"above another colour once", [][]string{{"grey", "grey", "red"}, {"grey", "grey", "blue"}, {"blue", "grey"}}, false},
		{"one tube", [][]string{{"grey", "grey", "red"}, {"blue"}}, false},
		{"never under another", [][]string{{"grey", "grey"}, {"grey", "grey"}}, false},
		{"a curtain between", [][]string{{"grey", "grey", "red"}, {"curtain:grey"}, {"grey", "grey"}}, true},
		{"one unit in a tube", [][]string{{"grey", "grey", "red"}, {"grey", "blue"}}, false},
	} {
		if got := bottomsOnly(tc.tubes, "grey", false); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// With singles, one unit at a tube's bottom counts too (a whole grey colour beside
	// curtains, 20261340784245); above another colour it still does not.
	if !bottomsOnly([][]string{{"grey", "blue", "blue", "blue"}, {"grey", "grey", "grey", "red"}}, "grey", true) {
		t.Errorf("singles: one grey at a bottom and three at another: got false, want true")
	}
	if bottomsOnly([][]string{{"blue", "grey"}, {"grey", "grey", "grey", "red"}}, "grey", true) {
		t.Errorf("singles: a grey above a blue: got true, want false")
	}
}

// TestPanelRoundBadge: a tube of one colour round a single unit of another, the colour in no
// other tube, is a cover's panel round its badge; the same colour elsewhere, the odd unit at
// the top, two odd units or hidden units are a dealt tube.
func TestPanelRoundBadge(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tubes [][]string
		want  int
	}{
		{"a panel round a padlock", [][]string{{"?", "?", "red"}, {}, {"grey", "grey", "sky", "grey"}, {"?", "sky"}}, 2},
		{"the colour elsewhere", [][]string{{"?", "grey", "red"}, {"grey", "grey", "sky", "grey"}}, -1},
		{"the odd unit on top", [][]string{{"?", "?", "red"}, {"grey", "grey", "grey", "sky"}}, -1},
		{"two odd units", [][]string{{"?", "?", "red"}, {"grey", "sky", "sky", "grey"}}, -1},
		{"hidden units round a colour", [][]string{{"?", "red", "?", "?"}, {"blue"}}, -1},
		{"a tube of three", [][]string{{"?", "?", "red"}, {"grey", "sky", "grey"}}, -1},
	} {
		if got := panelRoundBadge(tc.tubes); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestFitCapacityOverFullest: a unit total that no tube's count divides raises the capacity
// only while the fullest tube's glass, above its liquid up to its box's top, holds the units
// added; a tube full to its rim (its neighbour missed, the total a multiple of one more) does
// not, so the capacity stays and the count rule refuses the reading.
func TestFitCapacityOverFullest(t *testing.T) {
	const unit = 40.0
	tube := func(x, boxTop, top int) column {
		return column{box: image.Rect(x, boxTop, x+30, 360), bottom: 330, top: top}
	}
	for _, tc := range []struct {
		name   string
		cols   []column
		counts []int
		total  int
		want   int
	}{
		// Four tubes of 5, the liquid up to 30 pixels under the rim: 18 units stay tubes of 5.
		{"full to the rim", []column{tube(0, 100, 130), tube(50, 100, 130), tube(100, 100, 170), tube(150, 100, 170)}, []int{5, 5, 4, 4}, 18, 5},
		// The same tubes with a unit and a half of glass above the fullest: tubes of 6.
		{"room above", []column{tube(0, 70, 170), tube(50, 70, 170), tube(100, 70, 210), tube(150, 70, 210)}, []int{4, 4, 3, 3}, 18, 6},
		// A total the count divides needs no room.
		{"whole tubes", []column{tube(0, 100, 130), tube(50, 100, 130), tube(100, 100, 130), tube(150, 100, 130)}, []int{5, 5, 5, 5}, 20, 5},
	} {
		capacity := slices.Max(tc.counts)
		if got := fitCapacity(capacity, tc.total, tc.cols, tc.counts, unit); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestBackgroundTube: a tube whose units all look like the background beside it, in colours
// no other tube shows, is the background through an empty tube's glass; a colour another
// tube shows, a unit unlike the background or a hidden one is not.
func TestBackgroundTube(t *testing.T) {
	bg, liquid := unitSample{likeBackground: true}, unitSample{}
	for _, tc := range []struct {
		name    string
		tubes   [][]string
		samples []unitSample
		want    int
	}{
		{"glass over the background", [][]string{{"?", "red"}, {"cyan", "cyan"}}, []unitSample{liquid, liquid, bg, bg}, 1},
		{"its colour elsewhere", [][]string{{"?", "cyan"}, {"cyan", "cyan"}}, []unitSample{liquid, liquid, bg, bg}, -1},
		{"a unit unlike the background", [][]string{{"?", "red"}, {"cyan", "cyan"}}, []unitSample{liquid, liquid, bg, liquid}, -1},
		{"twice in one tube", [][]string{{"?", "red"}, {"cyan", "teal", "cyan"}}, []unitSample{liquid, liquid, bg, bg, bg}, 1},
		{"hidden units", [][]string{{"?", "?"}, {"red"}}, []unitSample{bg, bg, liquid}, -1},
	} {
		counts := make([]int, len(tc.tubes))
		for i, tube := range tc.tubes {
			counts[i] = len(tube)
		}
		if got := backgroundTube(tc.tubes, counts, tc.samples); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestRunsOnBelow finds a tube whose bottom layer runs on half a unit below its box (a box
// cut short), and leaves alone a box ending at its liquid's foot, or a little above it (a
// round foot the liquid fills).
func TestRunsOnBelow(t *testing.T) {
	const w, h = 40, 90
	bg, mint := lab{L: 92, A: -1, B: 24}, lab{L: 86, A: -44, B: 18}
	box := image.Rect(10, 10, 30, 60)
	for _, tc := range []struct {
		name string
		foot int // the liquid's lowest row, exclusive
		want int
	}{
		{"the liquid runs on below the box", 75, 0},
		{"the box ends at the liquid's foot", 60, -1},
		{"a round foot a little below the box", 64, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &frame{w: w, h: h, lab: make([]float32, 3*w*h)}
			for y := range h {
				for x := range w {
					c := bg
					if x >= box.Min.X && x < box.Max.X && y >= 40 && y < tc.foot {
						c = mint
					}
					copy(f.lab[3*(y*w+x):], []float32{float32(c.L), float32(c.A), float32(c.B)})
				}
			}
			cols := []column{{box: box, top: 40, bottom: 60, runs: []lab{mint}}}
			if got := f.runsOnBelow(cols, [][2]int{{8, 8}}, 20); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// TestWithoutBoxes: the boxes dropped leave their rows; a row they empty goes with them (a
// row of one place taken for its liquid alone, read empty: its empty row broke the layout's
// readers), a row empty before stays.
func TestWithoutBoxes(t *testing.T) {
	a, b, c := image.Rect(0, 0, 10, 40), image.Rect(20, 0, 30, 40), image.Rect(0, 60, 10, 100)
	got := withoutBoxes([][]image.Rectangle{{a, b}, {c}, {}}, []image.Rectangle{b, c})
	if want := [][]image.Rectangle{{a}, {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestOffCentreBoard: a row of four centred on a frame 500 wide stands 0 pitches off; the
// same row without its first tube half a pitch right; two rows staggered by half a pitch
// centred together.
func TestOffCentreBoard(t *testing.T) {
	row := func(x0, n int) []image.Rectangle {
		var r []image.Rectangle
		for i := range n {
			r = append(r, image.Rect(x0+100*i, 0, x0+100*i+60, 200))
		}
		return r
	}
	for _, tc := range []struct {
		name string
		rows [][]image.Rectangle
		want float64
	}{
		{"centred", [][]image.Rectangle{row(70, 4)}, 0},
		{"first tube missed", [][]image.Rectangle{row(170, 3)}, 0.5},
		{"staggered", [][]image.Rectangle{row(45, 4), row(95, 4)}, 0},
	} {
		if got := offCentreBoard(tc.rows, 500); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %.2f pitches off, want %.2f", tc.name, got, tc.want)
		}
	}
}

// TestRoomColour: beside hidden units, a colour seen only in top runs up to the tubes' tops,
// each looking like the glass another tube shows above its liquid, is that glass; a colour
// also shown lower, a top run unlike the glass, or no room to compare with is not.
func TestRoomColour(t *testing.T) {
	glassLook, dark := lab{L: 72, A: 0, B: -18}, lab{L: 23}
	topped := column{box: image.Rect(0, 0, 20, 100), bottom: 100, top: 1, bounds: []int{80}, runs: []lab{dark, glassLook}}
	low := column{box: image.Rect(30, 0, 50, 100), bottom: 100, top: 40, bounds: []int{80}, runs: []lab{dark, {L: 50, A: 40, B: 30}}}
	for _, tc := range []struct {
		name  string
		tubes [][]string
		rooms []lab
		want  int
	}{
		{"the glass read as a colour", [][]string{{"?", "sky"}, {"?", "red"}, {"?", "sky"}}, []lab{glassLook}, 0},
		{"the colour lower in a tube", [][]string{{"?", "sky"}, {"sky", "red"}, {"?", "sky"}}, []lab{glassLook}, -1},
		{"a room unlike it", [][]string{{"?", "sky"}, {"?", "red"}, {"?", "sky"}}, []lab{{L: 90, A: 10, B: 10}}, -1},
		{"no room seen", [][]string{{"?", "sky"}, {"?", "red"}, {"?", "sky"}}, nil, -1},
	} {
		cols := []column{topped, low, topped}
		if got := roomColour(tc.tubes, cols, tc.rooms); got != tc.want {
			t.Errorf("%s: roomColour = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestCoverAboveRow: a cover standing a unit above its row's full tubes is doubted; half a
// unit above (a lid round a lip), a tube with room above its liquid, or a cover in another
// row is not.
func TestCoverAboveRow(t *testing.T) {
	full := func(x, top int) column {
		return column{box: image.Rect(x, top, x+20, 120), bottom: 120, top: top, bounds: []int{100}, runs: []lab{{L: 40}, {L: 60}}}
	}
	cover := column{box: image.Rect(60, 0, 80, 120), curtain: true}
	for _, tc := range []struct {
		name string
		cols []column
		want int
	}{
		{"a unit above full tubes", []column{full(0, 20), full(30, 20), cover}, 2},
		{"half a unit above", []column{full(0, 10), full(30, 10), cover}, -1},
		{"a tube with room", []column{full(0, 20), func() column { c := full(30, 20); c.top = 60; return c }(), cover}, -1},
		{"a cover in another row", []column{full(0, 20), full(30, 20), {box: image.Rect(60, 200, 80, 320), curtain: true}}, -1},
	} {
		if got, _ := coverAboveRow(tc.cols, 20); got != tc.want {
			t.Errorf("%s: coverAboveRow = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestHiddenAsColour: on a mystery deal no pour has touched, a full tube whose units but the
// top are one colour no other tube shows is its hidden units read as a colour; a colour
// another tube shows, a tube of one colour (completeAtStart's), a tube short of full, or a
// board whose other tubes show more than their tops is not.
func TestHiddenAsColour(t *testing.T) {
	deal := func(top string) []string { return []string{"?", "?", "?", top} }
	for _, tc := range []struct {
		name string
		odd  []string
		want int
	}{
		{"hidden units read as grey", []string{"grey", "grey", "grey", "red"}, 3},
		{"a colour another tube shows", []string{"blue", "blue", "blue", "red"}, -1},
		{"one colour to the top", []string{"grey", "grey", "grey", "grey"}, -1},
		{"short of full", []string{"grey", "grey", "red"}, -1},
	} {
		tubes := [][]string{deal("blue"), deal("red"), deal("green"), tc.odd, {}}
		if got := hiddenAsColour(tubes, 4); got != tc.want {
			t.Errorf("%s: hiddenAsColour = %d, want %d", tc.name, got, tc.want)
		}
	}
	touched := [][]string{{"?", "?", "blue", "blue"}, {"?", "?", "?", "red"}, {"?", "?", "?", "green"}, {"grey", "grey", "grey", "red"}}
	if got := hiddenAsColour(touched, 4); got != -1 {
		t.Errorf("a board with a tube showing two units: hiddenAsColour = %d, want -1", got)
	}
}

// TestLowerToFeet: boxes cut above their tubes' feet (outlines parted at the lowest of a
// run of discs, 95000312) are lowered to where the background shows again below them; a
// box off the row's bottom by more than half the way down to the feet is left alone, and
// boxes already round their feet are not lowered.
func TestLowerToFeet(t *testing.T) {
	bg, liquid, rim := lab{L: 70, A: 20, B: -5}, lab{L: 30, A: 10, B: -30}, lab{L: 92, B: 5}
	tube := func(x int) image.Rectangle { return image.Rect(x, 20, x+12, 104) }
	tubes := []image.Rectangle{tube(5), tube(30), tube(55), tube(80)}
	f := paintedFrame(100, 150, func(x, y int) lab {
		p := image.Pt(x, y)
		for _, b := range tubes {
			switch {
			case p.In(b) && y >= 100:
				return rim
			case p.In(b) && y >= 40:
				return liquid
			}
		}
		return bg
	})
	cut := func(b image.Rectangle, bottom int) image.Rectangle { b.Max.Y = bottom; return b }
	rows := [][]image.Rectangle{{cut(tubes[0], 80), cut(tubes[1], 81), cut(tubes[2], 80), cut(tubes[3], 50)}}
	got, ok := f.lowerToFeet(rows)
	if !ok {
		t.Fatal("no box lowered")
	}
	for i, want := range []int{104, 104, 104, 50} {
		if got[0][i].Max.Y != want {
			t.Errorf("box %d ends at %d, want %d", i, got[0][i].Max.Y, want)
		}
	}
	if rows[0][0].Max.Y != 80 {
		t.Error("the rows given were changed")
	}
	if _, ok := f.lowerToFeet([][]image.Rectangle{tubes}); ok {
		t.Error("boxes round their feet lowered")
	}
}
