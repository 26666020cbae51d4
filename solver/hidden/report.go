package hidden

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/decant/decant/solver"
)

// Report is the plan document of a level with hidden units: solver.Report's fields (status
// "partial", the moves to play now) and what a player needs to go on.
type Report struct {
	solver.Report
	// Reveal is the pour that reveals something and the tube it reveals in, 0-based.
	Reveal *Reveal `json:"reveal,omitempty"`
	// PSuccess estimates the probability of finishing; PSamples is the number of sampled
	// completions behind it (0 when it is exact).
	PSuccess      float64 `json:"p_success"`
	PSamples      int     `json:"p_samples"`
	ExpectedPours float64 `json:"expected_pours,omitempty"`
	// NextLevel is the position after the moves, the revealed unit written "!".
	NextLevel *solver.Level `json:"next_level,omitempty"`
}

// Report assembles the plan document of an answer to level l.
func (a Answer) Report(l *solver.Level) Report {
	st := solver.Stats{Algorithm: solver.Algorithm(a.Method), Expanded: a.Searches, Elapsed: a.Elapsed}
	r := Report{
		Report: solver.NewReport(l, solver.Plan{Status: a.Status, Moves: a.Moves}, st),
		Reveal: a.Reveal, PSuccess: a.PSuccess, PSamples: a.PSamples, ExpectedPours: a.ExpectedPours,
	}
	if a.Status == solver.StatusPartial || a.Status == solver.StatusUnknown {
		r.NextLevel = a.Next
	}
	return r
}

// JSON returns the report indented.
func (r Report) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Format writes the answer for people, numbering tubes 1..N.
func (a Answer) Format(l *solver.Level) string {
	var sb strings.Builder
	switch a.Status {
	case solver.StatusPartial:
		fmt.Fprintf(&sb, "partial: play %d pour%s, then see what tube %d reveals\n", len(a.Moves), plural(len(a.Moves)), a.Reveal.Tube+1)
	case solver.StatusSolved:
		fmt.Fprintf(&sb, "solved: a plan of %d pours that works whatever is hidden\n", len(a.Moves))
	case solver.StatusUnsolvable:
		return "unsolvable: no pour helps, whatever the hidden units are\n"
	default:
		if len(a.Moves) == 0 && a.PSamples > 0 {
			return "unknown: stuck, not proven: no pour found reveals anything or leads anywhere new\n"
		}
		if len(a.Moves) == 0 {
			return "unknown: the planner stopped on its budget before choosing a pour\n"
		}
		why := "no sampled completion finishes after them"
		if a.PSuccess > 0 {
			why = "the planner stopped before anything was revealed"
		}
		fmt.Fprintf(&sb, "unknown: %d pours, a guess and not a proof: %s\n", len(a.Moves), why)
	}
	for i, m := range a.Moves {
		fmt.Fprintf(&sb, "%3d. %d → %d  (%d × %s)", i+1, m.From+1, m.To+1, m.Count, l.Name(m.Color))
		if a.Reveal != nil && a.Reveal.Move == i {
			fmt.Fprintf(&sb, "  reveals tube %d", a.Reveal.Tube+1)
		}
		sb.WriteByte('\n')
	}
	if a.Status == solver.StatusPartial {
		how := fmt.Sprintf("over %d sampled completions", a.PSamples)
		if a.PSamples == 0 {
			how = "exact"
		}
		fmt.Fprintf(&sb, "chance of finishing: %.0f%% (%s)", 100*a.PSuccess, how)
		if a.ExpectedPours > 0 {
			fmt.Fprintf(&sb, "; about %.0f pours in all", a.ExpectedPours)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
