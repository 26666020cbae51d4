//go:build !linux

package server

// lowPriority runs f; thread priorities are only lowered on Linux.
func lowPriority(f func()) { f() }
