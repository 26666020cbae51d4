package server

import (
	"container/list"
	"context"
	"sync"
)

// semaphore is a weighted semaphore that serves waiters first come, first served, so a large
// request is not starved by a stream of small ones. It counts bytes for the memory budget and
// slots for the worker pools. Unlike a channel it can be closed: every waiter, present and
// future, is then refused, which is how a shutting-down server answers its queue at once.
type semaphore struct {
	mu      sync.Mutex
	size    int64
	cur     int64
	waiters list.List // of *waiter
	closed  bool
}

type waiter struct {
	n       int64
	ready   chan struct{} // closed when the waiter is granted its weight or refused
	granted bool          // under mu: the weight was taken for this waiter
}

func newSemaphore(size int64) *semaphore { return &semaphore{size: size} }

// errClosed and errTooBig are acquire's refusals besides the context's error.
type semError int

const (
	errClosed semError = iota + 1 // the semaphore was closed: the server is shutting down
	errTooBig                     // n is more than the semaphore will ever hold
)

func (e semError) Error() string {
	if e == errClosed {
		return "shutting down"
	}
	return "larger than the whole budget"
}

// acquire takes n, waiting in line until it is free, ctx is done or the semaphore is closed.
func (s *semaphore) acquire(ctx context.Context, n int64) error {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return errClosed
	case n > s.size:
		s.mu.Unlock()
		return errTooBig
	case s.size-s.cur >= n && s.waiters.Len() == 0:
		s.cur += n
		s.mu.Unlock()
		return nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	elem := s.waiters.PushBack(w)
	s.mu.Unlock()

	select {
	case <-w.ready:
		s.mu.Lock()
		defer s.mu.Unlock()
		if !w.granted {
			return errClosed
		}
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		select {
		case <-w.ready:
			// Granted (or refused) just as ctx ended: give back what was taken.
			if w.granted {
				s.cur -= n
				s.notify()
			}
		default:
			s.waiters.Remove(elem)
			s.notify() // a large waiter leaving may let smaller ones behind it in
		}
		s.mu.Unlock()
		return ctx.Err()
	}
}

// release returns n taken by acquire.
func (s *semaphore) release(n int64) {
	s.mu.Lock()
	s.cur -= n
	if s.cur < 0 {
		s.mu.Unlock()
		panic("server: semaphore released more than held")
	}
	s.notify()
	s.mu.Unlock()
}

// notify grants waiters in order while they fit. Called with mu held.
func (s *semaphore) notify() {
	for e := s.waiters.Front(); e != nil; e = s.waiters.Front() {
		w := e.Value.(*waiter)
		if s.closed || s.size-s.cur < w.n {
			return
		}
		s.cur += w.n
		w.granted = true
		s.waiters.Remove(e)
		close(w.ready)
	}
}

// close refuses every waiter and every later acquire. Weights already held stay held until
// released.
func (s *semaphore) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for e := s.waiters.Front(); e != nil; e = s.waiters.Front() {
		close(e.Value.(*waiter).ready)
		s.waiters.Remove(e)
	}
}

// used returns the weight held and the number of waiters.
func (s *semaphore) used() (held int64, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur, s.waiters.Len()
}
