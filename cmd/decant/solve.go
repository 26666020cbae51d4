package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/decant/decant/solver"
)

// searchFlags are the solver options shared by solve and serve.
type searchFlags struct {
	algo      string
	fast      bool
	noMacros  bool
	timeout   time.Duration
	maxStates int
	maxMemMB  int
}

func (s *searchFlags) register(fs *flag.FlagSet, timeout time.Duration) {
	fs.StringVar(&s.algo, "algo", "astar", "search algorithm: astar (exact), bfs or mcts (baselines)")
	fs.BoolVar(&s.fast, "fast", false, "weighted search: a valid plan quickly, not proven shortest")
	fs.BoolVar(&s.noMacros, "no-macros", false, "turn off the gather-one-colour macro steps")
	fs.DurationVar(&s.timeout, "timeout", timeout, "stop the search after this long (0: no limit)")
	fs.IntVar(&s.maxStates, "max-states", 0, "stop the search after storing this many states (0: no limit)")
	fs.IntVar(&s.maxMemMB, "max-memory", solver.DefaultMaxMemory>>20, "stop the search when its states would need more MiB than this")
}

func (s *searchFlags) options() (solver.Options, error) {
	o := solver.Options{
		Algorithm: solver.Algorithm(s.algo), Fast: s.fast, NoMacros: s.noMacros,
		MaxStates: s.maxStates, MaxMemory: int64(s.maxMemMB) << 20,
	}
	switch {
	case o.Algorithm != solver.AStar && o.Algorithm != solver.BFS && o.Algorithm != solver.MCTS:
		return o, &usageError{fmt.Sprintf("--algo %q: want astar, bfs or mcts", s.algo)}
	case s.maxStates < 0 || s.maxMemMB <= 0 || s.timeout < 0:
		return o, &usageError{"--max-states, --max-memory and --timeout must be positive"}
	}
	return o, nil
}

func (s *searchFlags) context(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.timeout > 0 {
		return context.WithTimeout(ctx, s.timeout)
	}
	return context.WithCancel(ctx)
}

// solveCmd is "decant solve FILE".
type solveCmd struct {
	search   searchFlags
	hidden   hiddenFlags
	json     bool
	annotate string
}

func (c *solveCmd) Register(fs *flag.FlagSet) {
	c.search.register(fs, time.Minute)
	c.hidden.register(fs)
	fs.BoolVar(&c.json, "json", false, "print the plan document (JSON) instead of text")
	fs.StringVar(&c.annotate, "annotate", "", "write the screenshot (a rendered one for level files) with tube numbers and the plan to this PNG file")
}

func (c *solveCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return &usageError{"solve takes exactly one FILE (a level or a screenshot; - for standard input)"}
	}
	opts, err := c.search.options()
	if err != nil {
		return err
	}
	err = c.solveFile(ctx, e, args[0], opts)
	if c.json {
		return asJSON(e, err)
	}
	return err
}

// solveFile reads a level or a screenshot, solves it and reports the plan.
func (c *solveCmd) solveFile(ctx context.Context, e *env, name string, opts solver.Options) error {
	data, err := readInput(e, name)
	if err != nil {
		return err
	}
	var (
		level   *solver.Level
		reading *picture
	)
	if isImage(data) {
		if reading, err = readPicture(data); err != nil {
			return err
		}
		level = reading.Level
		if !c.json {
			fmt.Fprint(e.stdout, describeReading(reading))
		}
	} else if level, err = solver.ParseLevel(data); err != nil {
		return err
	}
	if level.HasHidden() || level.HasCurtains() || c.hidden.interactive {
		return c.solveHidden(ctx, e, name, level, reading, opts)
	}
	sctx, cancel := c.search.context(ctx)
	defer cancel()
	plan, stats, err := solver.Solve(sctx, level, opts)
	if err != nil {
		return err
	}
	if c.annotate != "" {
		if err := writeAnnotated(c.annotate, reading, level, plan); err != nil {
			return err
		}
	}
	if c.json {
		if _, err := e.stdout.Write(solver.NewReport(level, plan, stats).JSON()); err != nil {
			return err
		}
	} else {
		fmt.Fprint(e.stdout, plan.Format(level))
		fmt.Fprintf(e.stdout, "search: %s, %d states expanded, %d stored, %.1f ms\n",
			stats.Algorithm, stats.Expanded, stats.Stored, float64(stats.Elapsed.Microseconds())/1000)
		if c.annotate != "" {
			fmt.Fprintf(e.stdout, "annotated image: %s\n", c.annotate)
		}
	}
	switch plan.Status {
	case solver.StatusUnsolvable:
		return exitStatus(exitUnsolvable)
	case solver.StatusUnknown:
		return exitStatus(exitUnknown)
	}
	return nil
}
