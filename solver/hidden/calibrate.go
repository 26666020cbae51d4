package hidden

import (
	"math"
	"slices"

	"github.com/decant/decant/solver"
)

// hiddenShare returns the share of the units in belief b's open tubes that are hidden, and
// whether a curtain is closed: what calibrated corrects the sampled probability by.
func hiddenShare(b *Game) (float64, bool) {
	share := 0.0
	if n := b.units(); n > 0 {
		share = float64(b.Hidden()) / float64(n)
	}
	return share, slices.ContainsFunc(b.Covers, func(c solver.Color) bool { return c != 0 })
}

// Calibration of the sampled probability of finishing (see calibrated), fitted on 3,287
// decisions of pimc and endgame playing levels 200–239 of the benchmark's mystery, curtain
// and 15–75% classes (go test ./solver/hidden -run TestBenchmark -bench-hidden
// -hidden-levels 40 -hidden-skip 200 -hidden-classes mystery,curtain,random
// -hidden-methods endgame,pimc -hidden-decisions train.csv, then TestFitCalibration
// -hidden-fit train.csv): Brier 0.401 before, 0.170 after on them.
const (
	calBias, calLogit, calHidden, calCurtain = 1.512, 0.418, -5.834, -0.879
)

// calibrated corrects p, the share of sampled completions that finish: the searches on
// completions see every hidden unit, so p is over-confident, the more so the more is hidden
// and when a curtain is closed (the searches open it). It is a logistic regression of the
// games' outcomes on logit(p), the hidden share and the curtain, fitted on simulated games
// of other levels than the benchmark's (README).
func calibrated(p, hidden float64, curtained bool) float64 {
	q := min(max(p, 0.01), 0.99)
	z := calBias + calLogit*math.Log(q/(1-q)) + calHidden*hidden
	if curtained {
		z += calCurtain
	}
	return 1 / (1 + math.Exp(-z))
}
