package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/decant/decant/solver"
)

// Real answers of every route and every status the API gives, validated against
// openapi.yaml (statuses the document does not list fail too).
func TestOpenAPI(t *testing.T) {
	ctx := context.Background()
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	// The page and this document are checked as text (the YAML decoder would parse the
	// document instead of taking it as the string the schema describes).
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/yaml", openapi3filter.PlainBodyDecoder)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}

	reader := fakeReader{"3: red blue red | blue red blue | |"}
	plain := newTestServer(t, Config{Reader: reader, MaxUpload: 1 << 20})
	budget := newTestServer(t, Config{MaxMemory: 1 << 20})
	locked := newTestServer(t, Config{Reader: reader, Token: "secret"})
	panicky := newTestServer(t, Config{Reader: panicReader{}})
	full := New(Config{Reader: reader, MaxQueue: 1, Logger: quiet()})
	full.queued.Store(1)
	draining := New(Config{Reader: reader, Logger: quiet()})
	draining.Drain()
	impatient := slowClient{newTestServer(t, Config{MinUploadRate: 1000, UploadGrace: time.Millisecond})}

	animated := newTestServer(t, Config{Animator: fakeAnimator{}})
	gifBody := []byte(`{"level": {"capacity": 2, "tubes": [["a", "b"], ["b", "a"], []]}, "moves": [{"from": 0, "to": 2, "count": 1, "color": "b"}]}`)
	shot := pngImage(t, 300, 600)
	ct, form := multipartBody(t, "image", "shot.png", shot)
	level := "3: red blue red | blue red blue | |"
	for _, tc := range []struct {
		name         string
		h            http.Handler
		method, path string
		ct           string
		body         []byte
		status       int
	}{
		{"solve a level", plain, "POST", "/api/solve", "text/plain", []byte(level), 200},
		{"solve a JSON level", plain, "POST", "/api/solve", "application/json", []byte(`{"capacity": 2, "tubes": [["a", "b"], ["b", "a"], []]}`), 200},
		{"solve a screenshot", plain, "POST", "/api/solve", ct, form, 200},
		{"solve without the image", plain, "POST", "/api/solve?annotate=0&fast=1", "image/png", shot, 200},
		{"unsolvable", plain, "POST", "/api/solve", "text/plain", []byte("3: blue red green | green red blue | green red blue | "), 200},
		{"stopped by the budget", budget, "POST", "/api/solve", "text/plain", []byte(budgetLevel.Compact()), 200},
		{"read", plain, "POST", "/api/read", "image/png", shot, 200},
		{"partial plan", plain, "POST", "/api/solve", "text/plain", []byte("2: ? r | ? b | |"), 200},
		{"gif", animated, "POST", "/api/gif", "application/json", gifBody, 200},
		{"gif that does not replay", animated, "POST", "/api/gif", "application/json", []byte(`{"level": {"capacity": 2, "tubes": [["a", "b"], ["b", "a"], []]}, "moves": [{"from": 0, "to": 1, "count": 1, "color": "b"}]}`), 422},
		{"bad parameter", plain, "POST", "/api/solve?fast=banana", "text/plain", []byte(level), 400},
		{"no token", locked, "POST", "/api/read", "image/png", shot, 401},
		{"too large", plain, "POST", "/api/solve", "text/plain", bytes.Repeat([]byte("x"), 2<<20), 413},
		{"unreadable", plain, "POST", "/api/read", "image/tiff", []byte("II*\x00\x08\x00\x00\x00"), 415},
		{"invalid level", plain, "POST", "/api/solve", "text/plain", []byte("3: red red | blue | |"), 422},
		{"no puzzle", plain, "POST", "/api/read", "image/png", append(shot, "no puzzle"...), 422},
		{"slow upload", impatient, "POST", "/api/solve", "text/plain", []byte(level), 408},
		{"queue full", full, "POST", "/api/solve", "text/plain", []byte(level), 429},
		{"panic", panicky, "POST", "/api/read", "image/png", shot, 500},
		{"shutting down", draining, "POST", "/api/solve", "text/plain", []byte(level), 503},
		{"page", plain, "GET", "/", "", nil, 200},
		{"no static file", plain, "GET", "/static/nope.js", "", nil, 404},
		{"healthz", plain, "GET", "/healthz", "", nil, 200},
		{"ready", plain, "GET", "/readyz", "", nil, 200},
		{"not ready", draining, "GET", "/readyz", "", nil, 503},
		{"metrics", plain, "GET", "/metrics", "", nil, 200},
		{"openapi", plain, "GET", "/openapi.yaml", "", nil, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, bytes.NewReader(tc.body))
			if tc.ct != "" {
				req.Header.Set("Content-Type", tc.ct)
			}
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, truncate(rec.Body.String(), 300))
			}
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("no route in openapi.yaml: %v", err)
			}
			in := &openapi3filter.ResponseValidationInput{
				RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
				Status:                 rec.Code,
				Header:                 rec.Header(),
				Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
				Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
			}
			if err := openapi3filter.ValidateResponse(ctx, in); err != nil {
				t.Fatalf("the answer does not match openapi.yaml: %v\n%s", err, truncate(rec.Body.String(), 500))
			}
			if rec.Code == 429 || rec.Code == 503 && strings.HasPrefix(tc.path, "/api/") {
				if rec.Header().Get("Retry-After") == "" {
					t.Error("no Retry-After")
				}
			}
		})
	}
}

// slowClient sends bodies a byte every 20 ms.
type slowClient struct{ h http.Handler }

func (s slowClient) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = io.NopCloser(iotest.OneByteReader(&pausingReader{r.Body, 20 * time.Millisecond}))
	s.h.ServeHTTP(w, r)
}

// pausingReader waits before every read.
type pausingReader struct {
	r     io.Reader
	pause time.Duration
}

func (p *pausingReader) Read(b []byte) (int, error) {
	time.Sleep(p.pause)
	return p.r.Read(b)
}

// The server's error codes are the solver's vocabulary, each with its HTTP status, and
// openapi.yaml lists exactly them.
func TestErrorCodesAgree(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, v := range doc.Components.Schemas["Error"].Value.Properties["error"].Value.Properties["code"].Value.Enum {
		documented = append(documented, fmt.Sprint(v))
	}
	var codes []string
	for _, c := range solver.Codes() {
		codes = append(codes, string(c))
		if _, ok := statusOf[c]; !ok {
			t.Errorf("code %q has no HTTP status", c)
		}
	}
	if len(statusOf) != len(codes) {
		t.Errorf("statusOf maps %d codes; the vocabulary has %d", len(statusOf), len(codes))
	}
	if got, want := strings.Join(documented, " "), strings.Join(codes, " "); got != want {
		t.Errorf("openapi.yaml's error codes:\n got %s\nwant %s", got, want)
	}
}

// Every route the server registers is described in openapi.yaml (HEAD answers as GET does).
func TestOpenAPICoversEveryRoute(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Logger: quiet()})
	routes := s.router.Routes()
	if len(routes) == 0 {
		t.Fatal("the server registers no routes")
	}
	for _, r := range routes {
		if r.Method == http.MethodHead {
			continue
		}
		path := r.Path
		if i := strings.IndexAny(path, ":*"); i >= 0 {
			path = path[:i] + "{" + path[i+1:] + "}"
		}
		item := doc.Paths.Find(path)
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is not in openapi.yaml", r.Method, r.Path)
		}
	}
}
