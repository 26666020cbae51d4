package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// fakeAnimator stands in for the renderer: it writes the level and the pours it was given.
type fakeAnimator struct{ pad int }

func (f fakeAnimator) GIF(_ context.Context, l *solver.Level, moves []solver.Move) ([]byte, error) {
	return fmt.Appendf(nil, "GIF89a %s %d pours%s", l.Compact(), len(moves), strings.Repeat(" ", f.pad)), nil
}

func TestGIF(t *testing.T) {
	const level = `{"capacity": 2, "tubes": [["red", "blue"], ["blue", "red"], []]}`
	plan := `[{"from": 0, "to": 2, "count": 1, "color": "blue"}, {"from": 1, "to": 0, "count": 1, "color": "red"},
	          {"from": 1, "to": 2, "count": 1, "color": "blue"}]`
	long := make([]solver.ReportMove, MaxGIFPours+1)
	longJSON, _ := json.Marshal(long)
	tests := []struct {
		name     string
		animator Animator
		body     string
		code     int
		errCode  solver.Code
		want     string
	}{
		{"plan", fakeAnimator{}, `{"level": ` + level + `, "moves": ` + plan + `}`, 200, "", "GIF89a 2: red blue | blue red | 3 pours"},
		{"no moves", fakeAnimator{}, `{"level": ` + level + `, "moves": []}`, 200, "", "0 pours"},
		{"no renderer", nil, `{"level": ` + level + `, "moves": ` + plan + `}`, 400, solver.CodeInvalidArgument, ""},
		{"not JSON", fakeAnimator{}, `4: red | red`, 400, solver.CodeInvalidArgument, ""},
		{"unknown field", fakeAnimator{}, `{"level": ` + level + `, "moves": [], "fps": 9}`, 400, solver.CodeInvalidArgument, ""},
		{"no level", fakeAnimator{}, `{"moves": []}`, 400, solver.CodeInvalidArgument, ""},
		{"invalid level", fakeAnimator{}, `{"level": {"capacity": 2, "tubes": [["red"]]}, "moves": []}`, 422, solver.CodeInvalidLevel, ""},
		{"illegal pour", fakeAnimator{}, `{"level": ` + level + `, "moves": [{"from": 0, "to": 1, "count": 1, "color": "blue"}]}`, 422, solver.CodeInvalidPlan, ""},
		{"wrong count", fakeAnimator{}, `{"level": ` + level + `, "moves": [{"from": 0, "to": 2, "count": 2, "color": "blue"}]}`, 422, solver.CodeInvalidPlan, ""},
		{"unknown colour", fakeAnimator{}, `{"level": ` + level + `, "moves": [{"from": 0, "to": 2, "count": 1, "color": "mauve"}]}`, 422, solver.CodeInvalidPlan, ""},
		{"too many pours", fakeAnimator{}, `{"level": ` + level + `, "moves": ` + string(longJSON) + `}`, 400, solver.CodeInvalidArgument, ""},
		{"too large a body", fakeAnimator{}, `{"level": ` + level + `, "moves": [` + strings.Repeat(" ", maxGIFRequest) + `]}`, 400, solver.CodeInvalidArgument, ""},
		{"too large a GIF", fakeAnimator{pad: MaxGIFBytes}, `{"level": ` + level + `, "moves": []}`, 413, solver.CodeImageTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestServer(t, Config{Animator: tt.animator})
			rec := do(t, h, "POST", "/api/gif", "application/json", []byte(tt.body))
			if rec.Code != tt.code {
				t.Fatalf("got %d, want %d: %.300s", rec.Code, tt.code, rec.Body)
			}
			if tt.code == 200 {
				if ct := rec.Header().Get("Content-Type"); ct != "image/gif" {
					t.Errorf("content type %q", ct)
				}
				if got := rec.Body.String(); !strings.Contains(got, tt.want) {
					t.Errorf("got %q, want %q", got, tt.want)
				}
				return
			}
			var e errorDoc
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Code != tt.errCode || e.Error.Message == "" {
				t.Errorf("got %s, want code %s", rec.Body, tt.errCode)
			}
		})
	}
}
