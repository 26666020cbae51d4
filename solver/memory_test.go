package solver_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// TestMemoryBudget runs searches that outgrow their memory budget and samples the heap while
// they run: it must stop them (unknown, stopped by "memory") before the heap, garbage
// included, grows past 1.25 times the budget. (The accounting aims at the budget itself; the
// margin absorbs the garbage collector's timing. Counting a state at 8 bytes beyond its key
// instead of nodeBytes takes the heap to 1.3 times the budget here.)
func TestMemoryBudget(t *testing.T) {
	const budget = 16 << 20
	for _, l := range []*solver.Level{gen.Deal(11, 26, 4, 3), gen.Deal(45, 26, 4, 3)} {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		peak := make(chan uint64)
		stop := make(chan struct{})
		go func() {
			var m runtime.MemStats
			var top uint64
			for {
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapAlloc)
				select {
				case <-stop:
					peak <- top
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		plan, stats, err := solver.Solve(context.Background(), l, solver.Options{MaxMemory: budget})
		close(stop)
		grown := int64(<-peak) - int64(base.HeapAlloc)
		if err != nil || plan.Status != solver.StatusUnknown || stats.Stopped != "memory" {
			t.Fatalf("got %s stopped by %q (%v), want unknown stopped by memory", plan.Status, stats.Stopped, err)
		}
		if grown > budget*5/4 {
			t.Errorf("heap grew by %d MB during a search with a %d MB budget", grown>>20, budget>>20)
		}
		t.Logf("%d colours: %d states stored, heap grew by %.1f MB of a %d MB budget", l.Colors(), stats.Stored, float64(grown)/(1<<20), budget>>20)
	}
}
