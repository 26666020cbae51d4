package server

import (
	"context"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// Memory a screenshot costs per pixel while it is read (OpenCV's Mats, the Go copy of the
// pixels, the Go decode that checks a JPEG) and while it is annotated: measured peaks of about
// 20 and 7 bytes a pixel on 2.5-megapixel screenshots, with room to spare.
const (
	readBytesPerPixel     = 24
	annotateBytesPerPixel = 12
	// quickMemory is the memory budget of a search's quick run.
	quickMemory = 64 << 20
)

// readingDoc describes how a screenshot was read.
type readingDoc struct {
	Confidence float64  `json:"confidence"`
	Reasons    []string `json:"reasons"`
}

// shot is a screenshot that was read, with its header's size for annotating it.
type shot struct {
	Screenshot
	info imageInfo
}

func (s *Server) read(c *gin.Context) {
	if _, err := parseParams(c.Request.URL.RawQuery); err != nil {
		s.fail(c, err)
		return
	}
	in, adm, err := s.receive(c)
	defer adm.release()
	if err != nil {
		s.fail(c, err)
		return
	}
	if in.image == nil {
		s.fail(c, solver.Errorf(solver.CodeInvalidArgument, "/api/read takes a screenshot, not a level"))
		return
	}
	sh, err := s.readShot(c.Request.Context(), in.image)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"level": sh.Level(), "reading": readingDoc{sh.Confidence(), nonNil(sh.Reasons())}})
}

// receive admits a request and reads its input. The caller releases the admission (nil-safe).
func (s *Server) receive(c *gin.Context) (input, *admission, error) {
	adm, err := s.admit(c)
	if err != nil {
		return input{}, nil, err
	}
	in, err := s.readInput(c, adm)
	return in, adm, err
}

// solveResponse is the plan document, plus the reading and annotated image for screenshots.
type solveResponse struct {
	solver.Report
	shotDoc
}

// shotDoc is what a plan's answer adds for a screenshot: how sure the reading is, and the plan
// drawn on it.
type shotDoc struct {
	Reading   *readingDoc `json:"reading,omitempty"`
	Annotated string      `json:"annotated_png,omitempty"` // base64
}

// describeShot is the shotDoc of plan on screenshot sh (none for a level sent as text), with
// the plan drawn when annotate is set.
func (s *Server) describeShot(ctx context.Context, sh *shot, plan solver.Plan, annotate bool) (shotDoc, error) {
	if sh == nil {
		return shotDoc{}, nil
	}
	d := shotDoc{Reading: &readingDoc{sh.Confidence(), nonNil(sh.Reasons())}}
	if annotate {
		png, err := s.annotate(ctx, sh, plan)
		if err != nil {
			return shotDoc{}, err
		}
		d.Annotated = base64.StdEncoding.EncodeToString(png)
	}
	return d, nil
}

func (s *Server) solve(c *gin.Context) {
	p, err := parseParams(c.Request.URL.RawQuery, "fast", "annotate")
	if err != nil {
		s.fail(c, err)
		return
	}
	in, adm, err := s.receive(c)
	defer adm.release()
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	var sh *shot
	if in.image != nil {
		if sh, err = s.readShot(ctx, in.image); err != nil {
			s.fail(c, err)
			return
		}
		in.level = sh.Level()
	}
	if in.level.HasHidden() || in.level.HasCurtains() {
		s.solveHidden(c, in.level, sh, p.annotate)
		return
	}
	plan, stats, err := s.plan(ctx, in.level, p.fast)
	if err != nil {
		s.fail(c, err)
		return
	}
	doc, err := s.describeShot(ctx, sh, plan, p.annotate)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, solveResponse{solver.NewReport(in.level, plan, stats), doc})
}

// take waits (at most QueueWait) for a slot in pool and then for n bytes of the budget.
//
// No one piece of work may take more than half of the work budget: bodies hold at most the
// other half, and work never waits for anything while it holds memory, so the first in line
// always gets in once the work ahead of it is done.
func (s *Server) take(ctx context.Context, pool *semaphore, n int64, what string) (release func(), err error) {
	if n > s.cfg.work()/2 {
		return nil, solver.Errorf(solver.CodeImageTooLarge, "%s needs about %d MiB, more than this server's memory budget (%d MiB) allows at once", what, n>>20, s.cfg.MemoryBudget>>20)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.QueueWait)
	defer cancel()
	if err := pool.acquire(ctx, 1); err != nil {
		return nil, s.waitError(err, what)
	}
	if err := s.memory.acquire(ctx, n); err != nil {
		pool.release(1)
		return nil, s.waitError(err, what)
	}
	return func() { s.memory.release(n); pool.release(1) }, nil
}

// readShot checks a screenshot's header, then reads it in the readers' pool with the memory
// its pixels will take.
func (s *Server) readShot(ctx context.Context, data []byte) (*shot, error) {
	if s.cfg.Reader == nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "this server reads levels only: no screenshot reader is configured")
	}
	info, err := s.inspect(data)
	if err != nil {
		return nil, err
	}
	release, err := s.take(ctx, s.readers, info.pixels()*readBytesPerPixel, "reading the screenshot")
	if err != nil {
		return nil, err
	}
	defer release()
	sc, err := s.cfg.Reader.Read(ctx, data)
	if err != nil {
		return nil, err
	}
	return &shot{sc, info}, nil
}

func (s *Server) annotate(ctx context.Context, sh *shot, plan solver.Plan) ([]byte, error) {
	release, err := s.take(ctx, s.readers, sh.info.pixels()*annotateBytesPerPixel, "drawing the plan")
	if err != nil {
		return nil, err
	}
	defer release()
	return sh.Annotate(plan)
}

// plan is the one solve path for every request. The search first gets a quick run in the
// readers' pool (most levels, and every screenshot's so far, settle in milliseconds); a level
// the quick run leaves unknown gets a long run in the searches' pool, so hard levels wait for
// each other but never hold up quick ones. A search stopped by its budget answers
// StatusUnknown with the best plan it found.
func (s *Server) plan(ctx context.Context, l *solver.Level, fast bool) (solver.Plan, solver.Stats, error) {
	quick := solver.Options{Fast: fast, MaxMemory: min(quickMemory, s.cfg.MaxMemory)}
	plan, stats, err := s.search(ctx, s.readers, l, quick, min(s.cfg.QuickSearch, s.cfg.Timeout))
	if err != nil || plan.Status != solver.StatusUnknown || ctx.Err() != nil || s.searchCtx.Err() != nil {
		return plan, stats, err
	}
	long := solver.Options{Fast: fast, MaxMemory: s.cfg.MaxMemory}
	best := plan
	plan, stats, err = s.search(ctx, s.searches, l, long, s.cfg.Timeout)
	if err == nil && plan.Status == solver.StatusUnknown && len(best.Moves) > 0 &&
		(len(plan.Moves) == 0 || len(best.Moves) < len(plan.Moves)) {
		plan.Moves = best.Moves // a long run stopped early (by a shutdown) keeps the quick run's plan
	}
	return plan, stats, err
}

// search runs the solver in pool, under the request's context, the timeout and the server's
// stop, holding the search's memory budget. Long searches run at a lower CPU priority and
// pause while quick work needs their core.
func (s *Server) search(ctx context.Context, pool *semaphore, l *solver.Level, opts solver.Options, timeout time.Duration) (solver.Plan, solver.Stats, error) {
	release, err := s.take(ctx, pool, opts.MaxMemory, "a search slot")
	if err != nil {
		return solver.Plan{}, solver.Stats{}, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(s.searchCtx, cancel)
	defer stop()
	start := time.Now()
	var plan solver.Plan
	var stats solver.Stats
	solve := func() { plan, stats, err = solver.Solve(ctx, l, opts) }
	if pool == s.searches {
		yield, done := s.share.start(ctx)
		defer done()
		opts.Yield = yield
		lowPriority(solve)
	} else {
		solve()
	}
	if err == nil {
		s.searchSeconds.WithLabelValues(string(plan.Status)).Observe(time.Since(start).Seconds())
	}
	return plan, stats, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
