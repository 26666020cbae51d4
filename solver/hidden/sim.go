package hidden

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/decant/decant/solver"
)

// Mystery hides units as "mystery" levels do: every unit but each tube's top.
func Mystery(l *solver.Level) [][]bool {
	out := make([][]bool, len(l.Tubes))
	for i, t := range l.Tubes {
		out[i] = make([]bool, len(t))
		for j := range max(len(t)-1, 0) {
			out[i][j] = true
		}
	}
	return out
}

// HideFraction hides each unit below a tube's top with probability f.
func HideFraction(l *solver.Level, f float64, r *rand.Rand) [][]bool {
	out := make([][]bool, len(l.Tubes))
	for i, t := range l.Tubes {
		out[i] = make([]bool, len(t))
		for j := range max(len(t)-1, 0) {
			out[i][j] = r.Float64() < f
		}
	}
	return out
}

// Decision is one call of Plan in a simulated game.
type Decision struct {
	PSuccess float64
	Status   solver.Status
	Elapsed  time.Duration
	// States is the most states one of its decisions' searches on completions stored: the
	// work behind the answer, independent of the machine.
	States int
	// Searches, Work and Pours are the answer's exact searches on completions, its work (see
	// Options.MaxDecisionWork) and its pours.
	Searches, Work, Pours int
	// TimeCut is the answer's: the decision ran out of time (Options.MaxDecisionTime).
	TimeCut bool
	beliefs int
	// rawP, hiddenShare and curtained are the answer's (see calibrated).
	rawP        float64
	hiddenShare float64
	curtained   bool
}

// Result is a simulated game: whether the planner finished the level, in how many pours, and
// each decision it took.
type Result struct {
	Finished  bool
	Pours     int
	Decisions []Decision
}

// Play plays game g (its truth in full) with Plan until it is finished, the planner gives up
// (a verdict or no pour), or maxPours are played. Each decision sees only g.View(), as a
// player would; the pours are played on the truth, revealing as the rules say.
func Play(ctx context.Context, g *Game, opts Options, maxPours int) (Result, error) {
	g = g.Clone()
	var res Result
	for !g.Solved() && res.Pours < maxPours {
		view, err := g.View()
		if err != nil {
			return res, err
		}
		opts.Seed++
		a, err := Plan(ctx, view, opts)
		if err != nil {
			return res, err
		}
		res.Decisions = append(res.Decisions, Decision{PSuccess: a.PSuccess, Status: a.Status, Elapsed: a.Elapsed, States: a.peakStates,
			Searches: a.Searches, Work: a.work, Pours: len(a.Moves), TimeCut: a.TimeCut, beliefs: a.beliefs, rawP: a.rawP, hiddenShare: a.hiddenShare, curtained: a.curtained})
		if len(a.Moves) == 0 {
			break
		}
		for _, m := range a.Moves {
			played, _, err := g.Pour(m.From, m.To)
			if err != nil {
				return res, err
			}
			if g.name(played.Color) != view.Name(m.Color) {
				return res, solver.Errorf(solver.CodeInternal, "pour %d→%d moved %s, the plan says %s", m.From+1, m.To+1, g.name(played.Color), view.Name(m.Color))
			}
			res.Pours++
		}
	}
	res.Finished = g.Solved()
	return res, nil
}
