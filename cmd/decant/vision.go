//go:build !novision

package main

import (
	"os"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

// This file holds what decant does with images; the novision build (vision_lite.go) replaces
// it and hands every command that needs images to decant-vision (handoff.go).

// picture is a screenshot as the vision package read it.
type picture = vision.Reading

// readPicture reads a screenshot into a level.
func readPicture(data []byte) (*picture, error) { return vision.Read(data) }

// handoff is a no-op: this build runs every command itself.
func handoff([]string) error { return nil }

// imageCommands are the commands that need the vision package whatever their input.
func imageCommands() map[string]func() subcommand {
	return map[string]func() subcommand{
		"read":   func() subcommand { return &readCmd{} },
		"label":  func() subcommand { return &labelCmd{} },
		"render": func() subcommand { return &renderCmd{} },
		"serve":  func() subcommand { return &serveCmd{} },
	}
}

// writeAnnotated draws the plan on the screenshot; a level file is first rendered as one.
func writeAnnotated(out string, data []byte, reading *picture, level *solver.Level, plan solver.Plan) error {
	if reading == nil {
		r, err := vision.Render(level, vision.RenderOptions{})
		if err != nil {
			return err
		}
		data, reading = r.Data, r.Reading
	}
	png, err := vision.Annotate(data, reading, plan)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", out, err)
	}
	return nil
}
