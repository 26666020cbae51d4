package main

import (
	"testing"
	"time"
)

// The CI slice of the load test: a real "decant serve", a few clients, 8 uploads of 19 MiB
// that must leave the server within its memory budget, and a short mixed run. It asserts the
// answers' shapes and the memory, never times.
func TestLoadQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs decant serve")
	}
	if err := run(true, "", 3*time.Second, 512, map[string]bool{"solves": true, "uploads": true, "mixed": true}, nil); err != nil {
		t.Fatal(err)
	}
}
