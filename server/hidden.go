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
// reveal, p_success, next_level), plus the reading and annotated image for screenshots.
type hiddenResponse struct {
	hidden.Report
	shotDoc
}

// solveHidden answers a level with hidden units or curtains with the planner for them: the
// pours to play until something is revealed, drawn on the screenshot when annotate is set.
// The client sends next_level back with the revealed colour written in place of its "!" to
// get the next segment.
func (s *Server) solveHidden(c *gin.Context, l *solver.Level, sh *shot, annotate bool) {
	ctx := c.Request.Context()
	a, err := s.planHidden(ctx, l)
	if err != nil {
		s.fail(c, err)
		return
	}
	doc, err := s.describeShot(ctx, sh, solver.Plan{Status: a.Status, Moves: a.Moves}, annotate)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, hiddenResponse{a.Report(l), doc})
}

// hiddenQuick is how many times QuickSearch the planner's quick run gets: it runs an exact
// search on each of many sampled completions, and takes 0.1–2 s on the shared screenshots
// with hidden units (a quarter of a second cut most of them short on a loaded machine).
const hiddenQuick = 8

// planHidden runs the planner as plan runs the solver: a quick run in the readers' pool, then,
// when the quick run was cut short, a long one in the searches' pool, so a screenshot does not
// wait behind hard levels for a search slot. The planner is seeded: a run that is not cut
// short gives the same answer in either pool.
func (s *Server) planHidden(ctx context.Context, l *solver.Level) (hidden.Answer, error) {
	a, cut, err := s.runHidden(ctx, s.readers, l, min(quickMemory, s.cfg.MaxMemory), min(hiddenQuick*s.cfg.QuickSearch, s.cfg.Timeout))
	if !cut || ctx.Err() != nil || s.searchCtx.Err() != nil {
		return a, err
	}
	a, _, err = s.runHidden(ctx, s.searches, l, s.cfg.MaxMemory, s.cfg.Timeout)
	return a, err
}

// runHidden runs the planner in pool, holding memory, under the request's context, the
// timeout and the server's stop. It reports whether the timeout or the stop cut the run short.
// The planner's own time cap stops it well within the timeout (three quarters of it), so that
// on a loaded machine the quick run answers with the pours found so far rather than none.
func (s *Server) runHidden(ctx context.Context, pool *semaphore, l *solver.Level, memory int64, timeout time.Duration) (a hidden.Answer, cut bool, err error) {
	release, err := s.take(ctx, pool, memory, "a search slot")
	if err != nil {
		return hidden.Answer{}, false, err
	}
	defer release()
	run, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(s.searchCtx, cancel)
	defer stop()
	start := time.Now()
	a, err = hidden.Plan(run, l, hidden.Options{Seed: 1, MaxDecisionTime: min(hidden.DefaultMaxDecisionTime, timeout*3/4)})
	cut = run.Err() != nil && (err != nil || a.Status == solver.StatusUnknown)
	if err == nil {
		s.searchSeconds.WithLabelValues(string(a.Status)).Observe(time.Since(start).Seconds())
	}
	return a, cut, err
}
