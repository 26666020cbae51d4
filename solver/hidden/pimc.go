package hidden

import (
	"cmp"
	"slices"
	"strings"

	"github.com/decant/decant/solver"
)

// score is a pour's value over weighted completions: ok of n finish, and cost is the sum of
// their pours (the scored pour included).
type score struct {
	ok, n, cost float64
	exact       bool // ok is an exact probability, not a sample count
	// bury counts the hidden units under the pour's destination, whose reveal it delays;
	// empties counts the empty tubes left after it.
	bury, empties int
}

// p is the estimated probability of finishing.
func (s score) p() float64 {
	if s.n == 0 {
		return 0
	}
	return s.ok / s.n
}

// mean is the average number of pours over the completions that finish.
func (s score) mean() float64 {
	if s.ok == 0 {
		return 0
	}
	return s.cost / s.ok
}

// better orders scores: more finishes first, then fewer pours.
func (s score) better(t score) bool {
	const eps = 1e-9
	if d := s.p() - t.p(); d > eps || d < -eps {
		return d > 0
	}
	return s.mean() < t.mean()-eps
}

// safer orders scores for the careful methods: more finishes first (by at least one sample),
// then per order fewer hidden units buried and more empty tubes kept, then fewer pours.
func (s score) safer(t score, order int) bool {
	const eps = 1e-9
	if d := s.p() - t.p(); d > 0.5/max(s.n, 1)+eps || d < -0.5/max(s.n, 1)-eps {
		return d > 0
	}
	if order&1 != 0 && s.bury != t.bury {
		return s.bury < t.bury
	}
	if order&2 != 0 && s.empties != t.empties {
		return s.empties > t.empties
	}
	return s.better(t)
}

// prefer orders scores as the method does: the determinised search by finishes then pours,
// the careful order (Endgame) with its tie-breaks.
func (p *planner) prefer(s, t score) bool {
	if p.opts.order == 0 {
		return s.better(t)
	}
	return s.safer(t, p.opts.order)
}

// features fills in the belief-side parts of a pour's score.
func features(b *Game, m solver.Move, s *score) {
	for j, shown := range b.Shown[m.To] {
		if !shown && j < len(b.Tubes[m.To]) {
			s.bury++
		}
	}
	for i, t := range b.Tubes {
		if len(t) == 0 && b.Covers[i] == 0 && i != m.To {
			s.empties++
		}
	}
	if len(b.Tubes[m.From]) == m.Count && b.Covers[m.From] == 0 {
		s.empties++
	}
}

// finish returns the pours the exact search needs to finish completion s, or -1 when it finds
// none within its budget (a proof of nothing: only a score).
func (p *planner) finish(s *Game) int {
	full := s.Full()
	if full == nil {
		return -1
	}
	if full.Solved() {
		return 0
	}
	key := completionKey(full)
	if v, ok := p.cache[key]; ok {
		return v
	}
	p.searches++
	plan, st, err := solver.Solve(p.ctx, full, solver.Options{MaxStates: p.opts.MaxStates})
	p.states += st.Stored
	p.work += searchWork + st.Stored
	v := -1
	if err == nil && plan.Moves != nil && plan.Status != solver.StatusUnsolvable {
		v = len(plan.Moves)
	}
	if p.ctx.Err() == nil {
		p.cache[key] = v
	}
	return v
}

// completionKey identifies a completion up to the order of its tubes.
func completionKey(l *solver.Level) string {
	parts := make([]string, len(l.Tubes))
	for i, t := range l.Tubes {
		b := make([]byte, len(t))
		for j, c := range t {
			b[j] = byte(c)
		}
		parts[i] = string(b)
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}

// scoreOn adds completion smp's outcome after pour m to s.
func (p *planner) scoreOn(smp *Game, m solver.Move, s *score) {
	s.n++
	g := smp.Clone()
	if _, _, err := g.Pour(m.From, m.To); err != nil {
		return
	}
	if v := p.finish(g); v >= 0 {
		s.ok++
		s.cost += float64(1 + v)
	}
}

// candidates lists the pours worth scoring in belief b: legal, not pouring a sorted tube into
// an empty one, one pour per resulting position, none leading back to a position in avoid.
func candidates(b *Game, avoid map[string]bool) []solver.Move {
	var out []solver.Move
	seen := map[string]bool{}
	for _, m := range b.Legal() {
		if len(b.Tubes[m.To]) == 0 && b.sorted(m.From) {
			continue
		}
		g := b.Clone()
		if _, _, err := g.Pour(m.From, m.To); err != nil {
			continue
		}
		k := g.Key()
		if seen[k] || avoid[k] {
			continue
		}
		seen[k] = true
		out = append(out, m)
	}
	return out
}

// best scores cands on samples and returns the best index and its score (-1 if none).
//
// Completions are taken in rounds, each scoring every pour still in the running on one more
// completion, so that all scores rest on the same completions. A pour leaves the running once
// it cannot finish as many completions as keep others already do, however the rest go: the
// scores of the keep best pours are exact (keep 0: every score), the others' count the
// completions they were not scored on as not finishing, which changes no choice among the
// keep best — and the searches that find nothing, the ones that run to their budget, are
// mostly those of pours already out. Once the decision's searches have stored
// MaxDecisionStates states, no new round starts, and once the call's work is spent
// (planner.spent) a round stops where it is and counts for nothing: the scores rest on the
// rounds played in full (at least one).
func (p *planner) best(b *Game, cands []solver.Move, samples []*Game, keep int) (int, score, []score) {
	scores := make([]score, len(cands))
	out := make([]bool, len(cands))
	rounds := 0
	for k, smp := range samples {
		if k > 0 && (p.states >= p.opts.MaxDecisionStates || p.spent()) {
			break
		}
		floor := keepBest(scores, keep)
		was, wasOut := slices.Clone(scores), slices.Clone(out)
		cut := false
		for i, m := range cands {
			if cut = (k > 0 || p.cutFirst) && p.spent(); cut {
				break
			}
			if !out[i] && scores[i].ok+float64(len(samples)-k) < floor {
				out[i] = true
			}
			if !out[i] {
				p.scoreOn(smp, m, &scores[i])
			}
		}
		if cut {
			// The call's work ran out within the round: the scores rest on the rounds
			// before it, all on the same completions.
			copy(scores, was)
			copy(out, wasOut)
			break
		}
		rounds++
	}
	bi := -1
	for i, m := range cands {
		scores[i].n = float64(rounds) // a pour out of the running finishes none of the rest
		features(b, m, &scores[i])
		if bi < 0 || p.prefer(scores[i], scores[bi]) {
			bi = i
		}
	}
	if bi < 0 {
		return -1, score{}, nil
	}
	return bi, scores[bi], scores
}

// keepBest is the keep-th highest finish count in scores, 0 when keep is 0 or there are fewer.
func keepBest(scores []score, keep int) float64 {
	if keep <= 0 || keep > len(scores) {
		return 0
	}
	oks := make([]float64, len(scores))
	for i, s := range scores {
		oks[i] = s.ok
	}
	slices.SortFunc(oks, func(x, y float64) int { return cmp.Compare(y, x) })
	return oks[keep-1]
}

// draw returns n completions of belief b.
func (p *planner) draw(b *Game, n int) ([]*Game, error) {
	out := make([]*Game, n)
	for i := range out {
		s, err := b.Sample(p.rng)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// segment plans the pours to play on belief b up to the first reveal, one decision a pour.
func (p *planner) segment(b *Game) (Answer, error) {
	start := b
	b = b.Clone()
	samples, err := p.draw(b, p.opts.Samples)
	if err != nil {
		return Answer{}, err
	}
	avoid := map[string]bool{b.Key(): true}
	var moves []solver.Move
	var last score
	for len(moves) < maxSegment && p.ctx.Err() == nil {
		p.peak, p.states = max(p.peak, p.states), 0
		cands := candidates(b, avoid)
		if len(cands) == 0 {
			if len(moves) == 0 {
				// Every legal pour, if any, leaves the position as it is up to the order of
				// the tubes, whatever is hidden: proven stuck.
				return Answer{Status: solver.StatusUnsolvable, Next: mustView(b)}, nil
			}
			// Every pour leads back to a position of the segment: the best pours go round
			// in a circle (the completions may finish only through a closed curtain).
			return p.explore(start, b, moves, last)
		}
		// Past the first pour, even the first round may be cut short by the call's budget:
		// the segment then follows a completion's plan from here.
		p.cutFirst = len(moves) > 0
		i, s, scores := p.best(b, cands, samples, p.exactScores(b))
		p.cutFirst = false
		if s.n == 0 && len(moves) > 0 && p.spent() {
			return p.follow(start, b, samples, moves, last)
		}
		switch p.opts.Method {
		case Lookahead:
			i, s = p.refine(b, samples, cands, scores, i)
		case Endgame:
			i, s = p.endgame(b, cands, scores, i, s)
		case ISMCTS:
			if p.endgameApplies(b) {
				i, s = p.endgame(b, cands, scores, i, s)
			} else {
				i, s = p.ismcts(b, cands, scores, i, avoid)
			}
		}
		if p.ctx.Err() != nil {
			break // scores cut short by the deadline choose nothing
		}
		if s.ok == 0 {
			return p.explore(start, b, moves, s)
		}
		m := cands[i]
		for _, smp := range samples {
			if _, _, err := smp.Pour(m.From, m.To); err != nil {
				return Answer{}, err // cannot happen: samples agree with b on what shows
			}
		}
		played, reveal, err := b.Pour(m.From, m.To)
		if err != nil {
			return Answer{}, err
		}
		moves, last = append(moves, played), s
		if a, ended, err := segmentEnd(b, moves, reveal, s); ended {
			return a, err
		}
		avoid[b.Key()] = true
		if p.spent() {
			return p.follow(start, b, samples, moves, last)
		}
	}
	a, err := answer(b, moves, nil, last)
	a.Status = solver.StatusUnknown
	return a, err
}

// segmentEnd is the answer for a segment whose last pour revealed a unit (reveal >= 0) or
// finished the level (a whole plan, proven); ended is false while the segment goes on.
func segmentEnd(b *Game, moves []solver.Move, reveal int, s score) (a Answer, ended bool, err error) {
	switch {
	case reveal >= 0:
		a, err = answer(b, moves, &Reveal{Move: len(moves) - 1, Tube: reveal}, s)
		return a, true, err
	case b.Solved():
		a, err = answer(b, moves, nil, score{ok: 1, n: 1, cost: 1})
		a.Status, a.PSamples = solver.StatusSolved, 0
		return a, true, err
	}
	return Answer{}, false, nil
}

// follow ends a segment whose work is spent (planner.spent), at b after moves: it plays the
// exact plan of the first completion in samples (advanced with b) scored as finishing, up to
// the pour that reveals something, for one more search. Where no completion's plan gets there
// (it finishes nothing, or pours through a closed curtain), the fewest pours to a reveal
// (explore) end the segment instead.
func (p *planner) follow(start, b *Game, samples []*Game, moves []solver.Move, s score) (Answer, error) {
	for _, smp := range samples {
		full := smp.Full()
		if full == nil {
			continue
		}
		v, scored := p.cache[completionKey(full)]
		if !scored {
			break // the completions after it were not scored either
		}
		if v < 0 {
			continue
		}
		plan, st, err := solver.Solve(p.ctx, full, solver.Options{MaxStates: p.opts.MaxStates})
		p.searches++
		p.work += searchWork + st.Stored
		if err != nil || plan.Status != solver.StatusSolved {
			break
		}
		for _, m := range plan.Moves {
			played, reveal, err := b.Pour(m.From, m.To)
			if err != nil {
				break // a closed curtain in the way
			}
			moves = append(moves, played)
			if a, ended, err := segmentEnd(b, moves, reveal, s); ended {
				return a, err
			}
		}
		break
	}
	return p.explore(start, b, moves, s)
}

// exactScores is how many of the best pours' scores a decision on b compares: the best
// alone, Lookahead's refined few, or every pour where Endgame's expectimax takes them all in
// the determinised order.
func (p *planner) exactScores(b *Game) int {
	switch {
	case p.opts.Method == Lookahead:
		return refineTop
	case p.opts.Method == ISMCTS:
		return ismctsTop
	case p.opts.Method == Endgame && p.endgameApplies(b):
		return 0
	}
	return 1
}

// mustView is View for positions derived from a valid level.
func mustView(b *Game) *solver.Level {
	l, err := b.View()
	if err != nil {
		return nil
	}
	return l
}
