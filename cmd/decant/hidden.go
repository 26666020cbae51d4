package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/hidden"
)

// hiddenFlags are solve's options for levels with hidden units or curtains.
type hiddenFlags struct {
	interactive bool
	method      string
	carry       bool
	samples     int
	seed        uint64
}

func (h *hiddenFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&h.interactive, "interactive", false, "levels with hidden units: after each segment, ask which colour appeared and plan the next")
	fs.StringVar(&h.method, "method", string(hidden.ISMCTS), "levels with hidden units: planner ("+hidden.MethodNames()+")")
	fs.BoolVar(&h.carry, "carry", false, "levels with hidden units: a hidden unit of the run's colour moves along with it")
	fs.IntVar(&h.samples, "samples", hidden.DefaultSamples, "levels with hidden units: sampled completions a decision")
	fs.Uint64Var(&h.seed, "seed", 1, "levels with hidden units: sampling seed")
}

func (h *hiddenFlags) options(search solver.Options) (hidden.Options, error) {
	o := hidden.Options{Method: hidden.Method(h.method), Rules: hidden.Rules{Carry: h.carry}, Samples: h.samples, Seed: h.seed, MaxStates: search.MaxStates}
	if !slices.Contains(hidden.Methods, o.Method) {
		return o, &usageError{fmt.Sprintf("--method %q: want one of %s", h.method, hidden.MethodNames())}
	}
	if h.samples <= 0 {
		return o, &usageError{"--samples must be positive"}
	}
	return o, nil
}

// solveHidden plans a level with hidden units or curtains: one segment (drawn on the
// screenshot with --annotate), or with --interactive the reveal loop on the terminal.
func (c *solveCmd) solveHidden(ctx context.Context, e *env, name string, level *solver.Level, reading *picture, search solver.Options) error {
	opts, err := c.hidden.options(search)
	if err != nil {
		return err
	}
	if c.annotate != "" && c.hidden.interactive {
		return &usageError{"--annotate draws one segment, --interactive plays them all: choose one"}
	}
	if c.hidden.interactive && name == "-" {
		return &usageError{"--interactive reads the revealed colours from standard input: give the level as a FILE"}
	}
	in := bufio.NewScanner(e.stdin)
	for {
		sctx, cancel := c.search.context(ctx)
		a, err := hidden.Plan(sctx, level, opts)
		cancel()
		if err != nil {
			return err
		}
		if c.annotate != "" {
			if err := writeAnnotated(c.annotate, reading, level, solver.Plan{Status: a.Status, Moves: a.Moves}); err != nil {
				return err
			}
		}
		if c.json {
			if _, err := e.stdout.Write(a.Report(level).JSON()); err != nil {
				return err
			}
		} else {
			fmt.Fprint(e.stdout, a.Format(level))
			if c.annotate != "" {
				fmt.Fprintf(e.stdout, "annotated image: %s\n", c.annotate)
			}
		}
		if a.Status != solver.StatusPartial {
			return hiddenExit(a.Status)
		}
		if !c.hidden.interactive {
			if !c.json {
				fmt.Fprintf(e.stdout, "next level (write the colour that appears in place of \"!\" and solve it again):\n  %s\n", a.Next.Compact())
			}
			return nil
		}
		if level, err = askReveal(e, in, level, a); err != nil || level == nil {
			return err
		}
		opts.Seed++
	}
}

// hiddenExit maps a verdict to decant's exit statuses.
func hiddenExit(s solver.Status) error {
	switch s {
	case solver.StatusUnsolvable:
		return exitStatus(exitUnsolvable)
	case solver.StatusUnknown:
		return exitStatus(exitUnknown)
	}
	return nil
}

// askReveal asks what the answer's pours revealed and returns the next level with it written
// in, or nil when the input ends.
func askReveal(e *env, in *bufio.Scanner, level *solver.Level, a hidden.Answer) (*solver.Level, error) {
	t := a.Reveal.Tube
	curtain := level.Curtained(t)
	names := make([]string, 0, level.Colors())
	for c := 1; c <= level.Colors(); c++ {
		names = append(names, level.Name(solver.Color(c)))
	}
	for {
		if curtain {
			fmt.Fprintf(e.stdout, "tube %d opened: what does it hold, bottom to top (\"?\" for hidden units)? ", t+1)
		} else {
			fmt.Fprintf(e.stdout, "which colour appeared in tube %d? (%s, or a new colour's name) ", t+1, strings.Join(names, ", "))
		}
		if !in.Scan() {
			fmt.Fprintln(e.stdout)
			return nil, in.Err()
		}
		answer := strings.Fields(in.Text())
		if len(answer) == 0 || !curtain && len(answer) != 1 {
			continue
		}
		tubes := make([][]string, len(a.Next.Tubes))
		for i := range tubes {
			tubes[i] = a.Next.Tokens(i)
		}
		if curtain {
			tubes[t] = answer
		} else {
			tubes[t][len(tubes[t])-1] = answer[0]
		}
		next, err := solver.NewLevel(a.Next.Capacity, tubes)
		if err != nil {
			fmt.Fprintf(e.stdout, "that does not fit the level: %s\n", solver.ErrorMessage(err))
			continue
		}
		return next, nil
	}
}
