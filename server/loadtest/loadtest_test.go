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
	// The hard level runs every search to the server's timeout, with one long search at a time
	// on 2 CPUs: a 2 s timeout keeps the mixed run's tail (four hard requests queued behind one
	// another) to seconds, and the core it holds from the other packages' tests.
	if err := run(true, "", 3*time.Second, 512, map[string]bool{"solves": true, "uploads": true, "mixed": true}, []string{"--timeout", "2s"}); err != nil {
		t.Fatal(err)
	}
}
