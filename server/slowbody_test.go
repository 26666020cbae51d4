package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/decant/decant/solver"
)

// slowReader "reads" any screenshot as a fixed level after a pause, under the request's
// context: a request cancelled meanwhile fails.
type slowReader struct{ pause time.Duration }

func (r slowReader) Read(ctx context.Context, data []byte) (Screenshot, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(r.pause):
	}
	return fakeReader{"3: red blue red | blue red blue | |"}.Read(ctx, data)
}

// A body that arrives slower than the minimum rate after the grace period is refused with
// 408 slow_upload, and its share of the memory budget is freed; a body that pauses within the
// grace period, and a request answered long after its body came, are not.
func TestMinUploadRate(t *testing.T) {
	s := New(Config{Reader: slowReader{time.Second}, MinUploadRate: 10_000, UploadGrace: 500 * time.Millisecond,
		ReadTimeout: time.Minute, Logger: quiet()})
	addr, _ := serveReal(t, s)
	level := "3: red blue red | blue red blue | |"
	shot := pngImage(t, 300, 600)
	boundary := "b0undary"
	formHead := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
	for _, tc := range []struct {
		name   string
		ctype  string
		length int
		parts  []string      // sent one after the other
		every  time.Duration // between parts
		status int
		code   solver.Code
	}{
		{"stalled after a few bytes", "text/plain", 100_000, []string{"3: red"}, 0, 408, solver.CodeSlowUpload},
		{"a byte at a time", "text/plain", 100_000, strings.Split(strings.Repeat("x", 40), ""), 20 * time.Millisecond, 408, solver.CodeSlowUpload},
		{"a form that stalls", "multipart/form-data; boundary=" + boundary, 100_000, []string{formHead, string(shot[:20])}, 0, 408, solver.CodeSlowUpload},
		{"a pause within the grace period", "text/plain", len(level), []string{level}, 100 * time.Millisecond, 200, ""},
		{"a screenshot answered after the rate's deadline", "image/png", len(shot), []string{string(shot)}, 0, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, r := rawConn(t, addr, fmt.Sprintf("POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", tc.ctype, tc.length))
			go func() {
				for _, p := range tc.parts {
					time.Sleep(tc.every)
					if _, err := io.WriteString(c, p); err != nil {
						return
					}
				}
			}()
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer res.Body.Close()
			var doc struct {
				Error struct {
					Code    solver.Code
					Message string
				}
			}
			json.NewDecoder(res.Body).Decode(&doc)
			if res.StatusCode != tc.status || doc.Error.Code != tc.code {
				t.Fatalf("got %d %q (%s), want %d %q", res.StatusCode, doc.Error.Code, doc.Error.Message, tc.status, tc.code)
			}
			for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
				if held, _ := s.memory.used(); held == 0 {
					break
				} else if time.Since(start) > 5*time.Second {
					t.Fatalf("%d bytes of the memory budget still held after the answer", held)
				}
			}
		})
	}
}
