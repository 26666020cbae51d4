package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

const (
	requestIDHeader = "X-Request-ID"
	requestIDKey    = "request_id"
)

// observe gives every request an ID (the client's X-Request-ID when it is a sane one), echoes
// it, and logs and counts the request once it is answered.
func (s *Server) observe(c *gin.Context) {
	start := time.Now()
	id := c.GetHeader(requestIDHeader)
	if !saneID(id) {
		var b [8]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	c.Set(requestIDKey, id)
	c.Header(requestIDHeader, id)
	c.Next()

	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	status := c.Writer.Status()
	s.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	level := s.cfg.Logger.Info
	if status >= 500 {
		level = s.cfg.Logger.Warn
	}
	if route == "/healthz" || route == "/readyz" || route == "/metrics" {
		level = s.cfg.Logger.Debug
	}
	level("request", requestIDKey, id, "method", c.Request.Method, "path", c.Request.URL.Path,
		"route", route, "status", status, "bytes_in", c.Request.ContentLength,
		"bytes_out", c.Writer.Size(), "ms", time.Since(start).Milliseconds(), "remote", c.ClientIP())
}

// saneID accepts request IDs of up to 64 letters, digits, '-', '_' and '.'.
func saneID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// recoverPanics turns a panic in a handler into a JSON 500 (counted by observe, which runs outside
// it) instead of a dropped connection or an empty answer.
func (s *Server) recoverPanics(c *gin.Context) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler { // the handler chose to drop the connection
			panic(v)
		}
		s.panics.Inc()
		s.cfg.Logger.Error("panic", requestIDKey, c.GetString(requestIDKey), "path", c.Request.URL.Path,
			"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		if c.Writer.Written() {
			c.Abort() // too late for a JSON answer; the status already sent stands
			return
		}
		s.fail(c, fmt.Errorf("panic: %v", v)) // internal: logged, not shown
	}()
	c.Next()
}

// headers sets the security headers on every answer. The page's policy allows scripts and
// styles only from the server's own files.
func (s *Server) headers(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", s.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	c.Next()
}

// cors allows the configured origins to call the API, and answers their preflight requests.
func (s *Server) cors(c *gin.Context) {
	origin := c.GetHeader("Origin")
	if origin == "" || !s.originAllowed(origin) {
		c.Next()
		return
	}
	h := c.Writer.Header()
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", requestIDHeader+", Retry-After")
	if c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != "" {
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, "+requestIDHeader)
		h.Set("Access-Control-Max-Age", "600")
		c.AbortWithStatus(http.StatusNoContent)
		return
	}
	c.Next()
}

func (s *Server) originAllowed(origin string) bool {
	return slices.Contains(s.cfg.CORSOrigins, "*") || slices.Contains(s.cfg.CORSOrigins, origin)
}

// auth requires the bearer token on /api/ routes when one is configured.
func (s *Server) auth(c *gin.Context) {
	if s.cfg.Token == "" || !strings.HasPrefix(c.Request.URL.Path, "/api/") {
		c.Next()
		return
	}
	got, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) != 1 {
		s.fail(c, &httpError{status: http.StatusUnauthorized, code: solver.CodeUnauthorized,
			msg: "this server needs an Authorization: Bearer token for /api/ requests"})
		return
	}
	c.Next()
}
