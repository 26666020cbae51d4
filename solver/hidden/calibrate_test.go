package hidden

import (
	"testing"

	"github.com/decant/decant/solver"
)

func TestCalibratedOrdersItsInputs(t *testing.T) {
	// More completions finishing, fewer units hidden and no curtain each mean a better chance.
	for _, tc := range []struct {
		name          string
		lower, higher [3]float64 // p, hidden share, curtain (1)
	}{
		{"more completions finish", [3]float64{0.5, 0.4, 0}, [3]float64{0.9, 0.4, 0}},
		{"fewer units hidden", [3]float64{0.9, 0.7, 0}, [3]float64{0.9, 0.2, 0}},
		{"no curtain", [3]float64{0.9, 0.4, 1}, [3]float64{0.9, 0.4, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range Methods {
				lo := calibrated(m, tc.lower[0], tc.lower[1], tc.lower[2] == 1)
				hi := calibrated(m, tc.higher[0], tc.higher[1], tc.higher[2] == 1)
				if !(0 < lo && lo < hi && hi < 1) {
					t.Errorf("%s: got %v then %v, want 0 < first < second < 1", m, lo, hi)
				}
			}
		})
	}
}

func TestOnlySampledChancesAreCalibrated(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level string
		opts  Options
		want  bool // calibrated
	}{
		// Small enough for the expectimax: an exact probability stays as it is.
		{"exact", "3: ? ? r | ? ? b | ? ? g | |", Options{Method: Exact}, false},
		// Sampled on a small level, where the calibration was not fitted.
		{"sampled, small", "3: ? ? r | ? ? b | ? ? g | |", Options{Method: Determinised}, false},
		{"sampled", bigMystery(t), Options{Method: Determinised}, true},
		{"sampled, ismcts", bigMystery(t), Options{Method: ISMCTS}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Plan(t.Context(), parse(t, tc.level), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != solver.StatusPartial {
				t.Fatalf("got %s, want partial", a.Status)
			}
			want := a.rawP
			if tc.want {
				want = calibrated(tc.opts.Method, a.rawP, a.hiddenShare, a.curtained)
			}
			if a.PSuccess != want || tc.want && a.PSuccess == a.rawP {
				t.Errorf("p_success %v from %v over %d completions, want %v", a.PSuccess, a.rawP, a.PSamples, want)
			}
		})
	}
}

// bigMystery is a mystery level of 9 colours, capacity 4, as text.
func bigMystery(t *testing.T) string {
	l, _ := mysteryView(t, 21, 9, 4)
	return l.Compact()
}
