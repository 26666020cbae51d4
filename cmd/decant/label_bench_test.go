package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	labelBench = flag.Bool("labelbench", false, "measure labelling throughput with 1 and 2 workers on the corpus (see -corpus)")
	labelMem   = flag.Int("labelmem", 0, "label this many rendered screenshots in a child process and report its memory as it goes")
)

// labelProcess runs "decant label ARGS" as a child process (the test binary as decant) and
// returns its wall time and CPU time.
func labelProcess(t *testing.T, args ...string) (wall, cpu time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"label"}, args...)...)
	cmd.Env = append(os.Environ(), "DECANT_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	wall = time.Since(start)
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return wall, cpu
}

// TestLabelThroughput reports images per second with 1 and 2 workers on the rendered
// corpus, alternating the two, and the CPU each run used per second of wall time (about 1
// for one worker when OpenCV keeps to one thread):
//
//	go test ./cmd/decant -run TestLabelThroughput -labelbench -corpus 300 -v
func TestLabelThroughput(t *testing.T) {
	if !*labelBench {
		t.Skip("measurement: run with -labelbench")
	}
	dir, info := labelCorpus(t)
	n := float64(len(info.inputs))
	rates := map[int][]float64{}
	cores := map[int][]float64{}
	for round := range 3 {
		for _, w := range []int{1, 2} {
			out := filepath.Join(t.TempDir(), "l.jsonl")
			wall, cpu := labelProcess(t, dir, "--out", out, "--workers", strconv.Itoa(w))
			rates[w] = append(rates[w], n/wall.Seconds())
			cores[w] = append(cores[w], cpu.Seconds()/wall.Seconds())
			t.Logf("round %d, %d worker(s): %.1f images/s, %.2f cores busy", round+1, w, n/wall.Seconds(), cpu.Seconds()/wall.Seconds())
		}
	}
	med := func(s []float64) float64 { slices.Sort(s); return s[len(s)/2] }
	r1, r2 := med(rates[1]), med(rates[2])
	t.Logf("%d inputs: 1 worker %.1f images/s (%.2f cores), 2 workers %.1f images/s (%.2f cores): %.2f×",
		len(info.inputs), r1, med(cores[1]), r2, med(cores[2]), r2/r1)
}

// TestLabelMemory labels -labelmem rendered screenshots in a child process, sampling its
// resident memory (VmRSS) as the lines come in: it must stay flat, not grow with the count.
//
//	go test ./cmd/decant -run TestLabelMemory -labelmem 5000 -v
func TestLabelMemory(t *testing.T) {
	if *labelMem == 0 {
		t.Skip("measurement: run with -labelmem N")
	}
	dir := t.TempDir()
	if _, err := buildCorpus(dir, *labelMem); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "l.jsonl")
	cmd := exec.Command(os.Args[0], "label", dir, "--out", out, "--workers", "2")
	cmd.Env = append(os.Environ(), "DECANT_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	type sample struct{ lines, rssKB int }
	var samples []sample
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		case <-time.After(200 * time.Millisecond):
			data, err := os.ReadFile(status)
			if err != nil {
				continue
			}
			lines, _ := os.ReadFile(out)
			samples = append(samples, sample{bytes.Count(lines, []byte("\n")), field(data, "VmRSS:")})
		}
	}
	peak := func(lo, hi int) int {
		p := 0
		for _, s := range samples {
			if s.lines >= lo && s.lines < hi {
				p = max(p, s.rssKB)
			}
		}
		return p
	}
	total := *labelMem
	var report []string
	for q := 1; q <= 4; q++ {
		lo, hi := (q-1)*total/4, q*total/4+1
		report = append(report, fmt.Sprintf("lines %d–%d: peak RSS %.1f MiB", lo, hi-1, float64(peak(lo, hi))/1024))
	}
	hwm := 0
	for _, s := range samples {
		hwm = max(hwm, s.rssKB)
	}
	t.Logf("%d screenshots, %d samples:\n  %s\n  overall peak %.1f MiB (rusage max RSS %.1f MiB)", total, len(samples), strings.Join(report, "\n  "),
		float64(hwm)/1024, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)/1024)
	first, last := peak(0, total/4+1), peak(3*total/4, total+1)
	if last > first*3/2+16*1024 {
		t.Errorf("memory grows with the count: %d KiB in the first quarter, %d KiB in the last", first, last)
	}
}

// field reads a "Name:   1234 kB" field of /proc/PID/status in kB.
func field(status []byte, name string) int {
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == name {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}
