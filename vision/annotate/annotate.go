// Package annotate draws a solver plan on a screenshot: each tube's number, the next pours as
// numbered arrows from tube to tube, and the whole plan as a legend. It is pure Go (no cgo):
// annotating a rendered level needs no OpenCV.
//
// Everything is sized from the tubes' width and the image's width, so an annotation reads the
// same at 360 and at 1440 pixels across; arrows and badges carry a dark edge so that they
// stand out on light and dark backgrounds alike. NewLayout places every element without
// drawing, Layout.Draw draws them, and PNG does both on a copy of an image and encodes it.
package annotate

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"

	"github.com/decant/decant/solver"
)

// ArrowColors mark the next pours, in order.
var ArrowColors = []color.RGBA{{60, 230, 90, 255}, {255, 215, 0, 255}, {255, 140, 40, 255}}

// MaxArrows is how many of the next pours are drawn as arrows.
const MaxArrows = 3

var (
	white = color.RGBA{255, 255, 255, 255}
	black = color.RGBA{0, 0, 0, 255}
	// edge outlines arrows and badges so that they stand out on light backgrounds (opaque:
	// arrows are painted in overlapping pieces).
	edge = color.RGBA{0, 0, 0, 255}
	// numberFill is the tube numbers' badge.
	numberFill = color.RGBA{20, 20, 20, 255}
)

// legendDim is how much of the image's brightness shows through the legend's band, in 256ths.
const legendDim = 77

// stepSep separates the pours in the legend; words within a line are separated by one space.
const stepSep = "   "

// Badge is a number in a filled circle.
type Badge struct {
	Center image.Point
	Radius int
	Text   string
	Fill   color.RGBA
	Ink    color.RGBA
}

// Arrow is one pour: a curve from the source tube's mouth, over its apex, down into the
// destination's mouth, with the step number in a badge at the apex.
type Arrow struct {
	Tail, Apex, Tip image.Point
	Width           int
	Color           color.RGBA
	Step            Badge
}

// Legend is the plan as text on a darkened band across the image.
type Legend struct {
	Band      image.Rectangle
	Lines     []string // wrapped to the band's width
	Size      int      // font size in pixels
	Left      int      // where each line starts
	Baselines []int
}

// Layout is where every element of an annotation goes.
type Layout struct {
	Numbers []Badge // tube i's number is Numbers[i]
	Arrows  []Arrow // the next pours, first pour first
	Legend  Legend
}

// NewLayout places the annotation of plan on an image with the given bounds whose tubes (in
// the level's order, numbered from 1) have the given boxes. It returns invalid_argument when
// a box lies outside the image and invalid_plan when a move names a tube that is not there.
func NewLayout(bounds image.Rectangle, tubes []image.Rectangle, plan solver.Plan) (*Layout, error) {
	if len(tubes) == 0 {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "no tubes to annotate")
	}
	for i, b := range tubes {
		if b.Empty() || !b.In(bounds) {
			return nil, solver.Errorf(solver.CodeInvalidArgument, "tube %d's box %v lies outside the %d×%d image", i+1, b, bounds.Dx(), bounds.Dy())
		}
	}
	for i, m := range plan.Moves {
		if m.From < 0 || m.From >= len(tubes) || m.To < 0 || m.To >= len(tubes) {
			return nil, solver.Errorf(solver.CodeInvalidPlan, "move %d (%d to %d) names a tube outside 1..%d", i+1, m.From+1, m.To+1, len(tubes))
		}
		if m.From == m.To {
			return nil, solver.Errorf(solver.CodeInvalidPlan, "move %d pours tube %d into itself", i+1, m.From+1)
		}
	}
	tw := tubes[0].Dx()
	radius := max(8, tw*2/5)
	l := &Layout{}
	for i, b := range tubes {
		c := image.Pt((b.Min.X+b.Max.X)/2, b.Min.Y-radius-radius/3)
		if c.Y-radius < bounds.Min.Y {
			c.Y = b.Min.Y + radius // no room above: inside the tube's top
		}
		l.Numbers = append(l.Numbers, Badge{Center: clampIn(c, radius, bounds), Radius: radius, Text: fmt.Sprint(i + 1), Fill: numberFill, Ink: white})
	}
	sources, targets := map[int]int{}, map[int]int{} // arrows so far leaving, entering each tube
	for i, m := range plan.Moves[:min(MaxArrows, len(plan.Moves))] {
		from, to := tubes[m.From], tubes[m.To]
		// Arrows leave a tube left of its middle and enter it right of it, so that a pour
		// from the tube the previous one filled shows both; several arrows leaving or
		// entering one tube end one below the other.
		tail := image.Pt((from.Min.X+from.Max.X)/2-tw/4, from.Min.Y+tw/3+sources[m.From]*tw/2)
		tip := image.Pt((to.Min.X+to.Max.X)/2+tw/4, to.Min.Y+tw/3+targets[m.To]*tw/2)
		tail, tip = clampIn(tail, 0, bounds), clampIn(tip, 0, bounds)
		sources[m.From]++
		targets[m.To]++
		// High enough that the step's badge clears the tube numbers, each pour higher.
		lift := tw * (7 + 4*i) / 4
		apex := clampIn(image.Pt((tail.X+tip.X)/2, min(tail.Y, tip.Y)-lift), radius, bounds)
		c := ArrowColors[i%len(ArrowColors)]
		l.Arrows = append(l.Arrows, Arrow{
			Tail: tail, Apex: apex, Tip: tip, Width: max(2, tw/9), Color: c,
			Step: Badge{Center: apex, Radius: radius, Text: fmt.Sprint(i + 1), Fill: c, Ink: black},
		})
	}
	lg, err := newLegend(bounds, legendLines(plan), lowest(tubes)+tw/2)
	if err != nil {
		return nil, err
	}
	l.Legend = lg
	return l, nil
}

// clampIn moves p so that a circle of radius r around it lies in b (as far as b is wide).
func clampIn(p image.Point, r int, b image.Rectangle) image.Point {
	clamp := func(v, lo, hi int) int {
		if lo > hi {
			return (lo + hi) / 2
		}
		return min(max(v, lo), hi)
	}
	return image.Pt(clamp(p.X, b.Min.X+r, b.Max.X-1-r), clamp(p.Y, b.Min.Y+r, b.Max.Y-1-r))
}

func lowest(tubes []image.Rectangle) int {
	y := tubes[0].Max.Y
	for _, b := range tubes {
		y = max(y, b.Max.Y)
	}
	return y
}

// legendLines is the plan as text for the legend, wrapped later.
func legendLines(p solver.Plan) []string {
	head := ""
	switch {
	case p.Status == solver.StatusUnsolvable:
		return []string{"Unsolvable: no sequence of pours solves this position."}
	case len(p.Moves) == 0 && p.Status == solver.StatusSolved:
		return []string{"Already solved."}
	case len(p.Moves) == 0:
		return []string{"No plan found within the search budget."}
	case p.Optimal:
		head = fmt.Sprintf("Shortest plan: %d pours", len(p.Moves))
	case p.Status == solver.StatusSolved:
		head = fmt.Sprintf("Plan: %d pours", len(p.Moves))
	case p.Status == solver.StatusPartial:
		head = fmt.Sprintf("Play now: %d pours, then see what the last one reveals", len(p.Moves))
	default:
		head = fmt.Sprintf("Best plan found: %d pours (search stopped early)", len(p.Moves))
	}
	steps := make([]string, len(p.Moves))
	for i, m := range p.Moves {
		steps[i] = fmt.Sprintf("%d→%d", m.From+1, m.To+1)
	}
	return []string{head, strings.Join(steps, stepSep)}
}

// newLegend wraps lines to the image's width on a band starting at top (or, when the band
// would not fit below, at the image's foot).
func newLegend(bounds image.Rectangle, lines []string, top int) (Legend, error) {
	w := bounds.Dx()
	size := max(12, w/40)
	f, err := faceOf(size)
	if err != nil {
		return Legend{}, solver.Errorf(solver.CodeInternal, "loading the legend's font: %v", err)
	}
	var wrapped []string
	for _, l := range lines {
		sep := " "
		if strings.Contains(l, stepSep) {
			sep = stepSep
		}
		wrapped = append(wrapped, wrap(f, strings.Split(l, sep), sep, w*92/100)...)
	}
	lineH, pad := size*3/2, size/2
	bandH := 2*pad + (len(wrapped)-1)*lineH + f.ascent + f.descent
	top = max(bounds.Min.Y, min(top, bounds.Max.Y-bandH))
	lg := Legend{
		Band:  image.Rect(bounds.Min.X, top, bounds.Max.X, min(bounds.Max.Y, top+bandH)),
		Lines: wrapped, Size: size, Left: bounds.Min.X + w*4/100,
	}
	for i := range wrapped {
		lg.Baselines = append(lg.Baselines, top+pad+f.ascent+i*lineH)
	}
	return lg, nil
}

// wrap joins words with sep into lines no wider than width pixels.
func wrap(f *face, words []string, sep string, width int) []string {
	var out []string
	line := ""
	for _, word := range words {
		cand := word
		if line != "" {
			cand = line + sep + word
		}
		if line != "" && f.width(cand) > width {
			out = append(out, line)
			cand = word
		}
		line = cand
	}
	return append(out, line)
}

// Draw draws the layout on img: arrows (the first pour on top), then the tube numbers, then
// the legend.
func (l *Layout) Draw(img draw.Image) error {
	cv, err := canvasOf(img)
	if err != nil {
		return err
	}
	pa := &painter{cv: cv}
	for i := len(l.Arrows) - 1; i >= 0; i-- {
		if err := l.Arrows[i].draw(pa); err != nil {
			return err
		}
	}
	for _, b := range l.Numbers {
		if err := b.draw(pa); err != nil {
			return err
		}
	}
	return l.Legend.draw(cv)
}

// draw paints the arrow with a dark edge, then its step badge.
func (a Arrow) draw(pa *painter) error {
	tail, apex, tip := ptOf(a.Tail), ptOf(a.Apex), ptOf(a.Tip)
	ctrl := apex.mul(2).sub(tail.add(tip).mul(0.5)) // the curve passes through apex
	w := float64(a.Width)
	e := max(1, w/4) // the dark edge's width
	dir := quadTangent(tail, ctrl, tip, 1)
	headL, headW := 3.2*w, 2.2*w
	// The stroke stops inside the head: the curve cut at parameter t is again a quadratic
	// curve, from tail with control point ctrlEnd to end.
	full := ctrl.sub(tail).len() + tip.sub(ctrl).len()
	t := max(0, 1-headL*0.7/max(full, 1))
	ctrlEnd, end := lerp(tail, ctrl, t), quad(tail, ctrl, tip, t)
	for _, p := range stroke(tail, ctrlEnd, end, w+2*e) {
		pa.fill(p, edge)
	}
	pa.fill(head(tip.add(dir.mul(1.5*e)), dir, headL+2.5*e, headW+1.5*e), edge)
	pa.fill(disc(tail, w*0.9+e), edge)
	for _, p := range stroke(tail, ctrlEnd, end, w) {
		pa.fill(p, a.Color)
	}
	pa.fill(head(tip, dir, headL, headW), a.Color)
	pa.fill(disc(tail, w*0.9), a.Color)
	return a.Step.draw(pa)
}

// draw paints the badge: a dark edge, a white ring, the fill and the centred text.
func (b Badge) draw(pa *painter) error {
	c, r := ptOf(b.Center), float64(b.Radius)
	ringW := max(1, r/8)
	// Rings rather than stacked discs: each pixel painted about once. Each ring reaches a
	// pixel under the next one in, so that no seam shows between them.
	pa.fill(ring(c, r-1, r+max(1, r/12)), edge)
	pa.fill(ring(c, r-ringW-1, r), white)
	pa.fill(disc(c, r-ringW), b.Fill)
	size := b.Radius * 6 / 5
	f, err := faceOf(size)
	if err != nil {
		return solver.Errorf(solver.CodeInternal, "loading the badge's font: %v", err)
	}
	if tw := f.width(b.Text); tw > b.Radius*8/5 { // wide numbers shrink to fit the circle
		if f, err = faceOf(size * b.Radius * 8 / 5 / tw); err != nil {
			return solver.Errorf(solver.CodeInternal, "loading the badge's font: %v", err)
		}
	}
	f.drawCentred(pa.cv, b.Text, b.Center, b.Ink)
	return nil
}

// draw darkens the band and writes the lines in white.
func (lg Legend) draw(cv canvas) error {
	cv.dim(lg.Band, legendDim)
	f, err := faceOf(lg.Size)
	if err != nil {
		return solver.Errorf(solver.CodeInternal, "loading the legend's font: %v", err)
	}
	for i, l := range lg.Lines {
		f.draw(cv, l, lg.Left, lg.Baselines[i], white)
	}
	return nil
}

// Draw draws the annotation of plan on img in place; img is an *image.RGBA or a *BGR, tubes
// are the tubes' boxes in img's coordinates, in the level's order.
func Draw(img draw.Image, tubes []image.Rectangle, plan solver.Plan) error {
	l, err := NewLayout(img.Bounds(), tubes, plan)
	if err != nil {
		return err
	}
	return l.Draw(img)
}

// PNG draws the annotation of plan on a copy of src and returns it as a PNG.
func PNG(src image.Image, tubes []image.Rectangle, plan solver.Plan) ([]byte, error) {
	img := Copy(src)
	if err := Draw(img, tubes, plan); err != nil {
		return nil, err
	}
	return EncodePNG(img)
}

// Copy returns a copy of src to draw on: a *BGR for a *BGR, else an *image.RGBA, with src's
// bounds.
func Copy(src image.Image) draw.Image {
	if m, ok := src.(*BGR); ok {
		return m.Clone()
	}
	dst := image.NewRGBA(src.Bounds())
	draw.Draw(dst, dst.Rect, src, dst.Rect.Min, draw.Src)
	return dst
}
