// Package annotatetest checks an annotated image against the layout it was drawn from, for
// tests of annotate and of its callers: every tube number, every arrow and the legend must be
// where the layout puts them, and nothing may be drawn far from them.
package annotatetest

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/decant/decant/vision/annotate"
)

// near is how far (Euclidean RGB distance) a pixel may be from a colour to count as it:
// antialiasing and blending make edges lie between colours.
const near = 40

// Verify compares got (orig annotated) with the layout and returns what is missing or
// misplaced, empty when the annotation is complete. orig and got must have the same bounds.
func Verify(orig, got image.Image, l *annotate.Layout) []string {
	var bad []string
	if orig.Bounds() != got.Bounds() {
		return []string{fmt.Sprintf("annotated image is %v, the original %v", got.Bounds(), orig.Bounds())}
	}
	for i, b := range l.Numbers {
		bad = append(bad, badge(got, b, fmt.Sprintf("tube %d's number", i+1))...)
	}
	for i, a := range l.Arrows {
		name := fmt.Sprintf("arrow %d", i+1)
		bad = append(bad, badge(got, a.Step, name+"'s step number")...)
		// The arrow is a curve through Tail, Apex and Tip (a quadratic Bézier whose middle
		// is Apex); at its tail, on its way up and at its head it must show its colour.
		up := bezier(ptOf(a.Tail), control(a), ptOf(a.Tip), 0.4)
		for _, at := range []struct {
			where string
			p     image.Point
		}{{"its tail", a.Tail}, {"its way up", up}, {"its head", a.Tip}} {
			r := image.Rectangle{at.p, at.p}.Inset(-a.Width).Intersect(got.Bounds())
			if n := count(got, r, a.Color); n < a.Width*a.Width/2 {
				bad = append(bad, fmt.Sprintf("%s: %d pixels of its colour %v around %s %v, want at least %d", name, n, a.Color, at.where, at.p, a.Width*a.Width/2))
			}
		}
	}
	bad = append(bad, legend(orig, got, l.Legend)...)
	if n, at := stray(orig, got, l); n > 0 {
		bad = append(bad, fmt.Sprintf("%d pixels changed away from every element, the first at %v", n, at))
	}
	return bad
}

// control is the arrow's Bézier control point: the curve's middle is Apex.
func control(a annotate.Arrow) pt {
	return pt{2*float64(a.Apex.X) - float64(a.Tail.X+a.Tip.X)/2, 2*float64(a.Apex.Y) - float64(a.Tail.Y+a.Tip.Y)/2}
}

// stray counts the pixels that changed outside every element's reach.
func stray(orig, got image.Image, l *annotate.Layout) (int, image.Point) {
	var reach []image.Rectangle
	for _, b := range append(slices.Clone(l.Numbers), steps(l)...) {
		reach = append(reach, image.Rectangle{b.Center, b.Center}.Inset(-b.Radius-b.Radius/12-2))
	}
	for _, a := range l.Arrows {
		// The curve lies in the triangle of its ends and control point; the head and the
		// dark edge reach a few widths further.
		c := control(a)
		r := image.Rectangle{a.Tail, a.Tail.Add(image.Pt(1, 1))}
		r = r.Union(image.Rectangle{a.Tip, a.Tip.Add(image.Pt(1, 1))})
		r = r.Union(image.Rect(int(c.x), int(c.y), int(c.x)+1, int(c.y)+1))
		reach = append(reach, r.Inset(-4*a.Width-2))
	}
	reach = append(reach, l.Legend.Band)
	n, first := 0, image.Point{}
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := image.Pt(x, y)
			if slices.ContainsFunc(reach, p.In) {
				continue
			}
			r1, g1, b1, _ := orig.At(x, y).RGBA()
			r2, g2, b2, _ := got.At(x, y).RGBA()
			if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
				if n == 0 {
					first = p
				}
				n++
			}
		}
	}
	return n, first
}

func steps(l *annotate.Layout) []annotate.Badge {
	var out []annotate.Badge
	for _, a := range l.Arrows {
		out = append(out, a.Step)
	}
	return out
}

// badge checks a number badge: mostly its fill inside, and some of its ink (the digits).
func badge(img image.Image, b annotate.Badge, name string) []string {
	var fill, ink, all int
	r := float64(b.Radius) * 0.8 // inside the white ring
	for y := b.Center.Y - b.Radius; y <= b.Center.Y+b.Radius; y++ {
		for x := b.Center.X - b.Radius; x <= b.Center.X+b.Radius; x++ {
			if math.Hypot(float64(x-b.Center.X), float64(y-b.Center.Y)) > r || !image.Pt(x, y).In(img.Bounds()) {
				continue
			}
			all++
			switch c := img.At(x, y); {
			case dist(c, b.Fill) < near:
				fill++
			case dist(c, b.Ink) < near:
				ink++
			}
		}
	}
	var bad []string
	if all == 0 || fill*100 < all*40 {
		bad = append(bad, fmt.Sprintf("%s at %v: %d of %d pixels in its fill %v, want at least 40%%", name, b.Center, fill, all, b.Fill))
	}
	if all == 0 || ink*100 < all*4 {
		bad = append(bad, fmt.Sprintf("%s at %v: %d of %d pixels in its ink %v (the digits), want at least 4%%", name, b.Center, ink, all, b.Ink))
	}
	return bad
}

// legend checks the band is darkened and each line holds white text.
func legend(orig, got image.Image, lg annotate.Legend) []string {
	var bad []string
	band := lg.Band.Intersect(got.Bounds())
	if band.Empty() {
		return []string{fmt.Sprintf("the legend's band %v lies outside the image", lg.Band)}
	}
	// The band's right margin holds no text: there it is the original, darkened.
	margin := image.Rect(band.Max.X-band.Dx()/30, band.Min.Y, band.Max.X, band.Max.Y)
	if o, g := brightness(orig, margin), brightness(got, margin); g > 0.45*o+1 {
		bad = append(bad, fmt.Sprintf("the legend's band %v is not darkened: brightness %.0f, originally %.0f", band, g, o))
	}
	if len(lg.Lines) == 0 {
		bad = append(bad, "the legend has no lines")
	}
	white := color.RGBA{255, 255, 255, 255}
	for i, base := range lg.Baselines {
		// The upper half of the line's lowercase letters and digits, across the band.
		r := image.Rect(band.Min.X, base-lg.Size/2, band.Max.X, base).Intersect(band)
		want := len([]rune(lg.Lines[i])) * lg.Size / 8 // a few pixels of every letter
		if n := count(got, r, white); n < want {
			bad = append(bad, fmt.Sprintf("legend line %d (%q): %d white pixels on its baseline %d, want at least %d", i+1, lg.Lines[i], n, base, want))
		}
	}
	return bad
}

func count(img image.Image, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if dist(img.At(x, y), c) < near {
				n++
			}
		}
	}
	return n
}

// brightness is the mean of R+G+B over r, 0..765.
func brightness(img image.Image, r image.Rectangle) float64 {
	sum, n := 0.0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			sum += float64(cr>>8 + cg>>8 + cb>>8)
			n++
		}
	}
	return sum / float64(max(n, 1))
}

func dist(c color.Color, want color.RGBA) float64 {
	r, g, b, _ := c.RGBA()
	dr, dg, db := float64(r>>8)-float64(want.R), float64(g>>8)-float64(want.G), float64(b>>8)-float64(want.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

type pt struct{ x, y float64 }

func ptOf(p image.Point) pt { return pt{float64(p.X), float64(p.Y)} }

func bezier(a, c, b pt, t float64) image.Point {
	u := 1 - t
	return image.Pt(int(math.Round(u*u*a.x+2*u*t*c.x+t*t*b.x)), int(math.Round(u*u*a.y+2*u*t*c.y+t*t*b.y)))
}
