package vision

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/annotate"
	"github.com/decant/decant/vision/annotate/annotatetest"
	"github.com/decant/decant/vision/render"
)

var annotatedDir = flag.String("annotated", "", "write the annotated images TestAnnotate* draw to this folder, to look at")

// boxesOf is the tubes' boxes of a reading.
func boxesOf(r *Reading) []image.Rectangle {
	boxes := make([]image.Rectangle, len(r.Tubes))
	for i, t := range r.Tubes {
		boxes[i] = t.Box
	}
	return boxes
}

// keep writes an annotated image to -annotated, when given.
func keep(t *testing.T, name string, data []byte) {
	if *annotatedDir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(*annotatedDir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnnotate annotates the seed-98 screenshot with each kind of plan and checks every tube
// number, arrow and legend line where the layout puts them on the reading's own pixels.
func TestAnnotate(t *testing.T) {
	data, r, plan := solvedSeed98(t)
	orig, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]solver.Plan{
		"optimal":    plan,
		"unsolvable": {Status: solver.StatusUnsolvable},
		"unknown":    {Status: solver.StatusUnknown},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := Annotate(r, p)
			if err != nil {
				t.Fatal(err)
			}
			keep(t, "seed-98-"+name+".png", out)
			img, err := png.Decode(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() != r.Width || img.Bounds().Dy() != r.Height {
				t.Fatalf("annotated image is %v, want %d×%d", img.Bounds(), r.Width, r.Height)
			}
			l, err := annotate.NewLayout(img.Bounds(), boxesOf(r), p)
			if err != nil {
				t.Fatal(err)
			}
			for _, problem := range annotatetest.Verify(orig, img, l) {
				t.Error(problem)
			}
		})
	}
	for _, tc := range []struct {
		name string
		r    func() *Reading
		plan solver.Plan
		want solver.Code
	}{
		{"another image's size", func() *Reading { bad := *r; bad.Width++; return &bad }, plan, solver.CodeInvalidArgument},
		{"a reading without pixels", func() *Reading { return &Reading{Level: r.Level, Tubes: r.Tubes, Width: r.Width, Height: r.Height} }, plan, solver.CodeInvalidArgument},
		{"a tube missing", func() *Reading { bad := *r; bad.Tubes = bad.Tubes[1:]; return &bad }, plan, solver.CodeInvalidArgument},
		{"nil", func() *Reading { return nil }, plan, solver.CodeInvalidArgument},
		{"a move to tube 100", func() *Reading { return r }, solver.Plan{Moves: []solver.Move{{From: 0, To: 99}}}, solver.CodeInvalidPlan},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Annotate(tc.r(), tc.plan); solver.ErrorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestAnnotateRendered annotates rendered levels, light and dark, narrow and wide, in pure Go
// (as `decant solve LEVEL --annotate` does) and checks every element is drawn.
func TestAnnotateRendered(t *testing.T) {
	l := mustCompact(t, "4: red blue green red | blue green red blue | green red blue green | |")
	plan, _, err := solver.Solve(t.Context(), l, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		theme string
		w, h  int
	}{{"dark", 360, 800}, {"light", 360, 800}, {"dark", 1440, 3200}, {"light", 1440, 3200}, {"wood", 720, 1280}} {
		name := fmt.Sprintf("%s-%dx%d", tc.theme, tc.w, tc.h)
		t.Run(name, func(t *testing.T) {
			rd, err := render.Render(l, render.Options{Theme: tc.theme, Width: tc.w, Height: tc.h})
			if err != nil {
				t.Fatal(err)
			}
			boxes := make([]image.Rectangle, len(rd.Truth.Tubes))
			for i, tb := range rd.Truth.Tubes {
				boxes[i] = tb.Box
			}
			out, err := annotate.PNG(rd.Image, boxes, plan)
			if err != nil {
				t.Fatal(err)
			}
			keep(t, "rendered-"+name+".png", out)
			img, err := png.Decode(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			lay, err := annotate.NewLayout(rd.Image.Bounds(), boxes, plan)
			if err != nil {
				t.Fatal(err)
			}
			for _, problem := range annotatetest.Verify(rd.Image, img, lay) {
				t.Error(problem)
			}
		})
	}
}
