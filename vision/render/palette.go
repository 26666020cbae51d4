package render

import (
	"image/color"
	"math"
	"math/rand/v2"
)

// Colour distances (CIEDE2000) that keep a drawn level readable by eye.
const (
	// distinctDE is the distance "distinct" palettes aim for between liquids; it is relaxed
	// step by step, down to minDistinctDE, when many colours must fit.
	distinctDE    = 24.0
	minDistinctDE = 14.0
	// nearLo and nearHi bound a near pair (two liquids) and a liquid near the background.
	nearLo, nearHi = 8.0, 20.0
	// surroundDE is how far every liquid but a deliberate near-background one stays from the
	// background, the empty glass, the outline and the hidden-unit box.
	surroundDE = 20.0
)

// palette draws n liquid colours of the kind drawn, keeping each at least surroundDE from the
// colours in avoid, except that a "near-bg" palette puts one colour nearHi or closer (but at
// least nearLo) to near[0] and nearLo from everything in avoid. It returns the colours in a
// random order and the kind actually drawn (a kind that cannot be met falls back to
// "distinct").
func palette(r *rand.Rand, kind string, n int, avoid, near []color.RGBA) ([]color.RGBA, string) {
	var out []color.RGBA
	switch kind {
	case "classic":
		for _, lc := range liquidColors {
			if len(out) < n && farFrom(lc.c, avoid, surroundDE) && farFrom(lc.c, out, minDistinctDE) {
				out = append(out, lc.c)
			}
		}
		if len(out) < n {
			out, kind = nil, "distinct"
		}
	case "near-bg":
		if c, ok := nearColor(r, near, nil, avoid); ok && len(near) > 0 {
			out = append(out, c)
		} else {
			kind = "distinct"
		}
	}
	pairs := 0
	if kind == "near-pair" {
		pairs = 1 + r.IntN(2)
		if n < 4 {
			pairs = 1
		}
		if n < 2 {
			kind, pairs = "distinct", 0
		}
	}
	need := n - pairs
	de := distinctDE
	for tries := 0; len(out) < need; tries++ {
		if tries > 0 && tries%400 == 0 {
			de = math.Max(minDistinctDE, de-1)
		}
		if tries > 40000 {
			break
		}
		c := liquid(r)
		if farFrom(c, avoid, surroundDE) && farFrom(c, out, de) {
			out = append(out, c)
		}
	}
	for p := 0; p < pairs && len(out) < n; p++ {
		base := out[r.IntN(len(out))]
		if c, ok := nearColor(r, []color.RGBA{base}, out, avoid); ok {
			out = append(out, c)
		}
	}
	for len(out) < n { // cannot happen with the limits above; keep the level drawable
		out = append(out, liquid(r))
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, kind
}

// liquid draws a liquid colour: mostly saturated, sometimes a pastel, a grey, white or black.
func liquid(r *rand.Rand) color.RGBA {
	switch r.IntN(10) {
	case 0:
		v := 0.1 + 0.85*r.Float64()
		return hsv(r.Float64()*360, 0.05*r.Float64(), v)
	case 1, 2:
		return hsv(r.Float64()*360, 0.2+0.3*r.Float64(), 0.85+0.15*r.Float64())
	}
	return hsv(r.Float64()*360, 0.55+0.45*r.Float64(), 0.35+0.65*r.Float64())
}

// nearColor draws a colour between nearLo and nearHi from one of targets (its first), at least
// nearLo from every colour in others and in avoid, and surroundDE from avoid unless avoid
// holds the target itself.
func nearColor(r *rand.Rand, targets, others, avoid []color.RGBA) (color.RGBA, bool) {
	if len(targets) == 0 {
		return color.RGBA{}, false
	}
	t := labOf(targets[0])
	for range 3000 {
		rad := 4 + 18*r.Float64()
		a := r.Float64() * 2 * math.Pi
		e := r.Float64()*2 - 1
		cand := lab{L: t.L + rad*e*0.8, A: t.A + rad*math.Cos(a), B: t.B + rad*math.Sin(a)}
		c, ok := rgbFromLab(cand)
		if !ok {
			continue
		}
		d := dE(c, targets[0])
		if d < nearLo || d > nearHi || !farFrom(c, others, nearLo) || !farFrom(c, avoid, nearLo) {
			continue
		}
		if !isIn(targets[0], avoid) && !farFrom(c, avoid, surroundDE) {
			continue
		}
		return c, true
	}
	return color.RGBA{}, false
}

func isIn(c color.RGBA, cs []color.RGBA) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// farFrom reports whether c is at least d (CIEDE2000) from every colour in cs.
func farFrom(c color.RGBA, cs []color.RGBA, d float64) bool {
	for _, x := range cs {
		if dE(c, x) < d {
			return false
		}
	}
	return true
}
