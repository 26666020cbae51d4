//go:build !novision

package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/decant/decant/server"
	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
	"github.com/decant/decant/vision/render"
)

// serveCmd is "decant serve".
type serveCmd struct {
	addr         string
	timeout      time.Duration
	maxUploadMB  int
	maxMemMB     int
	budgetMB     int
	searches     int
	readers      int
	queue        int
	queueWait    time.Duration
	readTimeout  time.Duration
	minRateKB    int
	uploadGrace  time.Duration
	writeTimeout time.Duration
	idleTimeout  time.Duration
	maxConns     int
	grace        time.Duration
	token        string
	cors         string
	logLevel     string
	envErr       error
}

// envPrefix names the environment variables that set serve's flags: DECANT_MEMORY_BUDGET sets
// --memory-budget. A flag on the command line wins over the environment.
const envPrefix = "DECANT_"

func (c *serveCmd) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", ":8080", "listen on this address")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "longest search per request")
	fs.IntVar(&c.maxUploadMB, "max-upload", 20, "largest upload in MiB")
	fs.IntVar(&c.maxMemMB, "max-memory", 256, "memory budget per search in MiB (at most half of --memory-budget)")
	fs.IntVar(&c.budgetMB, "memory-budget", 1024, "memory budget of the whole process in MiB: uploads in flight, decoded screenshots and searches (also sets GOMEMLIMIT, less a reserve for C memory, unless it is set)")
	fs.IntVar(&c.searches, "searches", 2, "long searches at once")
	fs.IntVar(&c.readers, "readers", 0, "screenshots read or annotated, and quick searches, at once (0: one per CPU)")
	fs.IntVar(&c.queue, "queue", 64, "requests waiting for admission before answering 429")
	fs.DurationVar(&c.queueWait, "queue-wait", 10*time.Second, "longest wait for admission or a worker before answering 503")
	fs.DurationVar(&c.readTimeout, "read-timeout", 60*time.Second, "longest time to read a request, body included")
	fs.IntVar(&c.minRateKB, "min-upload-rate", 16, "slowest upload in KiB/s, averaged once --upload-grace has passed (slower: 408)")
	fs.DurationVar(&c.uploadGrace, "upload-grace", 5*time.Second, "time an upload may take before --min-upload-rate applies")
	fs.DurationVar(&c.writeTimeout, "write-timeout", 0, "longest time from a request's headers to the end of its answer (0: from the other limits)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", 60*time.Second, "how long an idle keep-alive connection stays open")
	fs.IntVar(&c.maxConns, "max-conns", 512, "open connections at most; more wait to be accepted")
	fs.DurationVar(&c.grace, "grace", 20*time.Second, "on SIGTERM, time to finish admitted work before exiting")
	fs.StringVar(&c.token, "token", "", "bearer token required on /api/ routes (prefer DECANT_TOKEN: flags show in ps)")
	fs.StringVar(&c.cors, "cors-origins", "", "comma-separated origins allowed to call the API from browsers (\"*\": any)")
	fs.StringVar(&c.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.VisitAll(func(f *flag.Flag) {
		name := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			if err := f.Value.Set(v); err != nil && c.envErr == nil {
				c.envErr = &usageError{fmt.Sprintf("%s=%q: %v", name, v, err)}
			}
		}
	})
}

func (c *serveCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) != 0 {
		return &usageError{"serve takes no arguments"}
	}
	if c.envErr != nil {
		return c.envErr
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return &usageError{fmt.Sprintf("--log-level %q: want debug, info, warn or error", c.logLevel)}
	}
	if c.budgetMB < 64 || c.maxUploadMB < 1 || c.maxMemMB < 1 || c.minRateKB < 1 {
		return &usageError{"--memory-budget must be at least 64 MiB, --max-upload, --max-memory and --min-upload-rate at least 1"}
	}
	log := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	budget := int64(c.budgetMB) << 20
	tuneMalloc()
	var origins []string
	for _, o := range strings.Split(c.cors, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	srv := server.New(server.Config{
		Reader: visionReader{}, Animator: gifAnimator{}, Warmup: warmup,
		Timeout: c.timeout, MaxUpload: int64(c.maxUploadMB) << 20, MaxPixels: vision.MaxPixels,
		MaxMemory: int64(c.maxMemMB) << 20, MemoryBudget: budget,
		MaxSearches: c.searches, Readers: c.readers, MaxQueue: c.queue, QueueWait: c.queueWait,
		ReadTimeout: c.readTimeout, MinUploadRate: int64(c.minRateKB) << 10, UploadGrace: c.uploadGrace,
		WriteTimeout: c.writeTimeout, IdleTimeout: c.idleTimeout,
		MaxConns: c.maxConns, Grace: c.grace, Token: c.token, CORSOrigins: origins, Logger: log,
	})
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(srv.HeapLimit())
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "serve: %v", err)
	}
	log.Info("serving", "addr", ln.Addr().String(), "memory_budget_mib", c.budgetMB,
		"gomemlimit", debug.SetMemoryLimit(-1), "auth", c.token != "", "cors_origins", origins)
	return srv.Serve(ctx, ln)
}

// warmup reads a rendered level and solves it, so the first player does not pay for OpenCV's
// and the allocator's start-up.
func warmup(ctx context.Context) error {
	l, err := solver.ParseCompact("4: red blue red blue | blue red blue red | green green green green | |")
	if err != nil {
		return err
	}
	img, err := render.Render(l, render.Options{Width: 540, Height: 1200})
	if err != nil {
		return err
	}
	r, err := vision.Read(img.Data)
	if err != nil {
		return fmt.Errorf("reading a rendered level: %w", err)
	}
	plan, _, err := solver.Solve(ctx, r.Level, solver.Options{})
	if err != nil {
		return err
	}
	_, err = vision.Annotate(r, plan)
	return err
}

// visionReader adapts the vision package to the server's Reader.
type visionReader struct{}

func (visionReader) Read(_ context.Context, data []byte) (server.Screenshot, error) {
	r, err := vision.Read(data)
	if err != nil {
		return nil, err
	}
	return screenshot{r: r}, nil
}

type screenshot struct{ r *vision.Reading }

func (s screenshot) Level() *solver.Level                   { return s.r.Level }
func (s screenshot) Confidence() float64                    { return s.r.Confidence }
func (s screenshot) Reasons() []string                      { return s.r.Reasons }
func (s screenshot) Annotate(p solver.Plan) ([]byte, error) { return vision.Annotate(s.r, p) }
