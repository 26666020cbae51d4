package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// fakeReader stands in for the vision package: it "reads" any PNG as a fixed level.
type fakeReader struct{ level string }

func (f fakeReader) Read(_ context.Context, data []byte) (Screenshot, error) {
	if bytes.Contains(data, []byte("no puzzle")) {
		return nil, solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found")
	}
	l, err := solver.ParseCompact(f.level)
	if err != nil {
		return nil, err
	}
	return fakeShot{l}, nil
}

type fakeShot struct{ l *solver.Level }

func (s fakeShot) Level() *solver.Level { return s.l }
func (s fakeShot) Confidence() float64  { return 0.9 }
func (s fakeShot) Reasons() []string    { return []string{"fake"} }
func (s fakeShot) Annotate(p solver.Plan) ([]byte, error) {
	return []byte("\x89PNG annotated " + string(p.Status)), nil
}

// pngImage is a real w×h PNG: the server reads image headers before admitting the pixels.
func pngImage(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func newTestServer(t *testing.T, cfg Config) http.Handler {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return New(cfg)
}

func do(t *testing.T, h http.Handler, method, path, contentType string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func multipartBody(t *testing.T, field, name string, data []byte) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

type errorDoc struct {
	Error struct {
		Code    solver.Code `json:"code"`
		Message string      `json:"message"`
	} `json:"error"`
}

func TestSolveLevels(t *testing.T) {
	h := newTestServer(t, Config{})
	seed98 := "14\n4\n\n\ngg rr po ge\nge g0 po b0\npi g0 bb oo\ngg bb rr br\npi yy bb b0\nbr g0 rr oo\nrr oo zz gg\ng0 pi ge br\nyy zz b0 yy\npi zz zz br\nb0 po bb ge\noo po gg yy\n"
	ct, form := multipartBody(t, "level", "seed-98.txt", []byte(seed98))
	for _, tc := range []struct {
		name, ct string
		body     []byte
		status   solver.Status
		pours    int
	}{
		{"text body", "text/plain", []byte(seed98), solver.StatusSolved, 40},
		{"json body", "application/json", []byte(`{"capacity": 3, "tubes": [["red","blue","red"],["blue","red","blue"],[],[]]}`), solver.StatusSolved, 5},
		{"compact body", "text/plain", []byte("3: blue red green | green red blue | green red blue | "), solver.StatusUnsolvable, 0},
		{"multipart level file", ct, form, solver.StatusSolved, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, h, "POST", "/api/solve", tc.ct, tc.body)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got solver.Report
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Status != tc.status || len(got.Moves) != tc.pours {
				t.Fatalf("got %s with %d pours, want %s with %d", got.Status, len(got.Moves), tc.status, tc.pours)
			}
			if tc.status == solver.StatusSolved {
				if !got.Optimal {
					t.Error("optimal: got false")
				}
				moves := make([]solver.Move, len(got.Moves))
				for i, m := range got.Moves {
					moves[i] = solver.Move{From: m.From, To: m.To, Count: m.Count, Color: colorID(got.Level, m.Color)}
				}
				if err := solver.CheckPlan(got.Level, moves); err != nil {
					t.Fatalf("the plan does not replay: %v", err)
				}
			}
		})
	}
}

func colorID(l *solver.Level, name string) solver.Color {
	for i, n := range l.Names {
		if n == name {
			return solver.Color(i)
		}
	}
	return 0
}

// The one error table: each application error reaches the client with its status and code.
func TestErrors(t *testing.T) {
	h := newTestServer(t, Config{MaxUpload: 1 << 10})
	noReader := newTestServer(t, Config{})
	for _, tc := range []struct {
		name    string
		h       http.Handler
		method  string
		path    string
		body    []byte
		status  int
		code    solver.Code
		message string
	}{
		{"invalid level", h, "POST", "/api/solve", []byte("4: r r r | b b b b | |"), 422, solver.CodeInvalidLevel, `colour "r" has 3 units`},
		{"hidden units", h, "POST", "/api/solve", []byte("2: r ? | b ? | |"), 422, solver.CodeHiddenUnits, "hidden"},
		{"empty body", h, "POST", "/api/solve", nil, 400, solver.CodeInvalidArgument, "empty request"},
		{"too large", h, "POST", "/api/solve", bytes.Repeat([]byte("x"), 2048), 413, solver.CodeImageTooLarge, "over"},
		{"image without reader", noReader, "POST", "/api/solve", pngImage(t, 8, 8), 400, solver.CodeInvalidArgument, "no screenshot reader"},
		{"read takes images only", h, "POST", "/api/read", []byte("3: a b a | b a b | |"), 400, solver.CodeInvalidArgument, "takes a screenshot"},
		{"unknown route", h, "GET", "/nope", nil, 404, solver.CodeNotFound, "no route"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, tc.h, tc.method, tc.path, "text/plain", tc.body)
			var doc errorDoc
			json.Unmarshal(rec.Body.Bytes(), &doc)
			if rec.Code != tc.status || doc.Error.Code != tc.code || !strings.Contains(doc.Error.Message, tc.message) {
				t.Fatalf("got %d %q %q, want %d %q containing %q", rec.Code, doc.Error.Code, doc.Error.Message, tc.status, tc.code, tc.message)
			}
		})
	}
}

func TestScreenshots(t *testing.T) {
	h := newTestServer(t, Config{Reader: fakeReader{"3: red blue red | blue red blue | |"}})
	shot := pngImage(t, 300, 600)
	ct, body := multipartBody(t, "image", "shot.png", shot)
	rec := do(t, h, "POST", "/api/solve", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var got struct {
		solver.Report
		Reading   readingDoc `json:"reading"`
		Annotated string     `json:"annotated_png"`
	}
	json.Unmarshal(rec.Body.Bytes(), &got)
	png, _ := base64.StdEncoding.DecodeString(got.Annotated)
	if got.Status != solver.StatusSolved || got.Reading.Confidence != 0.9 || string(png) != "\x89PNG annotated solved" {
		t.Fatalf("got %+v", got)
	}

	rec = do(t, h, "POST", "/api/read", "image/png", shot)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"capacity":3`) {
		t.Fatalf("read: %d %s", rec.Code, rec.Body)
	}
	rec = do(t, h, "POST", "/api/solve", "image/png", append(shot, "no puzzle"...))
	var doc errorDoc
	json.Unmarshal(rec.Body.Bytes(), &doc)
	if rec.Code != 422 || doc.Error.Code != solver.CodeNoPuzzle {
		t.Fatalf("no puzzle: %d %s", rec.Code, rec.Body)
	}
}

func TestPagesHealthAndMetrics(t *testing.T) {
	h := newTestServer(t, Config{})
	if rec := do(t, h, "GET", "/", "", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), "<form") {
		t.Fatalf("upload page: %d", rec.Code)
	}
	if rec := do(t, h, "GET", "/healthz", "", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"ok"`) {
		t.Fatalf("healthz: %d %s", rec.Code, rec.Body)
	}
	do(t, h, "POST", "/api/solve", "text/plain", []byte("3: red blue red | blue red blue | |"))
	rec := do(t, h, "GET", "/metrics", "", nil)
	if !strings.Contains(rec.Body.String(), `decant_requests_total{code="200",route="/api/solve"} 1`) ||
		!strings.Contains(rec.Body.String(), `decant_search_seconds_count{status="solved"} 1`) {
		t.Fatalf("metrics:\n%s", rec.Body)
	}
}

func TestRequestIDsAndHeaders(t *testing.T) {
	h := newTestServer(t, Config{})
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.Header.Set("X-Request-ID", "phone-42.a_b")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("X-Request-ID"); got != "phone-42.a_b" {
		t.Errorf("a sane client ID: echoed %q", got)
	}
	for _, bad := range []string{"", "has space", strings.Repeat("x", 65), "<script>"} {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.Header.Set("X-Request-ID", bad)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("X-Request-ID"); got == bad || len(got) != 16 {
			t.Errorf("client ID %q: echoed %q, want a new 16-hex-digit ID", bad, got)
		}
	}
	rec = do(t, h, "GET", "/", "", nil)
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP allows unsafe script: %q", csp)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no X-Content-Type-Options: nosniff")
	}
}

// The policy allows exactly the page's inline blocks, by hash, while the page still has them.
func TestContentSecurityPolicyHashes(t *testing.T) {
	for _, tc := range []struct{ page, want string }{
		{`<script src="/static/page.js"></script>`, "script-src 'self'; style-src 'self';"},
		{`<script>alert(1)</script>`, "script-src 'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='; style-src 'self';"},
	} {
		if got := contentSecurityPolicy([]byte(tc.page)); !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want it to contain %q", tc.page, got, tc.want)
		}
	}
}

func TestReadyz(t *testing.T) {
	warm := make(chan struct{})
	s := New(Config{Logger: quiet(), Warmup: func(context.Context) error { <-warm; return nil }})
	if rec := do(t, s, "GET", "/readyz", "", nil); rec.Code != 503 || !strings.Contains(rec.Body.String(), "warming up") {
		t.Fatalf("before warm-up: %d %s", rec.Code, rec.Body)
	}
	close(warm)
	waitFor(t, "the warm-up", s.ready.Load)
	if rec := do(t, s, "GET", "/readyz", "", nil); rec.Code != 200 {
		t.Fatalf("warmed up: %d %s", rec.Code, rec.Body)
	}
	s.Drain()
	if rec := do(t, s, "GET", "/readyz", "", nil); rec.Code != 503 || !strings.Contains(rec.Body.String(), "shutting down") {
		t.Fatalf("draining: %d %s", rec.Code, rec.Body)
	}
	if rec := do(t, s, "GET", "/healthz", "", nil); rec.Code != 200 {
		t.Fatalf("healthz while draining: %d", rec.Code)
	}
}

func TestAuthAndCORS(t *testing.T) {
	h := newTestServer(t, Config{Token: "s3cret", CORSOrigins: []string{"https://app.example"}})
	level := "3: red blue red | blue red blue | |"
	for _, tc := range []struct {
		name, auth, origin string
		status             int
		allowOrigin        string
	}{
		{"no token", "", "", 401, ""},
		{"wrong token", "Bearer nope", "", 401, ""},
		{"not bearer", "Basic czNjcmV0", "", 401, ""},
		{"token", "Bearer s3cret", "", 200, ""},
		{"allowed origin", "Bearer s3cret", "https://app.example", 200, "https://app.example"},
		{"other origin", "Bearer s3cret", "https://evil.example", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/api/solve", strings.NewReader(level))
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || rec.Header().Get("Access-Control-Allow-Origin") != tc.allowOrigin {
				t.Fatalf("got %d, allow-origin %q; want %d, %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"), tc.status, tc.allowOrigin)
			}
			if tc.status == 401 && rec.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	// A preflight needs no token; the page and health checks need none either.
	req := httptest.NewRequest("OPTIONS", "/api/solve", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 204 || !strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight: %d %v", rec.Code, rec.Header())
	}
	for _, path := range []string{"/", "/healthz"} {
		if rec := do(t, h, "GET", path, "", nil); rec.Code != 200 {
			t.Errorf("%s with auth on: %d", path, rec.Code)
		}
	}
}

func TestStaticFiles(t *testing.T) {
	h := newTestServer(t, Config{})
	for _, path := range []string{"/static/.gitkeep", "/static/", "/static/../page.go", "/static/nope.js"} {
		if rec := do(t, h, "GET", path, "", nil); rec.Code != 404 {
			t.Errorf("%s: %d, want 404", path, rec.Code)
		}
	}
	entries, _ := staticFiles.ReadDir("static")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		want, _ := staticFiles.ReadFile("static/" + e.Name())
		rec := do(t, h, "GET", "/static/"+e.Name(), "", nil)
		if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) || rec.Header().Get("ETag") == "" {
			t.Errorf("%s: %d, %d bytes", e.Name(), rec.Code, rec.Body.Len())
		}
		req := httptest.NewRequest("GET", "/static/"+e.Name(), nil)
		req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
		again := httptest.NewRecorder()
		h.ServeHTTP(again, req)
		if again.Code != 304 {
			t.Errorf("%s revalidated: %d, want 304", e.Name(), again.Code)
		}
	}
}
