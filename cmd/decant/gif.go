package main

import (
	"context"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// gifAnimator adapts the renderer to the server's Animator: phone-sized frames (360×800),
// one per pour.
type gifAnimator struct{}

func (gifAnimator) GIF(_ context.Context, l *solver.Level, moves []solver.Move) ([]byte, error) {
	return render.GIF(l, moves, render.Options{})
}
