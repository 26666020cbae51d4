package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// panicReader stands in for a reader bug that slipped through.
type panicReader struct{}

func (panicReader) Read(context.Context, []byte) (Screenshot, error) {
	var boxes []int
	_ = boxes[3] // index out of range, like the reader's unclipped pixel accessor
	return nil, nil
}

// Defect 1: a panic in a handler answers a JSON 500 that the metrics count, and the server
// goes on serving.
func TestPanicIsJSON500(t *testing.T) {
	h := newTestServer(t, Config{Reader: panicReader{}})
	rec := do(t, h, "POST", "/api/solve", "image/png", pngImage(t, 8, 8))
	var doc errorDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != 500 || doc.Error.Code != solver.CodeInternal {
		t.Fatalf("got %d %q (%v), want 500 internal", rec.Code, rec.Body, err)
	}
	if strings.Contains(doc.Error.Message, "index out of range") {
		t.Errorf("the panic's text reached the client: %q", doc.Error.Message)
	}
	if rec := do(t, h, "POST", "/api/solve", "text/plain", []byte("3: red blue red | blue red blue | |")); rec.Code != 200 {
		t.Fatalf("after the panic: %d %s", rec.Code, rec.Body)
	}
	metrics := do(t, h, "GET", "/metrics", "", nil).Body.String()
	for _, want := range []string{`decant_requests_total{code="500",route="/api/solve"} 1`, "decant_panics_total 1"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// blockedBody is a request body that is read only once released, and says whether it was.
type blockedBody struct {
	release chan struct{}
	data    io.Reader
	touched atomic.Bool
}

func newBlockedBody(data []byte) *blockedBody {
	return &blockedBody{release: make(chan struct{}), data: bytes.NewReader(data)}
}

func (b *blockedBody) Read(p []byte) (int, error) {
	b.touched.Store(true)
	<-b.release
	return b.data.Read(p)
}

// post sends a body of the declared length in the background and returns its answer.
func post(h http.Handler, path string, body io.Reader, length int64) <-chan *httptest.ResponseRecorder {
	out := make(chan *httptest.ResponseRecorder, 1)
	req := httptest.NewRequest("POST", path, body)
	req.ContentLength = length
	req.Header.Set("Content-Type", "text/plain")
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		out <- rec
	}()
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func wantOverloaded(t *testing.T, rec *httptest.ResponseRecorder, status int) {
	t.Helper()
	var doc errorDoc
	json.Unmarshal(rec.Body.Bytes(), &doc)
	if rec.Code != status || doc.Error.Code != solver.CodeOverloaded || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("got %d %s (Retry-After %q), want %d overloaded with Retry-After", rec.Code, rec.Body, rec.Header().Get("Retry-After"), status)
	}
}

// Defect 2: work is admitted against one memory budget before its body is read.
func TestMemoryBudget(t *testing.T) {
	const mib = 1 << 20
	body := bytes.Repeat([]byte(" "), 1500<<10) // 1.5 MiB: one fits in the bodies' share of 6 MiB

	t.Run("a body waits for room before it is read", func(t *testing.T) {
		s := New(Config{MemoryBudget: 6 * mib, MaxUpload: 2 * mib, QueueWait: 50 * time.Millisecond, Logger: quiet()})
		first := newBlockedBody(body)
		firstDone := post(s, "/api/solve", first, int64(len(body)))
		waitFor(t, "the first body to be read", first.touched.Load)

		second := newBlockedBody(body)
		rec := <-post(s, "/api/solve", second, int64(len(body)))
		wantOverloaded(t, rec, http.StatusServiceUnavailable)
		if second.touched.Load() {
			t.Error("the refused request's body was read")
		}
		close(first.release)
		if rec := <-firstDone; rec.Code != http.StatusUnprocessableEntity { // spaces are no level
			t.Errorf("first request: %d %s", rec.Code, rec.Body)
		}
		if held, _ := s.memory.used(); held != 0 {
			t.Errorf("%d bytes still held after every answer", held)
		}
	})

	t.Run("a full queue answers 429", func(t *testing.T) {
		s := New(Config{MemoryBudget: 6 * mib, MaxUpload: 2 * mib, MaxQueue: 1, Logger: quiet()})
		first := newBlockedBody(body)
		firstDone := post(s, "/api/solve", first, int64(len(body)))
		waitFor(t, "the first body to be read", first.touched.Load)
		second := newBlockedBody(body)
		secondDone := post(s, "/api/solve", second, int64(len(body)))
		waitFor(t, "the second request to queue", func() bool { _, n := s.bodies.used(); return n == 1 })

		wantOverloaded(t, <-post(s, "/api/solve", strings.NewReader("x"), 1), http.StatusTooManyRequests)
		close(first.release)
		close(second.release)
		for _, done := range []<-chan *httptest.ResponseRecorder{firstDone, secondDone} {
			if rec := <-done; rec.Code != http.StatusUnprocessableEntity {
				t.Errorf("queued request: %d %s", rec.Code, rec.Body)
			}
		}
	})

	t.Run("pixels are admitted from the header", func(t *testing.T) {
		var reads atomic.Int32
		r := countingReader{&reads, fakeReader{"3: red blue red | blue red blue | |"}}
		s := New(Config{Reader: r, MemoryBudget: 64 * mib, Logger: quiet()})
		// 2000×2000 pixels cost 96 MB to read: more than half of the 43 MiB that work may hold
		// (64 MiB, less a third for the process).
		rec := do(t, s, "POST", "/api/read", "image/png", pngImage(t, 2000, 2000))
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "image_too_large") || reads.Load() != 0 {
			t.Fatalf("got %d %s after %d reads, want 413 before any read", rec.Code, rec.Body, reads.Load())
		}
		if rec := do(t, s, "POST", "/api/read", "image/png", pngImage(t, 500, 1000)); rec.Code != 200 || reads.Load() != 1 {
			t.Fatalf("a 0.5-megapixel image: %d %s", rec.Code, rec.Body)
		}
		if held, _ := s.memory.used(); held != 0 {
			t.Errorf("%d bytes still held after every answer", held)
		}
	})

	t.Run("search budgets fit in the memory budget", func(t *testing.T) {
		s := New(Config{MemoryBudget: 96 * mib, MaxMemory: 1 << 30, MaxSearches: 2})
		if s.cfg.MaxMemory != 16*mib {
			t.Errorf("per-search budget %d MiB, want 16 (two searches in half of 64 MiB)", s.cfg.MaxMemory/mib)
		}
	})
}

type countingReader struct {
	n *atomic.Int32
	r Reader
}

func (c countingReader) Read(ctx context.Context, data []byte) (Screenshot, error) {
	c.n.Add(1)
	return c.r.Read(ctx, data)
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// serveReal runs the server on a loopback listener; stop cancels Serve and returns its error.
func serveReal(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	var once sync.Once
	var serveErr error
	stop = func() error {
		once.Do(func() { cancel(); serveErr = <-errc })
		return serveErr
	}
	t.Cleanup(func() { stop() })
	return ln.Addr().String(), stop
}

// hardLevel keeps the solver busy for a minute or more (26 colours, 3 empty tubes: its
// optimal plan takes about 5.9 M stored states, 50–170 s of one core); tests stop it.
var hardLevel = gen.Deal(154, 26, 4, 3).Compact()

// budgetLevel is solved by the quick search in 92 pours; proving the shortest (85) stores
// 65,000 states, more than 1 MiB.
var budgetLevel = gen.Deal(3, 26, 4, 3)

// Defect 3: on shutdown every request gets an answer — work in hand is finished, searches are
// stopped with their best plan, waiting requests are refused with Retry-After — and Serve
// returns nil.
func TestShutdownAnswersEveryone(t *testing.T) {
	br := blockingReader{make(chan struct{}, 8), make(chan struct{})}
	s := New(Config{Reader: br, Readers: 1, MaxSearches: 1, QuickSearch: time.Millisecond,
		Timeout: time.Minute, Grace: 4 * time.Second, Logger: quiet()})
	addr, stop := serveReal(t, s)
	url := "http://" + addr

	type answer struct {
		what   string
		status int
		body   string
		retry  string
		err    error
	}
	answers := make(chan answer, 8)
	send := func(what, path, ctype string, body []byte) {
		go func() {
			res, err := http.Post(url+path, ctype, bytes.NewReader(body))
			if err != nil {
				answers <- answer{what: what, err: err}
				return
			}
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			answers <- answer{what, res.StatusCode, string(b), res.Header.Get("Retry-After"), err}
		}()
	}
	send("hard level in the long pool", "/api/solve", "text/plain", []byte(hardLevel))
	waitFor(t, "the long search", func() bool { n, _ := s.searches.used(); return n == 1 })
	send("hard level waiting for the long pool", "/api/solve", "text/plain", []byte(hardLevel))
	waitFor(t, "the second search to wait", func() bool { _, n := s.searches.used(); return n == 1 })
	send("screenshot being read", "/api/read", "image/png", pngImage(t, 8, 8))
	<-br.started

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	waitFor(t, "the drain", s.draining.Load)
	close(br.release)

	want := map[string]int{
		"hard level in the long pool":          http.StatusOK, // stopped, unknown with its best plan
		"hard level waiting for the long pool": http.StatusServiceUnavailable,
		"screenshot being read":                http.StatusOK,
	}
	for range want {
		a := <-answers
		if a.err != nil || a.status != want[a.what] {
			t.Errorf("%s: got %d %s (%v), want %d", a.what, a.status, a.body, a.err, want[a.what])
		}
		if a.status == http.StatusServiceUnavailable && a.retry == "" {
			t.Errorf("%s: 503 without Retry-After", a.what)
		}
		if a.what == "hard level in the long pool" && !strings.Contains(a.body, `"status":"unknown"`) && !strings.Contains(a.body, `"status":"unsolvable"`) {
			t.Errorf("stopped search: %s", a.body)
		}
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("still accepting after Serve returned")
	}
}

// rawConn dials the server and sends raw HTTP.
func rawConn(t *testing.T, addr, request string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// closedWithin reports whether the server closes c (after any answer) within d.
func closedWithin(c net.Conn, r *bufio.Reader, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, r)
	return err == nil // EOF: the server closed it; a timeout is an error
}

// Defect 4: slow bodies and idle keep-alives are cut off, and connections are capped.
func TestConnectionLimits(t *testing.T) {
	s := New(Config{ReadHeaderTimeout: 300 * time.Millisecond, ReadTimeout: 300 * time.Millisecond,
		IdleTimeout: 300 * time.Millisecond, MaxConns: 2, Logger: quiet()})
	addr, _ := serveReal(t, s)

	t.Run("a body sent byte by byte is cut off", func(t *testing.T) {
		c, r := rawConn(t, addr, "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n3")
		if !closedWithin(c, r, 5*time.Second) {
			t.Fatal("the connection with a stalled body is still open after 5 s")
		}
	})
	t.Run("an idle keep-alive is closed", func(t *testing.T) {
		c, r := rawConn(t, addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(r, nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("healthz: %v %v", res, err)
		}
		io.Copy(io.Discard, res.Body)
		if !closedWithin(c, r, 5*time.Second) {
			t.Fatal("the idle connection is still open after 5 s")
		}
	})
	t.Run("connections beyond the cap wait", func(t *testing.T) {
		addr, _ := serveReal(t, New(Config{ReadHeaderTimeout: time.Minute, MaxConns: 2, Logger: quiet()}))
		hold1, _ := rawConn(t, addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
		hold2, _ := rawConn(t, addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
		time.Sleep(50 * time.Millisecond) // let the server accept both
		c, r := rawConn(t, addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, err := r.Peek(1); err == nil {
			t.Fatal("a third connection was served while two were open")
		}
		hold1.Close()
		hold2.Close()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		res, err := http.ReadResponse(r, nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("the third connection once the others closed: %v %v", res, err)
		}
	})
}

// Defect 5: each misreported error now has its own status and code.
func TestErrorMapping(t *testing.T) {
	reader := fakeReader{"3: red blue red | blue red blue | |"}
	h := newTestServer(t, Config{Reader: reader, MaxUpload: 1 << 10})
	big := newTestServer(t, Config{Reader: reader})
	level := []byte("3: red blue red | blue red blue | |")
	ct, overLimit := multipartBody(t, "image", "big.png", bytes.Repeat([]byte("x"), 2048))
	longName := strings.Repeat("r", 10<<20)
	for _, tc := range []struct {
		name          string
		h             http.Handler
		method, path  string
		ct            string
		body          []byte
		chunked       bool
		status        int
		code          solver.Code
		header, value string
	}{
		{"multipart over the limit", h, "POST", "/api/solve", ct, overLimit, false, 413, solver.CodeImageTooLarge, "", ""},
		{"multipart over the limit, length not declared", h, "POST", "/api/solve", ct, overLimit, true, 413, solver.CodeImageTooLarge, "", ""},
		{"raw body over the limit, length not declared", h, "POST", "/api/solve", "text/plain", bytes.Repeat([]byte("x"), 2048), true, 413, solver.CodeImageTooLarge, "", ""},
		{"malformed query string", h, "POST", "/api/solve?fast=%zz", "text/plain", level, false, 400, solver.CodeInvalidArgument, "", ""},
		{"malformed query string on a form", h, "POST", "/api/solve?a=%zz", ct, overLimit[:100], false, 400, solver.CodeInvalidArgument, "", ""},
		{"fast=banana", h, "POST", "/api/solve?fast=banana", "text/plain", level, false, 400, solver.CodeInvalidArgument, "", ""},
		{"annotate=maybe", h, "POST", "/api/solve?annotate=maybe", "text/plain", level, false, 400, solver.CodeInvalidArgument, "", ""},
		{"unknown parameter", h, "POST", "/api/solve?fsat=1", "text/plain", level, false, 400, solver.CodeInvalidArgument, "", ""},
		{"read takes no parameters", h, "POST", "/api/read?fast=1", "image/png", pngImage(t, 8, 8), false, 400, solver.CodeInvalidArgument, "", ""},
		{"TIFF", h, "POST", "/api/solve", "image/tiff", []byte("II*\x00\x08\x00\x00\x00\x00\x00"), false, 415, solver.CodeUnreadableImage, "", ""},
		{"a PNG header without pixels", h, "POST", "/api/solve", "image/png", []byte("\x89PNG\r\n\x1a\nnothing"), false, 415, solver.CodeUnreadableImage, "", ""},
		{"binary bytes", h, "POST", "/api/solve", "application/octet-stream", []byte{1, 2, 0, 3, 255}, false, 415, solver.CodeUnreadableImage, "", ""},
		{"a 10 MB colour name", big, "POST", "/api/solve", "text/plain", []byte("1: " + longName + " | |"), false, 422, solver.CodeInvalidLevel, "", ""},
		{"a 65-byte colour name in JSON", big, "POST", "/api/solve", "application/json", []byte(`{"capacity": 1, "tubes": [["` + strings.Repeat("x", 65) + `"], []]}`), false, 422, solver.CodeInvalidLevel, "", ""},
		{"GET on a POST route", h, "GET", "/api/solve", "", nil, false, 405, solver.CodeMethodNotAllowed, "Allow", "POST"},
		{"DELETE on a GET route", h, "DELETE", "/healthz", "", nil, false, 405, solver.CodeMethodNotAllowed, "Allow", "GET, HEAD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, bytes.NewReader(tc.body))
			if tc.ct != "" {
				req.Header.Set("Content-Type", tc.ct)
			}
			if tc.chunked {
				req.ContentLength = -1
			}
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, req)
			var doc errorDoc
			json.Unmarshal(rec.Body.Bytes(), &doc)
			if rec.Code != tc.status || doc.Error.Code != tc.code {
				t.Fatalf("got %d %s, want %d %s", rec.Code, truncate(rec.Body.String(), 300), tc.status, tc.code)
			}
			if len(doc.Error.Message) > 300 {
				t.Errorf("a %d-byte message echoes the input", len(doc.Error.Message))
			}
			if tc.header != "" && rec.Header().Get(tc.header) != tc.value {
				t.Errorf("%s: %q, want %q", tc.header, rec.Header().Get(tc.header), tc.value)
			}
		})
	}
	t.Run("HEAD answers as GET", func(t *testing.T) {
		for _, path := range []string{"/", "/healthz", "/readyz", "/metrics", "/openapi.yaml"} {
			get, head := do(t, h, "GET", path, "", nil), do(t, h, "HEAD", path, "", nil)
			if head.Code != get.Code || head.Code != 200 || head.Header().Get("Content-Type") != get.Header().Get("Content-Type") {
				t.Errorf("HEAD %s: %d %q; GET: %d %q", path, head.Code, head.Header().Get("Content-Type"), get.Code, get.Header().Get("Content-Type"))
			}
		}
	})
}

// Defect 6: a search stopped by its budget answers 200 unknown with the best plan found.
func TestSearchBudgetAnswersBestPlan(t *testing.T) {
	h := newTestServer(t, Config{MaxMemory: 1 << 20})
	level := budgetLevel
	rec := do(t, h, "POST", "/api/solve", "text/plain", []byte(level.Compact()))
	var got solver.Report
	json.Unmarshal(rec.Body.Bytes(), &got)
	if rec.Code != 200 || got.Status != solver.StatusUnknown || got.Stats.Stopped != "memory" || got.Optimal {
		t.Fatalf("got %d %s stopped %q optimal %v", rec.Code, got.Status, got.Stats.Stopped, got.Optimal)
	}
	if len(got.Moves) == 0 {
		t.Fatal("no plan: the best plan found so far must be given")
	}
	moves := make([]solver.Move, len(got.Moves))
	for i, m := range got.Moves {
		moves[i] = solver.Move{From: m.From, To: m.To, Count: m.Count, Color: colorID(got.Level, m.Color)}
	}
	if err := solver.CheckPlan(got.Level, moves); err != nil {
		t.Fatalf("the best plan does not solve the level: %v", err)
	}
}

// Defect 7: with the long-search pool taken by a hard level, a quick level and a screenshot
// are answered while it still runs.
func TestQuickWorkPassesHardLevels(t *testing.T) {
	s := New(Config{Reader: fakeReader{"3: red blue red | blue red blue | |"}, MaxSearches: 1,
		QuickSearch: 5 * time.Millisecond, Timeout: time.Minute, Logger: quiet()})
	hard := make([]<-chan *httptest.ResponseRecorder, 2)
	for i := range hard {
		hard[i] = post(s, "/api/solve", strings.NewReader(hardLevel), int64(len(hardLevel)))
	}
	waitFor(t, "a long search and one waiting", func() bool {
		held, _ := s.searches.used()
		_, waiting := s.searches.used()
		return held == 1 && waiting == 1
	})
	for _, tc := range []struct {
		ct   string
		body []byte
	}{
		{"text/plain", []byte(gen.Deal(1, 10, 4, 2).Compact())},
		{"image/png", pngImage(t, 300, 600)},
	} {
		rec := do(t, s, "POST", "/api/solve", tc.ct, tc.body)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"solved"`) {
			t.Fatalf("%s: %d %s", tc.ct, rec.Code, truncate(rec.Body.String(), 200))
		}
		if held, waiting := s.searches.used(); held != 1 || waiting != 1 {
			t.Fatalf("the hard levels finished first (%d running, %d waiting): nothing shown", held, waiting)
		}
	}
	s.StopSearches()
	for _, done := range hard {
		if rec := <-done; rec.Code != 200 {
			t.Errorf("hard level: %d %s", rec.Code, rec.Body)
		}
	}
}

// blockingReader holds every read until release is closed.
type blockingReader struct {
	started chan struct{}
	release chan struct{}
}

func (b blockingReader) Read(ctx context.Context, data []byte) (Screenshot, error) {
	b.started <- struct{}{}
	<-b.release
	return fakeReader{"3: red blue red | blue red blue | |"}.Read(ctx, data)
}
