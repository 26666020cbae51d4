package labels

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // decoders for thumbnails
	"image/jpeg"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"sort"

	_ "golang.org/x/image/bmp"
	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"github.com/decant/decant/solver"
	"github.com/disintegration/imaging"
)

// ThumbWidth is the width of the review sheet's thumbnails in pixels.
const ThumbWidth = 180

// thumbName is the thumbnail file of a line's bytes, relative to the review folder.
func thumbName(sha string) string { return "thumbs/" + sha[:24] + ".jpg" }

// Status colours on thumbnails and the sheet.
var statusColor = map[Status]color.RGBA{
	StatusOK:            {40, 180, 80, 255},
	StatusLowConfidence: {240, 160, 0, 255},
	StatusNoPuzzle:      {120, 120, 220, 255},
	StatusError:         {220, 40, 40, 255},
}

// writeThumb writes an annotated thumbnail of the image: tube boxes in the status colour,
// unit boxes in white. Images Go cannot decode get none (the sheet says so). Failures to
// write are ignored: the thumbnail is a convenience, the line is what counts.
func writeThumb(dir string, data []byte, l *Line) {
	if l.SHA256 == "" {
		return
	}
	name := filepath.Join(dir, filepath.FromSlash(thumbName(l.SHA256)))
	if _, err := os.Stat(name); err == nil {
		return
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > 25_000_000 {
		return
	}
	// The reading's boxes are in the upright picture's pixels: turn it as its EXIF says.
	src, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		return
	}
	b := src.Bounds()
	w := min(ThumbWidth, b.Dx())
	h := max(1, b.Dy()*w/b.Dx())
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	sx, sy := float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy())
	box := func(r [4]int, c color.RGBA) {
		outline(dst, image.Rect(int(float64(r[0])*sx), int(float64(r[1])*sy), int(float64(r[2])*sx+0.5), int(float64(r[3])*sy+0.5)), c)
	}
	for _, t := range l.Tubes {
		for _, u := range t.Units {
			box(u, color.RGBA{255, 255, 255, 255})
		}
		box(t.Box, statusColor[l.Status])
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 75}); err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return
	}
	tmp := name + ".tmp"
	if os.WriteFile(tmp, buf.Bytes(), 0o644) == nil {
		os.Rename(tmp, name)
	}
}

// outline draws a rectangle's border, clipped to the image.
func outline(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Canon()
	for _, e := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y),
	} {
		draw.Draw(img, e.Intersect(img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
	}
}

// reviewEntry is what the sheet shows of a line.
type reviewEntry struct {
	Path, Status, Thumb, Error, Level, SameAs, Color string
	Confidence                                       float64
	Reasons                                          []string
	rank                                             int
}

// ReviewPageSize is the number of images on one page of the review sheet.
const ReviewPageSize = 500

// WriteReview writes the review sheet into dir (index.html, then page-2.html, ...): every
// line of the labels in r as a card with its thumbnail (from dir/thumbs, written while
// labelling), errors first, then low confidence, no puzzle and ok, the least confident first
// within each, with the reasons. The pages load nothing from outside dir.
func WriteReview(dir string, r io.Reader) (pages int, err error) {
	rank := map[Status]int{StatusError: 0, StatusLowConfidence: 1, StatusNoPuzzle: 2, StatusOK: 3}
	var entries []reviewEntry
	counts := map[Status]int{}
	br := bufio.NewReaderSize(r, 1<<16)
	for n := 1; ; n++ {
		data, err := br.ReadBytes('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		var l Line
		if err := json.Unmarshal(data, &l); err != nil {
			return 0, solver.Errorf(solver.CodeInvalidArgument, "labels line %d: %v", n, err)
		}
		e := reviewEntry{Path: l.Path, Status: string(l.Status), Confidence: l.Confidence, Reasons: l.Reasons, SameAs: l.SameAs, rank: rank[l.Status]}
		c := statusColor[l.Status]
		e.Color = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
		if l.Root != "" && l.Root != "." {
			e.Path = l.Root + "/" + l.Path
		}
		if l.Error != nil {
			e.Error = fmt.Sprintf("%s: %s", l.Error.Code, l.Error.Message)
		}
		if level, err := l.DecodeLevel(); err == nil && level != nil {
			e.Level = level.Compact()
		}
		if l.SHA256 != "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(thumbName(l.SHA256)))); err == nil {
				e.Thumb = thumbName(l.SHA256)
			}
		}
		counts[l.Status]++
		entries = append(entries, e)
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.Confidence != b.Confidence {
			return a.Confidence < b.Confidence
		}
		return a.Path < b.Path
	})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	pages = max(1, (len(entries)+ReviewPageSize-1)/ReviewPageSize)
	var summary []string
	for _, st := range Statuses {
		summary = append(summary, fmt.Sprintf("%s %d", st, counts[st]))
	}
	for p := range pages {
		lo, hi := p*ReviewPageSize, min(len(entries), (p+1)*ReviewPageSize)
		var links []pageLink
		for q := range pages {
			links = append(links, pageLink{N: q + 1, File: pageFile(q), Current: q == p})
		}
		var buf bytes.Buffer
		err := reviewPage.Execute(&buf, map[string]any{
			"Total": len(entries), "Summary": summary, "Entries": entries[lo:hi], "Pages": links, "Page": p + 1, "From": lo + 1, "To": hi,
		})
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, pageFile(p)), buf.Bytes(), 0o644); err != nil {
			return 0, err
		}
	}
	return pages, nil
}

type pageLink struct {
	N       int
	File    string
	Current bool
}

func pageFile(p int) string {
	if p == 0 {
		return "index.html"
	}
	return fmt.Sprintf("page-%d.html", p+1)
}

var reviewPage = template.Must(template.New("review").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>decant labels: review</title>
<style>
body{font:14px system-ui,sans-serif;margin:1em;background:#f4f4f4;color:#222}
.grid{display:flex;flex-wrap:wrap;gap:10px}
.card{background:#fff;border:3px solid #ccc;border-radius:6px;width:200px;padding:6px;overflow-wrap:anywhere}
.card img{display:block;width:180px;margin:auto}
.none{width:180px;height:120px;display:flex;align-items:center;justify-content:center;background:#ddd;color:#666;margin:auto}
.status{font-weight:bold}
.err{color:#a00}
ul{margin:4px 0;padding-left:16px}
code{font-size:11px}
nav a{margin-right:6px}
</style></head><body>
<h1>decant labels: review</h1>
<p>{{.Total}} images: {{range $i, $s := .Summary}}{{if $i}}, {{end}}{{$s}}{{end}}. Errors first, then low confidence, no puzzle and ok; the least confident first. Boxes: tubes in the status colour, units in white. This page shows {{.From}}–{{.To}}.</p>
{{if gt (len .Pages) 1}}<nav>pages: {{range .Pages}}{{if .Current}}<b>{{.N}}</b> {{else}}<a href="{{.File}}">{{.N}}</a>{{end}}{{end}}</nav>{{end}}
<div class="grid">
{{range .Entries}}<div class="card" style="border-color:{{.Color}}">
{{if .Thumb}}<img src="{{.Thumb}}" alt="{{.Path}}" loading="lazy">{{else}}<div class="none">no thumbnail</div>{{end}}
<div>{{.Path}}</div>
<div class="status" style="color:{{.Color}}">{{.Status}}{{if .Level}} · confidence {{printf "%.2f" .Confidence}}{{end}}</div>
{{if .Error}}<div class="err">{{.Error}}</div>{{end}}
{{if .Reasons}}<ul>{{range .Reasons}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .SameAs}}<div>same bytes as {{.SameAs}}</div>{{end}}
{{if .Level}}<code>{{.Level}}</code>{{end}}
</div>
{{end}}</div>
</body></html>
`))
