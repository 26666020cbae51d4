//go:build !novision

package main

import (
	"context"
	"flag"
	"fmt"

	"os"
	"runtime"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/decant/decant/cmd/decant/internal/labels"
	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

// labelCmd is "decant label DIR|FILES|URLS... --out labels.jsonl".
type labelCmd struct {
	out          string
	workers      int
	force        bool
	shard        string
	solve        bool
	solveTimeout time.Duration
	coco         string
	review       string
	merge        bool
	partLines    int
}

func (c *labelCmd) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "-", "append the labels to this file, one JSON line per image, skipping images it already has (- for standard output); a bucket URL (s3://bucket/prefix/) gets part objects")
	fs.IntVar(&c.workers, "workers", runtime.NumCPU(), "screenshots read at once")
	fs.BoolVar(&c.force, "force", false, "relabel everything: empty --out first")
	fs.StringVar(&c.shard, "shard", "0/1", "label only shard i of n (0 ≤ i < n), split by a hash of each path relative to its input")
	fs.BoolVar(&c.solve, "solve", false, "also solve each level read and add the plan document")
	fs.DurationVar(&c.solveTimeout, "solve-timeout", 10*time.Second, "time allowed to solve one level (with --solve)")
	fs.StringVar(&c.coco, "coco", "", "then write the labels in --out as COCO JSON to this file")
	fs.StringVar(&c.review, "review", "", "write an HTML review sheet with annotated thumbnails into this folder")
	fs.BoolVar(&c.merge, "merge", false, "merge the label files (or bucket URLs of parts) given as arguments into --out, one line per path")
	fs.IntVar(&c.partLines, "part-lines", 500, "lines per part object when --out is a bucket URL")
}

func (c *labelCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return &usageError{"label takes folders, image files or bucket URLs (or label files with --merge)"}
	}
	if c.workers < 1 {
		return &usageError{"--workers must be at least 1"}
	}
	shard, err := labels.ParseShard(c.shard)
	if err != nil {
		return &usageError{solver.ErrorMessage(err)}
	}
	local := c.out != "-" && !labels.IsURL(c.out)
	if (c.coco != "" || c.review != "") && !local {
		return &usageError{"--coco and --review need --out to be a local file"}
	}
	if c.merge {
		if err := c.mergeFiles(ctx, e, args); err != nil {
			return err
		}
	} else if err := c.label(ctx, e, args, shard); err != nil {
		return err
	}
	return c.exports(e)
}

// label runs the labelling engine over args.
func (c *labelCmd) label(ctx context.Context, e *env, args []string, shard labels.Shard) error {
	var sources []labels.Source
	defer func() {
		for _, s := range sources {
			s.Close()
		}
	}()
	var own []string // the run's own output, left out of the folders walked
	for _, o := range []string{c.out, c.coco, c.review} {
		if o != "" && o != "-" && !labels.IsURL(o) {
			own = append(own, o, o+".tmp")
		}
	}
	for _, a := range dedupe(args) {
		s, err := labels.OpenSource(ctx, a, openBucket, own...)
		if err != nil {
			return err
		}
		sources = append(sources, s)
	}
	var (
		sink labels.Sink
		done map[string]bool
		err  error
	)
	switch {
	case c.out == "-":
		sink = labels.WriterSink{W: e.stdout}
	case labels.IsURL(c.out):
		var bs *labels.BucketSink
		bs, done, err = labels.OpenBucket(ctx, c.out, openBucket, shard, c.force)
		if err == nil {
			bs.PartLines = max(1, c.partLines)
			sink = bs
		}
	default:
		sink, done, err = labels.OpenFile(c.out, c.force)
	}
	if err != nil {
		return err
	}
	// The workers are the parallelism: OpenCV's own threads would only compete with them.
	vision.SetThreads(1)
	defer vision.SetThreads(0)
	opts := labels.Options{Reader: labelReader{}, Workers: c.workers, Shard: shard}
	if c.solve {
		opts.Solver = levelSolver{timeout: c.solveTimeout}
	}
	if c.review != "" {
		opts.Thumbs = c.review
	}
	if f, ok := e.stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		opts.Progress = func(total int) labels.Progress {
			return progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("labelling"),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("img"),
				progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
	}
	sum, err := labels.Run(ctx, sources, done, sink, opts)
	fmt.Fprint(e.stderr, sum.String())
	return err
}

// dedupe drops repeated arguments, so that a folder named twice is labelled once.
func dedupe(args []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range args {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// mergeFiles combines label files into --out.
func (c *labelCmd) mergeFiles(ctx context.Context, e *env, args []string) error {
	if c.out == "-" || labels.IsURL(c.out) {
		written, dropped, err := labels.Merge(ctx, args, openBucket, e.stdout)
		fmt.Fprintf(e.stderr, "merged %d lines (%d repeated paths left out)\n", written, dropped)
		return err
	}
	tmp := c.out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "creating %s: %v", tmp, err)
	}
	written, dropped, err := labels.Merge(ctx, args, openBucket, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, c.out)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Fprintf(e.stderr, "merged %d lines into %s (%d repeated paths left out)\n", written, c.out, dropped)
	return nil
}

// exports writes the COCO file and the review sheet from --out.
func (c *labelCmd) exports(e *env) error {
	if c.coco != "" {
		f, err := os.Create(c.coco)
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "creating %s: %v", c.coco, err)
		}
		err = labels.WriteCOCO(f, c.out)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", c.coco)
	}
	if c.review != "" {
		f, err := os.Open(c.out)
		if err != nil {
			return solver.Errorf(solver.CodeNotFound, "%s: %v", c.out, err)
		}
		defer f.Close()
		pages, err := labels.WriteReview(c.review, f)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote the review sheet %s/index.html (%d pages)\n", c.review, pages)
	}
	return nil
}

// labelReader reads screenshots with the vision package.
type labelReader struct{}

func (labelReader) Read(data []byte) (*labels.Reading, error) {
	r, err := vision.Read(data)
	if r == nil {
		return nil, err
	}
	out := &labels.Reading{Level: r.Level, Width: r.Width, Height: r.Height, Confidence: r.Confidence, Reasons: r.Reasons}
	for _, t := range r.Tubes {
		g := labels.Tube{Box: labels.Rect(t.Box), Units: [][4]int{}}
		for _, u := range t.Units {
			g.Units = append(g.Units, labels.Rect(u))
		}
		out.Tubes = append(out.Tubes, g)
	}
	return out, err
}

// levelSolver plans a level with the default search, bounded in time.
type levelSolver struct{ timeout time.Duration }

func (s levelSolver) Solve(ctx context.Context, l *solver.Level) (*solver.Report, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	plan, stats, err := solver.Solve(ctx, l, solver.Options{})
	if err != nil {
		return nil, err
	}
	rep := solver.NewReport(l, plan, stats)
	return &rep, nil
}

// label is the ground-truth document render --truth writes: the level, its geometry and the
// image size, in the same geometry form as labels.
type label struct {
	File       string        `json:"file"`
	Level      *solver.Level `json:"level,omitempty"`
	Confidence float64       `json:"confidence,omitempty"`
	Reasons    []string      `json:"reasons,omitempty"`
	Width      int           `json:"width,omitempty"`
	Height     int           `json:"height,omitempty"`
	Tubes      []labels.Tube `json:"tubes,omitempty"`
	Error      *errorBody    `json:"error,omitempty"`
}

func newLabel(file string, r *vision.Reading, err error) label {
	l := label{File: file}
	if r != nil {
		l.Level, l.Confidence, l.Reasons, l.Width, l.Height = r.Level, r.Confidence, r.Reasons, r.Width, r.Height
		for _, t := range r.Tubes {
			g := labels.Tube{Box: labels.Rect(t.Box), Units: [][4]int{}}
			for _, u := range t.Units {
				g.Units = append(g.Units, labels.Rect(u))
			}
			l.Tubes = append(l.Tubes, g)
		}
	}
	if err != nil {
		d := newErrorDoc(err)
		l.Error = &d.Error
	}
	return l
}
