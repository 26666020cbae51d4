package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob"

	"github.com/decant/decant/cmd/decant/internal/labels"
	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
	"github.com/decant/decant/vision/render"
)

var corpusSize = flag.Int("corpus", 200, "rendered screenshots in the labelling corpus")

// TestMain runs decant's main instead of the tests when DECANT_TEST_MAIN is set, so that the
// kill test can run the real command as a process without building a second binary.
func TestMain(m *testing.M) {
	if os.Getenv("DECANT_TEST_MAIN") == "1" {
		os.Args = append([]string{"decant"}, os.Args[1:]...)
		main()
		return
	}
	flag.Parse()
	code := m.Run()
	if corpusDir != "" {
		os.RemoveAll(corpusDir)
		os.RemoveAll(corpusDir + "-runs")
	}
	os.Exit(code)
}

var (
	corpusOnce sync.Once
	corpusDir  string
	corpusErr  error
	corpus     corpusInfo
)

// corpusInfo is what the labelling corpus holds, by path relative to its root.
type corpusInfo struct {
	inputs   []string          // every path a walk must report, sorted
	truth    map[string]string // rendered screenshot → its level's compact form
	noPuzzle []string          // screens without a level
	bad      []string          // not images, or broken ones: status error
	dups     map[string]string // copy → original
}

// labelCorpus renders the corpus once per test binary: n small screenshots in nested folders
// (all themes, PNG and JPEG, some PNGs named .jpg), copies with the same bytes, screens with
// no puzzle, truncated and fake images, text files, an empty file and a link loop.
func labelCorpus(t testing.TB) (string, corpusInfo) {
	t.Helper()
	corpusOnce.Do(func() {
		corpusDir, corpusErr = os.MkdirTemp("", "decant-corpus-")
		if corpusErr == nil {
			corpus, corpusErr = buildCorpus(corpusDir, *corpusSize)
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusDir, corpus
}

func buildCorpus(dir string, n int) (corpusInfo, error) {
	info := corpusInfo{truth: map[string]string{}, dups: map[string]string{}}
	write := func(rel string, data []byte) error {
		info.inputs = append(info.inputs, rel)
		name := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, data, 0o644)
	}
	var first []byte
	for i := range n {
		level := gen.Deal(uint64(i+1), 3+i%5, 4, 2)
		if i%3 == 1 {
			level = gen.Scramble(level, uint64(i), 6)
		}
		opts := render.Options{Theme: render.Themes[i%len(render.Themes)], Width: 360, Height: 640, Seed: uint64(i)}
		ext := ".png"
		switch {
		case i%5 == 0:
			opts.JPEGQuality, ext = 85, ".jpg"
		case i%17 == 3:
			ext = ".jpg" // a PNG named .jpg
		}
		r, err := render.Render(level, opts)
		if err != nil {
			return info, err
		}
		rel := path.Join(fmt.Sprintf("game-%d", i%4), fmt.Sprintf("world-%d", i%3), fmt.Sprintf("level-%03d%s", i, ext))
		if i%10 == 9 {
			rel = fmt.Sprintf("level-%03d%s", i, ext) // some at the top
		}
		if err := write(rel, r.Data); err != nil {
			return info, err
		}
		info.truth[rel] = level.Compact()
		if first == nil {
			first = r.Data
			info.dups["copies/same-as-first.png"] = rel
			info.dups["copies/deeper/again.png"] = rel
		}
	}
	for c := range info.dups {
		if err := write(c, first); err != nil {
			return info, err
		}
	}
	// Screens without a level.
	for i, fill := range []func(x, y int) color.RGBA{
		func(x, y int) color.RGBA { return color.RGBA{30, 30, 60, 255} },
		func(x, y int) color.RGBA { return color.RGBA{uint8(y / 3), 80, uint8(255 - y/3), 255} },
		func(x, y int) color.RGBA { return color.RGBA{uint8(200 * ((x / 40) % 2)), 120, 90, 255} },
	} {
		img := image.NewRGBA(image.Rect(0, 0, 360, 640))
		for y := range 640 {
			for x := range 360 {
				img.SetRGBA(x, y, fill(x, y))
			}
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		rel := fmt.Sprintf("screens/menu-%d.png", i)
		if err := write(rel, buf.Bytes()); err != nil {
			return info, err
		}
		info.noPuzzle = append(info.noPuzzle, rel)
	}
	// Files that are not (whole) images.
	bad := map[string][]byte{
		"broken/truncated.png": first[:len(first)/2],
		"broken/fake.jpg":      append([]byte("\xff\xd8\xff\xe0"), bytes.Repeat([]byte("not a jpeg "), 100)...),
		"broken/empty.png":     {},
		"notes/readme.txt":     []byte("screenshots of levels\n"),
		"notes/level.json":     []byte(`{"capacity": 3, "tubes": [["red", "red", "red"], []]}`),
	}
	for rel, data := range bad {
		if err := write(rel, data); err != nil {
			return info, err
		}
		info.bad = append(info.bad, rel)
	}
	// A link back up: reported once, never followed.
	if err := os.Symlink("..", filepath.Join(dir, "game-0", "loop")); err != nil {
		return info, err
	}
	info.inputs = append(info.inputs, "game-0/loop")
	info.bad = append(info.bad, "game-0/loop")
	sort.Strings(info.inputs)
	return info, nil
}

var (
	singleOnce sync.Once
	single     struct{ out, coco, review, stderr string }
	singleCode int
)

// singleRun labels the corpus once, with two workers, a COCO file and a review sheet, and
// returns the labels file; the tests that compare other runs with it share it.
func singleRun(t *testing.T) string {
	t.Helper()
	dir, _ := labelCorpus(t)
	singleOnce.Do(func() {
		runs := corpusDir + "-runs"
		os.MkdirAll(runs, 0o755)
		single.out, single.coco, single.review = filepath.Join(runs, "single.jsonl"), filepath.Join(runs, "coco.json"), filepath.Join(runs, "review")
		_, single.stderr, singleCode = decant(t, "", "label", dir, "--out", single.out, "--workers", "2", "--coco", single.coco, "--review", single.review)
	})
	if singleCode != 0 {
		t.Fatalf("exit %d: %s", singleCode, single.stderr)
	}
	return single.out
}

// readLines parses a labels file, failing on anything that is not a whole label line.
func readLines(t testing.TB, name string) []labels.Line {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a newline", name)
	}
	var out []labels.Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l labels.Line
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s: %v in %s", name, err, sc.Bytes())
		}
		if l.Schema != labels.Schema {
			t.Fatalf("schema %d", l.Schema)
		}
		out = append(out, l)
	}
	return out
}

// byPath indexes lines by path, failing on a path seen twice.
func byPath(t testing.TB, lines []labels.Line) map[string]labels.Line {
	t.Helper()
	m := map[string]labels.Line{}
	for _, l := range lines {
		if _, ok := m[l.Path]; ok {
			t.Errorf("%s labelled twice", l.Path)
		}
		m[l.Path] = l
	}
	return m
}

// essence is what must agree between two runs: path, bytes, status and level.
func essence(l labels.Line) string {
	lv := ""
	if l.Level != nil {
		b, _ := json.Marshal(l.Level)
		lv = string(b)
	}
	code := ""
	if l.Error != nil {
		code = string(l.Error.Code)
	}
	return strings.Join([]string{l.Path, l.SHA256, string(l.Status), code, lv}, " ")
}

func essences(lines []labels.Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, essence(l))
	}
	sort.Strings(out)
	return out
}

func TestLabelCorpus(t *testing.T) {
	dir, info := labelCorpus(t)
	out := singleRun(t)
	coco, review, errOut := single.coco, single.review, single.stderr
	lines := readLines(t, out)
	got := byPath(t, lines)
	var paths []string
	for p := range got {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if !slices.Equal(paths, info.inputs) {
		t.Fatalf("labelled %d paths, want %d:\ngot  %v\nwant %v", len(paths), len(info.inputs), paths, info.inputs)
	}
	// Every label is what decant read says of the same file.
	exact := 0
	for _, p := range info.inputs {
		l := got[p]
		if l.Root != dir {
			t.Errorf("%s: root %q, want %q", p, l.Root, dir)
		}
		if p == "game-0/loop" {
			if l.Status != labels.StatusError || !strings.Contains(l.Error.Message, "loop") {
				t.Errorf("loop: %+v", l)
			}
			continue
		}
		stdout, _, rc := decant(t, "", "read", filepath.Join(dir, p), "--json")
		switch {
		case rc == 0:
			if l.Status != labels.StatusOK || l.Level == nil {
				t.Errorf("%s: status %s, but read gave a level", p, l.Status)
				continue
			}
			want, _ := solver.ParseLevel([]byte(stdout))
			gb, _ := json.Marshal(l.Level)
			wb, _ := json.Marshal(want)
			if !bytes.Equal(gb, wb) {
				t.Errorf("%s: label %s, read %s", p, gb, wb)
			}
			lv, err := solver.ParseLevel(l.Level)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			if truth, err := solver.ParseCompact(info.truth[p]); err == nil && truth.Canonical() == lv.Canonical() {
				exact++
			}
		default:
			var doc errorDoc
			json.Unmarshal([]byte(stdout), &doc)
			if l.Error == nil || l.Error.Code != doc.Error.Code || l.Status == labels.StatusOK {
				t.Errorf("%s: label %s %+v, read says %s", p, l.Status, l.Error, doc.Error.Code)
			}
		}
	}
	if exact < len(info.truth)*9/10 {
		t.Errorf("only %d of %d rendered screenshots read exactly", exact, len(info.truth))
	}
	for _, p := range info.noPuzzle {
		if got[p].Status != labels.StatusNoPuzzle {
			t.Errorf("%s: %s, want no_puzzle", p, got[p].Status)
		}
	}
	for _, p := range info.bad {
		if got[p].Status != labels.StatusError || got[p].Error == nil {
			t.Errorf("%s: %s, want error", p, got[p].Status)
		}
	}
	// Three paths with the same bytes: one reading, reused by the two read later.
	same, reused := []string{}, 0
	for c, orig := range info.dups {
		if len(same) == 0 {
			same = append(same, orig)
		}
		same = append(same, c)
	}
	for _, p := range same {
		if got[p].SameAs != "" {
			reused++
		}
		if essence(got[p])[len(p):] != essence(got[same[0]])[len(same[0]):] {
			t.Errorf("%s and %s have the same bytes but different labels", p, same[0])
		}
	}
	if reused != 2 {
		t.Errorf("%d of 3 paths with the same bytes reused a reading, want 2", reused)
	}
	if l := got["game-3/world-0/level-003.jpg"]; l.Format != "png" {
		t.Errorf("a PNG named .jpg: format %q", l.Format)
	}
	if !strings.Contains(errOut, fmt.Sprintf("error %d", len(info.bad))) {
		t.Errorf("summary: %s", errOut)
	}
	checkCOCO(t, coco, lines)
	checkReview(t, review, lines)

	// A rerun finds nothing left to do and leaves the file as it was.
	before, _ := os.ReadFile(out)
	_, errOut, code := decant(t, "", "label", dir, "--out", out)
	after, _ := os.ReadFile(out)
	if code != 0 || !bytes.Equal(before, after) || !strings.Contains(errOut, fmt.Sprintf("%d already labelled", len(info.inputs))) {
		t.Errorf("rerun: exit %d, file changed %v: %s", code, !bytes.Equal(before, after), errOut)
	}
}

// COCO as annotation tools read it; unknown fields are refused.
type cocoDoc struct {
	Info struct {
		Description string `json:"description"`
		Version     string `json:"version"`
		Year        int    `json:"year"`
		Contributor string `json:"contributor"`
		URL         string `json:"url"`
		DateCreated string `json:"date_created"`
	} `json:"info"`
	Licenses []struct{} `json:"licenses"`
	Images   []struct {
		ID       int    `json:"id"`
		FileName string `json:"file_name"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
	} `json:"images"`
	Annotations []struct {
		ID           int         `json:"id"`
		ImageID      int         `json:"image_id"`
		CategoryID   int         `json:"category_id"`
		BBox         []float64   `json:"bbox"`
		Area         float64     `json:"area"`
		Segmentation [][]float64 `json:"segmentation"`
		IsCrowd      int         `json:"iscrowd"`
	} `json:"annotations"`
	Categories []struct {
		ID            int    `json:"id"`
		Name          string `json:"name"`
		Supercategory string `json:"supercategory"`
	} `json:"categories"`
}

func checkCOCO(t *testing.T, name string, lines []labels.Line) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc cocoDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("COCO: %v", err)
	}
	type size struct{ w, h int }
	images := map[int]size{}
	files := map[string]bool{}
	for _, im := range doc.Images {
		if _, ok := images[im.ID]; ok || im.ID <= 0 || files[im.FileName] || im.Width <= 0 || im.Height <= 0 {
			t.Errorf("COCO image %+v: repeated or invalid", im)
		}
		images[im.ID] = size{im.Width, im.Height}
		files[im.FileName] = true
	}
	cats := map[int]string{}
	for _, c := range doc.Categories {
		if _, ok := cats[c.ID]; ok || c.ID <= 0 || c.Name == "" {
			t.Errorf("COCO category %+v: repeated or invalid", c)
		}
		cats[c.ID] = c.Name
	}
	ids := map[int]bool{}
	perImage := map[int]int{}
	for _, a := range doc.Annotations {
		im, ok := images[a.ImageID]
		_, catOK := cats[a.CategoryID]
		if ids[a.ID] || a.ID <= 0 || !ok || !catOK || len(a.BBox) != 4 {
			t.Fatalf("COCO annotation %+v: repeated id or a dangling reference", a)
		}
		ids[a.ID] = true
		perImage[a.ImageID]++
		x, y, w, h := a.BBox[0], a.BBox[1], a.BBox[2], a.BBox[3]
		if x < 0 || y < 0 || w <= 0 || h <= 0 || x+w > float64(im.w) || y+h > float64(im.h) {
			t.Errorf("COCO annotation %d: bbox %v outside its %d×%d image", a.ID, a.BBox, im.w, im.h)
		}
		if a.Area != w*h {
			t.Errorf("COCO annotation %d: area %v, want %v", a.ID, a.Area, w*h)
		}
	}
	// Every line with a size is an image; each tube and unit a box.
	wantImages, wantBoxes := 0, 0
	for _, l := range lines {
		if l.Width > 0 {
			wantImages++
			for _, tb := range l.Tubes {
				wantBoxes += 1 + len(tb.Units)
			}
		}
	}
	if len(doc.Images) != wantImages || len(doc.Annotations) != wantBoxes {
		t.Errorf("COCO: %d images and %d boxes, want %d and %d", len(doc.Images), len(doc.Annotations), wantImages, wantBoxes)
	}
	if !slices.Contains(slices.Collect(mapValues(cats)), "tube") || len(cats) < 4 {
		t.Errorf("COCO categories: %v", cats)
	}
}

func mapValues[K comparable, V any](m map[K]V) func(func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func checkReview(t *testing.T, dir string, lines []labels.Line) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, ext := range []string{"http:", "https:", `src="//`, `href="//`, "<script"} {
		if strings.Contains(html, ext) {
			t.Errorf("review sheet refers to %q", ext)
		}
	}
	// Errors come first, ok last; every image with a size has its thumbnail.
	iErr, iOK := strings.Index(html, ">error<"), strings.Index(html, ">ok")
	if iErr < 0 || iOK < 0 || iErr > iOK {
		t.Errorf("review sheet order: error at %d, ok at %d", iErr, iOK)
	}
	if !strings.Contains(html, "loop") || !strings.Contains(html, "not a PNG, JPEG, WebP, GIF or BMP image") {
		t.Error("review sheet lacks the reasons for errors")
	}
	thumbs := 0
	for _, l := range lines {
		if l.Width > 0 {
			if _, err := os.Stat(filepath.Join(dir, "thumbs", l.SHA256[:24]+".jpg")); err != nil {
				t.Errorf("%s: no thumbnail", l.Path)
			}
			thumbs++
		}
	}
	if got := strings.Count(html, `<img src="thumbs/`); got != thumbs {
		t.Errorf("review sheet shows %d thumbnails, want %d", got, thumbs)
	}
}

func TestLabelShardsMerge(t *testing.T) {
	dir, _ := labelCorpus(t)
	work := t.TempDir()
	single := singleRun(t)
	var parts []string
	total := 0
	for i := range 4 {
		p := filepath.Join(work, fmt.Sprintf("shard-%d.jsonl", i))
		if _, errOut, code := decant(t, "", "label", dir, "--shard", fmt.Sprintf("%d/4", i), "--out", p, "--workers", "1"); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		n := len(readLines(t, p))
		if n == 0 {
			t.Errorf("shard %d is empty", i)
		}
		total += n
		parts = append(parts, p)
	}
	// A part given twice: merge keeps one line per path.
	all := filepath.Join(work, "all.jsonl")
	args := append([]string{"label", "--merge", "--out", all}, append(parts, parts[0])...)
	if _, errOut, code := decant(t, "", args...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	want, got := readLines(t, single), readLines(t, all)
	byPath(t, got)
	if total != len(want) || !slices.Equal(essences(got), essences(want)) {
		t.Errorf("4 shards hold %d lines, merged %d; the single run %d", total, len(got), len(want))
	}
	if _, _, code := decant(t, "", "label", dir, "--shard", "4/4"); code != exitUsage {
		t.Errorf("--shard 4/4: exit %d, want usage", code)
	}
}

// TestLabelKill kills a real labelling process (SIGKILL) at random moments, then lets a
// rerun finish: the file must hold exactly one valid line per input.
func TestLabelKill(t *testing.T) {
	dir, info := labelCorpus(t)
	out := filepath.Join(t.TempDir(), "labels.jsonl")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "label", dir, "--out", out, "--workers", "2")
		cmd.Env = append(os.Environ(), "DECANT_TEST_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	lineCount := func() int {
		data, _ := os.ReadFile(out)
		return bytes.Count(data, []byte("\n"))
	}
	kills := 0
	for round := 0; round < 5 && lineCount() < len(info.inputs); round++ {
		cmd := start()
		// Wait until the run has written something beyond what it started with, then a
		// random moment more, so each kill lands mid-way through a different stretch.
		startLines := lineCount()
		deadline := time.Now().Add(20 * time.Second)
		for lineCount() <= startLines && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
		t.Logf("kill %d: %d lines so far", kills, lineCount())
	}
	cmd := start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("final run: %v", err)
	}
	got := byPath(t, readLines(t, out))
	if len(got) != len(info.inputs) {
		t.Fatalf("%d lines after %d kills, want %d", len(got), kills, len(info.inputs))
	}
	for _, p := range info.inputs {
		if _, ok := got[p]; !ok {
			t.Errorf("%s missing", p)
		}
	}
	if kills < 2 {
		t.Errorf("only %d kills landed before the run finished", kills)
	}
}

// TestLabelBucket labels the corpus through gocloud's S3 driver from an in-process S3
// endpoint, writing part objects to the same endpoint: the lines equal the local run's.
func TestLabelBucket(t *testing.T) {
	dir, info := labelCorpus(t)
	srv := httptest.NewServer(gofakes3.New(s3mem.New(), gofakes3.WithAutoBucket(true)).Server())
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	query := "?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true&request_checksum_calculation=when_required&response_checksum_validation=when_required"
	ctx := context.Background()
	b, err := blob.OpenBucket(ctx, "s3://screens"+query)
	if err != nil {
		t.Fatal(err)
	}
	uploaded := 0
	for _, p := range info.inputs {
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			continue // the link loop: buckets have no links
		}
		if err := b.WriteAll(ctx, "corpus/"+p, data, nil); err != nil {
			t.Fatal(err)
		}
		uploaded++
	}
	b.Close()

	work := t.TempDir()
	local := singleRun(t)
	outURL := "s3://labels/run1/" + query
	if _, errOut, code := decant(t, "", "label", "s3://screens/corpus"+query, "--out", outURL, "--part-lines", "64"); code != 0 {
		t.Fatalf("bucket: exit %d: %s", code, errOut)
	}
	// A rerun into the same parts finds everything done.
	if _, errOut, code := decant(t, "", "label", "s3://screens/corpus"+query, "--out", outURL); code != 0 || !strings.Contains(errOut, fmt.Sprintf("%d already labelled", uploaded)) {
		t.Fatalf("bucket rerun: exit %d: %s", code, errOut)
	}
	merged := filepath.Join(work, "bucket.jsonl")
	if _, errOut, code := decant(t, "", "label", "--merge", outURL, "--out", merged); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	fromBucket := readLines(t, merged)
	byPath(t, fromBucket)
	var want []labels.Line
	for _, l := range readLines(t, local) {
		if l.Path != "game-0/loop" {
			want = append(want, l)
		}
	}
	if len(fromBucket) != uploaded || !slices.Equal(essences(fromBucket), essences(want)) {
		t.Errorf("bucket run: %d lines, local %d (uploaded %d)", len(fromBucket), len(want), uploaded)
	}
	if fromBucket[0].Root != "s3://screens/corpus" {
		t.Errorf("root %q", fromBucket[0].Root)
	}
}
