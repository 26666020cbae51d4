// Package cielab converts colours between sRGB and CIELAB (D65) and measures their
// difference with CIEDE2000. It is pure Go, shared by the reader (vision) and the renderer
// (vision/render), so that both judge colours alike.
package cielab

import (
	"image/color"
	"math"
)

// Lab is a colour in CIELAB (L 0..100), D65.
type Lab struct{ L, A, B float64 }

// Chroma is the colour's distance from grey.
func (c Lab) Chroma() float64 { return math.Hypot(c.A, c.B) }

// DeltaE is the CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation).
func DeltaE(x, y Lab) float64 {
	const kL, kC, kH = 1.0, 1.0, 1.0
	c1, c2 := math.Hypot(x.A, x.B), math.Hypot(y.A, y.B)
	cm := (c1 + c2) / 2
	cm7 := math.Pow(cm, 7)
	g := 0.5 * (1 - math.Sqrt(cm7/(cm7+6103515625))) // 25^7
	a1, a2 := (1+g)*x.A, (1+g)*y.A
	c1p, c2p := math.Hypot(a1, x.B), math.Hypot(a2, y.B)
	h1p, h2p := hueAngle(x.B, a1), hueAngle(y.B, a2)
	dL := y.L - x.L
	dC := c2p - c1p
	var dh float64
	if c1p*c2p != 0 {
		dh = h2p - h1p
		if dh > 180 {
			dh -= 360
		} else if dh < -180 {
			dh += 360
		}
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(rad(dh/2))
	lm := (x.L + y.L) / 2
	cmp := (c1p + c2p) / 2
	hm := h1p + h2p
	if c1p*c2p != 0 {
		switch {
		case math.Abs(h1p-h2p) <= 180:
			hm /= 2
		case h1p+h2p < 360:
			hm = (hm + 360) / 2
		default:
			hm = (hm - 360) / 2
		}
	}
	t := 1 - 0.17*math.Cos(rad(hm-30)) + 0.24*math.Cos(rad(2*hm)) + 0.32*math.Cos(rad(3*hm+6)) - 0.20*math.Cos(rad(4*hm-63))
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	cmp7 := math.Pow(cmp, 7)
	rc := 2 * math.Sqrt(cmp7/(cmp7+6103515625))
	sl := 1 + 0.015*(lm-50)*(lm-50)/math.Sqrt(20+(lm-50)*(lm-50))
	sc := 1 + 0.045*cmp
	sh := 1 + 0.015*cmp*t
	rt := -math.Sin(rad(2*dTheta)) * rc
	l, c, h := dL/(kL*sl), dC/(kC*sc), dH/(kH*sh)
	return math.Sqrt(l*l + c*c + h*h + rt*c*h)
}

// Within reports whether DeltaE(x, y) < d. Where the lightness alone puts the colours d or
// more apart it answers without the whole formula: ΔE00 is at least the lightness term
// |ΔL|/S_L, the chroma, hue and rotation terms adding up to at least (|ΔC'|/S_C −
// |ΔH'|/S_H)² ≥ 0 since |R_T| < 2. (A hair of margin keeps rounding on the formula's side.)
func Within(x, y Lab, d float64) bool {
	lm := (x.L + y.L) / 2
	sl := 1 + 0.015*(lm-50)*(lm-50)/math.Sqrt(20+(lm-50)*(lm-50))
	if math.Abs(y.L-x.L)/sl >= d*(1+1e-9) {
		return false
	}
	return DeltaE(x, y) < d
}

func hueAngle(b, a float64) float64 {
	if a == 0 && b == 0 {
		return 0
	}
	h := math.Atan2(b, a) * 180 / math.Pi
	if h < 0 {
		h += 360
	}
	return h
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }

// FromRGB converts an sRGB colour (D65) to CIELAB by the exact formulas, with the constants
// OpenCV uses (its conversion of float images approximates them, up to 0.4 off).
func FromRGB(r, g, b uint8) Lab {
	R, G, B := linear(r), linear(g), linear(b)
	x := (0.412453*R + 0.357580*G + 0.180423*B) / 0.950456
	y := 0.212671*R + 0.715160*G + 0.072169*B
	z := (0.019334*R + 0.119193*G + 0.950227*B) / 1.088754
	fx, fy, fz := f(x), f(y), f(z)
	L := 116*fy - 16
	if y <= 0.008856 {
		L = 903.3 * y
	}
	return Lab{L, 500 * (fx - fy), 200 * (fy - fz)}
}

// ToRGB converts a CIELAB colour back to sRGB; ok is false when it lies outside the sRGB
// gamut (a channel would be clipped by more than a rounding step).
func ToRGB(c Lab) (out color.RGBA, ok bool) {
	fy := (c.L + 16) / 116
	fx := fy + c.A/500
	fz := fy - c.B/200
	inv := func(t float64) float64 {
		if t*t*t > 0.008856 {
			return t * t * t
		}
		return (t - 16.0/116) / 7.787
	}
	x, y, z := inv(fx)*0.950456, inv(fy), inv(fz)*1.088754
	if c.L <= 8 {
		y = c.L / 903.3
	}
	R := 3.240479*x - 1.537150*y - 0.498535*z
	G := -0.969256*x + 1.875992*y + 0.041556*z
	B := 0.055648*x - 0.204043*y + 1.057311*z
	ok = true
	enc := func(v float64) uint8 {
		if v < -0.002 || v > 1.002 {
			ok = false
		}
		v = math.Max(0, math.Min(1, v))
		if v <= 0.0031308 {
			v *= 12.92
		} else {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		}
		return uint8(math.Round(v * 255))
	}
	return color.RGBA{enc(R), enc(G), enc(B), 255}, ok
}
