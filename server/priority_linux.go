package server

import (
	"runtime"
	"syscall"
)

// lowPriority runs f on an OS thread of its own at nice +10, so that a long search yields the
// CPU to screenshots being read; the thread ends with f (an unprivileged process could not
// raise its priority back for other goroutines). A panic in f is raised again in the caller,
// where the handler's recovery answers it.
func lowPriority(f func()) {
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
		syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
		f()
	}()
	<-done
	if panicked != nil {
		panic(panicked)
	}
}
