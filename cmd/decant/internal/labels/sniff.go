package labels

import "bytes"

// Sniff names the image format that data holds by its signature: png, jpeg, webp, gif, bmp,
// or "" for anything else. The file's name plays no part.
func Sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "jpeg"
	case len(data) >= 12 && bytes.HasPrefix(data, []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")):
		return "webp"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif"
	case len(data) >= 14 && bytes.HasPrefix(data, []byte("BM")):
		return "bmp"
	}
	return ""
}
