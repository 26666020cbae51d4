package render

import (
	"bytes"
	"image/color"
	"image/gif"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/decant/decant/solver"
)

func mustCompact(t *testing.T, s string) *solver.Level {
	t.Helper()
	l, err := solver.ParseCompact(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestRenderThemes(t *testing.T) {
	l := mustCompact(t, "4: ? ? red blue | ? blue | red red blue | curtain:green | green green green | |")
	for _, theme := range Themes {
		t.Run(theme, func(t *testing.T) {
			s, err := Render(l, Options{Theme: theme, Width: 540, Height: 1200, JPEGQuality: 80})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := s.Truth.Level.Canonical(), l.Canonical(); got != want {
				t.Errorf("truth level %s, want %s", got, want)
			}
			if s.Factors["theme"] != theme {
				t.Errorf("factors %v, want theme %s", s.Factors, theme)
			}
			if err := checkTruth(&Scene{Data: s.Data, Image: s.Image, Truth: s.Truth, Factors: map[string]string{"position": "given", "photo": "yes"}}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestRenderRefuses(t *testing.T) {
	l := solver.Deal(1, 4, 4, 2)
	for name, tc := range map[string]struct {
		l    *solver.Level
		opts Options
	}{
		"unknown theme":  {l, Options{Theme: "neon"}},
		"too small":      {l, Options{Width: 200, Height: 400}},
		"too large":      {l, Options{Width: 8000, Height: 8000}},
		"bad quality":    {l, Options{JPEGQuality: 101}},
		"invalid level":  {&solver.Level{Capacity: 4, Tubes: [][]solver.Color{{1}}, Names: []string{"", "red"}}, Options{}},
		"too many tubes": {solver.Deal(2, 30, 4, 2), Options{Width: 240, Height: 400, Rows: 1}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Render(tc.l, tc.opts)
			if code := solver.ErrorCode(err); code != solver.CodeInvalidArgument && code != solver.CodeInvalidLevel {
				t.Errorf("got %v, want invalid_argument or invalid_level", err)
			}
		})
	}
}

func TestGIF(t *testing.T) {
	l := mustCompact(t, "2: red blue | blue red | |")
	moves := []solver.Move{{From: 0, To: 2, Count: 1, Color: 2}, {From: 1, To: 0, Count: 1, Color: 1}, {From: 1, To: 2, Count: 1, Color: 2}}
	data, err := GIF(l, moves, Options{Theme: "light"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(g.Image), len(moves)+1; got != want {
		t.Errorf("%d frames, want %d", got, want)
	}
	if b := g.Image[0].Bounds(); b.Dx() != 360 || b.Dy() != 800 {
		t.Errorf("frame %v, want 360×800", b)
	}
	long := make([]solver.Move, maxGIFFrames)
	if _, err := GIF(l, long, Options{}); solver.ErrorCode(err) != solver.CodeInvalidArgument {
		t.Errorf("a plan of %d pours: got %v, want invalid_argument", len(long), err)
	}
	if _, err := GIF(l, []solver.Move{{From: 2, To: 0}}, Options{}); err == nil {
		t.Error("an illegal pour: got no error")
	}
}

// RandomLevel draws the level it is given, hidden units and curtains included.
func TestRandomLevel(t *testing.T) {
	l := mustCompact(t, "4: curtain:orange | ? ? red | ? ? blue | ? green | curtain:green | ? ? red | ? ? orange | |")
	for _, seed := range []uint64{1, 2, 3, 4} {
		s, err := RandomLevel(l, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.Truth.Level.Canonical(), l.Canonical(); got != want {
			t.Errorf("seed %d: truth level %s, want %s", seed, got, want)
		}
		if s.Factors["hidden"] == "none" || s.Factors["cover"] == "none" {
			t.Errorf("seed %d: factors hidden=%s cover=%s for a level with both", seed, s.Factors["hidden"], s.Factors["cover"])
		}
		if err := checkTruth(s); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, draws(s.Factors))
		}
	}
	if _, err := RandomLevel(&solver.Level{Capacity: 4}, 1); solver.ErrorCode(err) != solver.CodeInvalidLevel {
		t.Errorf("an empty level: got %v, want invalid_level", err)
	}
}

// TestPalette checks the palette kinds' promises: liquids at least minDistinctDE apart (near
// pairs at least nearLo), away from the surroundings, and the near pair or the colour near the
// background where the kind asks for one.
func TestPalette(t *testing.T) {
	fallbacks := 0
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 1))
		bg := randomBackdrop(r)
		avoid := []color.RGBA{bg, mix(bg, rgb(255, 255, 255), 0.2), rgb(230, 230, 230)}
		n := 2 + int(seed%14)
		for _, kind := range Factors["palette"].values() {
			pal, got := palette(r, kind, n, avoid, []color.RGBA{bg})
			if got != kind {
				fallbacks++
			}
			if len(pal) != n {
				t.Fatalf("seed %d %s: %d colours, want %d", seed, kind, len(pal), n)
			}
			closest := math.Inf(1)
			for i, a := range pal {
				for _, b := range pal[i+1:] {
					closest = math.Min(closest, dE(a, b))
				}
			}
			nearBG := math.Inf(1)
			for _, c := range pal {
				nearBG = math.Min(nearBG, dE(c, bg))
			}
			switch {
			case got == "near-pair" && (closest < nearLo || closest > nearHi):
				t.Errorf("seed %d near-pair: closest pair ΔE %.1f, want %v..%v", seed, closest, nearLo, nearHi)
			case got != "near-pair" && closest < minDistinctDE:
				t.Errorf("seed %d %s: closest pair ΔE %.1f, want ≥ %v", seed, got, closest, minDistinctDE)
			case got == "near-bg" && (nearBG < nearLo || nearBG > nearHi):
				t.Errorf("seed %d near-bg: nearest to the background ΔE %.1f, want %v..%v", seed, nearBG, nearLo, nearHi)
			case got != "near-bg" && nearBG < surroundDE:
				t.Errorf("seed %d %s: a colour ΔE %.1f from the background, want ≥ %v", seed, got, nearBG, surroundDE)
			}
		}
	}
	if fallbacks > 40*4/10 {
		t.Errorf("%d of 160 palettes fell back to distinct", fallbacks)
	}
	t.Logf("%d of 160 palettes fell back to distinct", fallbacks)
}

func TestRandomWith(t *testing.T) {
	fixed := map[string]string{"photo": "yes", "background": "wood", "hidden": "grey-q", "size": "small"}
	s, err := RandomWith(5, fixed)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range fixed {
		if got := s.Factors[k]; got != v && !(k == "size" && got == "phone") {
			t.Errorf("factor %s = %q, want %q", k, got, v)
		}
	}
	if err := checkTruth(s); err != nil {
		t.Error(err)
	}
	for _, bad := range []map[string]string{{"colour": "red"}, {"photo": "maybe"}} {
		if _, err := RandomWith(5, bad); solver.ErrorCode(err) != solver.CodeInvalidArgument {
			t.Errorf("%v: got %v, want invalid_argument", bad, err)
		}
	}
}

// TestPlaceTubesFits lays out many random boards: every tube, its lip included, stays in the
// board area, and no two tubes overlap.
func TestPlaceTubesFits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	placedN := 0
	defer func() {
		if placedN < 1000 {
			t.Errorf("only %d of 3000 boards placed", placedN)
		}
	}()
	for i := range 3000 {
		n, rows, capacity := 2+r.IntN(30), 1+r.IntN(4), 3+r.IntN(5)
		sh := shapeDraws{unitAspect: between(r, unitAspectRange), headroom: between(r, headroomRange), gap: between(r, gapRange), rowGap: between(r, rowGapRange), strokeK: 0.13 * r.Float64()}
		for range 16 {
			sh.jitter = append(sh.jitter, minJitter+(maxJitter-minJitter)*r.Float64())
		}
		layout := Factors["layout"].pick(r)
		shape := Factors["shape"].pick(r)
		rim := Factors["rim"].pick(r)
		w, h := 250+r.Float64()*1200, 400+r.Float64()*2800
		x0, y0, x1, y1 := w*0.05, h*0.15, w*0.95, h*0.85
		p, ok := placeTubes(rowCounts(n, rows), capacity, sh, layout, shape, rim, x0, y0, x1, y1, minTubeWidth, minUnitH)
		if !ok {
			continue
		}
		placedN++
		for k, g := range p.geoms {
			lip := g.stroke + g.hw*0.12 + 1
			b := g.box()
			if float64(b.Min.X)-lip < x0-1 || float64(b.Max.X)+lip > x1+1 || float64(b.Min.Y) < y0-1 || float64(b.Max.Y) > y1+1 {
				t.Fatalf("board %d (%d tubes, %d rows, %s %s): tube %d at %v leaves %v×%v–%v×%v", i, n, rows, layout, shape, k+1, b, x0, y0, x1, y1)
			}
			if k > 0 && b.Overlaps(p.geoms[k-1].box()) {
				t.Fatalf("board %d: tubes %d and %d overlap", i, k, k+1)
			}
			if g.uh < minUnitH || 2*g.hw < minTubeWidth {
				t.Fatalf("board %d: tube %d has %.1f px units, %.1f px cavity", i, k+1, g.uh, 2*g.hw)
			}
		}
	}
}
