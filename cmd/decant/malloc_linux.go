//go:build linux && cgo

package main

// #include <malloc.h>
import "C"

// tuneMalloc makes glibc hand large buffers (OpenCV's decoded screenshots) back to the system
// as soon as they are freed, instead of raising its mmap threshold and keeping them in the
// heap, and caps its arenas: the server's RSS then follows what its memory budget admits.
func tuneMalloc() {
	C.mallopt(C.M_MMAP_THRESHOLD, 128<<10)
	C.mallopt(C.M_ARENA_MAX, 2)
}
