package vision

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"strings"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
)

// arrowColors mark the next pours, in order.
var arrowColors = []color.RGBA{{60, 230, 90, 0}, {255, 215, 0, 0}, {255, 140, 40, 0}}

// maxArrows is how many of the next pours Annotate draws as arrows.
const maxArrows = 3

// Annotate draws on the screenshot: each tube's number (1..N, as in text output), the next
// pours of the plan as numbered arrows from tube to tube, and a legend with the whole plan.
// The reading must come from this image (or be a rendering's ground truth). It returns a PNG.
func Annotate(data []byte, r *Reading, plan solver.Plan) ([]byte, error) {
	mat, err := annotated(data, r, plan)
	if err != nil {
		return nil, err
	}
	defer mat.Close()
	png, err := encodePNG(mat.ToBytes(), mat.Cols(), mat.Rows())
	if err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "encoding the annotated image: %v", err)
	}
	return png, nil
}

// annotated returns the screenshot with the plan drawn on it; the caller closes the Mat.
func annotated(data []byte, r *Reading, plan solver.Plan) (mat gocv.Mat, err error) {
	mat, err = r.image(data)
	if err != nil {
		return mat, err
	}
	defer func() {
		if err != nil {
			mat.Close()
		}
	}()
	if r == nil || r.Level == nil || mat.Cols() != r.Width || mat.Rows() != r.Height || len(r.Tubes) != len(r.Level.Tubes) {
		return mat, solver.Errorf(solver.CodeInvalidArgument, "the reading does not belong to this %d×%d image", mat.Cols(), mat.Rows())
	}
	bounds := image.Rect(0, 0, mat.Cols(), mat.Rows())
	for i, t := range r.Tubes {
		if !t.Box.In(bounds) || t.Box.Empty() {
			return mat, solver.Errorf(solver.CodeInvalidArgument, "tube %d's box %v lies outside the image", i+1, t.Box)
		}
	}
	for i, m := range plan.Moves {
		if m.From < 0 || m.From >= len(r.Tubes) || m.To < 0 || m.To >= len(r.Tubes) {
			return mat, solver.Errorf(solver.CodeInvalidPlan, "move %d names a tube outside 1..%d", i+1, len(r.Tubes))
		}
	}
	a := annotator{img: &mat, bounds: bounds, tw: r.Tubes[0].Box.Dx()}
	for i, m := range plan.Moves[:min(maxArrows, len(plan.Moves))] {
		a.arrow(r.Tubes[m.From].Box, r.Tubes[m.To].Box, i)
	}
	for i, t := range r.Tubes {
		a.tubeNumber(t.Box, i+1)
	}
	a.legend(legendLines(r.Level, plan), r.Tubes)
	return mat, nil
}

// image returns a Mat to draw on: a copy of the pixels Read kept, or data decoded afresh.
func (r *Reading) image(data []byte) (gocv.Mat, error) {
	if r != nil && r.Width > 0 && len(r.pixels) == r.Width*r.Height*3 && r.source == fingerprint(data) {
		return gocv.NewMatFromBytes(r.Height, r.Width, gocv.MatTypeCV8UC3, bytes.Clone(r.pixels))
	}
	return decode(data)
}

// annotator draws in proportion to the tubes' size.
type annotator struct {
	img    *gocv.Mat
	bounds image.Rectangle
	tw     int // tube width
}

func (a annotator) clip(p image.Point) image.Point {
	return image.Pt(min(max(p.X, 0), a.bounds.Max.X-1), min(max(p.Y, 0), a.bounds.Max.Y-1))
}

// badge draws text in a filled circle centred at c.
func (a annotator) badge(c image.Point, text string, fill, ink color.RGBA) {
	radius := max(8, a.tw*2/5)
	c = a.clip(c)
	gocv.Circle(a.img, c, radius, fill, -1)
	gocv.Circle(a.img, c, radius, color.RGBA{255, 255, 255, 0}, max(1, radius/8))
	scale := float64(radius) / 22
	thick := max(1, radius/9)
	size := gocv.GetTextSize(text, gocv.FontHersheyDuplex, scale, thick)
	gocv.PutTextWithParams(a.img, text, image.Pt(c.X-size.X/2, c.Y+size.Y/2), gocv.FontHersheyDuplex, scale, ink, thick, gocv.LineAA, false)
}

// tubeNumber puts the tube's number just above it (inside its top when there is no room).
func (a annotator) tubeNumber(box image.Rectangle, n int) {
	radius := max(8, a.tw*2/5)
	c := image.Pt((box.Min.X+box.Max.X)/2, box.Min.Y-radius-radius/3)
	if c.Y-radius < 0 {
		c.Y = box.Min.Y + radius
	}
	a.badge(c, fmt.Sprint(n), color.RGBA{20, 20, 20, 0}, color.RGBA{255, 255, 255, 0})
}

// arrow draws pour i from one tube to another: from the source's top over to the
// destination's top, with the step number at its middle.
func (a annotator) arrow(from, to image.Rectangle, i int) {
	c := arrowColors[i%len(arrowColors)]
	thick := max(2, a.tw/9)
	lift := a.tw * (3 + 2*i) / 4
	p1 := a.clip(image.Pt((from.Min.X+from.Max.X)/2, from.Min.Y+a.tw/3))
	p2 := a.clip(image.Pt((to.Min.X+to.Max.X)/2, to.Min.Y+a.tw/3))
	mid := a.clip(image.Pt((p1.X+p2.X)/2, min(p1.Y, p2.Y)-lift))
	gocv.Line(a.img, p1, mid, c, thick)
	gocv.ArrowedLine(a.img, mid, p2, c, thick)
	a.badge(mid, fmt.Sprint(i+1), c, color.RGBA{0, 0, 0, 0})
}

// legendLines is the plan as text for the legend, wrapped later.
func legendLines(l *solver.Level, p solver.Plan) []string {
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
	default:
		head = fmt.Sprintf("Best plan found: %d pours (search stopped early)", len(p.Moves))
	}
	steps := make([]string, len(p.Moves))
	for i, m := range p.Moves {
		steps[i] = fmt.Sprintf("%d->%d", m.From+1, m.To+1)
	}
	return []string{head, strings.Join(steps, stepSep)}
}

// stepSep separates the pours in the legend; words within a line are separated by one space.
const stepSep = "   "

// legend writes the lines on a dark band below the lowest tube (or over the image's foot).
func (a annotator) legend(lines []string, tubes []Tube) {
	w, h := a.bounds.Dx(), a.bounds.Dy()
	scale := float64(w) / 1400
	thick := max(1, w/700)
	var wrapped []string
	for _, l := range lines {
		sep := " "
		if strings.Contains(l, stepSep) {
			sep = stepSep
		}
		wrapped = append(wrapped, wrap(strings.Split(l, sep), sep, w*92/100, scale, thick)...)
	}
	lineH := gocv.GetTextSize("Ag", gocv.FontHersheyDuplex, scale, thick).Y * 2
	bandH := lineH*len(wrapped) + lineH
	lowest := 0
	for _, t := range tubes {
		lowest = max(lowest, t.Box.Max.Y)
	}
	top := lowest + a.tw/2
	if top+bandH > h {
		top = max(0, h-bandH)
	}
	band := image.Rect(0, top, w, min(h, top+bandH))
	region := a.img.Region(band)
	dark := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), band.Dy(), band.Dx(), a.img.Type())
	gocv.AddWeighted(region, 0.3, dark, 0.7, 0, &region)
	dark.Close()
	region.Close()
	for i, l := range wrapped {
		y := top + lineH*(i+1)
		gocv.PutTextWithParams(a.img, l, image.Pt(w*4/100, y), gocv.FontHersheyDuplex, scale, color.RGBA{255, 255, 255, 0}, thick, gocv.LineAA, false)
	}
}

// wrap joins words with sep into lines no wider than width pixels.
func wrap(words []string, sep string, width int, scale float64, thick int) []string {
	var out []string
	line := ""
	for _, word := range words {
		cand := word
		if line != "" {
			cand = line + sep + word
		}
		if line != "" && gocv.GetTextSize(cand, gocv.FontHersheyDuplex, scale, thick).X > width {
			out = append(out, line)
			cand = word
		}
		line = cand
	}
	return append(out, line)
}
