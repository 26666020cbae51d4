package server

import (
	"io/fs"
	"strings"
	"testing"
)

// TestPageFiles serves the page and every file under static/ with its type and a CSP that
// allows no inline script; other paths are JSON 404s.
func TestPageFiles(t *testing.T) {
	h := newTestServer(t, Config{})
	files, err := fs.Glob(staticFiles, "static/*")
	if err != nil || len(files) < 2 {
		t.Fatalf("static files %v, %v", files, err)
	}
	types := map[string]string{".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
	for _, f := range append([]string{"/"}, files...) {
		path := "/" + f
		if f == "/" {
			path, f = "/", "index.html"
		}
		rec := do(t, h, "GET", path, "", nil)
		ext := f[strings.LastIndex(f, "."):]
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), types[ext]) {
			t.Errorf("GET %s: %d %q", path, rec.Code, rec.Header().Get("Content-Type"))
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
		if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", path)
		}
	}
	for _, path := range []string{"/static/", "/static/nope.js", "/static/../page.go", "/static/static/index.html"} {
		if rec := do(t, h, "GET", path, "", nil); rec.Code != 404 || !strings.Contains(rec.Body.String(), `"not_found"`) {
			t.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
}
