package annotate

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"

	"github.com/decant/decant/solver"
)

// EncodePNG writes img as an RGB PNG (alpha dropped: annotations are opaque): every row
// Sub-filtered, the whole deflated at zlib's fastest level. For screenshots this is about
// three times faster than adaptive filtering (18 ms against 53 ms with libpng for 1080×2400)
// for a file under twice the size; annotating is dominated by it.
func EncodePNG(img *image.RGBA) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "cannot encode an empty %d×%d image", w, h)
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits, truecolour; compression, filter, interlace 0
	writeChunk(&out, "IHDR", ihdr)

	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
	}
	row := make([]byte, 1+3*w)
	row[0] = 1 // Sub: each byte less the same channel of the pixel to its left
	for y := range h {
		off := img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y)
		src := img.Pix[off : off+4*w]
		var pr, pg, pb byte
		for x := range w {
			p := src[4*x : 4*x+3 : 4*x+3]
			r, g, b := p[0], p[1], p[2]
			q := row[1+3*x : 4+3*x : 4+3*x]
			q[0], q[1], q[2] = r-pr, g-pg, b-pb
			pr, pg, pb = r, g, b
		}
		if _, err := zw.Write(row); err != nil {
			return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, solver.Errorf(solver.CodeInternal, "encoding PNG: %v", err)
	}
	writeChunk(&out, "IDAT", idat.Bytes())
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

func writeChunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
