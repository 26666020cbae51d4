package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

	"gocv.io/x/gocv"
)

// A photo of a phone screen shows the screen as a tilted quadrilateral inside the phone's dark
// body, on whatever the phone lies on. The reader lays tubes out in upright rows, so a photo
// is read through its screen warped to an upright rectangle; a screenshot has no such
// quadrilateral and is read as it is.
//
// The screen is found on a small grey copy of the image, one side at a time: scanning in
// from the image's edge, each scanline meets the phone's body as a dark run; where the run
// ends the screen begins, and where it starts (if inside the image) the phone does. A straight
// line through most of a side's screen edges (else through its phone edges) is that side; the
// four lines meet at the corners. The quadrilateral must cover minScreenArea of the image,
// have corners near right angles and a screen's proportions, and be tilted: an upright one
// would only crop the image, and a screenshot's dark margins must not be cropped away.
const (
	// The copy is the image halved (a cheap, exact area average) until it is at most
	// maxDetectWidth wide; lengths below are given for a copy detectWidth wide and scaled.
	detectWidth    = 320
	maxDetectWidth = 480
	minScreenArea  = 0.25 // of the image's area
	maxCornerTilt  = 30   // degrees a corner's angle may differ from a right angle
	maxScreenSide  = 3.0  // longest over shortest side of the upright screen
	maxCornerOut   = 0.25 // how far a corner may lie outside the image, as a share of its side
	// bezelGrey is the brightest grey level of a phone's body (black, lit by a lamp and blurred
	// by the camera). A dark run ends where the level rises bezelStep above its darkest; it is
	// at least minBezel pixels long.
	bezelGrey = 60
	bezelStep = 20
	minBezel  = 2
	// Scans go scanReach of the image's side in from its edge, one every scanStep pixels.
	scanReach = 0.45
	scanStep  = 2
	// An edge point within lineTol pixels of a line lies on it; a side's line must
	// pass through lineSupport of the side's scanlines.
	lineTol     = 1.5
	lineSupport = 0.4
	lineTries   = 200 // pairs of edge points tried for a side's line
	// maxLineSlope is the steepest a side may lean from the image's axis (tan 25°).
	maxLineSlope = 0.47
	// minTilt is how far, in pixels, some side's ends must lie off the image's axes
	// for the screen to be warped: closer to upright, warping would only crop.
	minTilt = 2
)

// pt is a point in real-valued pixels.
type pt struct{ X, Y float64 }

// homography is a 3×3 projective map in row-major order: (x, y) goes to
// ((h0·x + h1·y + h2) / w, (h3·x + h4·y + h5) / w) with w = h6·x + h7·y + h8.
type homography [9]float64

func (h homography) apply(p pt) pt {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return pt{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// screen is a phone screen found in a photo: its corners in the image (top left, top right,
// bottom right, bottom left), the size of the upright rectangle it is warped to, and the map
// from that rectangle's pixels back to the image's.
type screen struct {
	corners [4]pt
	size    image.Point
	toImage homography
}

// findScreen looks for a phone screen in the decoded image; it reports false for a screenshot
// (no tilted screen with a phone's body around it). It does not close src.
func findScreen(src gocv.Mat) (*screen, bool) {
	if src.Empty() || src.Cols() < 2 || src.Rows() < 2 {
		return nil, false
	}
	small := src
	for small.Cols() > maxDetectWidth {
		half := gocv.NewMat()
		defer half.Close()
		gocv.Resize(small, &half, image.Pt(small.Cols()/2, small.Rows()/2), 0, 0, gocv.InterpolationArea)
		small = half
	}
	w, h := small.Cols(), small.Rows()
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(small, &gray, gocv.ColorBGRToGray)
	gocv.GaussianBlur(gray, &gray, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != w*h {
		return nil, false
	}
	sx, sy := float64(src.Cols())/float64(w), float64(src.Rows())/float64(h)
	q, ok := grid{w: w, h: h, pix: pix, k: float64(w) / detectWidth}.screenQuad()
	if !ok {
		return nil, false
	}
	var corners [4]pt
	for i, p := range q {
		corners[i] = pt{p.X * sx, p.Y * sy}
	}
	return newScreen(corners)
}

// grid is a grey image as plain memory; k is its width over detectWidth, which lengths given
// for that width are scaled by.
type grid struct {
	w, h int
	pix  []byte
	k    float64
}

func (g grid) step() int    { return max(1, int(math.Round(scanStep*g.k))) }
func (g grid) minRun() int  { return max(2, int(math.Round(minBezel*g.k))) }
func (g grid) tol() float64 { return lineTol * g.k }

// A side of the screen. Each is a line v = a·t + b: x as a function of y for the left and
// right sides, y as a function of x for the top and bottom.
const (
	leftSide = iota
	topSide
	rightSide
	bottomSide
)

type line struct{ a, b float64 }

func (l line) at(t float64) float64 { return l.a*t + l.b }

// screenQuad finds the screen's corners in g's pixels (top left, top right, bottom right,
// bottom left) and checks them, or reports false.
func (g grid) screenQuad() ([]pt, bool) {
	var ls [4]line
	for s := range 4 {
		inner, outer := g.scan(s)
		l, ok := g.sideLine(s, inner)
		if !ok {
			if l, ok = g.sideLine(s, outer); !ok {
				return nil, false
			}
		}
		ls[s] = l
	}
	q := make([]pt, 4)
	for i, pair := range [4][2]int{{leftSide, topSide}, {rightSide, topSide}, {rightSide, bottomSide}, {leftSide, bottomSide}} {
		p, ok := cross(ls[pair[0]], ls[pair[1]])
		if !ok {
			return nil, false
		}
		q[i] = p
	}
	if !plausibleScreen(q, g.w, g.h) || !tilted(q, minTilt*g.k) {
		return nil, false
	}
	return q, true
}

// cross is where a vertical side x = v.a·y + v.b meets a horizontal one y = o.a·x + o.b.
func cross(v, o line) (pt, bool) {
	d := 1 - v.a*o.a
	if math.Abs(d) < 1e-6 {
		return pt{}, false
	}
	x := (v.a*o.b + v.b) / d
	return pt{x, o.at(x)}, true
}

// scan runs the scanlines of one side in from the image's edge and returns the edge points
// (t, v) where each first dark run ends (inner: the screen's edge) and where it starts, if
// not at the image's edge (outer: the phone's).
func (g grid) scan(side int) (inner, outer []pt) {
	along, across := g.h, g.w // scanlines across the image, one per t along the side
	if side == topSide || side == bottomSide {
		along, across = g.w, g.h
	}
	reach := int(scanReach * float64(across))
	// pos is the coordinate, across the image, of the boundary i + f scan pixels in.
	pos := func(i int, f float64) float64 {
		if side == rightSide || side == bottomSide {
			return float64(across) - (float64(i) + f + 0.5)
		}
		return float64(i) + f + 0.5
	}
	prof := make([]float64, reach)
	step := g.step()
	for t := step / 2; t < along; t += step {
		for i := range prof {
			x, y := i, t
			switch side {
			case topSide:
				x, y = t, i
			case rightSide:
				x = g.w - 1 - i
			case bottomSide:
				x, y = t, g.h-1-i
			}
			prof[i] = float64(g.pix[y*g.w+x])
		}
		a, b, ok := darkRun(prof, g.minRun())
		if !ok {
			continue
		}
		tc := float64(t) + 0.5
		if b < len(prof) {
			inner = append(inner, pt{tc, pos(innerEdge(prof, a, b))})
		}
		if a > 0 {
			outer = append(outer, pt{tc, pos(a-1, level(prof[a-1], prof[a], bezelGrey))})
		}
	}
	return inner, outer
}

// darkRun finds the first dark run: it starts at a, the first pixel no brighter than
// bezelGrey, and ends before b, where the level first rises bezelStep above the run's darkest;
// it is at least minRun pixels long.
func darkRun(p []float64, minRun int) (a, b int, ok bool) {
	for a = 0; a < len(p); a = b {
		for a < len(p) && p[a] > bezelGrey {
			a++
		}
		m := math.Inf(1)
		for b = a; b < len(p) && p[b] <= m+bezelStep; b++ {
			m = math.Min(m, p[b])
		}
		if b-a >= minRun {
			return a, b, true
		}
	}
	return 0, 0, false
}

// innerEdge is where the dark run p[a:b] gives way to the screen: the crossing of the level
// halfway between the run's darkest and the brightest just after it.
func innerEdge(p []float64, a, b int) (int, float64) {
	dark := slices.Min(p[a:b])
	bright := slices.Max(p[b:min(len(p), b+3)])
	mid := (dark + bright) / 2
	i := b
	for i > a+1 && p[i-1] > mid {
		i--
	}
	for i < len(p)-1 && p[i] < mid {
		i++
	}
	return i - 1, level(p[i-1], p[i], mid)
}

// level is where, between two neighbouring pixels of grey levels p and q (0 at p, 1 at q),
// the grey level crosses v.
func level(p, q, v float64) float64 {
	if p == q {
		return 0.5
	}
	return math.Max(0, math.Min(1, (v-p)/(q-p)))
}

// sideLine fits the side's line through its edge points: of the lines through two of them,
// the one most points lie on, refined by least squares over those. It must lie on
// lineSupport of the side's scanlines and lean at most maxLineSlope.
func (g grid) sideLine(side int, ps []pt) (line, bool) {
	along := g.h
	if side == topSide || side == bottomSide {
		along = g.w
	}
	need := int(math.Ceil(lineSupport * float64(along/g.step())))
	if len(ps) < max(need, 2) {
		return line{}, false
	}
	best, bestN := line{}, 0
	r := rand.New(rand.NewPCG(uint64(side), uint64(len(ps)))) // the same image always gives the same line
	for range lineTries {
		i, j := r.IntN(len(ps)), r.IntN(len(ps))
		if math.Abs(ps[j].X-ps[i].X) < float64(4*g.step()) {
			continue // too close together to fix a direction
		}
		a := (ps[j].Y - ps[i].Y) / (ps[j].X - ps[i].X)
		l := line{a, ps[i].Y - a*ps[i].X}
		if n := countOnLine(ps, l, g.tol()); n > bestN {
			best, bestN = l, n
		}
	}
	if bestN < need {
		return line{}, false
	}
	l, ok := leastSquares(onLine(ps, best, g.tol()))
	if !ok || countOnLine(ps, l, g.tol()) < need || math.Abs(l.a) > maxLineSlope {
		return line{}, false
	}
	return l, true
}

// onLine is the points within tol of l (measured along v).
func onLine(ps []pt, l line, tol float64) []pt {
	var out []pt
	for _, p := range ps {
		if math.Abs(p.Y-l.at(p.X)) <= tol {
			out = append(out, p)
		}
	}
	return out
}

// countOnLine is len(onLine(ps, l, tol)).
func countOnLine(ps []pt, l line, tol float64) int {
	n := 0
	for _, p := range ps {
		if math.Abs(p.Y-l.at(p.X)) <= tol {
			n++
		}
	}
	return n
}

// leastSquares is the line v = a·t + b closest to the points.
func leastSquares(ps []pt) (line, bool) {
	var st, sv, stt, stv float64
	for _, p := range ps {
		st, sv, stt, stv = st+p.X, sv+p.Y, stt+p.X*p.X, stv+p.X*p.Y
	}
	n := float64(len(ps))
	d := n*stt - st*st
	if len(ps) < 2 || math.Abs(d) < 1e-9 {
		return line{}, false
	}
	a := (n*stv - st*sv) / d
	return line{a, (sv - a*st) / n}, true
}

// tilted reports whether some side of the quadrilateral leans off the image's axes by at
// least tilt pixels end to end.
func tilted(q []pt, tilt float64) bool {
	return math.Abs(q[0].X-q[3].X) >= tilt || math.Abs(q[1].X-q[2].X) >= tilt ||
		math.Abs(q[0].Y-q[1].Y) >= tilt || math.Abs(q[3].Y-q[2].Y) >= tilt
}

// plausibleScreen checks a quadrilateral (corners top left, top right, bottom right, bottom
// left, in a w×h image) for a screen: corners turning one way at near-right angles, at least
// minScreenArea of the image, and a screen's proportions.
func plausibleScreen(q []pt, w, h int) bool {
	if len(q) != 4 || quadArea(q) < minScreenArea*float64(w*h) {
		return false
	}
	for _, p := range q {
		// A corner may lie a little beyond the picture (the screen cut off), not far: the
		// upright screen stays about the image's size.
		if p.X < -maxCornerOut*float64(w) || p.X > (1+maxCornerOut)*float64(w) || p.Y < -maxCornerOut*float64(h) || p.Y > (1+maxCornerOut)*float64(h) {
			return false
		}
	}
	for i := range 4 {
		a, b, c := q[(i+3)%4], q[i], q[(i+1)%4]
		u, v := pt{a.X - b.X, a.Y - b.Y}, pt{c.X - b.X, c.Y - b.Y}
		lu, lv := math.Hypot(u.X, u.Y), math.Hypot(v.X, v.Y)
		if !(lu >= 1 && lv >= 1) {
			return false
		}
		// Going round top left, top right, bottom right, bottom left turns the same way at
		// every corner, or the corners are out of order.
		if u.X*v.Y-u.Y*v.X >= 0 {
			return false
		}
		angle := math.Acos(math.Max(-1, math.Min(1, (u.X*v.X+u.Y*v.Y)/(lu*lv)))) * 180 / math.Pi
		if math.Abs(angle-90) > maxCornerTilt {
			return false
		}
	}
	sw, sh := uprightSize(q)
	return max(sw, sh)/min(sw, sh) <= maxScreenSide
}

// quadArea is the area of a quadrilateral (shoelace formula).
func quadArea(q []pt) float64 {
	a := 0.0
	for i := range q {
		p, n := q[i], q[(i+1)%len(q)]
		a += p.X*n.Y - n.X*p.Y
	}
	return math.Abs(a) / 2
}

// uprightSize is the size of the rectangle a screen seen as q is warped to: the mean length
// of its top and bottom sides, and of its left and right sides.
func uprightSize(q []pt) (w, h float64) {
	d := func(a, b pt) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
	return (d(q[0], q[1]) + d(q[3], q[2])) / 2, (d(q[0], q[3]) + d(q[1], q[2])) / 2
}

// newScreen sets up the warp of the screen with corners q (image pixels, ordered) to an
// upright rectangle. It reports false when the corners make no usable map.
func newScreen(q [4]pt) (*screen, bool) {
	sw, sh := uprightSize(q[:])
	if !(sw >= 16 && sh >= 16) || sw > 20000 || sh > 20000 {
		return nil, false
	}
	size := image.Pt(int(math.Round(sw)), int(math.Round(sh)))
	rect := [4]pt{{0, 0}, {float64(size.X), 0}, {float64(size.X), float64(size.Y)}, {0, float64(size.Y)}}
	hm, ok := solveHomography(rect, q)
	if !ok {
		return nil, false
	}
	return &screen{corners: q, size: size, toImage: hm}, true
}

// solveHomography is the projective map taking the four points from to the four points to,
// or false when they are degenerate (three in a line).
func solveHomography(from, to [4]pt) (homography, bool) {
	if flat(from) || flat(to) {
		return homography{}, false
	}
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := from[i].X, from[i].Y, to[i].X, to[i].Y
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for c := range 8 { // Gauss-Jordan elimination with partial pivoting
		p := c
		for i := c + 1; i < 8; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		if math.Abs(a[p][c]) < 1e-9 {
			return homography{}, false
		}
		a[c], a[p] = a[p], a[c]
		for i := range 8 {
			if i != c {
				f := a[i][c] / a[c][c]
				for j := c; j < 9; j++ {
					a[i][j] -= f * a[c][j]
				}
			}
		}
	}
	var h homography
	for i := range 8 {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return homography{}, false
		}
	}
	return h, true
}

// flat reports whether three of the four points lie in a line (or two coincide): no
// projective map takes such points to a quadrilateral's corners.
func flat(q [4]pt) bool {
	size := 0.0
	for i := range q {
		for j := range i {
			size = math.Max(size, math.Hypot(q[i].X-q[j].X, q[i].Y-q[j].Y))
		}
	}
	for skip := range 4 {
		var t []pt
		for i, p := range q {
			if i != skip {
				t = append(t, p)
			}
		}
		if area := math.Abs((t[1].X-t[0].X)*(t[2].Y-t[0].Y) - (t[1].Y-t[0].Y)*(t[2].X-t[0].X)); !(area > 1e-6*size*size) {
			return true
		}
	}
	return false
}

// warp returns the screen warped upright: a new BGR Mat of s.size that the caller closes.
func (s *screen) warp(src gocv.Mat) gocv.Mat {
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for i, v := range s.toImage {
		m.SetDoubleAt(i/3, i%3, v)
	}
	dst := gocv.NewMat()
	// The map goes from the upright rectangle to the image: OpenCV's inverse map.
	gocv.WarpPerspectiveWithParams(src, &dst, m, s.size, gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	return dst
}

// toImage maps a box given in working pixels (x0, y0)–(x1, y1) to the original image's
// pixels: scaled up, and, when the frame is a photo's screen warped upright, through the
// warp back to the photo, as the bounding box of its four mapped corners.
func (f *frame) toImage(x0, y0, x1, y1 float64) image.Rectangle {
	s := f.scale
	if f.screen == nil {
		return image.Rect(int(x0*s), int(y0*s), int(math.Ceil(x1*s)), int(math.Ceil(y1*s)))
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range []pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		q := f.screen.toImage.apply(pt{p.X * s, p.Y * s})
		minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
		maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
}

// doubtPhoto doubts a reading of a photo whose two nearest colours lie within photoNearDE
// while hidden units or curtains keep the count rule from checking its colours, and returns
// the low_confidence error when that leaves it below LowConfidence. Where every unit is in
// view the counts check them: two near colours mixed up leave one colour more units than a
// tube holds and the other fewer. (Until session 26 every photo with two near colours was
// doubted: sessions 11 and 17 found the doubt stopping an empty tube missed beside near
// colours on the CI slice, 1000060, which the reader now reads exactly; on 300 photo scenes
// of seed 69 the doubt then refused 33 readings, every one of them right.)
//
// Read applies it to the reading kept, once the layouts have competed, not to each layout's
// reading: doubting them all (in checkClusters, as until session 11) ranks the layouts by it
// too, so that one whose colours lie further apart can win over the right one (one scene of
// 300 photo scenes of seed 69 reads exactly here and is refused that way).
func (r *Reading) doubtPhoto() error {
	if r.nearest >= photoNearDE || r.Level != nil && !r.Level.HasHidden() && !r.Level.HasCurtains() {
		return nil
	}
	r.doubt(photoNearConfidence, "a photo of a screen with two colours only ΔE %.1f apart: glare and the camera's colour cast blur them", r.nearest)
	if r.Confidence < LowConfidence {
		return r.lowConfidence()
	}
	return nil
}

// In a photo of a screen, glare, moiré and the camera's colour cast shift colours by as much
// as games keep their nearest pairs apart: two colours within photoNearDE (CIEDE2000) cannot
// be told apart reliably, and leave a reading photoNearConfidence.
// (The old renderer's palette, drawn after common games, has its nearest pair at ΔE 17.7.)
const (
	photoNearDE         = 15
	photoNearConfidence = 0.45
)
