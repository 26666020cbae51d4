package server

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The semaphore serves waiters in order (a large one is not starved by small ones), gives
// back what a cancelled waiter was granted, and refuses everyone once closed.
func TestSemaphore(t *testing.T) {
	s := newSemaphore(10)
	ctx := context.Background()
	if err := s.acquire(ctx, 11); !errors.Is(err, errTooBig) {
		t.Fatalf("more than the size: %v", err)
	}
	if err := s.acquire(ctx, 6); err != nil {
		t.Fatal(err)
	}
	large := make(chan error)
	go func() { large <- s.acquire(ctx, 8) }()
	waitFor(t, "the large waiter", func() bool { _, n := s.used(); return n == 1 })
	small, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := s.acquire(small, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a small request jumped the queue: %v", err)
	}
	s.release(6)
	if err := <-large; err != nil {
		t.Fatal(err)
	}
	if held, _ := s.used(); held != 8 {
		t.Fatalf("held %d, want 8", held)
	}

	waiting := make(chan error)
	go func() { waiting <- s.acquire(ctx, 5) }()
	waitFor(t, "the waiter", func() bool { _, n := s.used(); return n == 1 })
	s.close()
	if err := <-waiting; !errors.Is(err, errClosed) {
		t.Fatalf("a waiter when closed: %v", err)
	}
	if err := s.acquire(ctx, 1); !errors.Is(err, errClosed) {
		t.Fatalf("acquire after close: %v", err)
	}
	s.release(8)
	if held, n := s.used(); held != 0 || n != 0 {
		t.Fatalf("held %d with %d waiting, want nothing", held, n)
	}
}
