//go:build novision

package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// The novision build of decant links no OpenCV, so it starts as fast as any Go program (the
// full build spends most of a level solve in the dynamic loader, mapping the ~260 shared
// libraries OpenCV pulls in). It solves level files itself and replaces itself, with the same
// arguments, by the full build installed beside it as decant-vision for everything that needs
// images: read, label, render, serve, and solve given a screenshot, standard input or
// --annotate.

// handoff execs decant-vision when args need images (decant-label when they label from or to a
// bucket); it returns only when they do not (nil),
// or with the error that stopped the handoff.
func handoff(args []string) error {
	if !needsVision(args) {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return errNoVision()
	}
	name, missing := visionBinary, errNoVision
	if needsBuckets(args) {
		name, missing = labelBinary, errNoBuckets
	}
	full := filepath.Join(filepath.Dir(self), name)
	if _, err := os.Stat(full); err != nil {
		return missing()
	}
	// Exec replaces this process: signals, standard streams and the exit code are the full
	// build's own.
	return syscall.Exec(full, append([]string{"decant"}, args...), os.Environ())
}

// needsBuckets reports whether a command line labels from or to a bucket: label with an
// argument that is a URL (s3://, gs://, azblob://, file://), which only decant-label can open.
func needsBuckets(args []string) bool {
	return len(args) > 1 && args[0] == "label" && slices.ContainsFunc(args[1:], func(a string) bool { return strings.Contains(a, "://") })
}

// needsVision reports whether a command line needs the full build. Anything it cannot parse
// stays here, where run reports the usage error exactly as the full build would.
func needsVision(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "read", "label", "render", "serve":
		return true
	case "help", "-h", "--help", "-help":
		return len(args) > 1 && needsVision(args[1:2]) // their flags are the full build's
	case "solve":
	default:
		return false // usage errors
	}
	c := &solveCmd{}
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.Register(fs)
	if err := fs.Parse(interleave(fs, args[1:])); err != nil || fs.NArg() != 1 {
		return false
	}
	if c.annotate != "" || fs.Arg(0) == "-" {
		return true // annotating draws with vision; standard input cannot be read twice
	}
	return fileIsImage(fs.Arg(0))
}

// fileIsImage sniffs a file's first bytes as isImage does; a file that cannot be read is left
// to solve's own error.
func fileIsImage(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	return isImage(head[:n])
}
