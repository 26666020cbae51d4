package annotate

import (
	"image"
	"image/color"
	"image/draw"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Text is drawn in the bold Go font (the font the renderer draws with) from glyph masks
// rasterized once per size and rune: an opentype face rasterizes every glyph afresh on each
// draw, which made a legend cost more than all the other drawing.

// maxFaces bounds the glyph cache: sizes follow the image's width, so a server sees a few.
const maxFaces = 24

var (
	fontOnce sync.Once
	goBold   *opentype.Font
	fontErr  error

	facesMu sync.Mutex
	faces   = map[int]*face{}
)

// glyph is one rune's rasterized mask, placed relative to the pen on the baseline.
type glyph struct {
	mask *image.Alpha // nil for blank glyphs (space)
	off  image.Point  // mask's top-left relative to the pen
	adv  int          // pen advance in pixels
}

// face is the bold Go font at one pixel size with its glyphs cached.
type face struct {
	mu              sync.Mutex
	src             font.Face // not safe for concurrent use: guarded by mu
	glyphs          map[rune]glyph
	ascent, descent int
}

// faceOf returns the cached face of the given pixel size.
func faceOf(size int) (*face, error) {
	fontOnce.Do(func() { goBold, fontErr = opentype.Parse(gobold.TTF) })
	if fontErr != nil {
		return nil, fontErr
	}
	size = max(6, size)
	facesMu.Lock()
	defer facesMu.Unlock()
	if f, ok := faces[size]; ok {
		return f, nil
	}
	src, err := opentype.NewFace(goBold, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	if len(faces) >= maxFaces {
		clear(faces)
	}
	m := src.Metrics()
	f := &face{src: src, glyphs: map[rune]glyph{}, ascent: m.Ascent.Ceil(), descent: m.Descent.Ceil()}
	faces[size] = f
	return f, nil
}

// glyph returns r's glyph, rasterizing it the first time.
func (f *face) glyph(r rune) glyph {
	f.mu.Lock()
	defer f.mu.Unlock()
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	var g glyph
	dr, mask, mp, adv, ok := f.src.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = f.src.Glyph(fixed.Point26_6{}, '?')
	}
	g.adv = adv.Round()
	if !dr.Empty() && mask != nil {
		// The face reuses its mask buffer: copy it.
		m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(m, m.Rect, mask, mp, draw.Src)
		g.mask, g.off = m, dr.Min
	}
	f.glyphs[r] = g
	return g
}

// width is the advance of s in pixels.
func (f *face) width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).adv
	}
	return w
}

// draw writes s in c with the pen starting at (x, baseline).
func (f *face) draw(cv canvas, s string, x, baseline int, c color.RGBA) {
	for _, r := range s {
		g := f.glyph(r)
		if g.mask != nil {
			cv.drawMask(g.mask, image.Pt(x, baseline).Add(g.off), c)
		}
		x += g.adv
	}
}

// drawCentred writes s in c centred on p, the digits' height centred vertically.
func (f *face) drawCentred(cv canvas, s string, p image.Point, c color.RGBA) {
	digitH := -f.glyph('0').off.Y // digits stand on the baseline
	f.draw(cv, s, p.X-f.width(s)/2, p.Y+digitH/2, c)
}
