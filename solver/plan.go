package solver

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Status is the verdict of a search.
type Status string

// The verdicts. StatusUnsolvable is only given when the whole reachable state space was
// searched; a search stopped by a budget says StatusUnknown. StatusPartial is the answer of the
// planner for hidden units (package solver/hidden): the pours to play until something is
// revealed, not a whole plan.
const (
	StatusSolved     Status = "solved"
	StatusPartial    Status = "partial"
	StatusUnsolvable Status = "unsolvable"
	StatusUnknown    Status = "unknown"
)

// Move is one pour: Count units of Color from tube From onto tube To (0-based indices into
// Level.Tubes).
type Move struct {
	From, To int
	Count    int
	Color    Color
}

// Plan is the answer to a level: a verdict and, when solved (or when a stopped search found
// one), the pours in order. Optimal is true only when no shorter plan exists, proven.
type Plan struct {
	Status  Status
	Optimal bool
	Moves   []Move
}

// StopReason names the budget that stopped a search; its values are the "stopped" strings of
// the JSON report.
type StopReason string

// Why a search stopped before its verdict.
const (
	StopTimeout StopReason = "timeout" // the context was cancelled or its deadline passed
	StopStates  StopReason = "states"  // Options.MaxStates distinct states were stored
	StopMemory  StopReason = "memory"  // the estimated memory reached Options.MaxMemory
)

// Stats says how much work a search did.
type Stats struct {
	Algorithm Algorithm
	Macros    bool
	Expanded  int // states taken from the open set and expanded
	Generated int // successor states produced, duplicates included
	Stored    int // distinct states kept
	PeakOpen  int // largest open-set size
	// LowerBound is the admissible estimate of pours needed from the start.
	LowerBound int
	// Stopped names the budget that stopped the search, "" when none did.
	Stopped StopReason
	Elapsed time.Duration
	// drains counts the dead-position tests (drainer.drain), skeletons the skeletons their
	// searches stored (none when the verdict was cached).
	drains, skeletons int
}

// Replay applies moves to a copy of l under the rules, checking each pour's legality and the
// count and colour it claims. It returns the final position.
func Replay(l *Level, moves []Move) (*Level, error) {
	p := l.Clone()
	for i, m := range moves {
		if err := p.apply(m); err != nil {
			return nil, Errorf(CodeInvalidPlan, "move %d (%d→%d): %v", i+1, m.From+1, m.To+1, err)
		}
	}
	return p, nil
}

// CheckPlan checks that moves replay legally on l and leave it solved.
func CheckPlan(l *Level, moves []Move) error {
	end, err := Replay(l, moves)
	if err != nil {
		return err
	}
	if !end.Solved() {
		return Errorf(CodeInvalidPlan, "the plan's %d moves leave the level unsolved: %s", len(moves), end.Compact())
	}
	return nil
}

// Moves lists every legal pour of the position, from each tube to each other tube, in tube
// order. It returns nil for a level that cannot be searched (see Solve's errors: hidden units,
// curtains, or a level that breaks the rules).
func (l *Level) Moves() []Move {
	if l.Validate() != nil || l.HasHidden() || l.HasCurtains() {
		return nil
	}
	g := newGame(l)
	return g.moves(g.codesOf(l))
}

// apply performs one pour in place. It is the independent statement of the rule that Replay
// checks plans with: it works on the level's slices, not on the search's packed codes.
func (l *Level) apply(m Move) error {
	n := len(l.Tubes)
	switch {
	case m.From < 0 || m.From >= n || m.To < 0 || m.To >= n:
		return fmt.Errorf("tube out of range 1..%d", n)
	case m.From == m.To:
		return fmt.Errorf("a tube cannot pour into itself")
	}
	for _, t := range []int{m.From, m.To} {
		if l.Curtained(t) {
			return fmt.Errorf("tube %d is behind a curtain", t+1)
		}
	}
	a, b := l.Tubes[m.From], l.Tubes[m.To]
	if len(a) == 0 {
		return fmt.Errorf("tube %d is empty", m.From+1)
	}
	c := a[len(a)-1]
	if c == Hidden || c == Pending {
		return fmt.Errorf("tube %d's top unit is hidden", m.From+1)
	}
	if len(b) == l.Capacity {
		return fmt.Errorf("tube %d is full", m.To+1)
	}
	if len(b) > 0 && b[len(b)-1] != c {
		return fmt.Errorf("tube %d's top %s differs from %s", m.To+1, l.Name(b[len(b)-1]), l.Name(c))
	}
	run := 1
	for run < len(a) && a[len(a)-1-run] == c {
		run++
	}
	k := min(run, l.Capacity-len(b))
	if m.Count != k || m.Color != c {
		return fmt.Errorf("pours %d %s, not %d %s", k, l.Name(c), m.Count, l.Name(m.Color))
	}
	l.Tubes[m.From] = a[:len(a)-k]
	for range k {
		l.Tubes[m.To] = append(l.Tubes[m.To], c)
	}
	return nil
}

// Format writes the plan for people, numbering tubes 1..N as on the annotated image.
func (p Plan) Format(l *Level) string {
	var sb strings.Builder
	switch p.Status {
	case StatusSolved:
		kind := "a plan"
		if p.Optimal {
			kind = "an optimal plan"
		}
		if len(p.Moves) == 0 {
			return "already solved: 0 pours\n"
		}
		fmt.Fprintf(&sb, "solved: %s of %d pours\n", kind, len(p.Moves))
	case StatusUnsolvable:
		return "unsolvable: every reachable position was searched and none is solved\n"
	default:
		if len(p.Moves) == 0 {
			return "unknown: the search stopped on its budget before finding a plan\n"
		}
		fmt.Fprintf(&sb, "unknown: the search stopped on its budget; best plan so far, %d pours\n", len(p.Moves))
	}
	for i, m := range p.Moves {
		fmt.Fprintf(&sb, "%3d. %d → %d  (%d × %s)\n", i+1, m.From+1, m.To+1, m.Count, l.Name(m.Color))
	}
	return sb.String()
}

// Report is the plan document shared by the CLI's --json, the server and batch output.
type Report struct {
	Status  Status       `json:"status"`
	Optimal bool         `json:"optimal"`
	Moves   []ReportMove `json:"moves"`
	Stats   ReportStats  `json:"stats"`
	Level   *Level       `json:"level"`
}

// ReportMove is one pour in a Report: 0-based tube indices into level.tubes.
type ReportMove struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	Count int    `json:"count"`
	Color string `json:"color"`
}

// ReportStats is Stats in a Report.
type ReportStats struct {
	Algorithm  Algorithm  `json:"algorithm"`
	Macros     bool       `json:"macros"`
	Pours      int        `json:"pours"`
	Expanded   int        `json:"expanded"`
	Generated  int        `json:"generated"`
	Stored     int        `json:"stored"`
	PeakOpen   int        `json:"peak_open"`
	LowerBound int        `json:"lower_bound"`
	Stopped    StopReason `json:"stopped,omitempty"`
	ElapsedMS  float64    `json:"elapsed_ms"`
}

// NewReport assembles the plan document.
func NewReport(l *Level, p Plan, s Stats) Report {
	r := Report{Status: p.Status, Optimal: p.Optimal, Moves: make([]ReportMove, len(p.Moves)), Level: l}
	for i, m := range p.Moves {
		r.Moves[i] = ReportMove{From: m.From, To: m.To, Count: m.Count, Color: l.Name(m.Color)}
	}
	r.Stats = ReportStats{
		Algorithm: s.Algorithm, Macros: s.Macros, Pours: len(p.Moves), Expanded: s.Expanded,
		Generated: s.Generated, Stored: s.Stored, PeakOpen: s.PeakOpen, LowerBound: s.LowerBound,
		Stopped: s.Stopped, ElapsedMS: float64(s.Elapsed.Microseconds()) / 1000,
	}
	return r
}

// JSON returns the report indented.
func (r Report) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}
