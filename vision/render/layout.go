package render

import (
	"math"
	"math/rand/v2"
)

// shapeDraws are a scene's tube proportions, drawn once per scene.
type shapeDraws struct {
	unitAspect float64 // unit height / cavity width
	headroom   float64 // empty space above a full tube, in units
	gap        float64 // horizontal gap between tubes, in cavity widths
	rowGap     float64 // vertical gap between rows, in tube heights
	strokeK    float64 // outline width, in cavity widths
	jitter     []float64
}

// Proportion ranges of the random tubes.
var (
	unitAspectRange = [2]float64{0.55, 1.25}
	headroomRange   = [2]float64{0.2, 0.9}
	gapRange        = [2]float64{0.25, 1.3}
	rowGapRange     = [2]float64{0.12, 0.45}
	// minUnitAspect is the flattest unit a layout squeezes tall tubes to before narrowing them.
	minUnitAspect = 0.5
	// maxJitter is the widest gap of an uneven row, in its nominal gaps (the narrowest is
	// minJitter).
	minJitter, maxJitter = 0.5, 1.5
	// lipShare is how much wider than the tube a rim's lip reaches, in cavity widths.
	lipShare = 0.3
)

func between(r *rand.Rand, lohi [2]float64) float64 { return lohi[0] + (lohi[1]-lohi[0])*r.Float64() }

// rowCounts splits n tubes into rows, the top rows taking the extra ones.
func rowCounts(n, rows int) []int {
	rows = max(1, min(rows, n))
	out := make([]int, rows)
	for i := range out {
		out[i] = n / rows
		if i < n%rows {
			out[i]++
		}
	}
	return out
}

// placed is where the layout put the tubes: geometry in reading order and the rows' bottoms.
type placed struct {
	geoms      []tubeGeom
	rowBottoms []float64
	hw         float64
}

// placeTubes fits the rows of tubes into the board area [x0,x1]×[y0,y1]; it returns false
// when a cavity would be narrower than minW pixels or a unit lower than minUH.
func placeTubes(counts []int, capacity int, sh shapeDraws, layout, shape, rim string, x0, y0, x1, y1, minW, minUH float64) (placed, bool) {
	perRow := 0
	for _, c := range counts {
		perRow = max(perRow, c)
	}
	rows := len(counts)
	widthK := 1.0 // the tube's widest part, in cavity widths
	if shape == "bulb" {
		widthK = bulbShare
	}
	stagger := 0.0
	if layout == "staggered" && rows > 1 {
		stagger = 0.5
	}
	// Width: perRow tubes (lips included) with gaps, the widest gaps an uneven row draws, and
	// a staggered row's shift; height: rows of tubes with row gaps.
	gap := sh.gap
	if layout == "uneven" {
		gap *= maxJitter
	}
	iw := (x1 - x0) / ((float64(perRow)+stagger)*(widthK+sh.strokeK*2+lipShare) + float64(perRow-1+int(math.Ceil(stagger)))*gap)
	tubeH := func(iw float64) float64 {
		rimH := 0.0
		if rim != "none" {
			rimH = math.Max(2, iw/6)
		}
		return rimH + (sh.headroom+float64(capacity))*sh.unitAspect*iw + iw*sh.strokeK + 0.15*iw
	}
	// Too tall: flatten the units first (down to minUnitAspect), then narrow the tubes.
	for th := tubeH(iw); float64(rows)*th*(1+sh.rowGap) > y1-y0 && sh.unitAspect > minUnitAspect; th = tubeH(iw) {
		sh.unitAspect = math.Max(minUnitAspect, sh.unitAspect*0.95)
	}
	if th := tubeH(iw); float64(rows)*th*(1+sh.rowGap) > y1-y0 {
		iw *= (y1 - y0) / (float64(rows) * th * (1 + sh.rowGap))
	}
	iw = math.Min(iw, (x1-x0)*0.16)
	if iw < minW || iw*sh.unitAspect < minUH {
		return placed{}, false
	}
	th := tubeH(iw)
	stroke := math.Round(iw * sh.strokeK)
	if sh.strokeK > 0 {
		stroke = math.Max(1, stroke)
	}
	gapY := th * sh.rowGap
	blockH := float64(rows)*th + float64(rows-1)*gapY
	y := y0 + (y1-y0-blockH)/2
	p := placed{hw: iw / 2}
	k := 0
	for row, n := range counts {
		pitch := iw*(widthK+2*sh.strokeK) + iw*sh.gap
		gaps := make([]float64, n)
		total := 0.0
		for i := range gaps {
			gaps[i] = pitch
			if layout == "uneven" && i > 0 {
				gaps[i] = iw*(widthK+2*sh.strokeK) + iw*sh.gap*sh.jitter[(k+i)%len(sh.jitter)]
			}
			if i > 0 {
				total += gaps[i]
			}
		}
		cx := (x0+x1)/2 - total/2
		if stagger > 0 {
			cx += (float64(row%2) - 0.5) * stagger * pitch
		}
		for i := range n {
			if i > 0 {
				cx += gaps[i]
			}
			g := tubeGeom{cx: cx, top: y, hw: iw / 2, uh: sh.unitAspect * iw, stroke: stroke, shape: shape}
			g.cavTop = y
			if rim != "none" {
				g.cavTop = y + math.Max(2, iw/6)
			}
			g.bottom = g.cavTop + (sh.headroom+float64(capacity))*g.uh
			g.neckY = g.bottom - float64(capacity)*g.uh - 0.5
			p.geoms = append(p.geoms, g)
			k++
		}
		y += th + gapY
		p.rowBottoms = append(p.rowBottoms, p.geoms[len(p.geoms)-1].bottom+stroke)
	}
	return p, true
}
