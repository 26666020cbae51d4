package vision

import (
	"image"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/annotate"
)

// Annotate draws on the screenshot r was read from: each tube's number (1..N, as in text
// output), the next pours of the plan as numbered arrows from tube to tube, and a legend with
// the whole plan (see package annotate). It returns a PNG. The reading must come from Read,
// which keeps the decoded pixels; a rendered level is annotated with annotate.PNG on its image.
func Annotate(r *Reading, plan solver.Plan) ([]byte, error) {
	img, err := r.annotated(plan)
	if err != nil {
		return nil, err
	}
	return annotate.EncodePNG(img)
}

// annotated returns a copy of the reading's pixels with the plan drawn on it.
func (r *Reading) annotated(plan solver.Plan) (*annotate.BGR, error) {
	if r == nil || r.Level == nil || r.pixels == nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "the reading holds no screenshot to draw on")
	}
	if b := r.pixels.Bounds(); b.Dx() != r.Width || b.Dy() != r.Height || len(r.Tubes) != len(r.Level.Tubes) {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "the reading does not match its %d×%d image", b.Dx(), b.Dy())
	}
	boxes := make([]image.Rectangle, len(r.Tubes))
	for i, t := range r.Tubes {
		boxes[i] = t.Box
	}
	img := r.pixels.Clone()
	if err := annotate.Draw(img, boxes, plan); err != nil {
		return nil, err
	}
	return img, nil
}

// bgrOf copies a BGR Mat's pixels out for Annotate.
func bgrOf(mat gocv.Mat) *annotate.BGR {
	w, h := mat.Cols(), mat.Rows()
	return &annotate.BGR{Pix: mat.ToBytes(), Stride: 3 * w, Rect: image.Rect(0, 0, w, h)}
}
