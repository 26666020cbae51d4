package vision

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/decant/decant/vision/render"
)

var sweep = flag.Bool("sweep", false, "render every fixture level in every matrix combination (slow) and report the misses")

// TestSweep is the rendered matrix with every level in every combination: 4,752 renders. It
// reports the share read exactly (SWEEP_ONLY=substring picks combinations); run it with
// -sweep.
func TestSweep(t *testing.T) {
	if !*sweep {
		t.Skip("run with -sweep")
	}
	levels := fixtureLevels(t)
	names := make([]string, 0, len(levels))
	for n := range levels {
		names = append(names, n)
	}
	sort.Strings(names)
	sizes := [][2]int{{360, 800}, {720, 1600}, {1080, 2400}, {1440, 3200}, {1080, 1920}, {1200, 1600}}
	total, exact := 0, 0
	only := os.Getenv("SWEEP_ONLY")
	for _, theme := range render.Themes {
		for _, size := range sizes {
			for rows := 1; rows <= 3; rows++ {
				for chrome := 0; chrome < 2; chrome++ {
					for _, q := range []int{0, 85, 60} {
						for _, name := range names {
							l := levels[name]
							id := fmt.Sprintf("%s/%dx%d/rows%d/chrome%d/q%d/%s", theme, size[0], size[1], rows, chrome, q, name)
							if rows > len(l.Tubes) || (only != "" && !strings.Contains(id, only)) {
								continue
							}
							h := fnv.New64a()
							h.Write([]byte(id))
							opts := render.Options{Theme: theme, Width: size[0], Height: size[1], Rows: rows, StatusBar: chrome == 1, Banner: chrome == 1, JPEGQuality: q, Seed: h.Sum64()}
							r, err := render.Render(l, opts)
							if err != nil {
								t.Fatal(err)
							}
							total++
							got, err := Read(r.Data)
							if err == nil && got.Level.Canonical() == l.Canonical() {
								exact++
								continue
							}
							fmt.Printf("miss %s: %v\n", id, err)
							if err == nil {
								fmt.Printf("   got  %s\n   want %s\n", got.Level.Canonical(), l.Canonical())
							}
						}
					}
				}
			}
		}
	}
	fmt.Printf("sweep: %d of %d exact (%.1f%%)\n", exact, total, 100*float64(exact)/float64(total))
}
