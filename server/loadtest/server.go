package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is a "decant serve" process started by the load test.
type server struct {
	URL string
	cmd *exec.Cmd
	dir string
}

// startServer builds cmd/decant, starts "decant serve" on a loopback port with args, and
// waits until it is ready.
func startServer(args ...string) (*server, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "decant-loadtest")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "decant")
	build := exec.Command("go", "build", "-o", bin, "./cmd/decant")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, dir: dir}
	logs := bufio.NewScanner(stderr)
	for logs.Scan() {
		var line struct{ Msg, Addr string }
		if json.Unmarshal(logs.Bytes(), &line) == nil && line.Msg == "serving" {
			s.URL = "http://" + line.Addr
			break
		}
	}
	if s.URL == "" {
		s.Stop()
		return nil, fmt.Errorf("decant serve did not start")
	}
	go io.Copy(io.Discard, stderr)
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(s.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s, nil
			}
		}
		if time.Since(start) > time.Minute {
			s.Stop()
			return nil, fmt.Errorf("decant serve not ready after a minute")
		}
	}
}

// ResetPeak starts a new peak-RSS measurement (Linux: clear_refs 5 resets VmHWM).
func (s *server) ResetPeak() {
	os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", s.cmd.Process.Pid), []byte("5"), 0)
}

// PeakRSS returns the server's peak resident set size in bytes since the last ResetPeak.
func (s *server) PeakRSS() int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// CPU returns the server's CPU time so far, user and system (Linux; 0 elsewhere).
func (s *server) CPU() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces) start at the state, field 3;
	// utime and stime are fields 14 and 15, in clock ticks of 1/100 s on Linux.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// Stop ends the server with SIGTERM, as an orchestrator would, and removes the binary.
func (s *server) Stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		s.cmd.Process.Kill()
	}
	os.RemoveAll(s.dir)
}
