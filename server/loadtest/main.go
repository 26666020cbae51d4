// Command loadtest measures a real "decant serve" on loopback: throughput and latency of
// screenshot solves at several client counts, peak RSS, 64 clients of 19 MiB uploads against
// the memory budget, and a mixed run of screenshots and hard levels.
//
//	go run ./server/loadtest                 # the full run (a few minutes)
//	go run ./server/loadtest -quick          # the CI slice (well under a minute)
//	go run ./server/loadtest -shots DIR      # more screenshots (default: testdata/seed-98.png
//	                                         # and ../shared/screenshots when present)
//	go run ./server/loadtest -runs mixed     # only some of the runs: solves, uploads, mixed
//
// It builds cmd/decant and starts it itself (flags after -- go to "decant serve"), so that it
// can read the server's peak RSS from /proc. It prints a Markdown table and exits 1 if the
// uploads took the server past its memory budget or an answer was malformed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/decant/decant/solver/gen"
)

func main() {
	quick := flag.Bool("quick", false, "the CI slice: fewer clients, shorter runs")
	shots := flag.String("shots", "", "folder of extra screenshots (default ../shared/screenshots when present)")
	dur := flag.Duration("duration", 15*time.Second, "length of each run")
	budget := flag.Int("memory-budget", 1024, "the server's --memory-budget in MiB")
	runs := flag.String("runs", "solves,uploads,mixed", "the runs to make, comma-separated")
	flag.Parse()
	only := map[string]bool{}
	for _, r := range strings.Split(*runs, ",") {
		if r != "solves" && r != "uploads" && r != "mixed" {
			fmt.Fprintf(os.Stderr, "loadtest: unknown run %q: want solves, uploads or mixed\n", r)
			os.Exit(2)
		}
		only[r] = true
	}
	if err := run(*quick, *shots, *dur, *budget, only, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(quick bool, shotDir string, dur time.Duration, budgetMiB int, only map[string]bool, serveArgs []string) error {
	clients := []int{1, 4, 16, 64}
	uploadClients := 64
	if quick {
		clients, dur, uploadClients = []int{1, 4}, 3*time.Second, 8
	}
	images, err := loadShots(shotDir)
	if err != nil {
		return err
	}
	srv, err := startServer(append([]string{"--memory-budget", fmt.Sprint(budgetMiB)}, serveArgs...)...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Printf("server: %s, --memory-budget %d MiB, %s\n", srv.URL, budgetMiB, strings.Join(serveArgs, " "))

	// Keep only screenshots the server solves, and time one solve of each alone.
	var solvable [][]byte
	for _, img := range images {
		r := post(srv.URL+"/api/solve", "image/png", img)
		if r.statuses[200] == 1 {
			solvable = append(solvable, img)
		}
	}
	if len(solvable) == 0 {
		return fmt.Errorf("none of %d screenshots solves", len(images))
	}
	fmt.Printf("%d of %d screenshots solve\n\n", len(solvable), len(images))

	fmt.Println("| run | clients | requests | answers/s | p50 | p95 | p99 | statuses | peak RSS | server CPU |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	if !only["solves"] {
		clients = nil
	}
	for _, n := range clients {
		srv.ResetPeak()
		cpu := srv.CPU()
		res := load(n, dur, func(i int) result { return post(srv.URL+"/api/solve", "image/png", solvable[i%len(solvable)]) })
		res.cpu = srv.CPU() - cpu
		res.print("screenshot solves", n, srv.PeakRSS())
		if err := res.malformed(); err != nil {
			return err
		}
	}

	var peak int64
	if only["uploads"] {
		big := bigUpload(19 << 20)
		srv.ResetPeak()
		cpu := srv.CPU()
		up := load(uploadClients, dur, func(int) result { return post(srv.URL+"/api/solve", "image/png", big) })
		up.cpu = srv.CPU() - cpu
		peak = srv.PeakRSS()
		up.print(fmt.Sprintf("%d MiB uploads", len(big)>>20), uploadClients, peak)
		if err := up.malformed(); err != nil {
			return err
		}
	}
	if only["mixed"] {
		if err := mixedRun(srv, solvable, quick, dur); err != nil {
			return err
		}
	}
	if !only["uploads"] {
		return nil
	}
	fmt.Printf("\nmemory budget %d MiB; peak RSS under the uploads %d MiB\n", budgetMiB, peak>>20)
	if peak > int64(budgetMiB)<<20 {
		return fmt.Errorf("peak RSS %d MiB under the uploads is over the %d MiB budget", peak>>20, budgetMiB)
	}
	return nil
}

// mixedRun sends screenshots alone, then again while 4 clients send a hard level back to back:
// the first run is the reference for the second on a machine whose load changes.
func mixedRun(srv *server, solvable [][]byte, quick bool, dur time.Duration) error {
	mixedClients := 16
	if quick {
		mixedClients = 4
	}
	shot := func(i int) result { return post(srv.URL+"/api/solve", "image/png", solvable[i%len(solvable)]) }
	srv.ResetPeak()
	cpu := srv.CPU()
	alone := load(mixedClients, dur, shot)
	alone.cpu = srv.CPU() - cpu
	alone.print("mixed: screenshots alone", mixedClients, srv.PeakRSS())
	if err := alone.malformed(); err != nil {
		return err
	}

	// The server tests' hard level: 26 colours with three empty tubes, whose proof of the
	// shortest plan stores millions of states, so every search runs to the server's timeout or
	// its memory budget (30 colours with two, the level here before, is now proven in 0.7 s).
	hard := []byte(gen.Deal(154, 26, 4, 3).Compact())
	srv.ResetPeak()
	var mu sync.Mutex
	var hardRes result
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := post(srv.URL+"/api/solve", "text/plain", hard)
				mu.Lock()
				hardRes.add(r)
				mu.Unlock()
			}
		}()
	}
	cpu = srv.CPU()
	mixed := load(mixedClients, dur, shot)
	close(stop)
	wg.Wait()
	mixed.cpu = srv.CPU() - cpu
	hardRes.elapsed, hardRes.cpu = mixed.elapsed, mixed.cpu
	mixedPeak := srv.PeakRSS()
	mixed.print("mixed: screenshots", mixedClients, mixedPeak)
	hardRes.print("mixed: hard levels", 4, mixedPeak)
	return mixed.malformed()
}

// loadShots reads the committed screenshot and, when present, the shared ones.
func loadShots(dir string) ([][]byte, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	files := []string{filepath.Join(root, "testdata", "seed-98.png")}
	if dir == "" {
		dir = filepath.Join(root, "..", "shared", "screenshots")
	}
	for _, pattern := range []string{"*.png", "*.jpg", "*.jpeg", "*.PNG"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	for err == nil {
		if _, e := os.Stat(filepath.Join(dir, "go.mod")); e == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("run loadtest inside the decant module")
}

// bigUpload is a PNG of noise about size bytes long (noise does not compress).
func bigUpload(size int) []byte {
	side := 1
	for side*side*3 < size {
		side += 16
	}
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(img.Pix); i += 4 {
		v := r.Uint32()
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(v), uint8(v>>8), uint8(v>>16), 255
	}
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img)
	return buf.Bytes()
}

// result collects a run's answers.
type result struct {
	lat      []time.Duration
	statuses map[int]int
	bad      []string
	elapsed  time.Duration
	cpu      time.Duration // the server's CPU time during the run
}

func (r *result) add(o result) {
	r.lat = append(r.lat, o.lat...)
	if r.statuses == nil {
		r.statuses = map[int]int{}
	}
	for k, v := range o.statuses {
		r.statuses[k] += v
	}
	r.bad = append(r.bad, o.bad...)
}

// post sends one request and checks the answer's shape: a plan document, or an error
// document (with Retry-After for 429 and 503).
func post(url, ctype string, body []byte) result {
	start := time.Now()
	res, err := http.Post(url, ctype, bytes.NewReader(body))
	if err != nil {
		return result{statuses: map[int]int{0: 1}, bad: []string{err.Error()}}
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	r := result{lat: []time.Duration{time.Since(start)}, statuses: map[int]int{res.StatusCode: 1}}
	var doc map[string]json.RawMessage
	switch {
	case err != nil:
		r.bad = append(r.bad, err.Error())
	case json.Unmarshal(data, &doc) != nil:
		r.bad = append(r.bad, fmt.Sprintf("%d: not JSON: %.80q", res.StatusCode, data))
	case res.StatusCode == 200 && doc["status"] == nil:
		r.bad = append(r.bad, fmt.Sprintf("200 without a status: %.80q", data))
	case res.StatusCode != 200 && doc["error"] == nil:
		r.bad = append(r.bad, fmt.Sprintf("%d without an error: %.80q", res.StatusCode, data))
	case (res.StatusCode == 429 || res.StatusCode == 503) && res.Header.Get("Retry-After") == "":
		r.bad = append(r.bad, fmt.Sprintf("%d without Retry-After", res.StatusCode))
	}
	return r
}

// load runs n clients, each sending requests back to back for d.
func load(n int, d time.Duration, do func(i int) result) result {
	var mu sync.Mutex
	var total result
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for c := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; ctx.Err() == nil; i += n {
				r := do(i)
				mu.Lock()
				total.add(r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	total.elapsed = time.Since(start)
	return total
}

func (r result) percentile(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), r.lat...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func (r result) print(name string, clients int, peak int64) {
	var codes []string
	for k, v := range r.statuses {
		codes = append(codes, fmt.Sprintf("%d×%d", v, k))
	}
	sort.Strings(codes)
	secs := r.elapsed.Seconds()
	if secs == 0 {
		secs = 1
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
	fmt.Printf("| %s | %d | %d | %.1f | %s | %s | %s | %s | %d MiB | %.2f cores |\n", name, clients, len(r.lat),
		float64(len(r.lat))/secs, ms(r.percentile(0.5)), ms(r.percentile(0.95)), ms(r.percentile(0.99)),
		strings.Join(codes, " "), peak>>20, r.cpu.Seconds()/secs)
}

func (r result) malformed() error {
	if len(r.bad) > 0 {
		return fmt.Errorf("%d malformed answers, first: %s", len(r.bad), r.bad[0])
	}
	return nil
}
