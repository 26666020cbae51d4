package server

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/decant/decant/solver/gen"
)

// A long search runs on the cores quick work leaves free, pauses while there are none, and
// after a rest runs a slice whatever the load; a paused search ends with its context.
func TestCPUShare(t *testing.T) {
	var quick atomic.Int64
	share := newCPUShare(2, func() int { return int(quick.Load()) })
	share.rest = time.Hour // no forced slices unless a case asks for them
	returns := func(yield func()) <-chan struct{} {
		done := make(chan struct{})
		go func() { yield(); close(done) }()
		return done
	}
	blocked := func(done <-chan struct{}) bool {
		select {
		case <-done:
			return false
		case <-time.After(50 * time.Millisecond):
			return true
		}
	}
	mustReturn := func(t *testing.T, done <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Yield still blocked after 10 s", what)
		}
	}
	ctx := context.Background()

	t.Run("a free core", func(t *testing.T) {
		quick.Store(1)
		yield, done := share.start(ctx)
		defer done()
		mustReturn(t, returns(yield), "one search, one core busy of two")
	})
	t.Run("no free core until quick work ends", func(t *testing.T) {
		quick.Store(2)
		yield, done := share.start(ctx)
		defer done()
		r := returns(yield)
		if !blocked(r) {
			t.Fatal("Yield returned while quick work held both cores")
		}
		quick.Store(1)
		mustReturn(t, r, "once a core is free")
	})
	t.Run("one free core for two searches", func(t *testing.T) {
		quick.Store(1)
		yieldA, doneA := share.start(ctx)
		yieldB, doneB := share.start(ctx)
		a := returns(yieldA) // A pauses: two searches and a read on two cores
		if !blocked(a) {
			t.Fatal("both searches ran beside a read on two cores")
		}
		mustReturn(t, returns(yieldB), "B, alone on the free core") // A is paused
		doneB()
		mustReturn(t, a, "A, once B ended")
		doneA()
	})
	t.Run("cancelled", func(t *testing.T) {
		quick.Store(2)
		ctx, cancel := context.WithCancel(ctx)
		yield, done := share.start(ctx)
		defer done()
		r := returns(yield)
		cancel()
		mustReturn(t, r, "after its context ended")
	})
	t.Run("a slice after the rest", func(t *testing.T) {
		quick.Store(2)
		share.rest, share.slice = 10*time.Millisecond, time.Hour
		defer func() { share.rest, share.slice = time.Hour, shareSlice }()
		yield, done := share.start(ctx)
		defer done()
		mustReturn(t, returns(yield), "after the rest")
		mustReturn(t, returns(yield), "within the slice")
	})
	if share.paused.Load() == 0 {
		t.Error("no paused time was counted")
	}
}

// In the server, a long search pauses while the readers' pool is full, and only then: the
// time it spent paused shows in the metrics.
func TestSearchesYieldToReads(t *testing.T) {
	hard := []byte(gen.Deal(3, 24, 4, 2).Compact()) // ~150,000 states to prove unsolvable
	for _, tc := range []struct {
		name      string
		readsHeld int64
		paused    bool
	}{
		{"reads hold every core", 2, true},
		{"no reads", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Three reader slots for two cores: the quick run gets the slot the test leaves.
			s := New(Config{Readers: 3, MaxSearches: 1, QuickSearch: time.Millisecond, Timeout: 300 * time.Millisecond, Logger: quiet()})
			s.share.cores = 2
			if tc.readsHeld > 0 {
				if err := s.readers.acquire(context.Background(), tc.readsHeld); err != nil {
					t.Fatal(err)
				}
			}
			if rec := do(t, s, "POST", "/api/solve", "text/plain", hard); rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			got := s.share.paused.Load() > 0
			if got != tc.paused {
				t.Errorf("paused: got %v, want %v", got, tc.paused)
			}
			body := do(t, s, "GET", "/metrics", "", nil).Body.String()
			if !strings.Contains(body, "decant_search_paused_seconds_total") {
				t.Error("no decant_search_paused_seconds_total in /metrics")
			}
		})
	}
}
