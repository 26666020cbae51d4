package vision

import (
	"fmt"
	"math"
	"sort"
)

// lab is a colour in CIELAB (L 0..100).
type lab struct{ L, A, B float64 }

func (c lab) chroma() float64 { return math.Hypot(c.A, c.B) }

// deltaE is the CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation).
func deltaE(x, y lab) float64 {
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

// labFromRGB converts an sRGB colour (D65) to CIELAB, as OpenCV does for float images.
func labFromRGB(r, g, b uint8) lab {
	lin := func(v uint8) float64 {
		c := float64(v) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r), lin(g), lin(b)
	x := (0.412453*R + 0.357580*G + 0.180423*B) / 0.950456
	y := 0.212671*R + 0.715160*G + 0.072169*B
	z := (0.019334*R + 0.119193*G + 0.950227*B) / 1.088754
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	fx, fy, fz := f(x), f(y), f(z)
	L := 116*fy - 16
	if y <= 0.008856 {
		L = 903.3 * y
	}
	return lab{L, 500 * (fx - fy), 200 * (fy - fz)}
}

// namedColor is an entry of the palette colour names are chosen from.
type namedColor struct {
	name string
	lab  lab
}

// palette holds readable names for the colours water-sort games use.
var palette = func() []namedColor {
	rgb := []struct {
		name    string
		r, g, b uint8
	}{
		{"red", 220, 40, 40}, {"dark-red", 140, 20, 30}, {"orange", 250, 130, 20},
		{"yellow", 250, 220, 40}, {"lime", 160, 220, 60}, {"green", 40, 170, 70},
		{"dark-green", 20, 100, 50}, {"olive", 130, 130, 40}, {"teal", 30, 150, 140},
		{"cyan", 60, 210, 230}, {"sky", 110, 180, 240}, {"blue", 40, 80, 220},
		{"navy", 30, 40, 120}, {"purple", 130, 60, 180}, {"violet", 170, 120, 230},
		{"magenta", 210, 60, 170}, {"pink", 250, 130, 170}, {"peach", 250, 195, 165},
		{"brown", 130, 75, 35}, {"beige", 220, 200, 150}, {"grey", 128, 128, 128},
		{"dark-grey", 70, 70, 75}, {"white", 240, 240, 240}, {"black", 25, 25, 25},
		{"mint", 150, 230, 180}, {"slate", 75, 115, 150}, {"gold", 215, 170, 40},
	}
	out := make([]namedColor, len(rgb))
	for i, c := range rgb {
		out[i] = namedColor{c.name, labFromRGB(c.r, c.g, c.b)}
	}
	return out
}()

// nameColors gives each colour a readable name: the nearest palette name, made unique. Where
// several colours are nearest to one name, the closest keeps it and the others take their
// next-nearest free name, falling back to a numbered name.
func nameColors(colors []lab) []string {
	type pair struct {
		c, p int
		d    float64
	}
	var pairs []pair
	for i, c := range colors {
		for j, p := range palette {
			pairs = append(pairs, pair{i, j, deltaE(c, p.lab)})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].d < pairs[j].d })
	names := make([]string, len(colors))
	taken := map[int]bool{}
	left := len(colors)
	for _, pr := range pairs {
		if left == 0 {
			break
		}
		if names[pr.c] != "" || taken[pr.p] || pr.d > 30 {
			continue
		}
		names[pr.c], taken[pr.p] = palette[pr.p].name, true
		left--
	}
	used := map[string]bool{}
	for _, n := range names {
		used[n] = true
	}
	for i, n := range names {
		if n != "" {
			continue
		}
		base := palette[nearest(colors[i])].name
		for k := 2; ; k++ {
			if cand := fmt.Sprintf("%s-%d", base, k); !used[cand] {
				names[i], used[cand] = cand, true
				break
			}
		}
	}
	return names
}

func nearest(c lab) int {
	best, bd := 0, math.Inf(1)
	for i, p := range palette {
		if d := deltaE(c, p.lab); d < bd {
			best, bd = i, d
		}
	}
	return best
}
