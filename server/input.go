package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig formats, as vision reads them
	_ "image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/webp"

	"github.com/decant/decant/solver"
)

// MaxNameBytes is the longest colour name a level may use.
const MaxNameBytes = 64

// bodyOverhead is what a body costs beyond its bytes: buffers, headers, the multipart reader.
const bodyOverhead = 64 << 10

// params are a request's query parameters.
type params struct {
	fast     bool // weighted search: quicker, not proven shortest
	annotate bool // draw the plan on the screenshot
}

// parseParams refuses a malformed query string, unknown parameters and values that are not
// booleans.
func parseParams(raw string, allowed ...string) (params, error) {
	p := params{annotate: true}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return p, solver.Errorf(solver.CodeInvalidArgument, "malformed query string: %v", err)
	}
	for key, vals := range q {
		if !contains(allowed, key) {
			return p, solver.Errorf(solver.CodeInvalidArgument, "unknown query parameter %q (this route takes %v)", truncate(key, 40), allowed)
		}
		if len(vals) != 1 {
			return p, solver.Errorf(solver.CodeInvalidArgument, "query parameter %q is given %d times", key, len(vals))
		}
		v, err := strconv.ParseBool(vals[0])
		if err != nil {
			return p, solver.Errorf(solver.CodeInvalidArgument, "query parameter %s=%q: want 1, 0, true or false", key, truncate(vals[0], 40))
		}
		switch key {
		case "fast":
			p.fast = v
		case "annotate":
			p.annotate = v
		}
	}
	return p, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// input is what a request carries: an image, or a level.
type input struct {
	image []byte
	level *solver.Level
}

// admission is a request admitted against the memory budget for its body.
type admission struct {
	s    *Server
	held int64
	buf  []byte // the body, returned to the buffer pool on release
}

// release gives back the body's share of the budget, and its buffer for the next body.
func (a *admission) release() {
	if a != nil && a.buf != nil {
		putBuffer(a.buf)
		a.buf = nil
	}
	if a != nil && a.held > 0 {
		a.s.memory.release(a.held)
		a.s.bodies.release(a.held)
		a.held = 0
	}
}

// shrink lowers the body's share to n once its size is known.
func (a *admission) shrink(n int64) {
	if n < a.held {
		a.s.memory.release(a.held - n)
		a.s.bodies.release(a.held - n)
		a.held = n
	}
}

// admit waits for room in the memory budget for the request's body, before reading any of it:
// its declared length, or the upload limit when the length is not declared. Bodies together
// hold at most half the budget, so the other half is always left for the work they bring.
func (s *Server) admit(c *gin.Context) (*admission, error) {
	if s.draining.Load() {
		return nil, overloaded(http.StatusServiceUnavailable, 5, "shutdown", "the server is shutting down; try again")
	}
	n := c.Request.ContentLength
	if n > s.cfg.MaxUpload {
		return nil, tooLarge(s.cfg.MaxUpload)
	}
	if n < 0 {
		n = s.cfg.MaxUpload
	}
	n += bodyOverhead
	if s.queued.Add(1) > int64(s.cfg.MaxQueue) {
		s.queued.Add(-1)
		return nil, overloaded(http.StatusTooManyRequests, 1, "queue_full", fmt.Sprintf("the server is busy: %d requests are already waiting", s.cfg.MaxQueue))
	}
	defer s.queued.Add(-1)
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.QueueWait)
	defer cancel()
	if err := s.bodies.acquire(ctx, n); err != nil {
		return nil, s.waitError(err, "room for the upload")
	}
	if err := s.memory.acquire(ctx, n); err != nil {
		s.bodies.release(n)
		return nil, s.waitError(err, "room for the upload")
	}
	return &admission{s: s, held: n}, nil
}

func tooLarge(limit int64) error {
	return solver.Errorf(solver.CodeImageTooLarge, "the upload is over %d MiB", limit>>20)
}

// waitError turns a refused wait for the budget or a pool into the client's answer.
func (s *Server) waitError(err error, what string) error {
	switch {
	case errors.Is(err, errClosed):
		return overloaded(http.StatusServiceUnavailable, 5, "shutdown", "the server is shutting down; try again")
	case errors.Is(err, errTooBig):
		return solver.Errorf(solver.CodeImageTooLarge, "%s: more than this server's memory budget allows (%d MiB)", what, s.cfg.MemoryBudget>>20)
	case errors.Is(err, context.DeadlineExceeded):
		return overloaded(http.StatusServiceUnavailable, 2, "queue_timeout", fmt.Sprintf("the server is busy: waited %v for %s", s.cfg.QueueWait, what))
	default:
		return overloaded(http.StatusServiceUnavailable, 1, "cancelled", "the request ended while waiting for "+what)
	}
}

// readInput reads the body of an admitted request: a multipart upload (field "image" or
// "level"), or a raw body of image bytes, a JSON level document, or a level in text or
// compact form.
func (s *Server) readInput(c *gin.Context, adm *admission) (input, error) {
	slow := s.newSlowBody(c.Writer, c.Request.Body)
	defer slow.done()
	body := http.MaxBytesReader(c.Writer, slow, s.cfg.MaxUpload)
	size := adm.held - bodyOverhead
	var data []byte
	var err error
	if mt, ps, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); mt == "multipart/form-data" {
		data, err = s.formFile(body, ps["boundary"], size)
	} else {
		data, err = readAll(body, size)
	}
	adm.buf = data
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return input{}, tooLarge(s.cfg.MaxUpload)
		case solver.ErrorCode(err) != solver.CodeInternal:
			return input{}, err
		}
		return input{}, solver.Errorf(solver.CodeInvalidArgument, "reading the upload: %v", err)
	}
	adm.shrink(int64(cap(data)) + bodyOverhead)
	if len(data) == 0 {
		return input{}, solver.Errorf(solver.CodeInvalidArgument, "empty request: upload a screenshot (field \"image\") or send a level")
	}
	return classify(data)
}

// readAll reads r into a buffer sized for the declared length, so a body costs its size
// once (io.ReadAll's doubling can hold twice that). Large buffers come from a pool: a freed
// 19 MiB body would otherwise stay in the heap as garbage, outside the budget's account, until
// the collector runs.
func readAll(r io.Reader, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(getBuffer(int(min(size, 1<<30)) + bytes.MinRead + 1)) // ReadFrom grows below MinRead free
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// Body buffers of at least poolStep bytes are pooled by size, rounded up to poolStep.
const poolStep = 1 << 20

var bufferPools sync.Map // size class (MiB) → *sync.Pool of *[]byte

func getBuffer(n int) []byte {
	if n < poolStep {
		return make([]byte, 0, n)
	}
	class := (n + poolStep - 1) / poolStep
	p, _ := bufferPools.LoadOrStore(class, &sync.Pool{})
	if b, ok := p.(*sync.Pool).Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, class*poolStep)
}

// putBuffer returns a buffer that getBuffer made, once nothing refers to it.
func putBuffer(b []byte) {
	if cap(b) < poolStep || cap(b)%poolStep != 0 {
		return // small, or grown past its class by ReadFrom
	}
	p, _ := bufferPools.LoadOrStore(cap(b)/poolStep, &sync.Pool{})
	p.(*sync.Pool).Put(&b)
}

// formFile streams a multipart body and returns its "image" or "level" part.
func (s *Server) formFile(body io.Reader, boundary string, size int64) ([]byte, error) {
	if boundary == "" {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "multipart upload without a boundary")
	}
	mr := multipart.NewReader(body, boundary)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, solver.Errorf(solver.CodeInvalidArgument, "the form has no \"image\" file or \"level\" field")
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) || solver.ErrorCode(err) != solver.CodeInternal {
				return nil, err
			}
			return nil, solver.Errorf(solver.CodeInvalidArgument, "malformed multipart upload: %v", err)
		}
		if name := part.FormName(); name == "image" || name == "level" {
			return readAll(part, size)
		}
		if _, err := io.Copy(io.Discard, part); err != nil {
			return nil, err
		}
	}
}

// classify tells image bytes from a level by their signature; bytes that are neither an image
// nor text are unreadable.
func classify(data []byte) (input, error) {
	if format := imageFormat(data); format != "" {
		return input{image: data}, nil
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return input{}, solver.Errorf(solver.CodeUnreadableImage, "the upload is neither an image (PNG, JPEG, WebP, GIF, BMP) nor a level in text")
	}
	if err := checkNames(data); err != nil {
		return input{}, err
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		return input{}, err
	}
	for _, name := range l.Names {
		if len(name) > MaxNameBytes {
			return input{}, nameTooLong(len(name))
		}
	}
	return input{level: l}, nil
}

// checkNames refuses a level text with a word longer than any colour name may be, before it is
// parsed, so that no error message echoes it.
func checkNames(text []byte) error {
	run := 0
	for _, b := range text {
		switch b {
		case ' ', '\t', '\r', '\n', '|', ',', ':', '"', '[', ']', '{', '}':
			run = 0
		default:
			if run++; run > MaxNameBytes {
				return nameTooLong(run)
			}
		}
	}
	return nil
}

func nameTooLong(n int) error {
	return solver.Errorf(solver.CodeInvalidLevel, "a colour name is over %d bytes long (%d or more); names are at most %d", MaxNameBytes, n, MaxNameBytes)
}

// imageFormat names the image format of data's signature, or "" for none. It knows formats
// the reader refuses (TIFF, HEIF/AVIF) so that they are reported as unreadable images, not
// parsed as levels.
func imageFormat(data []byte) string {
	has := func(off int, sig string) bool {
		return len(data) >= off+len(sig) && string(data[off:off+len(sig)]) == sig
	}
	switch {
	case has(0, "\x89PNG\r\n\x1a\n"):
		return "png"
	case has(0, "\xff\xd8\xff"):
		return "jpeg"
	case has(0, "GIF87a"), has(0, "GIF89a"):
		return "gif"
	case has(0, "RIFF") && has(8, "WEBP"):
		return "webp"
	case has(0, "BM"):
		return "bmp"
	case has(0, "II*\x00"), has(0, "MM\x00*"):
		return "tiff"
	case has(4, "ftyp"):
		return "heif"
	case has(0, "\x00\x00\x01\x00"):
		return "ico"
	}
	return ""
}

// imageInfo is what an image's header says, read before any pixel is decoded.
type imageInfo struct {
	format        string
	width, height int
}

func (i imageInfo) pixels() int64 { return int64(i.width) * int64(i.height) }

// inspect reads an image's header and checks it against the server's pixel limit.
func (s *Server) inspect(data []byte) (imageInfo, error) {
	switch f := imageFormat(data); f {
	case "tiff", "heif", "ico":
		return imageInfo{}, solver.Errorf(solver.CodeUnreadableImage, "%s images are not read: send a PNG, JPEG, WebP, GIF or BMP screenshot", f)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return imageInfo{}, solver.Errorf(solver.CodeUnreadableImage, "not a PNG, JPEG, WebP, GIF or BMP image (%v)", err)
	}
	info := imageInfo{format, cfg.Width, cfg.Height}
	switch {
	case info.width <= 0 || info.height <= 0:
		return info, solver.Errorf(solver.CodeUnreadableImage, "%s header gives a %d×%d image", format, info.width, info.height)
	case info.pixels() > s.cfg.MaxPixels:
		return info, solver.Errorf(solver.CodeImageTooLarge, "image is %d×%d pixels; the limit is %d megapixels", info.width, info.height, s.cfg.MaxPixels/1_000_000)
	}
	return info, nil
}
