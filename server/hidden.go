package server

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/hidden"
)

// hiddenResponse is the plan document of a level with hidden units (status "partial", the
// reveal, p_success, next_level), plus the reading for screenshots.
type hiddenResponse struct {
	hidden.Report
	Reading *readingDoc `json:"reading,omitempty"`
}

// solveHidden answers a level with hidden units or curtains with the planner for them: the
// pours to play until something is revealed. The client sends next_level back with the
// revealed colour written in place of its "!" to get the next segment. It runs in the
// searches' pool, holding a search's memory budget, under the request's context, the search
// timeout and the server's stop, as the exact search does.
func (s *Server) solveHidden(c *gin.Context, l *solver.Level, sh *shot) {
	ctx := c.Request.Context()
	release, err := s.take(ctx, s.searches, s.cfg.MaxMemory, "a search slot")
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	stop := context.AfterFunc(s.searchCtx, cancel)
	defer stop()
	start := time.Now()
	a, err := hidden.Plan(ctx, l, hidden.Options{Seed: 1})
	if err != nil {
		s.fail(c, err)
		return
	}
	s.searchSeconds.WithLabelValues(string(a.Status)).Observe(time.Since(start).Seconds())
	resp := hiddenResponse{Report: a.Report(l)}
	if sh != nil {
		resp.Reading = &readingDoc{sh.Confidence(), nonNil(sh.Reasons())}
	}
	c.JSON(http.StatusOK, resp)
}
