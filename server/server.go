// Package server is decant's HTTP service: a phone page, and a JSON API that reads a
// screenshot (or takes a level), solves it and returns the plan with the annotated screenshot.
//
// It depends on small interfaces, not on the vision package, so that it builds and tests
// without OpenCV; cmd/decant wires the real reader in.
//
// Every request is bounded, and so is the whole process. Work is admitted against one memory
// budget before a request's body is read: the body's declared size, then the pixels a
// screenshot decodes to (estimated from its header), then each search's memory budget. Reading
// (and annotating) screenshots and searching run in separate bounded pools, every search
// first gets a short quick run, and long searches run only on the cores that quick work
// leaves free (with a small share kept), so a screenshot is not stuck behind hard levels. A saturated
// server answers 429 or 503 with Retry-After; a stopping one answers what it holds and refuses
// the rest the same way.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/decant/decant/solver"
)

// Reader reads screenshots. The vision package, adapted in cmd/decant, is the real one. The
// image's bytes are the request's: a Reader and its Screenshot must not keep them once the
// request is answered (the buffer is reused). The server checks an image's header and size;
// the Reader refuses data that is cut short or corrupt (CodeUnreadableImage), rather than
// reading what a decoder makes of it.
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
	Reader    Reader        // nil: image uploads are refused
	Animator  Animator      // nil: POST /api/gif is refused
	MaxUpload int64         // bytes; default 20 MiB
	MaxPixels int64         // decoded width × height; default 25,000,000
	Timeout   time.Duration // per search; default 10 s
	MaxMemory int64         // per search, bytes; default 256 MiB (long searches together take at most half the work budget)
	// MaxSearches is the number of long searches at once (default half the CPUs, at least one,
	// so that screenshots always have a core); Readers the number of screenshots read or
	// annotated at once, and of quick searches (default GOMAXPROCS).
	MaxSearches int
	Readers     int
	// QuickSearch is the first run every search gets outside the long-search pool (default
	// 250 ms, with at most 64 MiB); a level it does not settle moves to the long pool.
	QuickSearch time.Duration
	// MemoryBudget bounds the process's memory: Reserve for the process itself (runtime,
	// libraries, heap slack: about 170 MB after warm-up; default 192 MiB, at most a third of
	// the budget), the rest for
	// what admitted work holds at once: bodies in flight, decoded pixels and search budgets.
	// Default 1 GiB.
	MemoryBudget int64
	Reserve      int64
	// QueueWait is the longest a request waits to be admitted or for a pool (default 10 s,
	// then 503); MaxQueue the number of requests waiting for admission (default 64, then 429).
	QueueWait time.Duration
	MaxQueue  int
	// Token, when set, is the bearer token every /api/ request must carry.
	Token string
	// CORSOrigins are the origins allowed to call the API from a browser ("*" for any).
	CORSOrigins []string
	// Warmup runs once when the server starts; /readyz answers 503 until it has succeeded.
	Warmup   func(context.Context) error
	Logger   *slog.Logger         // default slog.Default()
	Registry *prometheus.Registry // metrics registry; default a new one

	// Connection limits for Serve. Zero values take the defaults.
	ReadHeaderTimeout time.Duration // default 10 s
	ReadTimeout       time.Duration // whole request, body included; default 60 s
	WriteTimeout      time.Duration // default: ReadTimeout + queue waits + search time + 30 s
	IdleTimeout       time.Duration // keep-alive; default 60 s
	MaxConns          int           // open connections; default 512
	Grace             time.Duration // shutdown grace period; default 20 s
	// A body must arrive at MinUploadRate bytes a second on average once UploadGrace has
	// passed (defaults 16 KiB/s after 5 s), or it is refused with 408 and its share of the
	// memory budget freed: the read timeout alone lets a trickle hold it for a minute.
	MinUploadRate int64
	UploadGrace   time.Duration
}

// work is the part of the memory budget that admitted work may hold.
func (c *Config) work() int64 { return c.MemoryBudget - c.Reserve }

func (c *Config) defaults() {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defi := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxUpload, 20<<20)
	def(&c.MaxPixels, 25_000_000)
	def(&c.MemoryBudget, 1<<30)
	def(&c.Reserve, min(192<<20, c.MemoryBudget/3))
	c.Reserve = min(c.Reserve, c.MemoryBudget/3)
	defi(&c.MaxSearches, max(1, runtime.GOMAXPROCS(0)/2))
	// Long searches together take at most half of what work may hold.
	def(&c.MaxMemory, 256<<20)
	c.MaxMemory = min(c.MaxMemory, c.work()/2/int64(c.MaxSearches))
	defd(&c.Timeout, 10*time.Second)
	defd(&c.QuickSearch, 250*time.Millisecond)
	defd(&c.QueueWait, 10*time.Second)
	defi(&c.Readers, runtime.GOMAXPROCS(0))
	defi(&c.MaxQueue, 64)
	defd(&c.ReadHeaderTimeout, 10*time.Second)
	defd(&c.ReadTimeout, 60*time.Second)
	def(&c.MinUploadRate, 16<<10)
	defd(&c.UploadGrace, 5*time.Second)
	defd(&c.WriteTimeout, c.ReadTimeout+3*c.QueueWait+c.QuickSearch+c.Timeout+30*time.Second)
	defd(&c.IdleTimeout, 60*time.Second)
	defi(&c.MaxConns, 512)
	defd(&c.Grace, 20*time.Second)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
}

// Server is the service: an http.Handler, and Serve to run it on a listener.
type Server struct {
	cfg    Config
	router *gin.Engine
	csp    string

	memory   *semaphore // bytes: everything admitted work holds
	bodies   *semaphore // bytes: bodies in flight, at most half the memory budget
	readers  *semaphore // slots: screenshots read or annotated, quick searches
	searches *semaphore // slots: long searches
	share    *cpuShare  // long searches yield the CPU to the readers' pool
	queued   atomic.Int64

	ready    atomic.Bool
	draining atomic.Bool
	// stopSearches ends every search still running (they answer with their best plan).
	searchCtx    context.Context
	stopSearches context.CancelFunc
	drainOnce    sync.Once

	metrics
}

// New returns the service.
func New(cfg Config) *Server {
	cfg.defaults()
	s := &Server{
		cfg:      cfg,
		csp:      contentSecurityPolicy(pageHTML),
		memory:   newSemaphore(cfg.work()),
		bodies:   newSemaphore(cfg.work() / 2),
		readers:  newSemaphore(int64(cfg.Readers)),
		searches: newSemaphore(int64(cfg.MaxSearches)),
	}
	s.share = newCPUShare(runtime.GOMAXPROCS(0), func() int { n, _ := s.readers.used(); return int(n) })
	s.searchCtx, s.stopSearches = context.WithCancel(context.Background())
	s.metrics = newMetrics(cfg.Registry, s)

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.SetTrustedProxies(nil) // logs show the peer's address, not a header a client can forge
	r.Use(s.observe, s.recoverPanics, s.headers, s.cors, s.auth)
	get := func(path string, h gin.HandlerFunc) {
		r.GET(path, h)
		r.HEAD(path, h)
	}
	get("/", s.page)
	get("/static/*file", s.static)
	get("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	get("/readyz", s.readyz)
	get("/metrics", gin.WrapH(promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{})))
	get("/openapi.yaml", s.openapi)
	r.POST("/api/solve", s.solve)
	r.POST("/api/read", s.read)
	r.POST("/api/gif", s.gif)
	r.NoRoute(func(c *gin.Context) {
		s.fail(c, solver.Errorf(solver.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		s.fail(c, &httpError{status: http.StatusMethodNotAllowed, code: solver.CodeMethodNotAllowed,
			msg: c.Request.Method + " is not allowed on " + c.Request.URL.Path + "; allowed: " + c.Writer.Header().Get("Allow")})
	})
	s.router = r

	if cfg.Warmup == nil {
		s.ready.Store(true)
	} else {
		go s.warmup()
	}
	return s
}

// HeapLimit is the limit to give the Go runtime (GOMEMLIMIT): three quarters of what work may
// hold, leaving the reserve and a quarter of the work budget to C memory (the libraries, and
// OpenCV's buffers while screenshots are read), so that the collector runs before Go garbage
// (answers being encoded, freed bodies) takes the process past its budget.
func (s *Server) HeapLimit() int64 { return s.cfg.work() * 3 / 4 }

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

func (s *Server) warmup() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	if err := s.cfg.Warmup(ctx); err != nil {
		s.cfg.Logger.Error("warm-up failed: not ready", "err", err)
		return
	}
	s.cfg.Logger.Info("warmed up", "ms", time.Since(start).Milliseconds())
	s.ready.Store(true)
}

func (s *Server) readyz(c *gin.Context) {
	switch {
	case s.draining.Load():
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "shutting down"})
	case !s.ready.Load():
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "warming up"})
	default:
		c.JSON(http.StatusOK, gin.H{"status": "ready"})
	}
}

// Drain starts a graceful stop: /readyz fails, requests waiting for admission or for a long
// search are answered 503 at once, and new ones are refused. Work already admitted goes on;
// StopSearches ends the searches.
func (s *Server) Drain() {
	s.drainOnce.Do(func() {
		s.draining.Store(true)
		s.bodies.close()
		s.searches.close()
	})
}

// StopSearches ends every running search: each answers with the best plan it has.
func (s *Server) StopSearches() { s.stopSearches() }
