package hidden

import (
	"encoding/csv"
	"flag"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

var (
	fitFile   = flag.String("hidden-fit", "", "fit p_success's calibration on the decisions in this CSV (written by -hidden-decisions) and print its constants")
	checkFile = flag.String("hidden-check", "", "print the Brier score and deciles of p_success before and after calibration on the decisions in this CSV, by class and method")
)

// calRow is one sampled decision of the benchmark: its features and its game's outcome.
type calRow struct {
	method    Method
	p, hidden float64
	curtained bool
	finished  float64
}

// calFeatures are calibrated's inputs, in the order of its constants.
func calFeatures(r calRow) [4]float64 {
	q := min(max(r.p, 0.01), 0.99)
	c := 0.0
	if r.curtained {
		c = 1
	}
	return [4]float64{1, math.Log(q / (1 - q)), r.hidden, c}
}

// fitCalibration fits a logistic regression of the outcomes on calFeatures by gradient ascent
// on the log-likelihood (a few thousand rows: plain and enough).
func fitCalibration(rows []calRow) [4]float64 {
	w := [4]float64{0, 1, 0, 0}
	for range 20_000 {
		var g [4]float64
		for _, r := range rows {
			x := calFeatures(r)
			z := w[0]*x[0] + w[1]*x[1] + w[2]*x[2] + w[3]*x[3]
			e := r.finished - 1/(1+math.Exp(-z))
			for i := range g {
				g[i] += e * x[i]
			}
		}
		for i := range w {
			w[i] += 0.5 * g[i] / float64(len(rows))
		}
	}
	return w
}

// readDecisions reads a CSV written by -hidden-decisions: class, method, level, truth, raw p,
// hidden share, curtained, finished. Chances of 0, which calibrated leaves as they are, and
// the small classes' decisions, where Plan does not calibrate, are left out.
func readDecisions(t *testing.T, name string) (rows []calRow, groups []string) {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		p, _ := strconv.ParseFloat(rec[4], 64)
		h, _ := strconv.ParseFloat(rec[5], 64)
		if p <= 0 || rec[0] == "small1" || rec[0] == "small2" {
			continue
		}
		r := calRow{method: Method(rec[1]), p: p, hidden: h, curtained: rec[6] == "true"}
		if rec[7] == "true" {
			r.finished = 1
		}
		rows, groups = append(rows, r), append(groups, rec[0]+" "+rec[1])
	}
	return rows, groups
}

// TestFitCalibration prints calibrated's constants fitted on a CSV of decisions, and checks
// the constants in the code on another:
// go test ./solver/hidden -run TestFitCalibration -hidden-fit train.csv -hidden-check test.csv -v
func TestFitCalibration(t *testing.T) {
	if *fitFile != "" {
		rows, _ := readDecisions(t, *fitFile)
		w := fitCalibration(rows)
		t.Logf("%d decisions: calibration{%.3f, %.3f, %.3f, %.3f} (bias, logit, hidden, curtain)", len(rows), w[0], w[1], w[2], w[3])
		raw, cal := calBrier(rows)
		t.Logf("Brier on them: uncalibrated %.4f, with the constants in the code %.4f", raw, cal)
	}
	if *checkFile != "" {
		rows, groups := readDecisions(t, *checkFile)
		byGroup := map[string][]calRow{"all": rows}
		for i, g := range groups {
			byGroup[g] = append(byGroup[g], rows[i])
		}
		for _, g := range slices.Sorted(maps.Keys(byGroup)) {
			rs := byGroup[g]
			raw, cal := calBrier(rs)
			var preds, cals, outs []float64
			for _, r := range rs {
				preds, cals, outs = append(preds, r.p), append(cals, calibrated(r.method, r.p, r.hidden, r.curtained)), append(outs, r.finished)
			}
			t.Logf("%s: %d decisions, Brier %.3f -> %.3f\n  before: %s\n  after: %s", g, len(rs), raw, cal, deciles(preds, outs), deciles(cals, outs))
		}
	}
	if *fitFile == "" && *checkFile == "" {
		t.Skip("fits the calibration with -hidden-fit FILE, checks it with -hidden-check FILE")
	}
}

// calBrier returns the Brier score of rows' chances before and after calibration.
func calBrier(rows []calRow) (raw, cal float64) {
	for _, r := range rows {
		c := calibrated(r.method, r.p, r.hidden, r.curtained)
		raw += (r.p - r.finished) * (r.p - r.finished)
		cal += (c - r.finished) * (c - r.finished)
	}
	n := float64(max(len(rows), 1))
	return raw / n, cal / n
}

func TestFitCalibrationRecoversALogisticModel(t *testing.T) {
	// Outcomes drawn from a known model come back as its constants, roughly.
	want := [4]float64{0.5, 0.6, -3, -2}
	var rows []calRow
	for i := range 2000 {
		r := calRow{p: float64(i%97+1) / 99, hidden: float64(i%13) / 13, curtained: i%5 == 0}
		x := calFeatures(r)
		z := want[0]*x[0] + want[1]*x[1] + want[2]*x[2] + want[3]*x[3]
		if float64((i*7919)%1000)/1000 < 1/(1+math.Exp(-z)) {
			r.finished = 1
		}
		rows = append(rows, r)
	}
	got := fitCalibration(rows)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 0.6 {
			t.Errorf("constant %d: got %.2f, want %.2f ± 0.6", i, got[i], want[i])
		}
	}
}
