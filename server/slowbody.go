package server

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/decant/decant/solver"
)

// slowBody ends a body that arrives slower than MinUploadRate once UploadGrace has passed, so
// that a client trickling its upload does not hold its share of the memory budget until the
// read timeout. The check runs on every read, and, where the connection takes read deadlines,
// the deadline is kept at the moment the body falls behind the rate, so that a client sending
// nothing at all is cut off then too.
type slowBody struct {
	r         io.ReadCloser
	rc        *http.ResponseController
	deadlines bool // rc sets the connection's read deadline
	start     time.Time
	grace     time.Duration
	rate      int64     // bytes a second
	limit     time.Time // ReadTimeout after the body began to be read
	n         int64     // bytes read
	slow      bool      // refused for its rate
	eof       bool      // read to its end
}

func (s *Server) newSlowBody(w http.ResponseWriter, r io.ReadCloser) *slowBody {
	now := time.Now()
	b := &slowBody{r: r, rc: http.NewResponseController(w), start: now, grace: s.cfg.UploadGrace,
		rate: s.cfg.MinUploadRate, limit: now.Add(s.cfg.ReadTimeout)}
	b.deadlines = b.rc.SetReadDeadline(b.due()) == nil
	return b
}

// due is when the body falls behind the rate unless more bytes come: the grace period, then
// one second for every rate bytes already read.
func (b *slowBody) due() time.Time {
	d := b.start.Add(b.grace + time.Duration(float64(b.n+1)/float64(b.rate)*float64(time.Second)))
	if d.After(b.limit) {
		return b.limit
	}
	return d
}

func (b *slowBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	b.eof = b.eof || err == io.EOF
	now := time.Now()
	switch {
	case err == nil && now.After(b.due()),
		errors.Is(err, os.ErrDeadlineExceeded) && now.Before(b.limit):
		b.slow = true
		if b.deadlines {
			// The server drains what is left of a body before answering: not this one.
			b.rc.SetReadDeadline(now)
		}
		return n, b.tooSlow(now)
	}
	if err == nil && b.deadlines {
		b.rc.SetReadDeadline(b.due())
	}
	return n, err
}

func (b *slowBody) Close() error { return b.r.Close() }

// done gives the connection back the read timeout's deadline when the body was not read to
// its end (a form's closing boundary), for the server to drain the rest. A body read to its
// end needs nothing: the server clears the deadline then, to watch the connection while the
// request is answered, and a deadline set again would cancel the request when it passed.
func (b *slowBody) done() {
	if b.deadlines && !b.slow && !b.eof {
		b.rc.SetReadDeadline(b.limit)
	}
}

func (b *slowBody) tooSlow(now time.Time) error {
	return solver.Errorf(solver.CodeSlowUpload, "the upload is too slow: %d bytes in %.1f s; after the first %v this server needs at least %d bytes a second",
		b.n, now.Sub(b.start).Seconds(), b.grace, b.rate)
}
