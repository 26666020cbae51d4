// Command decant reads water-sort screenshots and levels, finds the shortest pour plan, draws
// it on the screenshot, batch-labels screenshots, renders levels as screenshots, and serves
// all of it over HTTP. Run "decant help" for the subcommands and exit codes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/decant/decant/solver"
)

func main() {
	if err := handoff(os.Args[1:]); err != nil {
		os.Exit(exitCode(err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err))
}

// visionBinary is the name of the full build when it is installed beside the novision build,
// which hands it every command that needs images (handoff.go).
const visionBinary = "decant-vision"

// labelBinary is the full build with the bucket drivers (s3://, gs://, azblob://, file://)
// linked: decant hands it `label` when a bucket URL is among its arguments, so that no other
// command pays for the drivers' start-up (decant-vision is built with the nobuckets tag).
const labelBinary = "decant-label"

// Exit codes, listed by "decant help".
const (
	exitOK         = 0
	exitError      = 1 // bad input or a failure, with a one-line message
	exitUsage      = 2 // unknown command or bad flags
	exitUnsolvable = 3 // the level is proven unsolvable
	exitUnknown    = 4 // a budget stopped the search before a verdict
)

// env is what every command writes to and reads from.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// subcommand is one of decant's commands: a small type holding its flags.
type subcommand interface {
	// Register adds the command's flags to fs.
	Register(fs *flag.FlagSet)
	// Run runs the command on the arguments left after the flags.
	Run(ctx context.Context, e *env, args []string) error
}

// command names a subcommand for usage and help.
type command struct {
	name, args, summary string
	new                 func() subcommand // nil for help
}

func commands() []command {
	img := imageCommands()
	return []command{
		{"solve", "FILE", "solve a level file or a screenshot: print the shortest plan", func() subcommand { return &solveCmd{} }},
		{"read", "IMAGE", "read a screenshot into a level", img["read"]},
		{"label", "DIR|FILES...", "batch-read screenshots into a JSON-lines file of levels", img["label"]},
		{"render", "LEVEL", "draw a level as a phone screenshot (or its plan as an animated GIF)", img["render"]},
		{"serve", "", "run the HTTP service with its upload page", img["serve"]},
		{"help", "[COMMAND]", "show this help, or a command's flags", nil},
	}
}

// usageError makes run exit with exitUsage.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

// exitStatus ends run with a code and no further message (the output already said it all).
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printHelp(stderr)
		return &usageError{"no command given"}
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(rest) > 0 {
			return run(ctx, []string{rest[0], "-h"}, stdin, stdout, stderr)
		}
		printHelp(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name != name || c.new == nil {
			continue
		}
		fs := flag.NewFlagSet("decant "+c.name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		fs.Usage = func() {
			fmt.Fprintf(stderr, "usage: decant %s [flags] %s\n\n%s.\n\nflags:\n", c.name, c.args, c.summary)
			fs.PrintDefaults()
		}
		sub := c.new()
		sub.Register(fs)
		if err := fs.Parse(interleave(fs, rest)); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return &usageError{err.Error()}
		}
		err := sub.Run(ctx, e, fs.Args())
		var u *usageError
		if errors.As(err, &u) {
			fs.Usage()
		}
		return err
	}
	printHelp(stderr)
	return &usageError{fmt.Sprintf("unknown command %q", name)}
}

// interleave moves flags after positional arguments to the front, so that
// "decant solve level.txt --json" works as well as "decant solve --json level.txt".
func interleave(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && i+1 < len(args) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(flags, pos...)
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `decant gets water-sort players unstuck: it reads a screenshot of a level, finds the
shortest sequence of pours, and draws it on the screenshot.

usage: decant COMMAND [flags] [arguments]

commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-7s %-14s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprint(w, `
Run "decant COMMAND -h" for a command's flags.

Tubes are numbered 1..N in reading order (rows top to bottom, left to right) in text output
and on annotated images; JSON documents use 0-based indices into "tubes".

exit codes:
  0  success (solve: a plan was found)
  1  error: bad input, unreadable image, no puzzle found ... (one line on stderr, or
     {"error": {"code", "message"}} with --json)
  2  usage: unknown command or bad flags
  3  solve: the level is proven unsolvable
  4  solve: a budget (--timeout, --max-states, --max-memory) stopped the search first
`)
}

// exitCode maps run's error to the process exit code, printing the message where one is due.
func exitCode(err error) int {
	var u *usageError
	var s exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &s):
		return int(s)
	case errors.As(err, &u):
		fmt.Fprintln(os.Stderr, "decant:", u.msg)
		return exitUsage
	default:
		fmt.Fprintln(os.Stderr, "decant:", describe(err))
		return exitError
	}
}

// describe is the one-line message for an error: the application message with its code, or
// the text of an unexpected error marked internal.
func describe(err error) string {
	code := solver.ErrorCode(err)
	if code == solver.CodeInternal {
		return "internal error: " + err.Error()
	}
	return fmt.Sprintf("%s (%s)", solver.ErrorMessage(err), code)
}
