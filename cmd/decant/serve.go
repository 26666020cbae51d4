//go:build !novision

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/decant/decant/server"
	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

// serveCmd is "decant serve".
type serveCmd struct {
	addr        string
	timeout     time.Duration
	maxUploadMB int
	maxMemMB    int
	searches    int
}

func (c *serveCmd) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", ":8080", "listen on this address")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "longest search per request")
	fs.IntVar(&c.maxUploadMB, "max-upload", 20, "largest upload in MiB")
	fs.IntVar(&c.maxMemMB, "max-memory", 256, "memory budget per search in MiB")
	fs.IntVar(&c.searches, "searches", 2, "screenshots read or levels solved at once")
}

func (c *serveCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) != 0 {
		return &usageError{"serve takes no arguments"}
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	h := server.New(server.Config{
		Reader: visionReader{}, Timeout: c.timeout, MaxUpload: int64(c.maxUploadMB) << 20,
		MaxMemory: int64(c.maxMemMB) << 20, MaxSearches: c.searches, Logger: log,
	})
	srv := &http.Server{Addr: c.addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("serving", "addr", c.addr)
	select {
	case err := <-errc:
		return solver.Errorf(solver.CodeInvalidArgument, "serve: %v", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// visionReader adapts the vision package to the server's Reader.
type visionReader struct{}

func (visionReader) Read(_ context.Context, data []byte) (server.Screenshot, error) {
	r, err := vision.Read(data)
	if err != nil {
		return nil, err
	}
	return screenshot{data: data, r: r}, nil
}

type screenshot struct {
	data []byte
	r    *vision.Reading
}

func (s screenshot) Level() *solver.Level                   { return s.r.Level }
func (s screenshot) Confidence() float64                    { return s.r.Confidence }
func (s screenshot) Reasons() []string                      { return s.r.Reasons }
func (s screenshot) Annotate(p solver.Plan) ([]byte, error) { return vision.Annotate(s.data, s.r, p) }
