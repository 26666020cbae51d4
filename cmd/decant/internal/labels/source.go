package labels

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/decant/decant/solver"
)

// MaxBytes bounds what is read of one input; larger inputs get an image_too_large line.
const MaxBytes = 64 << 20

// Item is one input path found by a Source.
type Item struct {
	Root, Path string
	open       func(ctx context.Context) ([]byte, error)
}

// Key identifies the item as Line.Key does.
func (it Item) Key() string { return it.Root + "\x00" + it.Path }

// Source lists inputs and reads their bytes.
type Source interface {
	// Walk calls fn for every input in a fixed order, stopping at fn's first error.
	Walk(ctx context.Context, fn func(Item) error) error
	// Close releases the source.
	Close() error
}

// IsURL tells a bucket URL (s3://, gs://, azblob://, file://, mem://) from a local path.
func IsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && len(u.Scheme) > 1 && u.Host+u.Path != "" && strings.Contains(s, "://")
}

// Opener opens a bucket URL; blob.OpenBucket with the drivers linked into the binary.
type Opener func(ctx context.Context, url string) (*blob.Bucket, error)

// OpenSource opens an argument: a bucket URL, a folder or a file. Files and folders named in
// exclude (the run's own output: labels file, review sheet) are left out of folder walks.
func OpenSource(ctx context.Context, arg string, open Opener, exclude ...string) (Source, error) {
	if IsURL(arg) {
		return openBucketSource(ctx, arg, open)
	}
	st, err := os.Stat(arg)
	if err != nil {
		return nil, solver.Errorf(solver.CodeNotFound, "%s: no such file or directory", arg)
	}
	if !st.IsDir() {
		return fileSource{dir: filepath.Dir(arg), name: filepath.Base(arg)}, nil
	}
	skip := map[string]bool{}
	for _, e := range exclude {
		if abs, err := filepath.Abs(e); err == nil {
			skip[abs] = true
		}
	}
	return dirSource{root: filepath.Clean(arg), skip: skip}, nil
}

// fileSource is one file named on the command line.
type fileSource struct{ dir, name string }

func (s fileSource) Walk(ctx context.Context, fn func(Item) error) error {
	return fn(localItem(filepath.ToSlash(s.dir), s.name, filepath.Join(s.dir, s.name)))
}

func (fileSource) Close() error { return nil }

func localItem(root, rel, file string) Item {
	return Item{Root: root, Path: rel, open: func(context.Context) ([]byte, error) { return readFile(file, rel) }}
}

func failedItem(root, rel string, err error) Item {
	return Item{Root: root, Path: rel, open: func(context.Context) ([]byte, error) { return nil, err }}
}

// readFile reads a regular file, refusing anything else (a FIFO would block for ever) and
// anything over MaxBytes.
func readFile(file, rel string) ([]byte, error) {
	st, err := os.Stat(file) // before opening: opening a FIFO waits for a writer
	if err == nil && !st.Mode().IsRegular() {
		return nil, solver.Errorf(solver.CodeUnreadableImage, "%s is not a regular file (%s)", rel, st.Mode().Type())
	}
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, solver.Errorf(solver.CodeNotFound, "%s: no such file (a broken link?)", rel)
		}
		return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", rel, unwrapPath(err))
	}
	defer f.Close()
	return readLimited(f, rel)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readLimited(r io.Reader, rel string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", rel, unwrapPath(err))
	}
	if len(data) > MaxBytes {
		return nil, solver.Errorf(solver.CodeImageTooLarge, "%s is over %d MiB", rel, MaxBytes>>20)
	}
	return data, nil
}

// dirSource walks a folder recursively in lexical order. Links to folders are followed
// unless they lead back to a folder on the current path (a loop), which gets an error line.
type dirSource struct {
	root string
	skip map[string]bool // absolute paths left out
}

func (s dirSource) Close() error { return nil }

func (s dirSource) Walk(ctx context.Context, fn func(Item) error) error {
	root := filepath.ToSlash(s.root)
	st, err := os.Stat(s.root)
	if err != nil {
		return solver.Errorf(solver.CodeNotFound, "%s: %v", s.root, unwrapPath(err))
	}
	return s.walk(ctx, root, s.root, "", []fileID{idOf(st)}, fn)
}

// fileID identifies a folder by device and inode, to recognise it behind any link.
type fileID struct{ dev, ino uint64 }

func idOf(st fs.FileInfo) fileID {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(sys.Dev), uint64(sys.Ino)}
	}
	return fileID{}
}

func (s dirSource) walk(ctx context.Context, root, dir, rel string, ancestors []fileID, fn func(Item) error) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fn(failedItem(root, relOr(rel), solver.Errorf(solver.CodeInvalidArgument, "%s: cannot list the folder: %v", relOr(rel), unwrapPath(err))))
	}
	for _, en := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := path.Join(rel, en.Name())
		file := filepath.Join(dir, en.Name())
		if len(s.skip) > 0 {
			if abs, err := filepath.Abs(file); err == nil && s.skip[abs] {
				continue
			}
		}
		if en.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(file)
			switch {
			case err != nil:
				err = fn(failedItem(root, name, solver.Errorf(solver.CodeNotFound, "%s: a link to nothing: %v", name, unwrapPath(err))))
			case st.IsDir():
				err = s.enter(ctx, root, file, name, st, ancestors, fn)
			default:
				err = fn(localItem(root, name, file))
			}
			if err != nil {
				return err
			}
			continue
		}
		if en.IsDir() {
			st, err := en.Info()
			if err == nil {
				err = s.enter(ctx, root, file, name, st, ancestors, fn)
			}
			if err != nil {
				return err
			}
			continue
		}
		if err := fn(localItem(root, name, file)); err != nil {
			return err
		}
	}
	return nil
}

// enter walks into a folder unless it is one of its own ancestors.
func (s dirSource) enter(ctx context.Context, root, dir, rel string, st fs.FileInfo, ancestors []fileID, fn func(Item) error) error {
	id := idOf(st)
	for _, a := range ancestors {
		if a == id && id != (fileID{}) {
			return fn(failedItem(root, rel, solver.Errorf(solver.CodeInvalidArgument, "%s: a link back to a folder above it (a loop), not followed", rel)))
		}
	}
	return s.walk(ctx, root, dir, rel, append(ancestors[:len(ancestors):len(ancestors)], id), fn)
}

func relOr(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// bucketSource lists the objects under a bucket URL's path.
type bucketSource struct {
	bucket *blob.Bucket
	root   string // scheme://bucket/prefix, without the query
	prefix string // the key prefix, "" or ending in "/"
}

// splitBucketURL separates scheme://bucket/some/prefix?query into the URL that opens the
// bucket (scheme://bucket?query), the key prefix (some/prefix/) and the root shown in lines.
func splitBucketURL(raw string) (open, prefix, root string, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" && u.Scheme != "file" && u.Scheme != "mem" {
		return "", "", "", solver.Errorf(solver.CodeInvalidArgument, "%s is not a bucket URL (scheme://bucket/prefix)", raw)
	}
	if u.Scheme == "file" {
		// file:///abs/dir: the whole path is the bucket (a folder); keys are below it.
		return raw, "", strings.TrimSuffix(raw[:len(raw)-len(queryPart(u))], "/"), nil
	}
	prefix = strings.TrimPrefix(u.Path, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	root = u.Scheme + "://" + u.Host + "/" + prefix
	root = strings.TrimSuffix(root, "/")
	u.Path = ""
	return u.String(), prefix, root, nil
}

func queryPart(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

func openBucketSource(ctx context.Context, raw string, open Opener) (Source, error) {
	openURL, prefix, root, err := splitBucketURL(raw)
	if err != nil {
		return nil, err
	}
	b, err := open(ctx, openURL)
	if err != nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "opening %s: %v", raw, err)
	}
	return &bucketSource{bucket: b, root: root, prefix: prefix}, nil
}

func (s *bucketSource) Close() error { return s.bucket.Close() }

func (s *bucketSource) Walk(ctx context.Context, fn func(Item) error) error {
	it := s.bucket.List(&blob.ListOptions{Prefix: s.prefix})
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "listing %s: %v", s.root, err)
		}
		if obj.IsDir || strings.HasSuffix(obj.Key, "/") {
			continue
		}
		key, rel := obj.Key, strings.TrimPrefix(obj.Key, s.prefix)
		if err := fn(Item{Root: s.root, Path: rel, open: func(ctx context.Context) ([]byte, error) { return s.read(ctx, key, rel) }}); err != nil {
			return err
		}
	}
}

func (s *bucketSource) read(ctx context.Context, key, rel string) ([]byte, error) {
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, solver.Errorf(solver.CodeNotFound, "%s: no such object", rel)
		}
		return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", rel, err)
	}
	defer r.Close()
	if r.Size() > MaxBytes {
		return nil, solver.Errorf(solver.CodeImageTooLarge, "%s is over %d MiB", rel, MaxBytes>>20)
	}
	return readLimited(r, rel)
}
