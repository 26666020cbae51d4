package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// Animator draws a plan as an animated GIF, one frame per pour. cmd/decant adapts the pure-Go
// renderer; the interface keeps this package free of it.
type Animator interface {
	GIF(ctx context.Context, l *solver.Level, moves []solver.Move) ([]byte, error)
}

// Bounds of POST /api/gif: a 360×800 frame takes the renderer about 17 ms of one core
// (`go test ./vision/render -bench GIF`: 0.67 s for level 98's 41 frames), and frames add to
// the download, so long plans are refused (the page steps through them instead), and so is
// an animation larger than a phone should download.
const (
	MaxGIFPours   = 80
	MaxGIFBytes   = 8 << 20
	maxGIFRequest = 1 << 20
	// gifMemory is what drawing an animation holds at most: a frame's pixels, the palette
	// image and the encoded frames (MaxGIFBytes).
	gifMemory = 3*360*800*4 + MaxGIFBytes
)

// gifRequest is the body of POST /api/gif: a level document and a plan's moves as the plan
// document gives them.
type gifRequest struct {
	Level *solver.Level       `json:"level"`
	Moves []solver.ReportMove `json:"moves"`
}

func (s *Server) gif(c *gin.Context) {
	if s.cfg.Animator == nil {
		s.fail(c, solver.Errorf(solver.CodeInvalidArgument, "this server draws no GIFs: no renderer is configured"))
		return
	}
	l, moves, err := readGIFRequest(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	release, err := s.take(c.Request.Context(), s.readers, gifMemory, "drawing the animation")
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	data, err := s.cfg.Animator.GIF(c.Request.Context(), l, moves)
	if err != nil {
		s.fail(c, err)
		return
	}
	if len(data) > MaxGIFBytes {
		s.fail(c, solver.Errorf(solver.CodeImageTooLarge, "the animation came to %.1f MiB, over the %d MiB cap", float64(len(data))/(1<<20), MaxGIFBytes>>20))
		return
	}
	c.Header("Content-Disposition", `attachment; filename="decant-plan.gif"`)
	c.Data(http.StatusOK, "image/gif", data)
}

// readGIFRequest decodes and checks the body: the moves must replay legally on the level.
func readGIFRequest(c *gin.Context) (*solver.Level, []solver.Move, error) {
	dec := json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, maxGIFRequest))
	dec.DisallowUnknownFields()
	var req gifRequest
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "the request is over %d KiB", maxGIFRequest>>10)
		case solver.ErrorCode(err) != solver.CodeInternal:
			return nil, nil, err
		}
		return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "the body must be {\"level\": {...}, \"moves\": [...]}: %v", err)
	}
	if req.Level == nil {
		return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "the body has no \"level\"")
	}
	if len(req.Moves) > MaxGIFPours {
		return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "a plan of %d pours is too long to animate (at most %d): step through it on the page", len(req.Moves), MaxGIFPours)
	}
	colour := map[string]solver.Color{}
	for c := 1; c < len(req.Level.Names); c++ {
		colour[req.Level.Names[c]] = solver.Color(c)
	}
	moves := make([]solver.Move, len(req.Moves))
	for i, m := range req.Moves {
		c, ok := colour[m.Color]
		if !ok {
			return nil, nil, solver.Errorf(solver.CodeInvalidPlan, "move %d pours %q, a colour the level does not have", i+1, m.Color)
		}
		moves[i] = solver.Move{From: m.From, To: m.To, Count: m.Count, Color: c}
	}
	if _, err := solver.Replay(req.Level, moves); err != nil {
		return nil, nil, err
	}
	return req.Level, moves, nil
}
