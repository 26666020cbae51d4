package cielab

import "math"

// cbrtSteps is how finely the table behind FromBGR samples CIELAB's cube root on [0, 1]:
// linear interpolation between its points is off by under 3e-7 (the error peaks at the
// root's linear toe). With float32 rounding, the output is at most 2.3e-4 off FromRGB's in
// L, a or b over TestFromBGR's 1.1 million colours (with 4,096 steps, 2.1e-3).
const cbrtSteps = 16384

// The tables behind FromBGR: an 8-bit channel's linear light, and CIELAB's f(t) at
// t = i/cbrtSteps (one point past the end, for interpolation at t = 1).
var (
	linearOf [256]float32
	fTable   [cbrtSteps + 2]float32
)

func init() {
	for v := range linearOf {
		linearOf[v] = float32(linear(uint8(v)))
	}
	for i := range fTable {
		fTable[i] = float32(f(float64(i) / cbrtSteps))
	}
}

// linear is an sRGB channel's linear light, 0..1.
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// f is CIELAB's compression of a tristimulus ratio: the cube root, with a linear toe.
func f(t float64) float64 {
	if t > 0.008856 {
		return math.Cbrt(t)
	}
	return 7.787*t + 16.0/116
}

// fLookup is f(t) for t in [0, 1], interpolated from fTable.
func fLookup(t float32) float32 {
	t = min(max(t, 0), 1) * cbrtSteps
	i := int(t)
	w := t - float32(i)
	return fTable[i] + w*(fTable[i+1]-fTable[i])
}

// FromBGR converts an 8-bit BGR image (three bytes a pixel, as OpenCV keeps them) to CIELAB,
// three float32s a pixel (L, a, b), into dst, which must be as long as src. It agrees with
// FromRGB to within about 2.3e-4 and costs a fraction of OpenCV's conversion of a float image
// (which approximates the same formulas less closely: up to 0.4 off them).
func FromBGR(dst []float32, src []byte) {
	if len(dst) != len(src) {
		panic("cielab: FromBGR needs dst as long as src")
	}
	// The white point's X and Z are folded into the matrix's first and last rows.
	const (
		xr, xg, xb = 0.412453 / 0.950456, 0.357580 / 0.950456, 0.180423 / 0.950456
		yr, yg, yb = 0.212671, 0.715160, 0.072169
		zr, zg, zb = 0.019334 / 1.088754, 0.119193 / 1.088754, 0.950227 / 1.088754
	)
	var last [3]byte
	var L, a, b float32
	for i := 0; i+2 < len(src); i += 3 {
		s, d := src[i:i+3:i+3], dst[i:i+3:i+3]
		// Screens are drawn in flat areas: a pixel like the one before it costs a compare.
		if i == 0 || s[0] != last[0] || s[1] != last[1] || s[2] != last[2] {
			last = [3]byte{s[0], s[1], s[2]}
			B, G, R := linearOf[s[0]], linearOf[s[1]], linearOf[s[2]]
			y := yr*R + yg*G + yb*B
			fx, fy, fz := fLookup(xr*R+xg*G+xb*B), fLookup(y), fLookup(zr*R+zg*G+zb*B)
			L, a, b = 116*fy-16, 500*(fx-fy), 200*(fy-fz)
			if y <= 0.008856 {
				L = 903.3 * y
			}
		}
		d[0], d[1], d[2] = L, a, b
	}
}
