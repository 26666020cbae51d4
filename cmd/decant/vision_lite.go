//go:build novision

package main

import (
	"context"
	"flag"

	"github.com/decant/decant/solver"
)

// The novision build: decant without OpenCV, for solving level files at Go start-up speed.
// main hands every command that needs images to decant-vision before run (handoff.go), so
// what follows only answers when that binary is missing.

// picture stands for a screenshot reading, which this build never makes.
type picture struct{ Level *solver.Level }

func readPicture([]byte) (*picture, error) { return nil, errNoVision() }

func describeReading(*picture) string { return "" }

func writeAnnotated(string, *picture, *solver.Level, solver.Plan) error {
	return errNoVision()
}

// imageCommands are the commands that need the vision package: here they only say so.
func imageCommands() map[string]func() subcommand {
	out := map[string]func() subcommand{}
	for _, name := range []string{"read", "label", "render", "serve"} {
		out[name] = func() subcommand { return visionOnly{} }
	}
	return out
}

// visionOnly is a command this build cannot run.
type visionOnly struct{}

func (visionOnly) Register(*flag.FlagSet) {}

func (visionOnly) Run(context.Context, *env, []string) error { return errNoVision() }

func errNoVision() error {
	return solver.Errorf(solver.CodeInvalidArgument, "this decant solves level files only: images need %s installed beside it", visionBinary)
}

// errNoBuckets is the error for labelling with a bucket URL when decant-label is missing.
func errNoBuckets() error {
	return solver.Errorf(solver.CodeInvalidArgument, "labelling from or to a bucket needs %s installed beside decant", labelBinary)
}
