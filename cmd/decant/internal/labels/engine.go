package labels

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/decant/decant/solver"
)

// Reader reads a screenshot. Like vision.Read, it returns an error coded no_puzzle,
// low_confidence (with the Reading), unreadable_image, ... for screenshots it cannot read.
type Reader interface {
	Read(data []byte) (*Reading, error)
}

// Reading is what a Reader saw: the level, its geometry and the reader's confidence.
type Reading struct {
	Level         *solver.Level
	Width, Height int
	Tubes         []Tube
	Confidence    float64
	Reasons       []string
}

// Solver plans a level read from a screenshot.
type Solver interface {
	Solve(ctx context.Context, l *solver.Level) (*solver.Report, error)
}

// Progress shows how far a run has got.
type Progress interface {
	Add(n int) error
}

// Options configure a run.
type Options struct {
	Reader  Reader
	Solver  Solver // nil: no plans
	Workers int    // images read at once; 0 is the number of cores
	Shard   Shard  // the zero value is All
	// Thumbs is a folder for the review sheet's annotated thumbnails; "" writes none.
	Thumbs string
	// Progress, if set, is called once with the number of images to label (after a first
	// listing pass) and returns the progress display.
	Progress func(total int) Progress
	// Cache is how many recent readings are kept for inputs with the same bytes (default 1024).
	Cache int
}

// Sink receives finished lines.
type Sink interface {
	// Write stores one line (JSON and its newline) as a whole.
	Write(line []byte) error
	// Close stores anything still buffered.
	Close() error
}

// Summary counts what a run did.
type Summary struct {
	Counts  map[Status]int
	Reused  int // lines that reused the reading of earlier bytes
	Skipped int // inputs already labelled by an earlier run
	Elapsed time.Duration
	Slowest []Slow // the slowest images, slowest first
}

// Slow is one of the slowest images.
type Slow struct {
	Path string
	MS   float64
}

// Labelled is the number of lines written.
func (s Summary) Labelled() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// String is the summary printed at the end of a run.
func (s Summary) String() string {
	var sb strings.Builder
	n := s.Labelled()
	rate := 0.0
	if s.Elapsed > 0 {
		rate = float64(n) / s.Elapsed.Seconds()
	}
	fmt.Fprintf(&sb, "labelled %d images in %s (%.1f/s)", n, s.Elapsed.Round(time.Millisecond), rate)
	var parts []string
	for _, st := range Statuses {
		parts = append(parts, fmt.Sprintf("%s %d", st, s.Counts[st]))
	}
	fmt.Fprintf(&sb, ": %s", strings.Join(parts, ", "))
	if s.Reused > 0 {
		fmt.Fprintf(&sb, "; %d reused the reading of identical bytes", s.Reused)
	}
	if s.Skipped > 0 {
		fmt.Fprintf(&sb, "; %d already labelled, skipped", s.Skipped)
	}
	sb.WriteString("\n")
	if len(s.Slowest) > 0 {
		sb.WriteString("slowest:")
		for _, sl := range s.Slowest {
			fmt.Fprintf(&sb, " %s (%.0f ms)", sl.Path, sl.MS)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

const slowest = 5

// Run labels every input of sources that is in the shard and not in done, writing each line
// to sink as soon as it is finished (in the order images finish). A cancelled context stops
// the listing; images already being read are finished and written.
func Run(ctx context.Context, sources []Source, done map[string]bool, sink Sink, opts Options) (Summary, error) {
	start := time.Now()
	if opts.Workers < 1 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Shard.Count == 0 {
		opts.Shard = All
	}
	if opts.Cache < 1 {
		opts.Cache = 1024
	}
	sum := Summary{Counts: map[Status]int{}}
	want := func(it Item) bool {
		if !opts.Shard.Has(it.Path) {
			return false
		}
		if done[it.Key()] {
			sum.Skipped++
			return false
		}
		return true
	}
	var bar Progress
	if opts.Progress != nil {
		total := 0
		for _, s := range sources {
			if err := s.Walk(ctx, func(it Item) error {
				if opts.Shard.Has(it.Path) && !done[it.Key()] {
					total++
				}
				return nil
			}); err != nil {
				return sum, err
			}
		}
		bar = opts.Progress(total)
	}

	e := &engine{opts: opts, cache: newCache(opts.Cache)}
	jobs := make(chan Item)
	lines := make(chan *Line, opts.Workers)
	var listErr error
	go func() {
		defer close(jobs)
		for _, s := range sources {
			err := s.Walk(ctx, func(it Item) error {
				if !want(it) {
					return nil
				}
				select {
				case jobs <- it:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
			if err != nil {
				listErr = err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range jobs {
				lines <- e.label(ctx, it)
			}
		}()
	}
	go func() {
		wg.Wait()
		close(lines)
	}()

	var writeErr error
	for l := range lines {
		if writeErr != nil {
			continue // drain so the workers finish
		}
		b, err := json.Marshal(l)
		if err == nil {
			err = sink.Write(append(b, '\n'))
		}
		if err != nil {
			writeErr = err
			continue
		}
		sum.Counts[l.Status]++
		if l.SameAs != "" {
			sum.Reused++
		}
		sum.Slowest = keepSlowest(sum.Slowest, Slow{Path: l.Path, MS: l.Timings.TotalMS})
		if bar != nil {
			bar.Add(1)
		}
	}
	sum.Elapsed = time.Since(start)
	if err := sink.Close(); err != nil && writeErr == nil {
		writeErr = err
	}
	switch {
	case writeErr != nil:
		return sum, writeErr
	case ctx.Err() != nil:
		return sum, solver.Errorf(solver.CodeBudgetExhausted, "interrupted after %d images; run the same command again to go on", sum.Labelled())
	case listErr != nil:
		return sum, listErr
	}
	return sum, nil
}

func keepSlowest(s []Slow, x Slow) []Slow {
	s = append(s, x)
	sort.SliceStable(s, func(i, j int) bool { return s[i].MS > s[j].MS })
	if len(s) > slowest {
		s = s[:slowest]
	}
	return s
}

// engine labels single items.
type engine struct {
	opts  Options
	cache *cache
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// label turns one input into its line.
func (e *engine) label(ctx context.Context, it Item) *Line {
	start := time.Now()
	l := &Line{Schema: Schema, Root: it.Root, Path: it.Path}
	defer func() { l.Timings.TotalMS = ms(time.Since(start)) }()
	data, err := it.open(ctx)
	l.Timings.FetchMS = ms(time.Since(start))
	if err != nil {
		l.Status, l.Error = StatusError, errorBody(err)
		return l
	}
	sum := sha256.Sum256(data)
	l.SHA256, l.Bytes = hex.EncodeToString(sum[:]), int64(len(data))
	if l.Format = Sniff(data); l.Format == "" {
		l.Status = StatusError
		l.Error = errorBody(solver.Errorf(solver.CodeUnreadableImage, "%s is not a PNG, JPEG, WebP, GIF or BMP image", it.Path))
		e.thumb(data, l)
		return l
	}
	ent, owner := e.cache.get(l.SHA256, it)
	if owner {
		ent.res = e.compute(ctx, data)
		close(ent.ready)
		l.Timings.ReadMS, l.Timings.SolveMS = ent.res.readMS, ent.res.solveMS
	} else {
		<-ent.ready
		l.SameAs = ent.first.Path
		if ent.first.Root != it.Root {
			l.SameAs = ent.first.Root + "/" + ent.first.Path
		}
	}
	ent.res.fill(l)
	if l.Width == 0 && (l.Status == StatusNoPuzzle || l.Status == StatusLowConfidence) {
		// The reader decoded the image but returned no reading (a screen without a puzzle):
		// the line still gives the image's size, so that exports keep it (COCO negatives).
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			l.Width, l.Height = cfg.Width, cfg.Height
		}
	}
	e.thumb(data, l)
	return l
}

func (e *engine) thumb(data []byte, l *Line) {
	if e.opts.Thumbs != "" {
		writeThumb(e.opts.Thumbs, data, l)
	}
}

// result is a reading shared by every input with the same bytes.
type result struct {
	reading         *Reading
	err             error
	plan            *solver.Report
	planErr         error
	readMS, solveMS float64
}

func (e *engine) compute(ctx context.Context, data []byte) result {
	t := time.Now()
	var res result
	res.reading, res.err = e.opts.Reader.Read(data)
	res.readMS = ms(time.Since(t))
	if res.err == nil && res.reading == nil {
		res.err = solver.Errorf(solver.CodeInternal, "the reader returned neither a reading nor an error")
	}
	if res.err == nil && e.opts.Solver != nil {
		t = time.Now()
		res.plan, res.planErr = e.opts.Solver.Solve(ctx, res.reading.Level)
		res.solveMS = ms(time.Since(t))
	}
	return res
}

func (res result) fill(l *Line) {
	if r := res.reading; r != nil {
		if r.Level != nil {
			l.Level, _ = json.Marshal(r.Level)
		}
		l.Width, l.Height, l.Tubes = r.Width, r.Height, r.Tubes
		l.Confidence, l.Reasons = r.Confidence, r.Reasons
	}
	switch code := solver.ErrorCode(res.err); {
	case res.err == nil:
		l.Status = StatusOK
	case code == solver.CodeLowConfidence:
		l.Status = StatusLowConfidence
	case code == solver.CodeNoPuzzle:
		l.Status = StatusNoPuzzle
	default:
		l.Status = StatusError
	}
	if res.err != nil {
		l.Error = errorBody(res.err)
		if l.Status != StatusLowConfidence {
			l.Confidence = 0
		}
	}
	l.Plan = res.plan
	if res.planErr != nil {
		l.PlanError = errorBody(res.planErr)
	}
}

// cache holds recent readings by the SHA-256 of their bytes; an entry is claimed by the
// first worker to ask, and others with the same bytes wait for it.
type cache struct {
	mu    sync.Mutex
	m     map[string]*entry
	order []string // oldest first
	size  int
}

type entry struct {
	ready chan struct{}
	first Item // the input whose reading it is
	res   result
}

func newCache(size int) *cache { return &cache{m: map[string]*entry{}, size: size} }

func (c *cache) get(sha string, first Item) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[sha]; ok {
		return e, false
	}
	e := &entry{ready: make(chan struct{}), first: first}
	c.m[sha] = e
	c.order = append(c.order, sha)
	if len(c.order) > c.size {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	return e, true
}
