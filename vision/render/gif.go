package render

import (
	"bytes"
	"fmt"
	"image"
	plan9 "image/color/palette"
	"image/draw"
	"image/gif"

	"github.com/decant/decant/solver"
)

// maxGIFFrames bounds an animation: a plan longer than this is refused rather than producing
// an enormous file.
const maxGIFFrames = 400

// GIF animates a plan: one frame for the start and one per pour, each a rendering of the
// position (opts as for Render; 0×0 means 360×800) captioned with the pour just made.
func GIF(l *solver.Level, moves []solver.Move, opts Options) ([]byte, error) {
	if len(moves)+1 > maxGIFFrames {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "a plan of %d pours is too long to animate (at most %d)", len(moves), maxGIFFrames-1)
	}
	if opts.Width == 0 && opts.Height == 0 {
		opts.Width, opts.Height = 360, 800
	}
	opts.JPEGQuality = 0
	anim := &gif.GIF{}
	pos := l.Clone()
	for i := 0; i <= len(moves); i++ {
		if i > 0 {
			next, err := solver.Replay(pos, moves[i-1:i])
			if err != nil {
				return nil, err
			}
			pos = next
			m := moves[i-1]
			opts.Title = fmt.Sprintf("%d/%d: %d > %d", i, len(moves), m.From+1, m.To+1)
		} else {
			opts.Title = fmt.Sprintf("start: %d pours", len(moves))
		}
		r, err := Render(pos, opts)
		if err != nil {
			return nil, err
		}
		frame := image.NewPaletted(r.Image.Bounds(), plan9.Plan9)
		draw.Draw(frame, frame.Rect, r.Image, image.Point{}, draw.Src)
		delay := 60
		if i == 0 || i == len(moves) {
			delay = 150
		}
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
