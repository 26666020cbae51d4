package vision

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include "threads.h"
*/
import "C"

// SetThreads caps the threads OpenCV may use inside one call (its own parallel loops in
// resizing, colour conversion and filtering). Callers that read many screenshots at once with
// their own workers set it to 1, so that n workers use n cores and not n × cores threads
// fighting over them. n < 1 restores OpenCV's default. The setting is process-wide.
func SetThreads(n int) {
	if n < 1 {
		n = -1
	}
	C.decant_set_threads(C.int(n))
}

// Threads is the number of threads OpenCV uses inside one call.
func Threads() int { return int(C.decant_threads()) }
