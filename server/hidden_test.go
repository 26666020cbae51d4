package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/decant/decant/solver"
)

func TestSolveHiddenUnitsRevealLoop(t *testing.T) {
	h := newTestServer(t, Config{})
	var doc struct {
		Status    string `json:"status"`
		Moves     []any  `json:"moves"`
		Reveal    *struct{ Tube int }
		PSuccess  float64         `json:"p_success"`
		NextLevel json.RawMessage `json:"next_level"`
	}
	rec := do(t, h, "POST", "/api/solve", "", []byte("2: ? r | ? b | |"))
	if rec.Code != http.StatusOK {
		t.Fatalf("got %d, want 200: %s", rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "partial" || doc.Reveal == nil || len(doc.Moves) == 0 || doc.PSuccess <= 0 {
		t.Fatalf("got %s", rec.Body)
	}
	// next_level sent back as it is still has its "!" to fill in.
	rec = do(t, h, "POST", "/api/solve", "application/json", doc.NextLevel)
	var e errorDoc
	if json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != http.StatusUnprocessableEntity || e.Error.Code != solver.CodeHiddenUnits {
		t.Errorf("next_level with \"!\": got %d %s, want 422 hidden_units", rec.Code, rec.Body)
	}
	// With the colour written in (blue: the other hidden unit is then red), the next answer.
	var level struct {
		Capacity int        `json:"capacity"`
		Tubes    [][]string `json:"tubes"`
	}
	if err := json.Unmarshal(doc.NextLevel, &level); err != nil {
		t.Fatal(err)
	}
	tube := level.Tubes[doc.Reveal.Tube]
	tube[len(tube)-1] = "b"
	filled, _ := json.Marshal(level)
	rec = do(t, h, "POST", "/api/solve", "application/json", filled)
	if json.Unmarshal(rec.Body.Bytes(), &doc); rec.Code != http.StatusOK || doc.Status != "partial" && doc.Status != "solved" {
		t.Errorf("filled in: got %d %s", rec.Code, rec.Body)
	}
}

// A screenshot with hidden units is planned in the readers' pool when the planner settles it
// quickly, so it does not wait for a search slot behind hard levels; one the quick run does
// not settle goes on in the searches' pool.
func TestHiddenQuickRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		quick  time.Duration
		status int
	}{
		{"settled by the quick run", time.Minute, http.StatusOK},
		{"cut short: waits for a search slot", time.Nanosecond, http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{MaxSearches: 1, QuickSearch: tc.quick, QueueWait: 200 * time.Millisecond, Logger: quiet()})
			if err := s.searches.acquire(context.Background(), 1); err != nil { // a hard level holds the only slot
				t.Fatal(err)
			}
			rec := do(t, s, "POST", "/api/solve", "", []byte("2: ? r | ? b | |"))
			if rec.Code != tc.status {
				t.Fatalf("got %d %s, want %d", rec.Code, rec.Body, tc.status)
			}
		})
	}
}

// segmentReader reads any image as a mystery level and draws plans as text: the pours it was
// asked to draw, so that a test sees which plan reached the drawing.
type segmentReader struct{ fakeReader }

type segmentShot struct{ fakeShot }

func (r segmentReader) Read(ctx context.Context, data []byte) (Screenshot, error) {
	sc, err := r.fakeReader.Read(ctx, data)
	if err != nil {
		return nil, err
	}
	return segmentShot{sc.(fakeShot)}, nil
}

func (s segmentShot) Annotate(p solver.Plan) ([]byte, error) {
	out := "\x89PNG " + string(p.Status)
	for _, m := range p.Moves {
		out += fmt.Sprintf(" %d>%d", m.From, m.To)
	}
	return []byte(out), nil
}

// A screenshot with hidden units gets its segment drawn, as a solved one gets its plan.
func TestSolveHiddenScreenshotAnnotated(t *testing.T) {
	h := newTestServer(t, Config{Reader: segmentReader{fakeReader{"4: ? ? ? red | ? ? ? blue | ? ? ? green | ? ? ? red | ? ? ? yellow | |"}}})
	for _, tc := range []struct{ query, want string }{{"", "drawn"}, {"?annotate=0", "none"}} {
		t.Run(tc.want, func(t *testing.T) {
			rec := do(t, h, "POST", "/api/solve"+tc.query, "image/png", pngImage(t, 300, 600))
			var doc struct {
				Status string `json:"status"`
				Moves  []struct {
					From int `json:"from"`
					To   int `json:"to"`
				} `json:"moves"`
				Annotated string `json:"annotated_png"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != http.StatusOK || doc.Status != "partial" {
				t.Fatalf("got %d %s", rec.Code, rec.Body)
			}
			want := ""
			if tc.want == "drawn" {
				want = "\x89PNG partial"
				for _, m := range doc.Moves {
					want += fmt.Sprintf(" %d>%d", m.From, m.To)
				}
			}
			if got, _ := base64.StdEncoding.DecodeString(doc.Annotated); string(got) != want {
				t.Errorf("annotated_png %q, want %q", got, want)
			}
		})
	}
}
