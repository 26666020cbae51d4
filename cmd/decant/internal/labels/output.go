package labels

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"

	"github.com/decant/decant/solver"
)

// FileSink appends lines to a local file, one write per line, so that a kill leaves at most
// a torn last line, which OpenFile drops on the next run.
type FileSink struct {
	f    *os.File
	name string
}

// OpenFile opens name for appending and returns the keys of the lines it already holds. A
// last line without its newline (torn by a kill) is cut off; any other line that is not a
// label is an error, so that a file that is not a labels file is never appended to. force
// empties the file first.
func OpenFile(name string, force bool) (*FileSink, map[string]bool, error) {
	flags := os.O_RDWR | os.O_CREATE
	if force {
		flags |= os.O_TRUNC
	}
	os.MkdirAll(filepath.Dir(name), 0o755) // a missing folder is reported by OpenFile
	f, err := os.OpenFile(name, flags, 0o644)
	if err != nil {
		return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "opening %s: %v", name, unwrapPath(err))
	}
	done, good, err := scanLines(f, name)
	if err == nil {
		err = f.Truncate(good)
	}
	if err == nil {
		_, err = f.Seek(good, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return &FileSink{f: f, name: name}, done, nil
}

// scanLines reads every line's key and returns the offset just after the last whole line.
func scanLines(r io.Reader, name string) (map[string]bool, int64, error) {
	done := map[string]bool{}
	br := bufio.NewReaderSize(r, 1<<16)
	var good int64
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return done, good, nil // a torn last line (if any) is dropped
		}
		if err != nil {
			return nil, 0, solver.Errorf(solver.CodeInvalidArgument, "reading %s: %v", name, err)
		}
		key, ok := parseKey(line)
		if !ok {
			return nil, 0, solver.Errorf(solver.CodeInvalidArgument, "%s line %d is not a label line: fix the file, or relabel with --force", name, n)
		}
		done[key] = true
		good += int64(len(line))
	}
}

func (s *FileSink) Write(line []byte) error {
	if _, err := s.f.Write(line); err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", s.name, err)
	}
	return nil
}

// Close syncs and closes the file.
func (s *FileSink) Close() error {
	err := s.f.Sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "closing %s: %v", s.name, err)
	}
	return nil
}

// WriterSink writes lines to a stream (standard output): nothing to resume from.
type WriterSink struct{ W io.Writer }

func (s WriterSink) Write(line []byte) error { _, err := s.W.Write(line); return err }
func (WriterSink) Close() error              { return nil }

// BucketSink writes lines to a bucket as part objects of at most PartLines lines each:
// objects cannot be appended to, so each part is written whole once finished, and a kill
// loses at most the lines of the part being filled.
type BucketSink struct {
	ctx       context.Context
	bucket    *blob.Bucket
	prefix    string // key prefix, "" or ending in "/"
	name      string // part name stem: part-<shard>-<start time>
	PartLines int
	buf       bytes.Buffer
	lines     int
	parts     int
	mu        sync.Mutex
}

// OpenBucket opens an output bucket URL (scheme://bucket/prefix/) and returns the keys of the
// lines its parts already hold. force deletes the parts first.
func OpenBucket(ctx context.Context, raw string, open Opener, shard Shard, force bool) (*BucketSink, map[string]bool, error) {
	openURL, prefix, _, err := splitBucketURL(raw)
	if err != nil {
		return nil, nil, err
	}
	b, err := open(ctx, openURL)
	if err != nil {
		return nil, nil, solver.Errorf(solver.CodeInvalidArgument, "opening %s: %v", raw, err)
	}
	done := map[string]bool{}
	err = eachPart(ctx, b, prefix, func(key string, r io.Reader) error {
		if force {
			return b.Delete(ctx, key)
		}
		d, _, err := scanLines(r, key)
		for k := range d {
			done[k] = true
		}
		return err
	})
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	stem := fmt.Sprintf("part-%d-of-%d-%s", shard.Index, shard.Count, time.Now().UTC().Format("20060102T150405.000000000"))
	return &BucketSink{ctx: ctx, bucket: b, prefix: prefix, name: stem, PartLines: 500}, done, nil
}

// eachPart calls fn with every part object (*.jsonl) under prefix, in key order.
func eachPart(ctx context.Context, b *blob.Bucket, prefix string, fn func(key string, r io.Reader) error) error {
	it := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "listing the parts under %q: %v", prefix, err)
		}
		if obj.IsDir || !strings.HasSuffix(obj.Key, ".jsonl") {
			continue
		}
		r, err := b.NewReader(ctx, obj.Key, nil)
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "reading %s: %v", obj.Key, err)
		}
		err = fn(obj.Key, r)
		r.Close()
		if err != nil {
			return err
		}
	}
}

func (s *BucketSink) Write(line []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(line)
	s.lines++
	if s.lines >= s.PartLines {
		return s.flush()
	}
	return nil
}

func (s *BucketSink) flush() error {
	if s.lines == 0 {
		return nil
	}
	key := fmt.Sprintf("%s%s-%05d.jsonl", s.prefix, s.name, s.parts)
	// A cancelled run still stores what it finished.
	if err := s.bucket.WriteAll(context.WithoutCancel(s.ctx), key, s.buf.Bytes(), &blob.WriterOptions{ContentType: "application/jsonl"}); err != nil {
		return solver.Errorf(solver.CodeInvalidArgument, "writing %s: %v", key, err)
	}
	s.parts++
	s.buf.Reset()
	s.lines = 0
	return nil
}

// Close writes the last part and closes the bucket.
func (s *BucketSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.flush()
	if cerr := s.bucket.Close(); err == nil && cerr != nil {
		err = solver.Errorf(solver.CodeInvalidArgument, "closing the output bucket: %v", cerr)
	}
	return err
}

// Merge writes every line of the inputs (label files, or bucket URLs whose part objects are
// read) to w once per path: the first line for a path wins. A torn last line of a file is
// dropped. It returns the number of lines written and of duplicates left out.
func Merge(ctx context.Context, inputs []string, open Opener, w io.Writer) (written, dropped int, err error) {
	seen := map[string]bool{}
	bw := bufio.NewWriterSize(w, 1<<16)
	copyLines := func(r io.Reader, name string) error {
		br := bufio.NewReaderSize(r, 1<<16)
		for n := 1; ; n++ {
			line, err := br.ReadBytes('\n')
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return solver.Errorf(solver.CodeInvalidArgument, "reading %s: %v", name, err)
			}
			key, ok := parseKey(line)
			if !ok {
				return solver.Errorf(solver.CodeInvalidArgument, "%s line %d is not a label line", name, n)
			}
			if seen[key] {
				dropped++
				continue
			}
			seen[key] = true
			written++
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	for _, in := range inputs {
		if IsURL(in) {
			openURL, prefix, _, err := splitBucketURL(in)
			if err != nil {
				return written, dropped, err
			}
			b, err := open(ctx, openURL)
			if err != nil {
				return written, dropped, solver.Errorf(solver.CodeInvalidArgument, "opening %s: %v", in, err)
			}
			err = eachPart(ctx, b, prefix, func(key string, r io.Reader) error { return copyLines(r, key) })
			b.Close()
			if err != nil {
				return written, dropped, err
			}
			continue
		}
		f, err := os.Open(in)
		if err != nil {
			return written, dropped, solver.Errorf(solver.CodeNotFound, "%s: %v", in, unwrapPath(err))
		}
		err = copyLines(f, in)
		f.Close()
		if err != nil {
			return written, dropped, err
		}
	}
	return written, dropped, bw.Flush()
}
