package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// solve LEVEL --annotate renders the level and draws the plan on it (in pure Go).
func TestAnnotateLevelFile(t *testing.T) {
	dir := t.TempDir()
	ann := filepath.Join(dir, "solved.png")
	level := filepath.Join(dir, "level.txt")
	if err := os.WriteFile(level, []byte("3: red blue red | blue red blue | |"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := decant(t, "", "solve", level, "--annotate", ann)
	if code != 0 || !strings.Contains(out, "annotated image: "+ann) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	f, err := os.Open(ann)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != 1080 || cfg.Height != 2400 {
		t.Errorf("annotated image: %d×%d, %v; want a 1080×2400 PNG", cfg.Width, cfg.Height, err)
	}
}
