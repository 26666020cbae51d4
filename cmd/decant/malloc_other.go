//go:build !linux || !cgo

package main

// tuneMalloc is a no-op where the C allocator is not glibc's.
func tuneMalloc() {}
