package vision

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/disintegration/imaging"

	"github.com/decant/decant/solver"
)

// The mutation run: real screenshots, cropped, painted over, blurred, scaled and re-encoded,
// fed to Read, which must answer each with a reading or an application error and never panic.
// Each input is made from (seed, index) alone, so a failure names the one command that
// reproduces it. Nothing is written anywhere unless -mutation-dump names a folder (keep it
// outside the checkout: the screenshots are third-party).
//
//	go test ./vision -run TestMutations -mutations 50000 -v      # the full run
//	go test ./vision -run TestMutations -mutation-only 1234 -v  # one input
var (
	mutations    = flag.Int("mutations", 200, "inputs for TestMutations")
	mutationSeed = flag.Uint64("mutation-seed", 1, "seed for TestMutations")
	mutationOnly = flag.Int("mutation-only", -1, "run only this input index of TestMutations")
	mutationDump = flag.String("mutation-dump", "", "folder (outside the checkout) to write inputs that panic to")
	mutationTime = flag.Duration("mutation-time", 0, "stop TestMutations after this long (0: run every input), reporting how many were tried")
)

// maxSourceSide caps the sources' longer side (most phone screenshots are 2,340 pixels tall)
// so that a run tries more inputs; the scale step still varies the size from a fifth to 1.5×.
const maxSourceSide = 1280

// mutationSources loads every screenshot in the shared folders (and the reproducers).
func mutationSources(t *testing.T) (names []string, imgs []image.Image) {
	var files []string
	for _, dir := range []string{shared, filepath.Join(shared, "new-games"), repro} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the shared screenshots are missing: %v", err)
			}
			t.Skipf("no shared screenshots: %v", err)
		}
		for _, e := range entries {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".png", ".jpg", ".jpeg":
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			continue // not a picture Go decodes; the screenshot tests cover it
		}
		if b := img.Bounds(); b.Dx() < MinSide || b.Dy() < MinSide {
			continue // icons in the shared folder
		}
		if b := img.Bounds(); max(b.Dx(), b.Dy()) > maxSourceSide {
			scale := float64(maxSourceSide) / float64(max(b.Dx(), b.Dy()))
			img = imaging.Resize(img, int(float64(b.Dx())*scale), int(float64(b.Dy())*scale), imaging.Linear)
		}
		names = append(names, filepath.Base(f))
		imgs = append(imgs, img)
	}
	if len(imgs) == 0 {
		t.Fatal("no screenshots to mutate")
	}
	return names, imgs
}

// mutant is one generated input and the recipe that made it.
type mutant struct {
	data   []byte
	recipe string
}

// mutate makes input i: one to four operations on a source screenshot, then an encoding.
func mutate(seed uint64, i int, names []string, imgs []image.Image) mutant {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	k := r.IntN(len(imgs))
	img := imgs[k]
	steps := []string{names[k]}
	for range 1 + r.IntN(4) {
		var step string
		img, step = mutateOnce(r, img)
		steps = append(steps, step)
	}
	var buf bytes.Buffer
	if r.IntN(3) == 0 {
		q := 5 + r.IntN(91)
		jpeg.Encode(&buf, img, &jpeg.Options{Quality: q})
		steps = append(steps, fmt.Sprintf("jpeg q%d", q))
	} else {
		(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		steps = append(steps, "png")
	}
	return mutant{buf.Bytes(), strings.Join(steps, " → ")}
}

func mutateOnce(r *rand.Rand, img image.Image) (image.Image, string) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	switch r.IntN(5) {
	case 0: // crop: each edge moves in by up to 40%, often cutting through a row of tubes
		x0, x1 := r.IntN(w*2/5+1), w-r.IntN(w*2/5+1)
		y0, y1 := r.IntN(h*2/5+1), h-r.IntN(h*2/5+1)
		rect := image.Rect(b.Min.X+x0, b.Min.Y+y0, b.Min.X+x1, b.Min.Y+y1)
		return imaging.Crop(img, rect), fmt.Sprintf("crop %v", rect)
	case 1: // occluding rectangles: flat colours, some sampled from the image
		dst := imaging.Clone(img)
		n := 1 + r.IntN(6)
		for range n {
			rw, rh := 1+r.IntN(w/2+1), 1+r.IntN(h/3+1)
			x, y := r.IntN(w), r.IntN(h)
			c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			if r.IntN(2) == 0 {
				c = color.RGBAModel.Convert(img.At(b.Min.X+r.IntN(w), b.Min.Y+r.IntN(h))).(color.RGBA)
			}
			draw.Draw(dst, image.Rect(x, y, x+rw, y+rh), image.NewUniform(c), image.Point{}, draw.Src)
		}
		return dst, fmt.Sprintf("%d rectangles", n)
	case 2: // blur
		sigma := 0.5 + 5*r.Float64()
		return imaging.Blur(img, sigma), fmt.Sprintf("blur σ%.1f", sigma)
	case 3: // scale: down to a fifth (below the reader's minimum side, sometimes) or up by half
		f := 0.2 + 1.3*r.Float64()
		nw, nh := max(1, int(float64(w)*f)), max(1, int(float64(h)*f))
		if nw*nh > 6_000_000 {
			nw, nh = w, h
		}
		return imaging.Resize(img, nw, nh, imaging.Linear), fmt.Sprintf("scale %d×%d", nw, nh)
	default: // JPEG re-encoding in the middle of the chain, at any quality
		q := 1 + r.IntN(100)
		var buf bytes.Buffer
		jpeg.Encode(&buf, img, &jpeg.Options{Quality: q})
		out, err := jpeg.Decode(&buf)
		if err != nil {
			return img, "jpeg failed"
		}
		return out, fmt.Sprintf("re-encode q%d", q)
	}
}

// readSafely reads data, turning a panic into its message and stack.
func readSafely(data []byte) (err error, panicked string) {
	defer func() {
		if v := recover(); v != nil {
			buf := make([]byte, 8<<10)
			panicked = fmt.Sprintf("%v\n%s", v, buf[:runtime.Stack(buf, false)])
		}
	}()
	_, err = Read(data)
	return err, ""
}

func TestMutations(t *testing.T) {
	names, imgs := mutationSources(t)
	first, n := 0, *mutations
	if *mutationOnly >= 0 {
		first, n = *mutationOnly, 1
	}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		outcomes = map[string]int{}
		panics   []string
		wg       sync.WaitGroup
	)
	next.Store(int64(first))
	start := time.Now()
	var deadline time.Time
	if *mutationTime > 0 {
		deadline = start.Add(*mutationTime)
	}
	var tried atomic.Int64
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= first+n || !deadline.IsZero() && time.Now().After(deadline) {
					return
				}
				if k := tried.Add(1); k%1000 == 0 {
					t.Logf("%d inputs tried, %v", k, time.Since(start).Round(time.Second))
				}
				m := mutate(*mutationSeed, i, names, imgs)
				err, p := readSafely(m.data)
				mu.Lock()
				switch {
				case p != "":
					outcomes["panic"]++
					panics = append(panics, fmt.Sprintf("input %d (%s): %s", i, m.recipe, p))
					if *mutationDump != "" {
						os.WriteFile(filepath.Join(*mutationDump, fmt.Sprintf("mutant-%d-%d.img", *mutationSeed, i)), m.data, 0o644)
					}
				case err == nil:
					outcomes["read"]++
				default:
					outcomes[string(solver.ErrorCode(err))]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var summary []string
	for code, k := range outcomes {
		summary = append(summary, fmt.Sprintf("%s %d", code, k))
	}
	sort.Strings(summary)
	n = int(tried.Load())
	t.Logf("%d inputs (seed %d, from %d, %d screenshots) in %v (%.1f/s): %s",
		n, *mutationSeed, first, len(imgs), elapsed.Round(time.Second), float64(n)/elapsed.Seconds(), strings.Join(summary, ", "))
	if outcomes["internal"] > 0 {
		t.Errorf("%d inputs gave internal errors", outcomes["internal"])
	}
	sort.Strings(panics)
	for j, p := range panics {
		if j == 5 {
			t.Errorf("… and %d more panics", len(panics)-5)
			break
		}
		idx := strings.Fields(p)[1]
		t.Errorf("panic on %s\nreproduce: go test ./vision -run TestMutations -mutation-seed %d -mutation-only %s -v", p, *mutationSeed, idx)
	}
}
