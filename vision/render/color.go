package render

import (
	"image/color"

	"github.com/decant/decant/vision/cielab"
)

// lab is a colour in CIELAB (L 0..100), D65.
type lab = cielab.Lab

// labOf converts an opaque colour to CIELAB.
func labOf(c color.RGBA) lab { return labFromRGB(c.R, c.G, c.B) }

// dE is the CIEDE2000 difference between two colours.
func dE(a, b color.RGBA) float64 { return deltaE(labOf(a), labOf(b)) }

// deltaE is the CIEDE2000 colour difference.
func deltaE(x, y lab) float64 { return cielab.DeltaE(x, y) }

// labFromRGB converts an sRGB colour to CIELAB.
func labFromRGB(r, g, b uint8) lab { return cielab.FromRGB(r, g, b) }

// rgbFromLab converts a CIELAB colour back to sRGB; ok is false outside the sRGB gamut.
func rgbFromLab(c lab) (color.RGBA, bool) { return cielab.ToRGB(c) }
