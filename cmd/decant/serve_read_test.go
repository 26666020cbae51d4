package main

import (
	"bytes"
	"encoding/json"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/decant/decant/server"
	"github.com/decant/decant/solver"
)

// The server with the real reader answers a JPEG cut short, its end marker put back, with
// 415 unreadable_image: the reader checks the JPEG's data, which OpenCV alone would decode
// with a grey band and read as a wrong level.
func TestServeRefusesTruncatedJPEG(t *testing.T) {
	data, err := os.ReadFile("../../testdata/seed-98.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	cut := len(whole) * 9 / 10
	h := server.New(server.Config{Reader: visionReader{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, tc := range []struct {
		name   string
		data   []byte
		status int
		code   solver.Code
	}{
		{"whole", whole, 200, ""},
		{"cut at 90% with an end marker", append(whole[:cut:cut], 0xFF, 0xD9), 415, solver.CodeUnreadableImage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/read", bytes.NewReader(tc.data)))
			var doc struct{ Error struct{ Code solver.Code } }
			json.Unmarshal(rec.Body.Bytes(), &doc)
			if rec.Code != tc.status || doc.Error.Code != tc.code {
				t.Fatalf("got %d %q, want %d %q: %.200s", rec.Code, doc.Error.Code, tc.status, tc.code, rec.Body)
			}
		})
	}
}
