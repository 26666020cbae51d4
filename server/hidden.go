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
// revealed colour written in place of its "!" to get the next segment.
func (s *server) solveHidden(c *gin.Context, l *solver.Level, shot Screenshot) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.Timeout)
	defer cancel()
	start := time.Now()
	a, err := hidden.Plan(ctx, l, hidden.Options{Seed: 1})
	if err != nil {
		s.fail(c, err)
		return
	}
	s.searches.WithLabelValues(string(a.Status)).Observe(time.Since(start).Seconds())
	resp := hiddenResponse{Report: a.Report(l)}
	if shot != nil {
		resp.Reading = &readingDoc{shot.Confidence(), nonNil(shot.Reasons())}
	}
	c.JSON(http.StatusOK, resp)
}
