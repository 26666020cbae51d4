package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

func renderFlags(fs *flag.FlagSet) func(context.Context, *env, []string) error {
	var o vision.RenderOptions
	out := fs.String("out", "", "write the image here (PNG, or JPEG with --jpeg, or GIF with --gif); required")
	fs.StringVar(&o.Theme, "theme", "dark", "look: "+strings.Join(vision.Themes, ", "))
	fs.IntVar(&o.Width, "width", 1080, "width in pixels")
	fs.IntVar(&o.Height, "height", 2400, "height in pixels")
	fs.IntVar(&o.Rows, "rows", 0, "rows of tubes (0: at most 7 tubes a row)")
	fs.BoolVar(&o.StatusBar, "status-bar", false, "draw a phone status bar")
	fs.BoolVar(&o.Banner, "banner", false, "draw an ad banner at the bottom")
	fs.IntVar(&o.JPEGQuality, "jpeg", 0, "encode as JPEG at this quality (1..100) instead of PNG")
	seed := fs.Uint64("seed", 1, "seed for the background pattern")
	fs.StringVar(&o.Title, "title", "", "header text (default LEVEL)")
	animate := fs.Bool("gif", false, "solve the level and animate the plan, one frame per pour")
	truth := fs.String("truth", "", "also write the ground truth (level and geometry) as JSON here")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 || *out == "" {
			return &usageError{"render takes one LEVEL file and --out IMAGE"}
		}
		o.Seed = *seed
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
		if *animate {
			plan, _, err := solver.Solve(ctx, l, solver.Options{})
			if err != nil {
				return err
			}
			if plan.Status != solver.StatusSolved {
				return solver.Errorf(solver.CodeUnsolvable, "no plan to animate: the level is %s", plan.Status)
			}
			if o.Width == 1080 && o.Height == 2400 {
				o.Width, o.Height = 360, 800
			}
			if img, err = vision.RenderGIF(l, plan.Moves, o); err != nil {
				return err
			}
		} else {
			r, err := vision.Render(l, o)
			if err != nil {
				return err
			}
			img, reading = r.Data, r.Reading
		}
		if err := os.WriteFile(*out, img, 0o644); err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", *out, err)
		}
		if *truth != "" && reading != nil {
			f, err := os.Create(*truth)
			if err != nil {
				return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", *truth, err)
			}
			defer f.Close()
			if err := writeJSON(f, newLabel(args[0], reading, nil)); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", *out, len(img))
		return nil
	}
}
