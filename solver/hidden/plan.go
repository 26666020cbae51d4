package hidden

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/decant/decant/solver"
)

// Method selects how Plan chooses pours under hidden information.
type Method string

// The planning methods, compared by the benchmark in the tests (see the package doc).
const (
	Determinised Method = "pimc"
	Lookahead    Method = "lookahead"
	Endgame      Method = "endgame"
	Exact        Method = "exact"
	ISMCTS       Method = "ismcts"
)

// Methods are the planning methods Plan accepts.
var Methods = []Method{Determinised, Lookahead, Endgame, ISMCTS, Exact}

// MethodNames lists the methods' names for messages: "pimc, lookahead, ...".
func MethodNames() string {
	names := make([]string, len(Methods))
	for i, n := range Methods {
		names[i] = string(n)
	}
	return strings.Join(names, ", ")
}

// validMethod reports an error naming the methods when m is none of them.
func validMethod(m Method) error {
	if slices.Contains(Methods, m) {
		return nil
	}
	return solver.Errorf(solver.CodeInvalidArgument, "unknown method %q: want one of %s", m, MethodNames())
}

// Defaults for Options.
const (
	DefaultSamples   = 16
	DefaultMaxStates = 20_000
	// DefaultMaxBeliefs bounds the exact expectimax: about 300 bytes a belief.
	DefaultMaxBeliefs = 400_000
	// DefaultEndgameHidden is the number of hidden units at or below which Endgame switches
	// to the exact expectimax, and DefaultEndgameBeliefs its budget a decision (a few seconds
	// on a loaded machine at worst).
	DefaultEndgameHidden  = 8
	DefaultEndgameBeliefs = 5_000
	// DefaultMaxDecisionStates bounds the states the searches on completions store in one
	// decision (see planner.best): on the 8–12-colour mystery levels a decision stores about
	// 2,000 (median) and at most 100,000–150,000 without it, some 10 µs each.
	DefaultMaxDecisionStates = 100_000
	// DefaultMaxDecisionWork bounds a whole decision's work (Options.MaxDecisionWork). On the
	// project's shared 2-core machine at load 3–4 a unit took about 8–10 µs (fitted over 980
	// decisions of the 15–75% class: 8.4 µs a stored state, 75 µs a search on a completion
	// besides its states, 33 µs a belief of the expectimax, 70–90 µs on the small levels), so
	// the worst decisions took 0.6–0.8 s with pimc and endgame and about 1 s with lookahead,
	// whose candidates and cached completions cost time the count leaves out.
	DefaultMaxDecisionWork = 60_000
	// DefaultISMCTSWork is ISMCTS's default instead: its tree takes most of it. On the 8–12
	// colour mystery levels (tuning levels 200–239) its tree finished 18 games of 40 with it
	// and 16 with DefaultMaxDecisionWork (session 10); with the pours margin at the root, 21
	// with it and 17 with 100,000. On levels 0–119 it decides in 0.84 s (median) and 2.5 s at
	// worst, 3.5 s once with other samples (GOMAXPROCS=1, load 2–4). The count bounds the time
	// but the machine's load sets it: the same decisions of that run (-hidden-seed 1000,
	// levels 0–59; counts are seeded) took 0.73 s median and 1.6 s at worst at load 1–3, 91%
	// of it in the exact searches at 7.9 µs a unit (median; 9.8 at the 90th percentile), and
	// decisions of 108,000 units took 2–5.4 s at load 7–10. A budget of 120,000 with ismctsShare
	// 0.9 (the first tree's work kept, the segment's later pours cut) bounded the worst at
	// 121,000 units but finished 51 of levels 0–119 against 58 (session 12; reverted). On a
	// fresh machine at load 2–3 (session 16) the same levels' decisions took 0.33 s median
	// and 0.98 s at worst, the work outside the trees then budgeted apart (ismctsRounds).
	DefaultISMCTSWork = 150_000
	// DefaultMaxDecisionTime caps a call's time on the clock (Options.MaxDecisionTime): the
	// work budget bounds a call, and the machine's load sets how long that work takes, so on
	// a loaded machine a call of DefaultISMCTSWork took up to 5.4 s (session 12). Past this
	// the call stops as when its work is spent. At load 1–4 the work budget binds first and
	// answers stay seeded; past it they depend on the machine.
	DefaultMaxDecisionTime = 2 * time.Second
	// searchWork and beliefWork are the work counted for one exact search on a completion (on
	// top of the states it stores) and for one belief of the expectimax.
	searchWork = 10
	beliefWork = 8
	// maxSegment bounds the pours planned before a reveal: a position holds no more useful
	// pours in a row than this without revealing anything or repeating itself.
	maxSegment = 200
)

// Options tune Plan. The zero value is the default: ISMCTS with DefaultSamples completions
// a decision, each search bounded by DefaultMaxStates states (so memory is bounded like the
// exact solver's), the default pour rule.
type Options struct {
	Method Method
	Rules  Rules
	// Samples is the number of completions a decision is scored on (0: DefaultSamples).
	Samples int
	// Seed seeds the sampling; the same seed gives the same answer (unless MaxDecisionTime
	// cuts the call short).
	Seed uint64
	// MaxStates caps each exact search on a completion (0: DefaultMaxStates).
	MaxStates int
	// MaxBeliefs caps the exact expectimax (0: DefaultMaxBeliefs).
	MaxBeliefs int
	// MaxDecisionStates caps the states the searches on completions store in one decision,
	// the planner's work a pour (0: DefaultMaxDecisionStates): past it, no more completions
	// are scored. A bound in states, not time, so that answers stay seeded.
	MaxDecisionStates int
	// MaxDecisionWork caps the work of one call of Plan, every pour of its segment together
	// (0: DefaultMaxDecisionWork, DefaultISMCTSWork for ISMCTS), in units of about one stored state (see planner.work):
	// past it no new round of completions is scored, Lookahead refines no further,
	// Endgame's expectimax keeps the determinised choice, and the rest of the segment follows
	// the exact plan of one completion to the next reveal. A count, not a time.
	MaxDecisionWork int
	// MaxDecisionTime caps the time of one call on the clock (0: DefaultMaxDecisionTime;
	// negative: no cap): past it the call stops as when its work is spent (MaxDecisionWork),
	// and ISMCTS's tree takes its share of the time left as it takes its share of the work.
	// A guard for loaded machines; an answer cut by it is no longer seeded (Answer.TimeCut).
	MaxDecisionTime time.Duration
	// EndgameHidden and EndgameBeliefs tune the exact expectimax of Endgame and ISMCTS (0: the
	// defaults).
	EndgameHidden, EndgameBeliefs int
	// order selects the tie-breaks of the pour choice (see score.safer); 0 is the
	// determinised search's own.
	order int
}

// buryOrder is Endgame's tie-break: among pours that finish as many completions (within one
// sample), the one burying the fewest hidden units. Measured on the 20 mystery levels of
// 8–12 colours it finished 12 where the determinised order finished 9 (+3, −0); keeping empty
// tubes as well (order 3) finished 12 too, keeping them alone 4 of the first 10. On the 100
// levels after those it finished 37 to the determinised order's 43 (+6, −12): over 120 levels
// the two are within luck of each other (README).
const buryOrder = 1

func (o Options) withDefaults() Options {
	if o.Method == "" {
		o.Method = ISMCTS
	}
	if o.Samples <= 0 {
		o.Samples = DefaultSamples
	}
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	if o.MaxBeliefs <= 0 {
		o.MaxBeliefs = DefaultMaxBeliefs
	}
	if o.MaxDecisionStates <= 0 {
		o.MaxDecisionStates = DefaultMaxDecisionStates
	}
	if o.MaxDecisionWork <= 0 {
		o.MaxDecisionWork = DefaultMaxDecisionWork
		if o.Method == ISMCTS {
			o.MaxDecisionWork = DefaultISMCTSWork
		}
	}
	if o.MaxDecisionTime == 0 {
		o.MaxDecisionTime = DefaultMaxDecisionTime
	}
	if o.EndgameHidden <= 0 {
		o.EndgameHidden = DefaultEndgameHidden
	}
	if o.EndgameBeliefs <= 0 {
		o.EndgameBeliefs = DefaultEndgameBeliefs
	}
	return o
}

// Reveal says which pour reveals something and where: Move indexes Answer.Moves, Tube the
// level's tubes (both 0-based).
type Reveal struct {
	Move int `json:"move"`
	Tube int `json:"tube"`
}

// Answer is a plan under hidden information: the pours to play now and what follows.
type Answer struct {
	Status solver.Status
	// Moves are the pours to play now, up to and including the one that reveals.
	Moves  []solver.Move
	Reveal *Reveal
	// PSuccess estimates the probability of finishing the level after Moves, playing on with
	// the same method; PSamples is the number of completions behind it (0 when proven).
	PSuccess float64
	PSamples int
	// ExpectedPours estimates the pours from the start to a finish, Moves included, averaged
	// over the completions that finish.
	ExpectedPours float64
	// Next is the position after Moves, the revealed unit written "!" (solver.Pending).
	Next   *solver.Level
	Method Method
	// Searches counts the exact searches run on completions; Elapsed is the time taken.
	Searches int
	Elapsed  time.Duration
	// TimeCut says the call ran past Options.MaxDecisionTime and stopped early: the answer
	// depends on the machine's speed, not on the seed alone.
	TimeCut bool
	// peakStates is the most states one decision's searches on completions stored; work and
	// beliefs are the planner's counts (see planner.work).
	peakStates, work, beliefs int
	// rawP is PSuccess before calibration; hiddenShare and curtained describe the level
	// planned (see calibrated).
	rawP        float64
	hiddenShare float64
	curtained   bool
}

// Plan answers level l, whose units may be hidden and whose tubes may be covered (see the
// package doc for the rules and the answers). A level with nothing hidden is solved exactly
// by solver.Solve. The error is non-nil only for a level that cannot be planned.
func Plan(ctx context.Context, l *solver.Level, opts Options) (Answer, error) {
	start := time.Now()
	opts = opts.withDefaults()
	if err := validMethod(opts.Method); err != nil {
		return Answer{}, err
	}
	if err := l.Validate(); err != nil {
		return Answer{}, err
	}
	if !l.HasHidden() && !l.HasCurtains() {
		return solveKnown(ctx, l, opts, start)
	}
	b, err := Belief(l, opts.Rules)
	if err != nil {
		return Answer{}, err
	}
	if _, _, err := b.unseen(); err != nil {
		return Answer{}, err
	}
	if opts.Method == Endgame {
		opts.order = buryOrder
	}
	p := &planner{ctx: ctx, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x41dd3)), cache: map[string]int{}}
	if opts.MaxDecisionTime > 0 {
		p.deadline = start.Add(opts.MaxDecisionTime)
	}
	var a Answer
	if opts.Method == Exact {
		a, err = p.exactSegment(b)
	} else {
		a, err = p.segment(b)
	}
	if err != nil {
		return Answer{}, err
	}
	a.Method, a.Searches, a.Elapsed, a.TimeCut = opts.Method, p.searches, time.Since(start), p.timeCut
	a.peakStates, a.work, a.beliefs = max(p.peak, p.states), p.work, p.beliefs
	a.rawP = a.PSuccess
	a.hiddenShare, a.curtained = hiddenShare(b)
	if a.PSamples > 0 && a.PSuccess > 0 && b.units() > smallUnits {
		a.PSuccess = calibrated(opts.Method, a.PSuccess, a.hiddenShare, a.curtained)
	}
	return a, nil
}

// solveKnown answers a level with nothing hidden: the exact solver's plan and verdict.
func solveKnown(ctx context.Context, l *solver.Level, opts Options, start time.Time) (Answer, error) {
	plan, _, err := solver.Solve(ctx, l, solver.Options{})
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Status: plan.Status, Moves: plan.Moves, Method: opts.Method, Searches: 1, Elapsed: time.Since(start)}
	if plan.Status == solver.StatusSolved {
		a.PSuccess, a.ExpectedPours = 1, float64(len(plan.Moves))
	}
	if a.Next, err = solver.Replay(l, plan.Moves); err != nil {
		return Answer{}, err
	}
	return a, nil
}

// planner holds one call's sampling state and the cache of exact searches on completions.
type planner struct {
	ctx      context.Context
	opts     Options
	rng      *rand.Rand
	cache    map[string]int // completion key → pours to finish, -1 when not found
	searches int
	// states counts the states stored by the searches on completions in the current decision;
	// peak is the most any decision stored.
	states, peak int
	// work counts the call's work: searchWork a search on a completion plus the states it
	// stored, beliefWork a belief of the expectimax; beliefs counts those beliefs.
	work, beliefs int
	// treeWork is the part of work done in ISMCTS's trees, which their own limit bounds (see
	// planner.ismcts) and spent leaves out.
	treeWork int
	// cutFirst lets the call's budget cut even the first round of scores (see best): set
	// while Lookahead refines, whose scores are dropped when the budget runs out.
	cutFirst bool
	// deadline is when the call's time runs out (Options.MaxDecisionTime; zero: never), and
	// timeCut records that it did.
	deadline time.Time
	timeCut  bool
}

// spent reports whether the call's work outside ISMCTS's trees has reached its budget
// (Options.MaxDecisionWork; for ISMCTS, ismctsRounds of it) or its time its cap
// (Options.MaxDecisionTime).
func (p *planner) spent() bool {
	budget := p.opts.MaxDecisionWork
	if p.opts.Method == ISMCTS {
		budget = int(ismctsRounds * float64(budget))
	}
	return p.work-p.treeWork >= budget || p.late(p.deadline)
}

// late reports whether deadline (zero: none) has passed, recording it as the call's time cut.
func (p *planner) late(deadline time.Time) bool {
	if deadline.IsZero() || time.Now().Before(deadline) {
		return false
	}
	p.timeCut = true
	return true
}

// answer assembles a partial answer from the segment played on belief b (already advanced).
func answer(b *Game, moves []solver.Move, reveal *Reveal, s score) (Answer, error) {
	next, err := b.View()
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Status: solver.StatusPartial, Moves: moves, Reveal: reveal, Next: next, PSuccess: s.p(), PSamples: int(s.n)}
	if s.exact {
		a.PSamples = 0
	}
	if s.ok > 0 {
		a.ExpectedPours = float64(len(moves)-1) + s.cost/float64(s.ok)
	}
	if s.ok == 0 {
		a.Status = solver.StatusUnknown
	}
	return a, nil
}
