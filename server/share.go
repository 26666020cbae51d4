package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// How long searches share the CPU with quick work: a long search that finds no core free of
// quick work pauses for at most shareRest, then runs for shareSlice whatever the load, so it
// always keeps about a tenth of a core; shareTick is how often a paused search looks again.
const (
	shareSlice = 20 * time.Millisecond
	shareRest  = 180 * time.Millisecond
	shareTick  = 2 * time.Millisecond
)

// cpuShare gives the cores to quick work first: long searches run on the cores that the
// readers' pool (screenshots being read or annotated, quick searches) leaves free.
// A long search checks between batches of expansions (solver.Options.Yield) and pauses while
// there is no such core.
//
// Priorities alone do not do this: the Go scheduler shares its GOMAXPROCS threads among
// runnable goroutines whatever their OS priority, so a search that only runs at a lower
// priority still takes its turns on them.
type cpuShare struct {
	cores       int
	quick       func() int // slots of the readers' pool held
	slice, rest time.Duration
	mu          sync.Mutex
	// running counts long searches not paused.
	running int
	paused  atomic.Int64 // nanoseconds long searches spent paused, in all
}

func newCPUShare(cores int, quick func() int) *cpuShare {
	return &cpuShare{cores: cores, quick: quick, slice: shareSlice, rest: shareRest}
}

// start registers a long search under ctx. It returns the search's Yield, and done to call
// when the search ends.
func (c *cpuShare) start(ctx context.Context) (yield func(), done func()) {
	c.mu.Lock()
	c.running++
	c.mu.Unlock()
	var forcedUntil time.Time // the end of a slice run whatever the load
	yield = func() {
		if !forcedUntil.IsZero() && time.Now().Before(forcedUntil) {
			return
		}
		if rested := c.pause(ctx); rested {
			forcedUntil = time.Now().Add(c.slice)
		}
	}
	done = func() {
		c.mu.Lock()
		c.running--
		c.mu.Unlock()
	}
	return yield, done
}

// pause returns at once when the search has a core; otherwise it waits until one is free, ctx
// is done or the rest has passed, which it reports.
func (c *cpuShare) pause(ctx context.Context) (rested bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running+c.quick() <= c.cores {
		return false
	}
	c.running--
	start := time.Now()
	defer func() {
		c.running++
		c.paused.Add(int64(time.Since(start)))
	}()
	t := time.NewTimer(shareTick)
	defer t.Stop()
	for {
		c.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		c.mu.Lock()
		switch {
		case ctx.Err() != nil || c.running+1+c.quick() <= c.cores:
			return false
		case time.Since(start) >= c.rest:
			return true
		}
		t.Reset(shareTick)
	}
}
