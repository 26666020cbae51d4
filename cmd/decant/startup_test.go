package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The novision build and its handoff are tested as the user runs them: built binaries, run as
// processes. The start-up comparison runs behind a flag:
//
//	go test ./cmd/decant -run TestStartup -startup -v
//
// It times whole processes solving testdata/levels/seed-98.txt: the full build (what decant
// was before the split), the novision build installed as decant beside decant-vision, and
// testdata/puresolve, a pure-Go program that only parses, solves and prints. It reports
// medians of interleaved runs and their ratios to puresolve. Times are measured, never
// asserted: the machine is shared and noisy.

var startup = flag.Bool("startup", false, "time whole-process level solves of the full, novision and pure-Go builds")

// buildBinaries builds decant (novision), decant-vision (full) and puresolve into a directory.
func buildBinaries(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range []struct {
		out  string
		args []string
		cgo  string
	}{
		{"decant", []string{"-tags", "novision", "."}, "0"},
		{visionBinary, []string{"-tags", "nobuckets", "."}, "1"}, // as .ci/run and the Dockerfile build it
		{"puresolve", []string{"./testdata/puresolve"}, "0"},
	} {
		cmd := exec.Command("go", append([]string{"build", "-o", filepath.Join(dir, b.out)}, b.args...)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+b.cgo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", b.out, err, out)
		}
	}
	return dir
}

// runBinary runs a binary and returns stdout, stderr and the exit code.
func runBinary(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var x *exec.ExitError
	switch {
	case errors.As(err, &x):
		return out.String(), errb.String(), x.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// withoutTimes drops the lines with times, which differ from run to run.
func withoutTimes(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "search: ") || strings.Contains(l, `"elapsed_ms"`)
	}), "\n")
}

// TestNovisionBuild checks that the novision decant answers exactly as the full build does:
// level files solved in its own process, everything needing images handed to decant-vision,
// and a clear error when decant-vision is missing.
func TestNovisionBuild(t *testing.T) {
	dir := buildBinaries(t)
	lite, full := filepath.Join(dir, "decant"), filepath.Join(dir, visionBinary)
	level := "../../testdata/levels/seed-98.txt"
	shot := "../../testdata/seed-98.png"
	unsolvable := filepath.Join(t.TempDir(), "lost.txt")
	if err := os.WriteFile(unsolvable, []byte("3: blue red green | green red blue | green red blue | \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"solve", level}, {"solve", "--json", level}, {"solve", unsolvable}, {"solve", shot},
		{"read", shot}, {"help"}, {"help", "read"},
		{"solve"}, {"bogus"}, {"solve", "missing.txt"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			gotOut, gotErr, gotCode := runBinary(t, lite, args...)
			wantOut, wantErr, wantCode := runBinary(t, full, args...)
			if gotCode != wantCode || withoutTimes(gotOut) != withoutTimes(wantOut) || gotErr != wantErr {
				t.Fatalf("novision: exit %d\n%s%s\nfull: exit %d\n%s%s", gotCode, gotOut, gotErr, wantCode, wantOut, wantErr)
			}
		})
	}
	// Alone, the novision build still solves level files and says what images need.
	alone := filepath.Join(t.TempDir(), "decant")
	data, err := os.ReadFile(lite)
	if err == nil {
		err = os.WriteFile(alone, data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := runBinary(t, alone, "solve", level); code != 0 || !strings.Contains(out, "optimal plan of 40 pours") {
		t.Fatalf("alone, solve %s: exit %d\n%s", level, code, out)
	}
	if _, stderr, code := runBinary(t, alone, "solve", shot); code != exitError || !strings.Contains(stderr, visionBinary) {
		t.Fatalf("alone, solve %s: exit %d, stderr %q; want exit 1 naming %s", shot, code, stderr, visionBinary)
	}
	if _, stderr, code := runBinary(t, alone, "label", "s3://bucket/shots/"); code != exitError || !strings.Contains(stderr, labelBinary) {
		t.Fatalf("alone, label s3://: exit %d, stderr %q; want exit 1 naming %s", code, stderr, labelBinary)
	}
}

// TestBucketHandoff checks that only label with a bucket URL goes to decant-label, the one
// build that links the bucket drivers, and that decant-vision, built without them, names it.
func TestBucketHandoff(t *testing.T) {
	dir := buildBinaries(t)
	lite, full := filepath.Join(dir, "decant"), filepath.Join(dir, visionBinary)
	// A stand-in decant-label that says it ran: the handoff replaces the process with it.
	if err := os.WriteFile(filepath.Join(dir, labelBinary), []byte("#!/bin/sh\necho decant-label ran: \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"label", "s3://bucket/shots/", "--out", "labels.jsonl"},
		{"label", "--out", "gs://bucket/labels/", "shots"},
		{"label", "--merge", "file:///tmp/a.jsonl", "b.jsonl"},
	} {
		out, stderr, code := runBinary(t, lite, args...)
		if code != 0 || !strings.Contains(out, "decant-label ran: label") {
			t.Errorf("decant %v: exit %d, out %q, stderr %q; want it handed to %s", args, code, out, stderr, labelBinary)
		}
	}
	// Without a URL, label stays with decant-vision (which reports the missing folder).
	if out, _, _ := runBinary(t, lite, "label", filepath.Join(t.TempDir(), "missing")); strings.Contains(out, "decant-label ran") {
		t.Errorf("label of a folder went to %s", labelBinary)
	}
	if _, stderr, code := runBinary(t, full, "label", "s3://bucket/shots/"); code != exitError || !strings.Contains(stderr, labelBinary) {
		t.Errorf("decant-vision label s3://: exit %d, stderr %q; want exit 1 naming %s", code, stderr, labelBinary)
	}
}

func TestStartup(t *testing.T) {
	if !*startup {
		t.Skip("run with -startup to time whole-process solves")
	}
	dir := buildBinaries(t)
	level := "../../testdata/levels/seed-98.txt"
	bins := []struct{ name, path string }{
		{"full build (decant-vision)", filepath.Join(dir, visionBinary)},
		{"novision decant", filepath.Join(dir, "decant")},
		{"pure-Go puresolve", filepath.Join(dir, "puresolve")},
	}
	const runs = 31
	times := make([][]time.Duration, len(bins))
	for range runs {
		for i, b := range bins {
			args := []string{"solve", level}
			if i == 2 {
				args = []string{level}
			}
			start := time.Now()
			if out, err := exec.Command(b.path, args...).Output(); err != nil || !strings.Contains(string(out), "40 pours") {
				t.Fatalf("%s: %v\n%s", b.name, err, out)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	medians := make([]time.Duration, len(bins))
	for i := range bins {
		slices.Sort(times[i])
		medians[i] = times[i][runs/2]
	}
	fmt.Printf("whole-process `solve seed-98.txt`, %d interleaved runs each:\n", runs)
	for i, b := range bins {
		fmt.Printf("  %-28s median %7.1f ms (%5.2f× puresolve), fastest %6.1f ms (%5.2f×)\n", b.name,
			ms(medians[i]), float64(medians[i])/float64(medians[2]), ms(times[i][0]), float64(times[i][0])/float64(times[2][0]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
