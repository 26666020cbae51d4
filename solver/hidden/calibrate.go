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

// calibration holds the constants of calibrated's logistic regression: z = bias +
// logit·logit(p) + hidden·share + curtain (when a curtain is closed).
type calibration struct{ bias, logit, hidden, curtain float64 }

// Calibrations of the sampled probability of finishing (see calibrated), fitted on simulated
// games of levels 200–239 of the benchmark's mystery, curtain and 15–75% classes
// (go test ./solver/hidden -run TestBenchmark -bench-hidden -hidden-levels 40 -hidden-skip 200
// -hidden-classes mystery,curtain,random -hidden-methods M -hidden-decisions train.csv, then
// TestFitCalibration -hidden-fit train.csv), one for each way of playing on: a method that
// plays better after a decision finishes more often from the same sampled share.
var (
	// calDeterminised: 3,287 decisions of pimc and endgame, Brier 0.401 before, 0.170 after
	// on them (session 8); pimc, lookahead and endgame use it.
	calDeterminised = calibration{1.512, 0.418, -5.834, -0.879}
	// calISMCTS: 1,704 decisions of ismcts (session 16, before ismctsRounds), Brier 0.329
	// before, 0.160 after on them; on levels 0–119 of the mystery class (held out, ismcts as
	// it is), 0.249 before, 0.162 after, where calDeterminised gave 0.193 (ismcts finishes
	// more often from the same share).
	calISMCTS = calibration{1.795, 0.383, -4.560, -1.989}
)

// calibrationOf returns the constants for method m's sampled chances.
func calibrationOf(m Method) calibration {
	if m == ISMCTS {
		return calISMCTS
	}
	return calDeterminised
}

// calibrated corrects p, the share of sampled completions that finish, for a game played on
// with method m: the searches on completions see every hidden unit, so p is over-confident,
// the more so the more is hidden and when a curtain is closed (the searches open it). It is
// a logistic regression of the games' outcomes on logit(p), the hidden share and the
// curtain, fitted on simulated games of other levels than the benchmark's (README).
func calibrated(m Method, p, hidden float64, curtained bool) float64 {
	c := calibrationOf(m)
	q := min(max(p, 0.01), 0.99)
	z := c.bias + c.logit*math.Log(q/(1-q)) + c.hidden*hidden
	if curtained {
		z += c.curtain
	}
	return 1 / (1 + math.Exp(-z))
}
