//go:build !novision

package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

// readCmd is "decant read IMAGE".
type readCmd struct {
	json bool
}

func (c *readCmd) Register(fs *flag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "print the level document (JSON) instead of text")
}

func (c *readCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return &usageError{"read takes exactly one IMAGE (- for standard input)"}
	}
	data, err := readInput(e, args[0])
	if err == nil && !isImage(data) {
		err = solver.Errorf(solver.CodeUnreadableImage, "%s is not a PNG, JPEG, WebP, GIF or BMP image", args[0])
	}
	var r *vision.Reading
	if err == nil {
		r, err = vision.Read(data)
	}
	if c.json {
		if err != nil {
			return asJSON(e, err)
		}
		return writeJSON(e.stdout, r.Level)
	}
	if r != nil && r.Level != nil {
		fmt.Fprint(e.stdout, describeReading(r))
		fmt.Fprint(e.stdout, tubeListing(r.Level))
	}
	return err
}

// describeReading is a one-paragraph summary of a reading.
func describeReading(r *vision.Reading) string {
	l := r.Level
	var sb strings.Builder
	fmt.Fprintf(&sb, "read: %d tubes of capacity %d, %d colours, confidence %.2f\n", len(l.Tubes), l.Capacity, l.Colors(), r.Confidence)
	for _, why := range r.Reasons {
		fmt.Fprintf(&sb, "  note: %s\n", why)
	}
	return sb.String()
}

// tubeListing lists tubes as numbered on annotated images, bottom to top.
func tubeListing(l *solver.Level) string {
	var sb strings.Builder
	for i := range l.Tubes {
		names := l.Tokens(i)
		if len(names) == 0 {
			names = []string{"(empty)"}
		}
		fmt.Fprintf(&sb, "%3d: %s\n", i+1, strings.Join(names, " "))
	}
	return sb.String()
}
