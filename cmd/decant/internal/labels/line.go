package labels

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"strings"

	"github.com/decant/decant/solver"
)

// Schema is the version of the line format: bumped when a field changes meaning.
const Schema = 1

// Status classifies a line, for filtering.
type Status string

// The statuses, from the best to the worst.
const (
	StatusOK            Status = "ok"             // a level that keeps every counting rule
	StatusLowConfidence Status = "low_confidence" // a level read with doubts (see reasons)
	StatusNoPuzzle      Status = "no_puzzle"      // an image without a water-sort level
	StatusError         Status = "error"          // not an image, unreadable, too large, ...
)

// Statuses lists every status in a fixed order, for summaries.
var Statuses = []Status{StatusOK, StatusLowConfidence, StatusNoPuzzle, StatusError}

// Line is one labelled input.
type Line struct {
	Schema int `json:"schema"`
	// Root is the input the path was found under: a folder, a bucket URL (without its query),
	// or the folder of a file named on the command line.
	Root string `json:"root"`
	// Path is relative to Root, with forward slashes.
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int64  `json:"bytes"`
	// Format is the image format the bytes hold (png, jpeg, webp, gif, bmp), if any.
	Format string `json:"format,omitempty"`
	Status Status `json:"status"`

	// Level is the level document read. It is kept as written: a low-confidence reading may
	// break the level's rules, which solver.Level refuses to decode (see DecodeLevel).
	Level      json.RawMessage `json:"level,omitempty"`
	Width      int             `json:"width,omitempty"`
	Height     int             `json:"height,omitempty"`
	Tubes      []Tube          `json:"tubes,omitempty"`
	Confidence float64         `json:"confidence"`
	Reasons    []string        `json:"reasons,omitempty"`
	// Error is set for every status but ok: the code and message decant read would give.
	Error *ErrorBody `json:"error,omitempty"`
	// SameAs names the earlier path with the same bytes whose reading this line reuses.
	SameAs string `json:"same_as,omitempty"`

	// Plan is the plan document (with --solve), or PlanError why there is none.
	Plan      *solver.Report `json:"plan,omitempty"`
	PlanError *ErrorBody     `json:"plan_error,omitempty"`

	Timings Timings `json:"timings"`
}

// LevelDoc is a level document decoded without checking the level's rules.
type LevelDoc struct {
	Capacity int       `json:"capacity"`
	Tubes    []TubeDoc `json:"tubes"`
}

// TubeDoc is one tube of a LevelDoc: its units bottom to top, or the colour a curtain waits for.
type TubeDoc struct {
	Units   []string
	Curtain string
}

// UnmarshalJSON reads ["red", ...] or {"curtain": "orange"}.
func (t *TubeDoc) UnmarshalJSON(data []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		var c struct {
			Curtain string `json:"curtain"`
		}
		err := json.Unmarshal(data, &c)
		t.Curtain = c.Curtain
		return err
	}
	return json.Unmarshal(data, &t.Units)
}

// DecodeLevel reads a line's level document, whether or not it keeps the rules; nil if the
// line has none.
func (l *Line) DecodeLevel() (*LevelDoc, error) {
	if len(l.Level) == 0 {
		return nil, nil
	}
	var d LevelDoc
	if err := json.Unmarshal(l.Level, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// Compact is the level in the compact text form (CAPACITY: tube | tube | ...).
func (d *LevelDoc) Compact() string {
	tubes := make([]string, len(d.Tubes))
	for i, t := range d.Tubes {
		if t.Curtain != "" {
			tubes[i] = solver.CurtainPrefix + t.Curtain
		} else {
			tubes[i] = strings.Join(t.Units, " ")
		}
	}
	return fmt.Sprintf("%d: %s", d.Capacity, strings.Join(tubes, " | "))
}

// Key identifies a line's input: root and path.
func (l *Line) Key() string { return l.Root + "\x00" + l.Path }

// Tube is a tube's box and its units' boxes (bottom first), each [x0, y0, x1, y1] in the
// image's pixels.
type Tube struct {
	Box   [4]int   `json:"box"`
	Units [][4]int `json:"units"`
}

// Rect converts a rectangle to the [x0, y0, x1, y1] form of Tube.
func Rect(r image.Rectangle) [4]int { return [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y} }

// ErrorBody is an application error: the code and message of solver's error vocabulary.
type ErrorBody struct {
	Code    solver.Code `json:"code"`
	Message string      `json:"message"`
}

func errorBody(err error) *ErrorBody {
	return &ErrorBody{Code: solver.ErrorCode(err), Message: solver.ErrorMessage(err)}
}

// Timings are in milliseconds: reading the bytes, reading the screenshot, solving, all.
type Timings struct {
	FetchMS float64 `json:"fetch_ms"`
	ReadMS  float64 `json:"read_ms"`
	SolveMS float64 `json:"solve_ms,omitempty"`
	TotalMS float64 `json:"total_ms"`
}

// keyOnly is the part of a line that resuming and merging need.
type keyOnly struct {
	Schema int    `json:"schema"`
	Root   string `json:"root"`
	Path   string `json:"path"`
}

// parseKey decodes a line far enough to know what it labels.
func parseKey(data []byte) (string, bool) {
	var k keyOnly
	if err := json.Unmarshal(data, &k); err != nil || k.Schema < 1 || k.Path == "" {
		return "", false
	}
	return k.Root + "\x00" + k.Path, true
}
