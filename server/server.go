// Package server is decant's HTTP service: an upload page, and a JSON API that reads a
// screenshot (or takes a level), solves it and returns the plan with the annotated screenshot.
//
// It depends on small interfaces, not on the vision package, so that it builds and tests
// without OpenCV; cmd/decant wires the real reader in. Every request is bounded: upload size,
// search time and memory, and the number of searches at once.
package server

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/decant/decant/solver"
)

// Reader reads screenshots. The vision package, adapted in cmd/decant, is the real one.
type Reader interface {
	Read(ctx context.Context, image []byte) (Screenshot, error)
}

// Screenshot is a screenshot that was read.
type Screenshot interface {
	Level() *solver.Level
	Confidence() float64
	Reasons() []string
	// Annotate draws the plan on the screenshot and returns a PNG.
	Annotate(plan solver.Plan) ([]byte, error)
}

// Config sets the service's limits. Zero values take the defaults.
type Config struct {
	Reader      Reader               // nil: image uploads are refused
	Animator    Animator             // nil: POST /api/gif is refused
	MaxUpload   int64                // bytes; default 20 MiB
	Timeout     time.Duration        // per search; default 10 s
	MaxMemory   int64                // per search, bytes; default 256 MiB
	MaxSearches int                  // searches at once; default 2
	Logger      *slog.Logger         // default slog.Default()
	Registry    *prometheus.Registry // metrics registry; default a new one
}

func (c *Config) defaults() {
	if c.MaxUpload <= 0 {
		c.MaxUpload = 20 << 20
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.MaxMemory <= 0 {
		c.MaxMemory = 256 << 20
	}
	if c.MaxSearches <= 0 {
		c.MaxSearches = 2
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
}

// server holds the handlers' shared state.
type server struct {
	cfg      Config
	slots    chan struct{}
	requests *prometheus.CounterVec
	searches *prometheus.HistogramVec
}

// New returns the service's handler.
func New(cfg Config) http.Handler {
	cfg.defaults()
	s := &server{
		cfg:   cfg,
		slots: make(chan struct{}, cfg.MaxSearches),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "decant_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		searches: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "decant_search_seconds", Help: "Time spent searching for plans, by verdict.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
		}, []string{"status"}),
	}
	cfg.Registry.MustRegister(s.requests, s.searches)

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(gin.Recovery(), s.count)
	r.GET("/", s.page)
	r.GET("/static/*file", s.asset)
	r.GET("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{})))
	r.POST("/api/solve", s.solve)
	r.POST("/api/read", s.read)
	r.POST("/api/gif", s.gif)
	r.NoRoute(func(c *gin.Context) {
		s.fail(c, solver.Errorf(solver.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	return r
}

func (s *server) count(c *gin.Context) {
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	s.requests.WithLabelValues(route, strconv.Itoa(c.Writer.Status())).Inc()
}

// input is what a request carries: an image, or a level.
type input struct {
	image []byte
	level *solver.Level
}

// readInput takes a multipart upload (field "image" or "level"), or a raw body: image bytes,
// a JSON level document, or a level in text or compact form.
func (s *server) readInput(c *gin.Context) (input, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.cfg.MaxUpload)
	var data []byte
	var err error
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		data, err = s.multipartFile(c)
	} else {
		data, err = io.ReadAll(c.Request.Body)
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return input{}, solver.Errorf(solver.CodeImageTooLarge, "the upload is over %d MiB", s.cfg.MaxUpload>>20)
		}
		if solver.ErrorCode(err) != solver.CodeInternal {
			return input{}, err
		}
		return input{}, solver.Errorf(solver.CodeInvalidArgument, "reading the upload: %v", err)
	}
	if len(data) == 0 {
		return input{}, solver.Errorf(solver.CodeInvalidArgument, "empty request: upload a screenshot (field \"image\") or send a level")
	}
	if isImage(data) {
		return input{image: data}, nil
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		return input{}, err
	}
	return input{level: l}, nil
}

func (s *server) multipartFile(c *gin.Context) ([]byte, error) {
	for _, field := range []string{"image", "level"} {
		fh, err := c.FormFile(field)
		if err != nil {
			continue
		}
		f, err := fh.Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(f)
	}
	if v := c.PostForm("level"); v != "" {
		return []byte(v), nil
	}
	return nil, solver.Errorf(solver.CodeInvalidArgument, "the form has no \"image\" file or \"level\" field")
}

// isImage tells image bytes from level text by their signature.
func isImage(data []byte) bool {
	return strings.HasPrefix(http.DetectContentType(data), "image/")
}

// readingDoc describes how a screenshot was read.
type readingDoc struct {
	Confidence float64  `json:"confidence"`
	Reasons    []string `json:"reasons"`
}

// admit reads a request's input and waits for a slot to work on it. When it returns false it
// has answered the request with the error.
func (s *server) admit(c *gin.Context) (in input, release func(), ok bool) {
	in, err := s.readInput(c)
	if err == nil {
		release, err = s.acquire(c.Request.Context())
	}
	if err != nil {
		s.fail(c, err)
		return input{}, nil, false
	}
	return in, release, true
}

func (s *server) read(c *gin.Context) {
	in, release, ok := s.admit(c)
	if !ok {
		return
	}
	defer release()
	if in.image == nil {
		s.fail(c, solver.Errorf(solver.CodeInvalidArgument, "/api/read takes a screenshot, not a level"))
		return
	}
	shot, err := s.readImage(c.Request.Context(), in.image)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"level": shot.Level(), "reading": readingDoc{shot.Confidence(), nonNil(shot.Reasons())}})
}

func (s *server) readImage(ctx context.Context, data []byte) (Screenshot, error) {
	if s.cfg.Reader == nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "this server reads levels only: no screenshot reader is configured")
	}
	return s.cfg.Reader.Read(ctx, data)
}

// solveResponse is the plan document, plus the reading and annotated image for screenshots.
type solveResponse struct {
	solver.Report
	Reading   *readingDoc `json:"reading,omitempty"`
	Annotated string      `json:"annotated_png,omitempty"` // base64
}

func (s *server) solve(c *gin.Context) {
	in, release, ok := s.admit(c)
	if !ok {
		return
	}
	defer release()
	var shot Screenshot
	var err error
	if in.image != nil {
		if shot, err = s.readImage(c.Request.Context(), in.image); err != nil {
			s.fail(c, err)
			return
		}
		in.level = shot.Level()
	}
	opts := solver.Options{Fast: c.Query("fast") == "1" || c.Query("fast") == "true", MaxMemory: s.cfg.MaxMemory}
	plan, stats, err := s.search(c.Request.Context(), in.level, opts)
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := solveResponse{Report: solver.NewReport(in.level, plan, stats)}
	if shot != nil {
		resp.Reading = &readingDoc{shot.Confidence(), nonNil(shot.Reasons())}
		if c.Query("annotate") != "0" {
			png, err := shot.Annotate(plan)
			if err != nil {
				s.fail(c, err)
				return
			}
			resp.Annotated = base64.StdEncoding.EncodeToString(png)
		}
	}
	c.JSON(http.StatusOK, resp)
}

// acquire waits for one of the limited slots in which screenshots are read and levels solved:
// both take a core and up to hundreds of megabytes.
func (s *server) acquire(ctx context.Context) (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, solver.Errorf(solver.CodeBudgetExhausted, "the request ended while waiting for a free slot")
	}
}

// search runs the solver under the request's context and the configured timeout.
func (s *server) search(ctx context.Context, l *solver.Level, opts solver.Options) (solver.Plan, solver.Stats, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	start := time.Now()
	plan, stats, err := solver.Solve(ctx, l, opts)
	if err == nil {
		s.searches.WithLabelValues(string(plan.Status)).Observe(time.Since(start).Seconds())
	}
	return plan, stats, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
