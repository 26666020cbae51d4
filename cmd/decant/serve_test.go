package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decant/decant/solver/gen"
)

// startServe builds decant and starts "decant serve" on a loopback port; it returns the
// address and the process.
func startServe(t *testing.T, args ...string) (string, *exec.Cmd) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "decant")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	logs := bufio.NewScanner(stderr)
	for logs.Scan() {
		var line struct{ Msg, Addr string }
		if json.Unmarshal(logs.Bytes(), &line) == nil && line.Msg == "serving" {
			go io.Copy(io.Discard, stderr)
			return "http://" + line.Addr, cmd
		}
	}
	t.Fatalf("decant serve never said where it listens")
	return "", nil
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// Defect 3, with the real binary: SIGTERM with long searches in flight answers all 8 clients
// (the running search with its best plan, the waiting ones 503 with Retry-After) and exits 0.
func TestServeShutsDownGracefully(t *testing.T) {
	url, cmd := startServe(t, "--searches", "1", "--timeout", "1m", "--grace", "3s")
	waitUntil(t, "readiness", func() bool {
		res, err := http.Get(url + "/readyz")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == 200
	})

	type answer struct {
		status int
		retry  string
		body   string
		err    error
	}
	const clients = 8
	answers := make(chan answer, clients)
	hard := gen.Deal(154, 26, 4, 3).Compact() // minutes of search
	for range clients {
		go func() {
			res, err := http.Post(url+"/api/solve", "text/plain", strings.NewReader(hard))
			if err != nil {
				answers <- answer{err: err}
				return
			}
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			answers <- answer{res.StatusCode, res.Header.Get("Retry-After"), string(b), err}
		}()
	}
	waitUntil(t, "a long search", func() bool {
		res, err := http.Get(url + "/metrics")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return strings.Contains(string(b), "decant_searches_running 1")
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range clients {
		a := <-answers
		switch {
		case a.err != nil:
			t.Errorf("a client got no answer: %v", a.err)
		case a.status == 200:
			if !strings.Contains(a.body, `"status":"un`) { // unknown (stopped) or unsolvable (finished)
				t.Errorf("200: %s", a.body)
			}
		case a.status == 503:
			if a.retry == "" {
				t.Errorf("503 without Retry-After: %s", a.body)
			}
		default:
			t.Errorf("answer %d: %s", a.status, a.body)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("decant serve after SIGTERM: %v, want exit 0", err)
	}
}

// Environment variables set serve's flags; the command line wins over them.
func TestServeFlagsFromEnvironment(t *testing.T) {
	t.Setenv("DECANT_TOKEN", "from-env")
	t.Setenv("DECANT_CORS_ORIGINS", "https://a.example,https://b.example")
	t.Setenv("DECANT_MEMORY_BUDGET", "768")
	c := &serveCmd{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	c.Register(fs)
	if err := fs.Parse([]string{"--memory-budget", "512"}); err != nil {
		t.Fatal(err)
	}
	if c.token != "from-env" || c.cors != "https://a.example,https://b.example" || c.budgetMB != 512 || c.envErr != nil {
		t.Fatalf("token %q, cors %q, budget %d, env error %v", c.token, c.cors, c.budgetMB, c.envErr)
	}

	t.Setenv("DECANT_MAX_CONNS", "many")
	c = &serveCmd{}
	c.Register(flag.NewFlagSet("serve", flag.ContinueOnError))
	var u *usageError
	if !errors.As(c.envErr, &u) || !strings.Contains(u.msg, "DECANT_MAX_CONNS") {
		t.Fatalf("a bad value: %v, want a usage error naming DECANT_MAX_CONNS", c.envErr)
	}
}
