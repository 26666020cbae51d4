package labels

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/decant/decant/solver"
)

// COCO category names besides the colours.
const (
	cocoTube   = "tube"
	cocoHidden = "hidden" // a unit whose colour the game hides ("?")
	cocoUnit   = "unit"   // a unit the level does not name (geometry and level disagree)
)

// WriteCOCO writes the labels file as COCO object-detection JSON: an image for every line
// with a known size (ok, low_confidence, and no_puzzle as negatives), a box for every tube
// (category "tube") and every unit (its colour as the category, "hidden" for "?"), bbox =
// [x, y, w, h] clipped to the image and area = w·h. The file is read twice (images, then
// annotations) so that memory does not grow with the number of lines.
func WriteCOCO(w io.Writer, labelsFile string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	info, _ := json.Marshal(map[string]any{
		"description": "water-sort screenshots labelled by decant", "version": fmt.Sprint(Schema),
		"year": time.Now().UTC().Year(), "contributor": "decant", "url": "", "date_created": time.Now().UTC().Format(time.RFC3339),
	})
	fmt.Fprintf(bw, `{"info":%s,"licenses":[],"images":[`, info)
	sep := ""
	err := eachLabel(labelsFile, func(id int, l *Line) error {
		b, _ := json.Marshal(cocoImage{ID: id, FileName: l.Path, Width: l.Width, Height: l.Height})
		fmt.Fprintf(bw, "%s\n%s", sep, b)
		sep = ","
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("],\"annotations\":[")
	cats := map[string]int{cocoTube: 1}
	names := []string{cocoTube}
	category := func(name string) int {
		if id, ok := cats[name]; ok {
			return id
		}
		names = append(names, name)
		cats[name] = len(names)
		return len(names)
	}
	annID, sep := 0, ""
	err = eachLabel(labelsFile, func(id int, l *Line) error {
		add := func(r [4]int, cat int) {
			x0, y0, x1, y1 := max(0, r[0]), max(0, r[1]), min(l.Width, r[2]), min(l.Height, r[3])
			if x1 <= x0 || y1 <= y0 {
				return
			}
			annID++
			b, _ := json.Marshal(cocoAnnotation{ID: annID, ImageID: id, CategoryID: cat, BBox: [4]int{x0, y0, x1 - x0, y1 - y0},
				Area: (x1 - x0) * (y1 - y0), Segmentation: [][]float64{}})
			fmt.Fprintf(bw, "%s\n%s", sep, b)
			sep = ","
		}
		level, _ := l.DecodeLevel()
		for i, t := range l.Tubes {
			add(t.Box, cats[cocoTube])
			var tokens []string
			if level != nil && i < len(level.Tubes) {
				tokens = level.Tubes[i].Units
			}
			for j, u := range t.Units {
				name := cocoUnit
				if j < len(tokens) && len(tokens) == len(t.Units) {
					name = tokens[j]
				}
				if name == "?" {
					name = cocoHidden
				}
				add(u, category(name))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("],\"categories\":[")
	for i, n := range names {
		super := "unit"
		if n == cocoTube {
			super = "tube"
		}
		b, _ := json.Marshal(cocoCategory{ID: i + 1, Name: n, Supercategory: super})
		if i > 0 {
			bw.WriteString(",")
		}
		fmt.Fprintf(bw, "\n%s", b)
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

type cocoImage struct {
	ID       int    `json:"id"`
	FileName string `json:"file_name"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
}

type cocoAnnotation struct {
	ID           int         `json:"id"`
	ImageID      int         `json:"image_id"`
	CategoryID   int         `json:"category_id"`
	BBox         [4]int      `json:"bbox"`
	Area         int         `json:"area"`
	Segmentation [][]float64 `json:"segmentation"`
	IsCrowd      int         `json:"iscrowd"`
}

type cocoCategory struct {
	ID            int    `json:"id"`
	Name          string `json:"name"`
	Supercategory string `json:"supercategory"`
}

// eachLabel calls fn with the lines of a labels file that have an image size, numbered from 1.
func eachLabel(name string, fn func(id int, l *Line) error) error {
	f, err := os.Open(name)
	if err != nil {
		return solver.Errorf(solver.CodeNotFound, "%s: %v", name, unwrapPath(err))
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	id := 0
	for n := 1; ; n++ {
		data, err := br.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "reading %s: %v", name, err)
		}
		var l Line
		if err := json.Unmarshal(data, &l); err != nil {
			return solver.Errorf(solver.CodeInvalidArgument, "%s line %d: %v", name, n, err)
		}
		if l.Width <= 0 || l.Height <= 0 {
			continue
		}
		id++
		if err := fn(id, &l); err != nil {
			return err
		}
	}
}
