package vision

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// encodePNG writes 8-bit pixels held as BGR rows (as OpenCV keeps them) as an RGB PNG: every
// row Sub-filtered, the whole deflated at zlib's fastest level. For screenshots this is about
// three times faster than libpng's adaptive filtering (18 ms against 53 ms for 1080×2400) for a
// file under twice the size; annotating is dominated by it.
func encodePNG(bgr []byte, w, h int) ([]byte, error) {
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
		return nil, err
	}
	row := make([]byte, 1+3*w)
	row[0] = 1 // Sub: each byte less the same channel of the pixel to its left
	for y := range h {
		src := bgr[3*w*y : 3*w*(y+1)]
		var pr, pg, pb byte
		for x := range w {
			b, g, r := src[3*x], src[3*x+1], src[3*x+2]
			row[1+3*x], row[2+3*x], row[3+3*x] = r-pr, g-pg, b-pb
			pr, pg, pb = r, g, b
		}
		if _, err := zw.Write(row); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
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
