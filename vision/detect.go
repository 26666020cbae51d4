package vision

import (
	"fmt"
	"image"
	"math"
	"runtime"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"github.com/decant/decant/vision/cielab"
)

// workWidth is the width images are scaled down to before analysis: enough for tubes of a
// dozen pixels across on the densest layouts, and it keeps a read within its time budget.
const workWidth = 540

// frame is the working copy of an image: scaled down, in CIELAB, as plain Go memory.
type frame struct {
	w, h  int
	scale float64 // original pixels per working pixel
	lab   []float32
	gray  []byte // blurred grey levels, for edge detection

	screen *screen // the phone screen the frame shows upright, for a photo of one; else nil

	scratch  [3][]float64                 // reused by medianLab
	lanterns map[lanternKey]lanternSeen   // boxes looked at by lantern
	marked   map[image.Rectangle]markSeen // unit patches looked at by marks
	deltas   deltaMemo                    // distances between unit colours clustered
	covers   []image.Rectangle            // the curtains every layout found, in the image's pixels (see curtainInGap)
}

// bounds is the frame's rectangle, in working pixels.
func (f *frame) bounds() image.Rectangle { return image.Rect(0, 0, f.w, f.h) }

// clip is r within the frame. Boxes are grown, moved and extended while a layout is worked
// out (a row brought to a common bottom, a curtain placed at the row's pitch), so they may
// reach past the image's edges; every region read from the frame passes through here.
func (f *frame) clip(r image.Rectangle) image.Rectangle { return r.Intersect(f.bounds()) }

// at is the pixel at x, y, or the nearest one inside the frame: no point read can fall off
// its edges.
func (f *frame) at(x, y int) lab {
	x, y = min(max(x, 0), f.w-1), min(max(y, 0), f.h-1)
	i := 3 * (y*f.w + x)
	return lab{L: float64(f.lab[i]), A: float64(f.lab[i+1]), B: float64(f.lab[i+2])}
}

// newFrame scales the decoded BGR image down and converts it; a photo of a phone screen is
// first warped to the screen, upright (see findScreen). It does not close src.
func newFrame(src gocv.Mat) (*frame, error) {
	s, _ := findScreen(src)
	return frameOf(src, s)
}

// frameOf is newFrame with the screen given: the image is warped to s, unless s is nil.
func frameOf(src gocv.Mat, s *screen) (*frame, error) {
	f := &frame{scale: 1}
	if s != nil {
		upright := s.warp(src)
		defer upright.Close()
		src, f.screen = upright, s
	}
	small := gocv.NewMat()
	defer small.Close()
	if src.Cols() > workWidth {
		f.scale = float64(src.Cols()) / workWidth
		h := int(math.Round(float64(src.Rows()) / f.scale))
		gocv.Resize(src, &small, image.Pt(workWidth, max(h, 1)), 0, 0, gocv.InterpolationArea)
	} else {
		src.CopyTo(&small)
	}
	f.w, f.h = small.Cols(), small.Rows()

	bgr, err := small.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	if len(bgr) != 3*f.w*f.h {
		return nil, fmt.Errorf("vision: working image is %d bytes for %d×%d pixels, not three a pixel", len(bgr), f.w, f.h)
	}
	f.lab = make([]float32, len(bgr))
	cielab.FromBGR(f.lab, bgr)

	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(small, &gray, gocv.ColorBGRToGray)
	gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderDefault)
	gb, err := gray.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	f.gray = slices.Clone(gb)
	return f, nil
}

// cannyLevels are the edge thresholds tried: low ones catch faint outlines, high ones keep
// tubes apart from patterned backgrounds. faintLevel catches fainter ones still (a light
// outline on a light background), and chromaLevel outlines in a* and b*: too many among
// textures to group into rows, their outlines only tell whether a place at a row's pitch
// holds a tube (faintCandidates).
var (
	cannyLevels = [][2]float32{{20, 60}, {40, 110}, {70, 170}, {110, 240}}
	faintLevel  = [2]float32{10, 30}
	chromaLevel = [2]float32{20, 60}
)

// chromaGain scales a* and b* into grey levels for their edges (chromaLevel).
const chromaGain = 2

// tubeCandidates finds tall, narrow outlines: the external contours of the dilated edge map,
// kept when their box has a tube's proportions and a plausible size for the frame.
func (f *frame) tubeCandidates() []image.Rectangle {
	gray, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, f.gray)
	if err != nil {
		return nil
	}
	defer gray.Close()
	// Grouping is quadratic and worse: a cluttered image (noise, a photo) is cut down to its
	// largest candidates, which is where tubes are.
	return largest(f.outlines(gray, cannyLevels...))
}

// partedCandidates are the tube-shaped outlines found inside outlines as tall as a tube but
// too wide for one (partedBoxes), at tubeCandidates' edge thresholds: tubes standing close,
// their holders, lips or shadows joined by the dilated edges. They are a second guess, looked
// for only where the first reads no level.
func (f *frame) partedCandidates() []image.Rectangle {
	gray, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, f.gray)
	if err != nil {
		return nil
	}
	defer gray.Close()
	raw, edges := gocv.NewMat(), gocv.NewMat()
	defer raw.Close()
	defer edges.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	var out boxSet
	for _, lv := range cannyLevels {
		gocv.Canny(gray, &raw, lv[0], lv[1])
		gocv.Dilate(raw, &edges, kernel)
		_, wide := f.tallBoxes(edges)
		out.add(f.partedBoxes(raw, wide))
	}
	return largest(out.list)
}

// faintCandidates are tubeCandidates' outlines at faintLevel in grey and at chromaLevel in a*
// and b* (an outline that differs from the background in hue alone leaves no edge in grey).
// They are looked for only where a place at a row's pitch needs them (completeRows): the
// edges of two more channels cost a read a third more.
func (f *frame) faintCandidates() []image.Rectangle {
	gray, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, f.gray)
	if err != nil {
		return nil
	}
	defer gray.Close()
	out := f.outlines(gray, faintLevel)
	plane := make([]byte, f.w*f.h)
	for ch := 1; ch <= 2; ch++ {
		for i := range plane {
			plane[i] = byte(min(255, max(0, 128+chromaGain*f.lab[3*i+ch])))
		}
		m, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, plane)
		if err != nil {
			continue
		}
		blurred := gocv.NewMat()
		gocv.GaussianBlur(m, &blurred, image.Pt(3, 3), 0, 0, gocv.BorderDefault)
		out = append(out, f.outlines(blurred, chromaLevel)...)
		blurred.Close()
		m.Close()
	}
	runtime.KeepAlive(plane)
	return largest(out)
}

// outlines is the boxes of tube-shaped outlines (tallBoxes) in the edges of img at each pair
// of Canny thresholds, each box once.
func (f *frame) outlines(img gocv.Mat, levels ...[2]float32) []image.Rectangle {
	edges := gocv.NewMat()
	defer edges.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	// A shelf, a stand's rail or a banner's edge runs across a row of tubes and joins their
	// outlines into one: the edges at the first level are looked at once more without lines
	// shelfLine of the frame's width long or longer (a tube's own edges, rim and layers, are
	// no wider than the tube, and tallBoxes takes no tube wider than a third of the frame).
	// The other levels found no more tubes, at eight times the cost.
	rail := max(3, int(shelfLine*float64(f.w)))
	var out boxSet
	for i, lv := range levels {
		gocv.Canny(img, &edges, lv[0], lv[1])
		gocv.Dilate(edges, &edges, kernel)
		tall, _ := f.tallBoxes(edges)
		out.add(tall)
		if i > 0 {
			continue
		}
		if px, cleared := withoutLines(edges, rail); len(cleared) > 0 {
			cut, err := gocv.NewMatFromBytes(edges.Rows(), edges.Cols(), gocv.MatTypeCV8U, px)
			if err == nil {
				// Only the boxes standing on a line are tubes it joined: a panel's edges
				// free shapes inside it too, which are no tubes.
				tall, _ := f.tallBoxes(cut)
				out.add(slices.DeleteFunc(tall, func(r image.Rectangle) bool { return !standsOnLine(r, cleared) }))
				cut.Close()
			}
			runtime.KeepAlive(px)
		}
	}
	return out.list
}

// boxSet collects boxes in the order found, each once.
type boxSet struct {
	list []image.Rectangle
	seen map[image.Rectangle]bool
}

func (s *boxSet) add(rs []image.Rectangle) {
	if s.seen == nil {
		s.seen = map[image.Rectangle]bool{}
	}
	for _, r := range rs {
		if !s.seen[r] {
			s.seen[r] = true
			s.list = append(s.list, r)
		}
	}
}

// partedBoxes looks inside the wide boxes (outlines as tall as a tube and too wide for one)
// for tubes the dilation joined: in the raw edges, dilated upright only (a wall's broken
// pixels join, two outlines side by side stay apart), it keeps the tube-shaped boxes at least
// partedHeight of their wide box's height, no more than partedWidth of its width.
func (f *frame) partedBoxes(raw gocv.Mat, wide []image.Rectangle) []image.Rectangle {
	if len(wide) == 0 {
		return nil
	}
	upright := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(1, 3))
	defer upright.Close()
	grown := gocv.NewMat()
	defer grown.Close()
	gocv.Dilate(raw, &grown, upright)
	// Only the edges inside the wide boxes: the rest of the frame was read already.
	all, w := grown.ToBytes(), grown.Cols()
	px := make([]byte, len(all))
	for _, b := range wide {
		b = b.Intersect(image.Rect(0, 0, w, grown.Rows()))
		for y := b.Min.Y; y < b.Max.Y; y++ {
			copy(px[y*w+b.Min.X:y*w+b.Max.X], all[y*w+b.Min.X:y*w+b.Max.X])
		}
	}
	m, err := gocv.NewMatFromBytes(grown.Rows(), w, gocv.MatTypeCV8U, px)
	if err != nil {
		return nil
	}
	defer m.Close()
	tall, _ := f.tallBoxes(m)
	runtime.KeepAlive(px)
	return slices.DeleteFunc(tall, func(r image.Rectangle) bool {
		return !slices.ContainsFunc(wide, func(b image.Rectangle) bool {
			return r.In(b) && float64(r.Dy()) >= partedHeight*float64(b.Dy()) && float64(r.Dx()) <= partedWidth*float64(b.Dx())
		})
	})
}

// A box found inside a wide one (partedBoxes) is a tube of its row when it is at least
// partedHeight of the wide box's height and at most partedWidth of its width.
const (
	partedHeight = 0.6
	partedWidth  = 1 / 1.6
)

// withoutLines is a copy of the edge image's pixels with every horizontal run of edge
// pixels rail long or longer cleared, and the runs cleared, each one row tall.
func withoutLines(edges gocv.Mat, rail int) ([]byte, []image.Rectangle) {
	px := edges.ToBytes()
	w := edges.Cols()
	var cleared []image.Rectangle
	for y := 0; y < edges.Rows(); y++ {
		row := px[y*w : (y+1)*w]
		for x := 0; x < w; {
			if row[x] == 0 {
				x++
				continue
			}
			end := x
			for end < w && row[end] != 0 {
				end++
			}
			if end-x >= rail {
				clear(row[x:end])
				cleared = append(cleared, image.Rect(x, y, end, y+1))
			}
			x = end
		}
	}
	return px, cleared
}

// standsOnLine reports whether box r stands on one of the lines: one runs under half its
// width or more, within footSlack pixels of its foot.
func standsOnLine(r image.Rectangle, lines []image.Rectangle) bool {
	foot := image.Rect(r.Min.X, r.Max.Y-footSlack, r.Max.X, r.Max.Y+footSlack)
	return slices.ContainsFunc(lines, func(l image.Rectangle) bool {
		o := l.Intersect(foot)
		return !o.Empty() && 2*o.Dx() >= r.Dx()
	})
}

// footSlack is how far (pixels) a line may run from a box's foot for the box to stand on it:
// the edges are dilated, and a tube's foot rests on a shelf's top edge.
const footSlack = 3

// shelfLine is the shortest edge, as a share of the frame's width, taken for a line across a
// row of tubes (see outlines).
const shelfLine = 1.0 / 3

// largest is the maxCandidates largest of the boxes, or all of them.
func largest(bs []image.Rectangle) []image.Rectangle {
	if len(bs) > maxCandidates {
		sort.Slice(bs, func(i, j int) bool { return bs[i].Dx()*bs[i].Dy() > bs[j].Dx()*bs[j].Dy() })
		bs = bs[:maxCandidates]
	}
	return bs
}

// maxCandidates bounds the tube candidates grouped per image.
const maxCandidates = 300

// tallBoxes returns the boxes of all contours (nested ones too: a window frame may enclose
// the game) that have a tube's proportions and a plausible size for the frame.
//
// wide are the boxes as tall as a tube but too wide for one (a row of tubes whose outlines
// the edges joined, or a panel).
func (f *frame) tallBoxes(edges gocv.Mat) (tall, wide []image.Rectangle) {
	contours := gocv.FindContours(edges, gocv.RetrievalList, gocv.ChainApproxSimple)
	defer contours.Close()
	for i := 0; i < contours.Size(); i++ {
		r := gocv.BoundingRect(contours.At(i))
		w, h := r.Dx(), r.Dy()
		if w < 6 || h < f.h/25 || h > f.h*3/4 {
			continue
		}
		ar := float64(h) / float64(w)
		switch {
		case w > f.w/3 || ar < 1.8:
			wide = append(wide, r)
		case ar <= 10:
			tall = append(tall, r)
		}
	}
	return tall, wide
}

// alikeGroups finds sets of non-overlapping candidates of one size (games draw every tube
// alike): widths within 15% and heights within 25% of a seed box, preferring the boxes
// closest to the seed's size where candidates overlap. It returns the set with the most
// boxes and the set of minAlike or more boxes covering the most area: pieces of liquid split
// by a glare stripe can outnumber the tubes they sit in.
func alikeGroups(cands []image.Rectangle) (most, widest []image.Rectangle) {
	for _, seed := range cands {
		var group []image.Rectangle
		for _, r := range cands {
			if near(r.Dx(), seed.Dx(), 0.15) && near(r.Dy(), seed.Dy(), 0.25) {
				group = append(group, r)
			}
		}
		dev := func(r image.Rectangle) int { return abs(r.Dx()-seed.Dx()) + abs(r.Dy()-seed.Dy()) }
		sort.SliceStable(group, func(i, j int) bool { return dev(group[i]) < dev(group[j]) })
		var kept []image.Rectangle
		for _, r := range group {
			if !overlapsAny(r, kept) {
				kept = append(kept, r)
			}
		}
		if len(kept) > len(most) || (len(kept) == len(most) && area(kept) > area(most)) {
			most = kept
		}
		if len(kept) >= minAlike && area(kept) > area(widest) {
			widest = kept
		}
	}
	return most, widest
}

// minAlike is the fewest alike boxes that make a row of tubes.
const minAlike = 3

// dropInner removes candidates that sit inside a taller candidate at most twice as wide: runs
// of one colour inside a tube can be tube-shaped, and outnumber the tubes.
func dropInner(cands []image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for _, r := range cands {
		inner := false
		for _, o := range cands {
			in := r.Intersect(o)
			if in.Dx()*in.Dy()*10 >= r.Dx()*r.Dy()*9 && o.Dx() <= 2*r.Dx() && o.Dy()*10 >= r.Dy()*13 {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, r)
		}
	}
	return out
}

func overlapsAny(r image.Rectangle, rs []image.Rectangle) bool {
	for _, o := range rs {
		in := r.Intersect(o)
		if in.Dx()*in.Dy()*4 > min(r.Dx()*r.Dy(), o.Dx()*o.Dy()) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func near(a, b int, tol float64) bool {
	return math.Abs(float64(a-b)) <= tol*float64(max(a, b))
}

func area(rs []image.Rectangle) int {
	s := 0
	for _, r := range rs {
		s += r.Dx() * r.Dy()
	}
	return s
}

// readingOrder sorts boxes into rows (top to bottom) and, within a row, left to right.
func readingOrder(boxes []image.Rectangle) [][]image.Rectangle {
	sort.Slice(boxes, func(i, j int) bool { return boxes[i].Min.Y+boxes[i].Max.Y < boxes[j].Min.Y+boxes[j].Max.Y })
	var rows [][]image.Rectangle
	for _, b := range boxes {
		cy := (b.Min.Y + b.Max.Y) / 2
		if n := len(rows); n > 0 {
			last := rows[n-1][0]
			if cy < last.Max.Y && cy > last.Min.Y {
				rows[n-1] = append(rows[n-1], b)
				continue
			}
		}
		rows = append(rows, []image.Rectangle{b})
	}
	heights := make([]int, len(boxes))
	for i, b := range boxes {
		heights[i] = b.Dy()
	}
	slices.Sort(heights)
	for _, r := range rows {
		sort.Slice(r, func(i, j int) bool { return r[i].Min.X < r[j].Min.X })
	}
	for i, r := range rows {
		rows[i] = onBeat(r, commonPitch(rows[i:i+1])) // rows may space their tubes differently
		alignRow(rows[i], heights[len(heights)/2])
	}
	return rows
}

// commonPitch is the distance between neighbouring tubes in the rows: of the gaps between
// neighbours' centres, the one that the most gaps are whole multiples of (the larger, on a
// tie). It is 0 when no gap explains most of them.
func commonPitch(rows [][]image.Rectangle) float64 {
	var gaps []float64
	for _, row := range rows {
		for i := 1; i < len(row); i++ {
			gaps = append(gaps, centreX(row[i])-centreX(row[i-1]))
		}
	}
	best, bestN := 0.0, 0
	for _, p := range gaps {
		n := 0
		for _, g := range gaps {
			if k := math.Round(g / p); k >= 1 && math.Abs(g/p-k) <= 0.12*k {
				n++
			}
		}
		if n > bestN || (n == bestN && p > best) {
			best, bestN = p, n
		}
	}
	if bestN*3 < len(gaps)*2 {
		return 0
	}
	// Refine over the gaps it explains: an error of a pixel would add up along a long row.
	var sum, k float64
	for _, g := range gaps {
		if n := math.Round(g / best); n >= 1 && math.Abs(g/best-n) <= 0.12*n {
			sum, k = sum+g, k+n
		}
	}
	return sum / k
}

// onBeat keeps the boxes of a row that stand at whole multiples of the pitch from most of the
// others. A box a little off the beat inside the row (a tube's outline merged with a
// background doodle) is moved onto it, if that place is free; a box that is a twin of one on
// the beat (its width, top and bottom within a few pixels: a tube of a row spaced unevenly)
// stays where it is; any other (a tube-shaped doodle or button beside the row) is dropped.
func onBeat(row []image.Rectangle, pitch float64) []image.Rectangle {
	if pitch <= 0 || len(row) < 3 {
		return row
	}
	agrees := func(b image.Rectangle) bool {
		n := 0
		for _, o := range row {
			d := math.Abs(centreX(o)-centreX(b)) / pitch
			if math.Abs(d-math.Round(d)) <= 0.15 {
				n++
			}
		}
		return n*2 > len(row)
	}
	var kept, off []image.Rectangle
	for _, b := range row {
		if agrees(b) {
			kept = append(kept, b)
		} else {
			off = append(off, b)
		}
	}
	if len(kept) == 0 {
		return row
	}
	anchor, last := centreX(kept[0]), centreX(kept[len(kept)-1])
	onTheBeat := slices.Clone(kept)
	for _, b := range off {
		if slices.ContainsFunc(onTheBeat, func(k image.Rectangle) bool { return twins(b, k) }) && !overlapsAny(b, kept) {
			kept = append(kept, b)
			continue
		}
		k := math.Round((centreX(b) - anchor) / pitch)
		beat := anchor + k*pitch
		w := kept[0].Dx()
		moved := image.Rect(int(math.Round(beat))-w/2, b.Min.Y, int(math.Round(beat))-w/2+w, b.Max.Y)
		in := moved.Intersect(b)
		inside := beat >= anchor && beat <= last
		// Beyond the row's ends only a box covering most of the tube's place is moved: a
		// doodle there must not become a tube.
		if math.Abs(centreX(b)-beat) > 0.35*pitch || (!inside && in.Dx()*in.Dy()*10 < moved.Dx()*moved.Dy()*7) {
			continue
		}
		if !overlapsAny(moved, kept) {
			kept = append(kept, moved)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Min.X < kept[j].Min.X })
	return kept
}

// twins reports whether boxes a and b have one width, top and bottom, within twinSlack of
// their height (or 2 pixels): two outlines of one tube drawing.
func twins(a, b image.Rectangle) bool {
	slack := max(2, int(twinSlack*float64(b.Dy())))
	return abs(a.Dx()-b.Dx()) <= slack && abs(a.Min.Y-b.Min.Y) <= slack && abs(a.Max.Y-b.Max.Y) <= slack
}

const twinSlack = 0.02

// alignRow gives a row's boxes a common top and bottom: the tubes of a level are drawn alike,
// and a box that a background doodle or a shadow stretched is brought back in line with the
// box of the row whose height is nearest the typical tube height h.
func alignRow(row []image.Rectangle, h int) {
	ref := row[0]
	for _, b := range row {
		if abs(b.Dy()-h) < abs(ref.Dy()-h) {
			ref = b
		}
	}
	if abs(ref.Dy()-h) > max(2, h/30) {
		ref.Max.Y = ref.Min.Y + h // no box of the row has the typical height: trust the top
	}
	slack := max(2, h/30)
	for i := range row {
		if abs(row[i].Max.Y-ref.Max.Y) > slack {
			row[i].Max.Y = ref.Max.Y
		}
		if row[i].Min.Y > ref.Min.Y+slack {
			row[i].Min.Y = ref.Min.Y // cut short at the top; a taller box may carry a cork
		}
	}
}

// clipRows clips every box of the rows to the frame (aligning a row or moving a box onto its
// beat may carry it past an edge) and drops boxes left with nothing inside.
func (f *frame) clipRows(rows [][]image.Rectangle) [][]image.Rectangle {
	out := rows[:0]
	for _, row := range rows {
		kept := row[:0]
		for _, b := range row {
			if b = f.clip(b); !b.Empty() {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

// halfShifted is the frame moved by half a pixel right and down: each pixel is the mean of
// the 2×2 block at it (the last row and column repeat themselves).
func (f *frame) halfShifted() *frame {
	g := &frame{w: f.w, h: f.h, scale: f.scale, screen: f.screen, lab: make([]float32, len(f.lab)), gray: make([]byte, len(f.gray))}
	w := f.w
	for y := range f.h {
		y1 := min(y+1, f.h-1)
		l0, l1, lo := f.lab[3*y*w:3*(y+1)*w], f.lab[3*y1*w:3*(y1+1)*w], g.lab[3*y*w:3*(y+1)*w]
		g0, g1, gz := f.gray[y*w:(y+1)*w], f.gray[y1*w:(y1+1)*w], g.gray[y*w:(y+1)*w]
		for x := range w {
			x1 := min(x+1, w-1)
			i, j := 3*x, 3*x1
			lo[i] = (l0[i] + l0[j] + l1[i] + l1[j]) / 4
			lo[i+1] = (l0[i+1] + l0[j+1] + l1[i+1] + l1[j+1]) / 4
			lo[i+2] = (l0[i+2] + l0[j+2] + l1[i+2] + l1[j+2]) / 4
			gz[x] = byte((int(g0[x]) + int(g0[x1]) + int(g1[x]) + int(g1[x1]) + 2) / 4)
		}
	}
	return g
}
