package cielab

import (
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

// Pairs from Sharma, Wu and Dalal's CIEDE2000 test data, with their published differences.
func TestDeltaE(t *testing.T) {
	for _, tc := range []struct {
		x, y Lab
		want float64
	}{
		{Lab{50, 2.6772, -79.7751}, Lab{50, 0, -82.7485}, 2.0425},
		{Lab{50, 0, 0}, Lab{50, -1, 2}, 2.3669},
		{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0011}, 7.2195},
		{Lab{50, 2.5, 0}, Lab{73, 25, -18}, 27.1492},
		{Lab{60.2574, -34.0099, 36.2677}, Lab{60.4626, -34.1751, 39.4387}, 1.2644},
		{Lab{2.0776, 0.0795, -1.135}, Lab{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := DeltaE(tc.x, tc.y); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("DeltaE(%v, %v) = %.4f, want %.4f", tc.x, tc.y, got, tc.want)
		}
		if got, back := DeltaE(tc.x, tc.y), DeltaE(tc.y, tc.x); math.Abs(got-back) > 1e-9 {
			t.Errorf("DeltaE is not symmetric: %v, %v", got, back)
		}
	}
}

// sRGB colours survive the trip through CIELAB, and white and black land where they should.
func TestRoundTrip(t *testing.T) {
	if w := FromRGB(255, 255, 255); math.Abs(w.L-100) > 0.01 || w.Chroma() > 0.01 {
		t.Errorf("white: %v", w)
	}
	if k := FromRGB(0, 0, 0); k.L > 0.01 || k.Chroma() > 0.01 {
		t.Errorf("black: %v", k)
	}
	for r := 0; r < 256; r += 17 {
		for g := 0; g < 256; g += 17 {
			for b := 0; b < 256; b += 17 {
				want := color.RGBA{uint8(r), uint8(g), uint8(b), 255}
				got, ok := ToRGB(FromRGB(want.R, want.G, want.B))
				if !ok || got != want {
					t.Fatalf("%v → %v (in gamut %v)", want, got, ok)
				}
			}
		}
	}
	if _, ok := ToRGB(Lab{50, 120, 0}); ok {
		t.Error("a chroma of 120 reported inside the sRGB gamut")
	}
}

// TestWithin: the shortcut answers as the whole formula does, on colours far apart, near
// and across every lightness.
func TestWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		x := Lab{L: rng.Float64() * 100, A: rng.Float64()*200 - 100, B: rng.Float64()*200 - 100}
		y := Lab{L: x.L + rng.NormFloat64()*10, A: x.A + rng.NormFloat64()*10, B: x.B + rng.NormFloat64()*10}
		for _, d := range []float64{2, 8, 15, 30} {
			if got, want := Within(x, y, d), DeltaE(x, y) < d; got != want {
				t.Fatalf("Within(%v, %v, %v) = %v, ΔE00 %.6f", x, y, d, got, DeltaE(x, y))
			}
		}
	}
}

// TestFromBGR checks the table-driven image conversion against FromRGB over a lattice of
// colours that reaches every channel's ends.
func TestFromBGR(t *testing.T) {
	var src []byte
	for r := 0; r < 256; r += 5 {
		for g := 0; g < 256; g += 3 {
			for b := 0; b < 256; b += 1 {
				src = append(src, byte(b), byte(g), byte(r))
			}
		}
	}
	src = append(src, 255, 255, 255, 0, 0, 0, 1, 2, 3)
	dst := make([]float32, len(src))
	FromBGR(dst, src)
	worst := 0.0
	for i := 0; i < len(src); i += 3 {
		want := FromRGB(src[i+2], src[i+1], src[i])
		for k, w := range []float64{want.L, want.A, want.B} {
			worst = max(worst, math.Abs(float64(dst[i+k])-w))
		}
	}
	if worst > 5e-4 {
		t.Errorf("FromBGR is %.2g off FromRGB at worst, want under 5e-4", worst)
	}
	t.Logf("worst difference %.2g", worst)
}

func BenchmarkFromBGR(b *testing.B) {
	src := make([]byte, 3*540*1200)
	for i := range src {
		src[i] = byte(i * 7919 >> 3)
	}
	dst := make([]float32, len(src))
	for b.Loop() {
		FromBGR(dst, src)
	}
}
