package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	plan9 "image/color/palette"
	"image/gif"

	"github.com/decant/decant/solver"
)

// maxGIFFrames bounds an animation: a plan longer than this is refused rather than producing
// an enormous file.
const maxGIFFrames = 400

// GIF animates a plan: one frame for the start and one per pour, each a rendering of the
// position (opts as for Render; 0×0 means 360×800) captioned with the pour just made.
func GIF(l *solver.Level, moves []solver.Move, opts Options) ([]byte, error) {
	if len(moves)+1 > maxGIFFrames {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "a plan of %d pours is too long to animate (at most %d)", len(moves), maxGIFFrames-1)
	}
	if opts.Width == 0 && opts.Height == 0 {
		opts.Width, opts.Height = 360, 800
	}
	opts.JPEGQuality = 0
	anim := &gif.GIF{}
	pal := newPaletter(plan9.Plan9)
	pos := l.Clone()
	for i := 0; i <= len(moves); i++ {
		if i > 0 {
			next, err := solver.Replay(pos, moves[i-1:i])
			if err != nil {
				return nil, err
			}
			pos = next
			m := moves[i-1]
			opts.Title = fmt.Sprintf("%d/%d: %d > %d", i, len(moves), m.From+1, m.To+1)
		} else {
			opts.Title = fmt.Sprintf("start: %d pours", len(moves))
		}
		img, _, err := drawLevel(pos, opts)
		if err != nil {
			return nil, err
		}
		frame := pal.paletted(img)
		delay := 60
		if i == 0 || i == len(moves) {
			delay = 150
		}
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// paletter maps pixels to their nearest palette colour, remembering each colour's index: a
// frame has few distinct colours against its pixels, and the frames of one plan share them,
// so the palette is searched once a colour rather than once a pixel.
type paletter struct {
	palette color.Palette
	index   map[[3]uint8]uint8
}

func newPaletter(p color.Palette) *paletter {
	return &paletter{palette: p, index: map[[3]uint8]uint8{}}
}

// paletted is img in the palette, each pixel its nearest colour (as draw.Draw with draw.Src
// would choose, without dithering).
func (p *paletter) paletted(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, p.palette)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		for x := range b.Dx() {
			k := [3]uint8{row[4*x], row[4*x+1], row[4*x+2]}
			i, ok := p.index[k]
			if !ok {
				i = uint8(p.palette.Index(color.RGBA{k[0], k[1], k[2], 255}))
				p.index[k] = i
			}
			dst[x] = i
		}
	}
	return out
}
