package annotate

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in pixels with sub-pixel precision.
type pt struct{ x, y float64 }

func ptOf(p image.Point) pt         { return pt{float64(p.X), float64(p.Y)} }
func (a pt) add(b pt) pt            { return pt{a.x + b.x, a.y + b.y} }
func (a pt) sub(b pt) pt            { return pt{a.x - b.x, a.y - b.y} }
func (a pt) mul(k float64) pt       { return pt{a.x * k, a.y * k} }
func (a pt) len() float64           { return math.Hypot(a.x, a.y) }
func (a pt) unit() pt               { return a.mul(1 / math.Max(a.len(), 1e-9)) }
func (a pt) normal() pt             { return pt{-a.y, a.x} }
func lerp(a, b pt, t float64) pt    { return a.add(b.sub(a).mul(t)) }
func quad(a, c, b pt, t float64) pt { return lerp(lerp(a, c, t), lerp(c, b, t), t) }
func quadTangent(a, c, b pt, t float64) pt {
	return lerp(c.sub(a), b.sub(c), t).unit()
}

// path is a closed polygon (or several: each subpath starts a new ring); rings wound the
// other way cut holes.
type path [][]pt

// painter fills paths on a canvas with antialiasing. The rasterizer writes each shape's
// coverage into a mask sized to the shape's bounding box, and only covered pixels are
// blended.
type painter struct {
	cv   canvas
	ras  vector.Rasterizer
	mask []byte
}

// fill paints p in c (alpha-blended over what is there).
func (pa *painter) fill(p path, c color.RGBA) {
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, ring := range p {
		for _, q := range ring {
			lo = pt{math.Min(lo.x, q.x), math.Min(lo.y, q.y)}
			hi = pt{math.Max(hi.x, q.x), math.Max(hi.y, q.y)}
		}
	}
	box := image.Rect(int(math.Floor(lo.x)), int(math.Floor(lo.y)), int(math.Ceil(hi.x))+1, int(math.Ceil(hi.y))+1)
	box = box.Intersect(pa.cv.rect)
	if box.Empty() {
		return
	}
	w, h := box.Dx(), box.Dy()
	pa.ras.Reset(w, h)
	pa.ras.DrawOp = draw.Src
	o := ptOf(box.Min)
	for _, ring := range p {
		if len(ring) < 3 {
			continue
		}
		q := ring[0].sub(o)
		pa.ras.MoveTo(float32(q.x), float32(q.y))
		for _, q := range ring[1:] {
			q = q.sub(o)
			pa.ras.LineTo(float32(q.x), float32(q.y))
		}
		pa.ras.ClosePath()
	}
	if cap(pa.mask) < w*h {
		pa.mask = make([]byte, w*h)
	}
	mask := &image.Alpha{Pix: pa.mask[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	pa.ras.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	pa.cv.blend(box, mask.Pix, w, c)
}

// circle is a ring of points around c; reverse winds it the other way (to cut a hole).
func circle(c pt, r float64, reverse bool) []pt {
	n := max(12, min(96, int(r*1.5)))
	out := make([]pt, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		if reverse {
			a = -a
		}
		out[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	return out
}

// disc is a filled circle.
func disc(c pt, r float64) path { return path{circle(c, r, false)} }

// ring is the band between radii r0 < r1.
func ring(c pt, r0, r1 float64) path { return path{circle(c, r1, false), circle(c, r0, true)} }

// stroke is a band of width w along the quadratic curve from a to b with control point c,
// its end cut square at b. It comes in pieces a few samples long, each filled on its own so
// that a long arching arrow costs its area, not its bounding box's; pieces overlap by a pixel
// so that no seam shows between them (paint them in an opaque colour).
func stroke(a, c, b pt, w float64) []path {
	const samplesPerPiece = 4
	n := max(8, min(64, int((c.sub(a).len()+b.sub(c).len())/6)))
	left, right := make([]pt, n+1), make([]pt, n+1)
	tangents := make([]pt, n+1)
	for i := range n + 1 {
		t := float64(i) / float64(n)
		p := quad(a, c, b, t)
		tangents[i] = quadTangent(a, c, b, t)
		side := tangents[i].normal().mul(w / 2)
		left[i], right[i] = p.add(side), p.sub(side)
	}
	var pieces []path
	for i := 0; i < n; i += samplesPerPiece {
		j := min(i+samplesPerPiece, n)
		var ring []pt
		for k := i; k <= j; k++ {
			ring = append(ring, left[k])
		}
		for k := j; k >= i; k-- {
			ring = append(ring, right[k])
		}
		if i > 0 { // reach back one pixel over the previous piece
			back := tangents[i].mul(-1)
			ring[0], ring[len(ring)-1] = ring[0].add(back), ring[len(ring)-1].add(back)
		}
		pieces = append(pieces, path{ring})
	}
	return pieces
}

// head is an arrowhead with its tip at tip, pointing along dir (a unit vector), length l and
// half-width hw.
func head(tip, dir pt, l, hw float64) path {
	back := tip.sub(dir.mul(l))
	side := dir.normal().mul(hw)
	return path{{tip, back.add(side), back.add(dir.mul(l * 0.2)), back.sub(side)}}
}
