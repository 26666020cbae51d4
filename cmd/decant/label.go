//go:build !novision

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision"
)

// imageExts are the file endings label picks up in a directory.
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".webp": true, ".gif": true, ".bmp": true}

// label is one line of the labels file.
type label struct {
	File       string        `json:"file"`
	Level      *solver.Level `json:"level,omitempty"`
	Confidence float64       `json:"confidence,omitempty"`
	Reasons    []string      `json:"reasons,omitempty"`
	Width      int           `json:"width,omitempty"`
	Height     int           `json:"height,omitempty"`
	Tubes      []tubeGeom    `json:"tubes,omitempty"`
	Error      *errorBody    `json:"error,omitempty"`
}

// tubeGeom is a tube's box and its units' boxes as [x0, y0, x1, y1].
type tubeGeom struct {
	Box   [4]int   `json:"box"`
	Units [][4]int `json:"units"`
}

func rect(r image.Rectangle) [4]int { return [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y} }

func newLabel(file string, r *vision.Reading, err error) label {
	l := label{File: file}
	if r != nil {
		l.Level, l.Confidence, l.Reasons, l.Width, l.Height = r.Level, r.Confidence, r.Reasons, r.Width, r.Height
		for _, t := range r.Tubes {
			g := tubeGeom{Box: rect(t.Box), Units: [][4]int{}}
			for _, u := range t.Units {
				g.Units = append(g.Units, rect(u))
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

// labelCmd is "decant label DIR|FILES... --out labels.jsonl".
type labelCmd struct {
	out     string
	workers int
}

func (c *labelCmd) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "-", "write the labels here, one JSON document a line (- for standard output)")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "screenshots read at once")
}

func (c *labelCmd) Run(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return &usageError{"label takes a directory or image files"}
	}
	if c.workers < 1 {
		return &usageError{"--workers must be at least 1"}
	}
	files, err := listImages(args)
	if err != nil {
		return err
	}
	w := e.stdout
	if c.out != "-" {
		f, err := os.Create(c.out)
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "creating %s: %v", c.out, err)
		}
		defer f.Close()
		w = f
	}
	return labelFiles(ctx, e, files, w, c.workers)
}

// listImages expands directories (their image files, sorted) and keeps files as given.
func listImages(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, solver.Errorf(solver.CodeNotFound, "%s: no such file or directory", a)
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", a, err)
		}
		var found []string
		for _, en := range entries {
			if !en.IsDir() && imageExts[strings.ToLower(filepath.Ext(en.Name()))] {
				found = append(found, filepath.Join(a, en.Name()))
			}
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	if len(files) == 0 {
		return nil, solver.Errorf(solver.CodeNotFound, "no image files in %s", strings.Join(args, " "))
	}
	return files, nil
}

// labelFiles reads files with a pool of workers and writes their labels in input order.
func labelFiles(ctx context.Context, e *env, files []string, w io.Writer, workers int) error {
	labels := make([]label, len(files))
	done := make([]chan struct{}, len(files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var bar *progressbar.ProgressBar
	if f, ok := e.stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		bar = progressbar.NewOptions(len(files), progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("labelling"), progressbar.OptionShowCount())
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				data, err := os.ReadFile(files[i])
				var r *vision.Reading
				if err != nil {
					err = solver.Errorf(solver.CodeNotFound, "%s: %v", files[i], err)
				} else {
					r, err = vision.Read(data)
				}
				labels[i] = newLabel(files[i], r, err)
				close(done[i])
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	bw := bufio.NewWriter(w)
	failed := 0
	for i := range files {
		select {
		case <-done[i]:
		case <-ctx.Done():
			wg.Wait()
			bw.Flush()
			return solver.Errorf(solver.CodeBudgetExhausted, "interrupted after %d of %d files", i, len(files))
		}
		line, err := json.Marshal(labels[i])
		if err != nil {
			return err
		}
		bw.Write(append(line, '\n'))
		if labels[i].Error != nil {
			failed++
		}
		if bar != nil {
			bar.Add(1)
		}
	}
	wg.Wait()
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "labelled %d of %d screenshots (%d not read)\n", len(files)-failed, len(files), failed)
	return nil
}
