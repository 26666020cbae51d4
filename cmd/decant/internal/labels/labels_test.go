package labels

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

const pngSig = "\x89PNG\r\n\x1a\n"

// fakeReader reads "screenshots" that are a PNG signature followed by what to answer:
// "ok COMPACT", "low COMPACT", "none" or "bad".
type fakeReader struct{ calls atomic.Int64 }

func (f *fakeReader) Read(data []byte) (*Reading, error) {
	f.calls.Add(1)
	kind, rest, _ := strings.Cut(strings.TrimPrefix(string(data), pngSig), " ")
	r := &Reading{Width: 100, Height: 200, Confidence: 1}
	switch kind {
	case "ok", "low":
		l, err := solver.ParseCompact(rest)
		if err != nil {
			return nil, err
		}
		r.Level = l
		for i := range l.Tubes {
			r.Tubes = append(r.Tubes, Tube{Box: [4]int{10 * i, 50, 10*i + 8, 150}, Units: [][4]int{{10 * i, 140, 10*i + 8, 150}}[:min(1, len(l.Tubes[i]))]})
		}
		if kind == "low" {
			r.Confidence, r.Reasons = 0.3, []string{"a doubt"}
			return r, solver.Errorf(solver.CodeLowConfidence, "low confidence (0.30): a doubt")
		}
		return r, nil
	case "none":
		return r, solver.Errorf(solver.CodeNoPuzzle, "no water-sort level found")
	}
	return nil, solver.Errorf(solver.CodeUnreadableImage, "cannot decode")
}

// tree writes files (path → content) under a new folder.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func walkAll(t *testing.T, arg string) []string {
	t.Helper()
	src, err := OpenSource(context.Background(), arg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = src.Walk(context.Background(), func(it Item) error {
		_, err := it.open(context.Background())
		s := it.Path
		if err != nil {
			s += " ! " + string(solver.ErrorCode(err))
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWalk(t *testing.T) {
	dir := tree(t, map[string]string{"b.png": "x", "a/z.txt": "x", "a/b/c.jpg": "x", "d/e.gif": "x"})
	os.Symlink("..", filepath.Join(dir, "a", "b", "up"))             // a loop
	os.Symlink("../d", filepath.Join(dir, "a", "d-link"))            // a folder elsewhere: followed
	os.Symlink("nowhere", filepath.Join(dir, "broken"))              // a broken link
	os.Symlink(filepath.Join(dir, "b.png"), filepath.Join(dir, "c")) // a link to a file
	syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644)                // would block a reader
	got := walkAll(t, dir)
	want := []string{
		"a/b/c.jpg", "a/b/up ! invalid_argument", "a/d-link/e.gif", "a/z.txt",
		"b.png", "broken ! not_found", "c", "d/e.gif", "pipe ! unreadable_image",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The run's own output inside the folder is left out.
	src, _ := OpenSource(context.Background(), dir, nil, filepath.Join(dir, "b.png"), filepath.Join(dir, "a", "b"))
	var kept []string
	src.Walk(context.Background(), func(it Item) error { kept = append(kept, it.Path); return nil })
	if want := []string{"a/d-link/e.gif", "a/z.txt", "broken", "c", "d/e.gif", "pipe"}; !slices.Equal(kept, want) {
		t.Errorf("excluding b.png and a/b: got %q, want %q", kept, want)
	}
	if got := walkAll(t, filepath.Join(dir, "a", "z.txt")); !slices.Equal(got, []string{"z.txt"}) {
		t.Errorf("a file argument: %q", got)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{pngSig + "rest", "png"}, {"\xff\xd8\xff\xe0", "jpeg"}, {"RIFF\x00\x00\x00\x00WEBPVP8 ", "webp"},
		{"GIF89a...", "gif"}, {"GIF87a...", "gif"}, {"BM\x00\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00", "bmp"},
		{"BM", ""}, {"hello", ""}, {"", ""}, {"RIFF\x00\x00\x00\x00WAVE", ""}, {"<svg>", ""},
	} {
		if got := Sniff([]byte(tc.data)); got != tc.want {
			t.Errorf("Sniff(%q) = %q, want %q", tc.data, got, tc.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{{"0/1", Shard{0, 1}, true}, {"3/4", Shard{3, 4}, true}, {"4/4", Shard{}, false}, {"-1/4", Shard{}, false}, {"1/0", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false}} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
	// Every path falls in exactly one of n shards, and the shards are about even.
	for _, n := range []int{2, 3, 7} {
		counts := make([]int, n)
		for i := range 700 {
			p := fmt.Sprintf("game-%d/level-%03d.png", i%5, i)
			in := 0
			for s := range n {
				if (Shard{s, n}).Has(p) {
					in++
					counts[s]++
				}
			}
			if in != 1 {
				t.Fatalf("%s is in %d of %d shards", p, in, n)
			}
		}
		for s, c := range counts {
			if c < 700/n/2 {
				t.Errorf("shard %d/%d has %d of 700 paths", s, n, c)
			}
		}
	}
}

func runDir(t *testing.T, dir, out string, r Reader, opts Options) Summary {
	t.Helper()
	src, err := OpenSource(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sink, done, err := OpenFile(out, false)
	if err != nil {
		t.Fatal(err)
	}
	opts.Reader = r
	sum, err := Run(context.Background(), []Source{src}, done, sink, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func linesOf(t *testing.T, name string) []Line {
	t.Helper()
	data, _ := os.ReadFile(name)
	var out []Line
	for _, s := range strings.SplitAfter(string(data), "\n") {
		if s == "" {
			continue
		}
		var l Line
		if err := json.Unmarshal([]byte(s), &l); err != nil || !strings.HasSuffix(s, "\n") {
			t.Fatalf("bad line %q: %v", s, err)
		}
		out = append(out, l)
	}
	return out
}

func TestRunStatusesAndReuse(t *testing.T) {
	level := "3: red blue red | blue red blue | |"
	dir := tree(t, map[string]string{
		"a/one.png":   pngSig + "ok " + level,
		"a/same.png":  pngSig + "ok " + level, // the same bytes
		"b/low.jpg":   pngSig + "low " + level,
		"b/menu.png":  pngSig + "none",
		"b/bad.png":   pngSig + "bad",
		"notes.txt":   "hello",
		"z/again.gif": pngSig + "ok " + level,
	})
	r := &fakeReader{}
	out := filepath.Join(t.TempDir(), "l.jsonl")
	sum := runDir(t, dir, out, r, Options{Workers: 3})
	got := map[string]string{}
	for _, l := range linesOf(t, out) {
		s := string(l.Status)
		if l.Error != nil {
			s += " " + string(l.Error.Code)
		}
		if l.SameAs != "" {
			s += " same"
		}
		got[l.Path] = s
	}
	want := map[string]string{
		"a/one.png": "ok", "a/same.png": "ok same", "z/again.gif": "ok same", "b/low.jpg": "low_confidence low_confidence",
		"b/menu.png": "no_puzzle no_puzzle", "b/bad.png": "error unreadable_image", "notes.txt": "error unreadable_image",
	}
	// Which of the three same-byte paths is read first depends on the workers: one is read,
	// the other two reuse its reading.
	var copies []string
	for _, p := range []string{"a/one.png", "a/same.png", "z/again.gif"} {
		copies = append(copies, got[p])
		got[p] = want[p]
	}
	if sort.Strings(copies); !slices.Equal(copies, []string{"ok", "ok same", "ok same"}) {
		t.Errorf("three copies: %q", copies)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if n := r.calls.Load(); n != 4 {
		t.Errorf("%d reads, want 4 (one for the three copies)", n)
	}
	if sum.Counts[StatusOK] != 3 || sum.Counts[StatusError] != 2 || sum.Reused != 2 || !strings.Contains(sum.String(), "ok 3, low_confidence 1, no_puzzle 1, error 2") {
		t.Errorf("summary %+v\n%s", sum, sum)
	}
}

func TestResumeDropsTornLine(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("d%d/l%02d.png", i%3, i)] = pngSig + fmt.Sprintf("ok 2: red blue | blue red | | # %d", i)
	}
	files["x.png"] = pngSig + "none"
	dir := tree(t, files)
	out := filepath.Join(t.TempDir(), "l.jsonl")
	runDir(t, dir, out, &fakeReader{}, Options{Workers: 2})
	full, _ := os.ReadFile(out)
	// Keep 7 whole lines and half of the 8th, as a kill mid-write would leave them.
	cut, n := 0, 0
	for n < 7 {
		cut += bytes.IndexByte(full[cut:], '\n') + 1
		n++
	}
	torn := full[:cut+20]
	os.WriteFile(out, torn, 0o644)
	r := &fakeReader{}
	sum := runDir(t, dir, out, r, Options{Workers: 2})
	lines := linesOf(t, out)
	if len(lines) != 21 || sum.Skipped != 7 || r.calls.Load() != 14 {
		t.Errorf("%d lines, %d skipped, %d read; want 21, 7, 14", len(lines), sum.Skipped, r.calls.Load())
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l.Path] {
			t.Errorf("%s twice", l.Path)
		}
		seen[l.Path] = true
	}
	// A line that is not a label, other than a torn last one, stops a resume.
	os.WriteFile(out, append([]byte("not json\n"), full...), 0o644)
	if _, _, err := OpenFile(out, false); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a foreign file: %v", err)
	}
	if _, done, err := OpenFile(out, true); err != nil || len(done) != 0 {
		t.Errorf("--force: %v, %d done", err, len(done))
	}
}

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	line := func(p, st string) string {
		return fmt.Sprintf(`{"schema":1,"root":"r","path":%q,"status":%q,"bytes":0,"confidence":0,"timings":{"fetch_ms":0,"read_ms":0,"total_ms":0}}`+"\n", p, st)
	}
	os.WriteFile(a, []byte(line("x.png", "ok")+line("y.png", "error")), 0o644)
	os.WriteFile(b, []byte(line("y.png", "ok")+line("z.png", "ok")+`{"schema":1,"ro`), 0o644) // torn last line
	var out bytes.Buffer
	written, dropped, err := Merge(context.Background(), []string{a, b}, nil, &out)
	if err != nil || written != 3 || dropped != 1 {
		t.Fatalf("merge: %d written, %d dropped, %v", written, dropped, err)
	}
	if want := line("x.png", "ok") + line("y.png", "error") + line("z.png", "ok"); out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestCOCOClipsAndNames(t *testing.T) {
	level, err := solver.ParseCompact("2: red ? | blue | blue")
	if err != nil {
		t.Fatal(err)
	}
	lines := []Line{
		{Schema: 1, Path: "a.png", Status: StatusOK, Level: mustJSON(level), Width: 100, Height: 200, Tubes: []Tube{
			{Box: [4]int{-5, 10, 20, 250}, Units: [][4]int{{0, 100, 20, 150}, {0, 50, 20, 100}}},
			{Box: [4]int{30, 10, 50, 190}, Units: [][4]int{{30, 100, 50, 150}}},
			{Box: [4]int{60, 10, 80, 190}, Units: [][4]int{{60, 100, 80, 150}, {60, 50, 80, 100}, {60, 0, 80, 50}}}, // one box too many
		}},
		{Schema: 1, Path: "bad.txt", Status: StatusError},
		{Schema: 1, Path: "menu.png", Status: StatusNoPuzzle, Width: 300, Height: 400},
	}
	name := filepath.Join(t.TempDir(), "l.jsonl")
	var buf bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		buf.Write(append(b, '\n'))
	}
	os.WriteFile(name, buf.Bytes(), 0o644)
	var out bytes.Buffer
	if err := WriteCOCO(&out, name); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Images      []cocoImage      `json:"images"`
		Annotations []cocoAnnotation `json:"annotations"`
		Categories  []cocoCategory   `json:"categories"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var cats []string
	for _, c := range doc.Categories {
		cats = append(cats, c.Name)
	}
	var boxes []string
	for _, a := range doc.Annotations {
		boxes = append(boxes, fmt.Sprintf("%d:%s%v=%d", a.ImageID, doc.Categories[a.CategoryID-1].Name, a.BBox, a.Area))
	}
	sort.Strings(boxes)
	want := []string{"1:blue[30 100 20 50]=1000", "1:hidden[0 50 20 50]=1000", "1:red[0 100 20 50]=1000",
		"1:tube[0 10 20 190]=3800", "1:tube[30 10 20 180]=3600", "1:tube[60 10 20 180]=3600",
		"1:unit[60 0 20 50]=1000", "1:unit[60 100 20 50]=1000", "1:unit[60 50 20 50]=1000"}
	if len(doc.Images) != 2 || doc.Images[1].FileName != "menu.png" || !slices.Equal(boxes, want) || !slices.Equal(cats, []string{"tube", "red", "hidden", "blue", "unit"}) {
		t.Errorf("images %+v\nboxes %q\ncategories %q", doc.Images, boxes, cats)
	}
}

func TestReviewOrder(t *testing.T) {
	var buf bytes.Buffer
	for _, l := range []Line{
		{Schema: 1, Path: "fine.png", Status: StatusOK, Confidence: 1},
		{Schema: 1, Path: "doubt.png", Status: StatusLowConfidence, Confidence: 0.4, Reasons: []string{"4 units of red, want 3"},
			Level: json.RawMessage(`{"capacity":3,"tubes":[["red","red","red","red"],{"curtain":"blue"},[]]}`)}, // breaks the rules
		{Schema: 1, Path: "menu.png", Status: StatusNoPuzzle, Error: &ErrorBody{Code: solver.CodeNoPuzzle, Message: "no level"}},
		{Schema: 1, Path: "<b>.txt", Status: StatusError, Error: &ErrorBody{Code: solver.CodeUnreadableImage, Message: "not an image"}},
	} {
		b, _ := json.Marshal(l)
		buf.Write(append(b, '\n'))
	}
	dir := t.TempDir()
	if _, err := WriteReview(dir, &buf); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	html := string(page)
	order := []string{"&lt;b&gt;.txt", "doubt.png", "menu.png", "fine.png"}
	last := -1
	for _, p := range order {
		i := strings.Index(html, p)
		if i < last {
			t.Errorf("%s out of order", p)
		}
		last = i
	}
	if !strings.Contains(html, "3: red red red red | curtain:blue | </code>") {
		t.Error("the level of a low-confidence reading is missing")
	}
	if !strings.Contains(html, "4 units of red, want 3") || strings.Contains(html, "<b>.txt") {
		t.Error("reasons missing or a path not escaped")
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestThumbFollowsEXIF: a phone photo stored sideways with an EXIF orientation is read upright
// (the reading's boxes are in upright pixels), so its thumbnail must be turned upright too.
func TestThumbFollowsEXIF(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 200)) // stored landscape, shown portrait
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	data := render.WithOrientation(buf.Bytes(), 6) // rotate 90° clockwise to show
	dir := t.TempDir()
	l := &Line{SHA256: strings.Repeat("ab", 32), Status: "ok"}
	writeThumb(dir, data, l)
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(thumbName(l.SHA256))))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width >= cfg.Height {
		t.Errorf("thumbnail %d×%d, want it upright (portrait) as EXIF orientation 6 shows it", cfg.Width, cfg.Height)
	}
}
