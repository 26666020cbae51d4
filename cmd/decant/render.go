package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
	"github.com/decant/decant/vision/render"
)

// renderCmd is "decant render LEVEL --out IMG".
type renderCmd struct {
	opts    render.Options
	out     string
	animate bool
	random  bool
	truth   string
}

func (c *renderCmd) Register(fs *flag.FlagSet) {
	o := &c.opts
	fs.StringVar(&c.out, "out", "", "write the image here (PNG, or JPEG with --jpeg, or GIF with --gif); required")
	fs.StringVar(&o.Theme, "theme", "dark", "look: "+strings.Join(render.Themes, ", "))
	fs.IntVar(&o.Width, "width", 1080, "width in pixels")
	fs.IntVar(&o.Height, "height", 2400, "height in pixels")
	fs.IntVar(&o.Rows, "rows", 0, "rows of tubes (0: at most 7 tubes a row)")
	fs.BoolVar(&o.StatusBar, "status-bar", false, "draw a phone status bar")
	fs.BoolVar(&o.Banner, "banner", false, "draw an ad banner at the bottom")
	fs.IntVar(&o.JPEGQuality, "jpeg", 0, "encode as JPEG at this quality (1..100) instead of PNG")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed for the background pattern")
	fs.StringVar(&o.Title, "title", "", "header text (default LEVEL)")
	fs.BoolVar(&c.animate, "gif", false, "solve the level and animate the plan, one frame per pour")
	fs.BoolVar(&c.random, "random", false, "draw the level in a look, size and encoding drawn from the randomised distribution with --seed (PNG or JPEG, whatever --out's name); the other look flags are ignored")
	fs.StringVar(&c.truth, "truth", "", "also write the ground truth (level and geometry) as JSON here")
}

func (c *renderCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 || c.out == "" {
		return &usageError{"render takes one LEVEL file and --out IMAGE"}
	}
	data, err := readInput(e, args[0])
	if err != nil {
		return err
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		return err
	}
	var img []byte
	var reading *vision.Reading
	if c.animate {
		if img, err = c.gif(ctx, l); err != nil {
			return err
		}
	} else {
		var r *render.Scene
		if c.random {
			r, err = render.RandomLevel(l, c.opts.Seed)
		} else {
			r, err = render.Render(l, c.opts)
		}
		if err != nil {
			return err
		}
		img, reading = r.Data, truthReading(r.Truth)
	}
	if err := os.WriteFile(c.out, img, 0o644); err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", c.out, err)
	}
	if c.truth != "" && reading != nil {
		if err := writeTruth(c.truth, newLabel(args[0], reading, nil)); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", c.out, len(img))
	return nil
}

// gif solves the level and animates its plan, at phone size unless a size was asked for.
func (c *renderCmd) gif(ctx context.Context, l *solver.Level) ([]byte, error) {
	plan, _, err := solver.Solve(ctx, l, solver.Options{})
	if err != nil {
		return nil, err
	}
	if plan.Status != solver.StatusSolved {
		return nil, solver.Errorf(solver.CodeUnsolvable, "no plan to animate: the level is %s", plan.Status)
	}
	o := c.opts
	if o.Width == 1080 && o.Height == 2400 {
		o.Width, o.Height = 360, 800
	}
	return render.GIF(l, plan.Moves, o)
}

// truthReading is a drawn image's ground truth in the shape a reading has, so that labels and
// annotations treat rendered and read images alike.
func truthReading(t render.Truth) *vision.Reading {
	r := &vision.Reading{Level: t.Level, Width: t.Width, Height: t.Height, Confidence: 1}
	for _, tube := range t.Tubes {
		r.Tubes = append(r.Tubes, vision.Tube{Box: tube.Box, Units: tube.Units})
	}
	return r
}

func writeTruth(path string, l label) error {
	f, err := os.Create(path)
	if err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", path, err)
	}
	defer f.Close()
	return writeJSON(f, l)
}
