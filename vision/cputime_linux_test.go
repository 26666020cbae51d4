package vision

import (
	"runtime"
	"syscall"
	"testing"
)

// reportCPU adds the calling thread's CPU time per iteration to a benchmark's results, as
// cpu-ms/op: on a machine shared with other work, wall time per op says more about the load
// than about the code. Call it just before the b.Loop loop and call what it returns after.
func reportCPU(b *testing.B) (stop func()) {
	runtime.LockOSThread()
	start := threadCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(threadCPU()-start)/1e6/float64(b.N), "cpu-ms/op")
		}
		runtime.UnlockOSThread()
	}
}

func threadCPU() int64 {
	const rusageThread = 1 // RUSAGE_THREAD: this thread only
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
