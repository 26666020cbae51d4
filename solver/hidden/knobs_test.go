package hidden

import (
	"os"
	"strconv"
	"testing"
)

func knob(name string, v *float64) {
	if s := os.Getenv(name); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			panic(err)
		}
		*v = f
	}
}

func init() {
	knob("WIDEN", &ismctsWiden)
	knob("WIDENEXP", &ismctsWidenExp)
	knob("MARGIN", &ismctsMargin)
	knob("BLIND", &ismctsBlind)
	knob("ROLL", &ismctsRollout)
}

func TestKnobDebug(t *testing.T) {
	t.Cleanup(func() {
		if debugTrees > 0 {
			t.Logf("knobs widen %v^%v margin %v blind %v: trees %d, iterations/tree %.1f, depth/iteration %.2f, max depth %d, rollouts %d done %d, roll %v",
				ismctsWiden, ismctsWidenExp, ismctsMargin, ismctsBlind, debugTrees, float64(debugIters)/float64(debugTrees), float64(debugDepth)/float64(max(debugIters, 1)), debugMaxDepth, debugRoll, debugRollDone, ismctsRollout)
		}
	})
	TestBenchmark(t)
}
