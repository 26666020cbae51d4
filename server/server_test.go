package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
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

const pngMagic = "\x89PNG\r\n\x1a\n"

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
		{"image without reader", noReader, "POST", "/api/solve", []byte(pngMagic + "pixels"), 400, solver.CodeInvalidArgument, "no screenshot reader"},
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
	ct, body := multipartBody(t, "image", "shot.png", []byte(pngMagic+"pixels"))
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

	rec = do(t, h, "POST", "/api/read", "image/png", []byte(pngMagic+"pixels"))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"capacity":3`) {
		t.Fatalf("read: %d %s", rec.Code, rec.Body)
	}
	rec = do(t, h, "POST", "/api/solve", "image/png", []byte(pngMagic+"no puzzle"))
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

// A search that cannot finish within the server's budget answers unknown, not unsolvable.
func TestSearchBudget(t *testing.T) {
	h := newTestServer(t, Config{MaxMemory: 1 << 20})
	level := gen.Deal(3, 24, 4, 2) // unsolvable, but only after ~150,000 states
	rec := do(t, h, "POST", "/api/solve", "text/plain", []byte(level.Compact()))
	var got solver.Report
	json.Unmarshal(rec.Body.Bytes(), &got)
	if rec.Code != 200 || got.Status != solver.StatusUnknown || got.Stats.Stopped != "memory" {
		t.Fatalf("got %d %s stopped %q", rec.Code, got.Status, got.Stats.Stopped)
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

// Work beyond MaxSearches waits for a slot, and gives up with its request.
func TestSlots(t *testing.T) {
	br := blockingReader{make(chan struct{}), make(chan struct{})}
	h := newTestServer(t, Config{Reader: br, MaxSearches: 1})
	done := make(chan int)
	go func() { done <- do(t, h, "POST", "/api/read", "image/png", []byte(pngMagic)).Code }()
	<-br.started // the only slot is taken

	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("POST", "/api/solve", strings.NewReader("3: red blue red | blue red blue | |")).WithContext(ctx)
	rec := httptest.NewRecorder()
	cancel()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "budget_exhausted") {
		t.Fatalf("waiting request: %d %s", rec.Code, rec.Body)
	}
	close(br.release)
	if code := <-done; code != http.StatusOK {
		t.Fatalf("first request: %d", code)
	}
}
