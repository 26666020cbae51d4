package vision

import (
	"fmt"
	"math"
	"sort"

	"github.com/decant/decant/vision/cielab"
)

// lab is a colour in CIELAB (L 0..100), D65: the reader and the renderer measure colours
// with the same package.
type lab = cielab.Lab

// deltaE is the CIEDE2000 colour difference.
func deltaE(x, y lab) float64 { return cielab.DeltaE(x, y) }

// labFromRGB converts an sRGB colour to CIELAB.
func labFromRGB(r, g, b uint8) lab { return cielab.FromRGB(r, g, b) }

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

// translucentOver reports whether colour g can be background bg seen through glass of
// opacity at most maxGlassOpacity: g = bg + a·(tint − bg) for a tint within sRGB (give or
// take glassGamutSlack levels). Glass moves what lies behind it only part of the way to its
// tint, so a colour far from the background in a direction no tint reaches is liquid.
func translucentOver(g, bg lab) bool {
	gc, _ := cielab.ToRGB(g)
	bc, _ := cielab.ToRGB(bg)
	for _, ch := range [][2]uint8{{gc.R, bc.R}, {gc.G, bc.G}, {gc.B, bc.B}} {
		tint := float64(ch[1]) + (float64(ch[0])-float64(ch[1]))/maxGlassOpacity
		if tint < -glassGamutSlack || tint > 255+glassGamutSlack {
			return false
		}
	}
	return true
}

const (
	maxGlassOpacity = 0.5
	glassGamutSlack = 20
)
