package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Serve answers HTTP on ln until ctx is done, then stops gracefully: it drains (refusing new
// and waiting work with 503 and Retry-After), lets admitted work finish, stops searches that
// are still running three quarters into the grace period (they answer with their best plan),
// and returns nil once every answer is sent. Connections are capped at MaxConns, and each has
// read, write and idle timeouts.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ln = netutil.LimitListener(ln, s.cfg.MaxConns)
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.cfg.Logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}

	start := time.Now()
	s.cfg.Logger.Info("shutting down", "grace", s.cfg.Grace.String())
	s.Drain()
	srv.SetKeepAlivesEnabled(false)
	stop := time.AfterFunc(s.cfg.Grace*3/4, s.StopSearches)
	defer stop.Stop()
	grace, cancel := context.WithTimeout(context.Background(), s.cfg.Grace)
	defer cancel()
	err := srv.Shutdown(grace)
	if err != nil {
		srv.Close()
		return errors.Join(errors.New("shutting down: the grace period ended with requests unanswered"), err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	s.cfg.Logger.Info("stopped", "ms", time.Since(start).Milliseconds())
	return nil
}
