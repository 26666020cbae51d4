package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decant/decant/solver"
)

// decant runs the command in-process and returns stdout, stderr and the exit code.
func decant(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	code := 0
	var u *usageError
	var s exitStatus
	switch {
	case err == nil:
	case errors.As(err, &s):
		code = int(s)
	case errors.As(err, &u):
		code = exitUsage
		errb.WriteString(u.msg)
	default:
		code = exitError
		errb.WriteString(describe(err))
	}
	return out.String(), errb.String(), code
}

func TestHelpAndUsage(t *testing.T) {
	out, _, code := decant(t, "", "help")
	for _, c := range commands() {
		if !strings.Contains(out, "  "+c.name) {
			t.Errorf("help does not list %q", c.name)
		}
	}
	if code != 0 || !strings.Contains(out, "exit codes") {
		t.Errorf("help: code %d\n%s", code, out)
	}
	for _, args := range [][]string{{}, {"frobnicate"}, {"solve"}, {"solve", "--nope", "x"}, {"solve", "--algo", "dfs", "../../testdata/levels/seed-89.txt"}} {
		if _, _, code := decant(t, "", args...); code != exitUsage {
			t.Errorf("decant %v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if _, errOut, code := decant(t, "", "solve", "-h"); code != 0 || !strings.Contains(errOut, "--timeout") && !strings.Contains(errOut, "-timeout") {
		t.Errorf("solve -h: exit %d\n%s", code, errOut)
	}
}

func TestSolveLevelFiles(t *testing.T) {
	out, _, code := decant(t, "", "solve", "../../testdata/levels/seed-98.txt")
	if code != 0 || !strings.Contains(out, "solved: an optimal plan of 40 pours") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// Flags after the file, JSON out, another algorithm.
	out, _, code = decant(t, "", "solve", "../../testdata/levels/seed-89.txt", "--json", "--algo", "bfs")
	var rep solver.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if rep.Status != solver.StatusSolved || !rep.Optimal || len(rep.Moves) != 29 || rep.Stats.Algorithm != solver.BFS {
		t.Errorf("got %s optimal=%v %d pours by %s", rep.Status, rep.Optimal, len(rep.Moves), rep.Stats.Algorithm)
	}
	// Standard input, compact form, unsolvable.
	out, _, code = decant(t, "3: blue red green | green red blue | green red blue | ", "solve", "-")
	if code != exitUnsolvable || !strings.Contains(out, "unsolvable") {
		t.Errorf("unsolvable: exit %d\n%s", code, out)
	}
	// A budget stops the search: unknown, exit 4.
	big := solver.Deal(3, 24, 4, 2).Compact()
	out, _, code = decant(t, big, "solve", "-", "--max-states", "2000")
	if code != exitUnknown || !strings.Contains(out, "unknown") {
		t.Errorf("budget: exit %d\n%s", code, out)
	}
}

func TestSolveErrors(t *testing.T) {
	_, errOut, code := decant(t, "4: r r r | b b b b | |", "solve", "-")
	if code != exitError || !strings.Contains(errOut, `colour "r" has 3 units, want 4`) || !strings.Contains(errOut, "invalid_level") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	out, _, code := decant(t, "", "solve", "no-such-file.txt", "--json")
	var doc errorDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitError || doc.Error.Code != solver.CodeNotFound {
		t.Errorf("exit %d, %v: %s", code, err, out)
	}
}

func TestScreenshotPipeline(t *testing.T) {
	dir := t.TempDir()
	ann := filepath.Join(dir, "solved.png")
	out, errOut, code := decant(t, "", "solve", "../../testdata/seed-98.png", "--annotate", ann)
	if code != 0 || !strings.Contains(out, "optimal plan of 40 pours") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if st, err := os.Stat(ann); err != nil || st.Size() < 10_000 {
		t.Fatalf("annotated image: %v", err)
	}
	// read --json gives the level document of the fixture's ground truth.
	out, _, code = decant(t, "", "read", "../../testdata/fixtures/light-mid12.png", "--json")
	got, err := solver.ParseLevel([]byte(out))
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	truth, _ := os.ReadFile("../../testdata/fixtures/light-mid12.png.json")
	want, _ := solver.ParseLevel(truth)
	if got.Canonical() != want.Canonical() {
		t.Errorf("got %s\nwant %s", got.Canonical(), want.Canonical())
	}
	// read refuses a level file.
	if _, errOut, code := decant(t, "", "read", "../../testdata/levels/seed-98.txt"); code != exitError || !strings.Contains(errOut, "unreadable_image") {
		t.Errorf("read of a text file: exit %d %s", code, errOut)
	}
}

func TestRenderThenRead(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "l.png")
	truth := filepath.Join(dir, "l.json")
	level := filepath.Join(dir, "level.txt")
	os.WriteFile(level, []byte("3: red blue red | blue red blue | |"), 0o644)
	if _, errOut, code := decant(t, "", "render", level, "--out", img, "--theme", "wood", "--width", "720", "--height", "1600", "--truth", truth); code != 0 {
		t.Fatalf("render: exit %d %s", code, errOut)
	}
	out, _, code := decant(t, "", "read", img, "--json")
	got, err := solver.ParseLevel([]byte(out))
	if err != nil || code != 0 || got.Canonical() != "3: 1 2 1 | 2 1 2 |  | " {
		t.Fatalf("read back: exit %d %v %s", code, err, out)
	}
	var lab label
	data, _ := os.ReadFile(truth)
	if err := json.Unmarshal(data, &lab); err != nil || len(lab.Tubes) != 4 || lab.Width != 720 {
		t.Fatalf("truth: %v %s", err, data)
	}
	// --random draws the level from the randomised distribution, truth and all.
	themed, _ := os.ReadFile(img)
	if _, errOut, code := decant(t, "", "render", level, "--random", "--seed", "7", "--out", img, "--truth", truth); code != 0 {
		t.Fatalf("render --random: exit %d %s", code, errOut)
	}
	data, _ = os.ReadFile(truth)
	if err := json.Unmarshal(data, &lab); err != nil || len(lab.Tubes) != 4 || lab.Level.Canonical() != "3: 1 2 1 | 2 1 2 |  | " {
		t.Fatalf("random truth: %v %s", err, data)
	}
	if drawn, _ := os.ReadFile(img); bytes.Equal(drawn, themed) {
		t.Error("--random drew the same image as the wood theme")
	}
	gif := filepath.Join(dir, "plan.gif")
	if _, errOut, code := decant(t, "", "render", level, "--gif", "--out", gif); code != 0 {
		t.Fatalf("gif: exit %d %s", code, errOut)
	}
	if data, _ := os.ReadFile(gif); !bytes.HasPrefix(data, []byte("GIF8")) {
		t.Fatal("not a GIF")
	}
}

func TestLabel(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.jsonl")
	// A directory of fixtures plus a file that is not an image.
	junk := filepath.Join(dir, "junk.png")
	os.WriteFile(junk, []byte("not an image"), 0o644)
	_, errOut, code := decant(t, "", "label", "../../testdata/fixtures", junk, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	data, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5:\n%s", len(lines), data)
	}
	for i, line := range lines {
		var l label
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if i < 4 {
			truth, _ := os.ReadFile(l.File + ".json")
			want, _ := solver.ParseLevel(truth)
			if l.Error != nil || l.Level == nil || l.Level.Canonical() != want.Canonical() {
				t.Errorf("%s: %+v", l.File, l.Error)
			}
			continue
		}
		if l.Error == nil || l.Error.Code != solver.CodeUnreadableImage {
			t.Errorf("junk: %+v", l)
		}
	}
	if !strings.Contains(errOut, "labelled 4 of 5") {
		t.Errorf("summary: %s", errOut)
	}
}
