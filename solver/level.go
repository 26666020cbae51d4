package solver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Color identifies a colour within one level: 1..len(Level.Names)-1. The zero Color means
// "no unit" and Hidden marks a unit whose colour is not known yet.
type Color uint8

// Hidden is a unit drawn face down ("?"): its colour is unknown.
const Hidden Color = 0xFF

// Pending ("!") is a hidden unit a plan has just revealed: the level a partial plan hands back
// (its next_level) marks it so, for the player to write in the colour that appeared. Until then
// it counts as hidden.
const Pending Color = 0xFE

// Limits of the solver. A tube is packed into one 64-bit word, each unit in as many bits as
// the level's colour count needs (5 bits up to 31 colours, 6 up to 63, 7 up to 127, 8 up to
// 253), so the capacity a level may have depends on its colours: see MaxCapacityFor. Tube
// indices are bytes inside the search, and colour ids are bytes with 0xFF meaning Hidden and
// 0xFE Pending.
const (
	MaxColors   = 253
	MaxCapacity = 12
	MaxTubes    = 255
)

// MaxCapacityFor is the largest capacity a level of the given number of colours may have:
// MaxCapacity up to 31 colours, 10 up to 63, 9 up to 127, 8 up to MaxColors.
func MaxCapacityFor(colors int) int {
	return min(MaxCapacity, 64/int(unitBits(max(colors, 1))))
}

// unitBits is the number of bits a unit takes in a level of the given number of colours.
func unitBits(colors int) uint {
	return max(1, uint(bits.Len(uint(colors))))
}

// limitsText states the combined limits in error messages.
const limitsText = "the solver takes up to 255 tubes, 253 colours, and a capacity of at most 12 with up to 31 colours, 10 with up to 63, 9 with up to 127, 8 with up to 253"

// Level is a position of the puzzle: tubes of equal capacity, each holding colours from the
// bottom (index 0) to the top. It may be the start of a level or any position reached from one.
type Level struct {
	Capacity int
	Tubes    [][]Color
	// Names[c] is the name of colour c; Names[0] is unused.
	Names []string
	// Curtains, when not nil, has one entry a tube: a colour for a tube covered by a curtain
	// that opens once that colour is complete (its contents unseen, its Tubes entry empty), 0
	// for an open tube.
	Curtains []Color
}

// CurtainPrefix marks a curtain tube in the text forms: a tube written as the one token
// "curtain:orange" is covered until orange is complete.
const CurtainPrefix = "curtain:"

// Tokens returns tube i as written in the text forms: colour names bottom to top, "?" for a
// hidden unit, or the single token CurtainPrefix+colour for a curtain tube.
func (l *Level) Tokens(i int) []string {
	if l.Curtained(i) {
		return []string{CurtainPrefix + l.Name(l.Curtains[i])}
	}
	out := make([]string, len(l.Tubes[i]))
	for j, c := range l.Tubes[i] {
		out[j] = l.Name(c)
	}
	return out
}

// Curtained reports whether tube i is covered by a curtain.
func (l *Level) Curtained(i int) bool { return i < len(l.Curtains) && l.Curtains[i] != 0 }

// Colors is the number of distinct colours in the level (hidden units not counted).
func (l *Level) Colors() int { return len(l.Names) - 1 }

// Name returns colour c's name, "?" for Hidden, "!" for Pending.
func (l *Level) Name(c Color) string {
	switch c {
	case Hidden:
		return "?"
	case Pending:
		return "!"
	}
	if int(c) < len(l.Names) && c != 0 {
		return l.Names[c]
	}
	return fmt.Sprintf("#%d", c)
}

// HasCurtains reports whether any tube is covered by a curtain.
func (l *Level) HasCurtains() bool {
	for i := range l.Tubes {
		if l.Curtained(i) {
			return true
		}
	}
	return false
}

// HasHidden reports whether any unit is hidden (Hidden or Pending).
func (l *Level) HasHidden() bool {
	for _, t := range l.Tubes {
		for _, c := range t {
			if c == Hidden || c == Pending {
				return true
			}
		}
	}
	return false
}

// Clone returns a deep copy of l.
func (l *Level) Clone() *Level {
	c := &Level{Capacity: l.Capacity, Names: append([]string(nil), l.Names...), Curtains: append([]Color(nil), l.Curtains...)}
	c.Tubes = make([][]Color, len(l.Tubes))
	for i, t := range l.Tubes {
		c.Tubes[i] = append([]Color{}, t...)
	}
	return c
}

// Solved reports whether every tube is empty or full of one colour.
func (l *Level) Solved() bool {
	for _, t := range l.Tubes {
		if len(t) == 0 {
			continue
		}
		if len(t) != l.Capacity {
			return false
		}
		for _, c := range t {
			if c != t[0] {
				return false
			}
		}
	}
	return true
}

// Complete reports the first tube that holds colour c complete (Capacity units of it, alone),
// or -1.
func (l *Level) Complete(c Color) int {
	for i, t := range l.Tubes {
		if len(t) == l.Capacity && !slices.ContainsFunc(t, func(u Color) bool { return u != c }) {
			return i
		}
	}
	return -1
}

// Validate checks the level against the rules: a capacity and tube count the encoding holds,
// no tube over capacity, every colour with exactly Capacity units (at most Capacity when
// units are hidden, with the hidden units making up the difference), and no curtain waiting
// for a colour already complete (it opens when its colour is).
func (l *Level) Validate() error {
	if l.Capacity < 1 {
		return Errorf(CodeInvalidLevel, "capacity %d is out of range: it must be at least 1", l.Capacity)
	}
	if len(l.Tubes) == 0 {
		return Errorf(CodeInvalidLevel, "empty level: no tubes")
	}
	if len(l.Tubes) > MaxTubes {
		return Errorf(CodeInvalidLevel, "level has %d tubes: too many (%s)", len(l.Tubes), limitsText)
	}
	if l.Colors() > MaxColors {
		return Errorf(CodeInvalidLevel, "level has %d colours: too many (%s)", l.Colors(), limitsText)
	}
	if l.Capacity > MaxCapacityFor(l.Colors()) {
		return Errorf(CodeInvalidLevel, "capacity %d is too large for %d colours (%s)", l.Capacity, l.Colors(), limitsText)
	}
	if l.Curtains != nil && len(l.Curtains) != len(l.Tubes) {
		return Errorf(CodeInvalidLevel, "%d curtain entries for %d tubes", len(l.Curtains), len(l.Tubes))
	}
	curtainColor := make([]bool, len(l.Names))
	for i, c := range l.Curtains {
		switch {
		case c == 0:
		case c == Hidden || int(c) >= len(l.Names):
			return Errorf(CodeInvalidLevel, "tube %d's curtain has unknown colour id %d", i+1, c)
		case len(l.Tubes[i]) > 0:
			return Errorf(CodeInvalidLevel, "tube %d is behind a curtain but lists units", i+1)
		default:
			if t := l.Complete(c); t >= 0 {
				return Errorf(CodeInvalidLevel, "tube %d's curtain waits for %q, complete in tube %d: it would be open", i+1, abbreviate(l.Names[c]), t+1)
			}
			curtainColor[c] = true
		}
	}
	covered := l.HasCurtains() // unseen units: colour counts are known only to be at most the capacity
	counts := make([]int, len(l.Names))
	hidden, units := 0, 0
	for i, t := range l.Tubes {
		if len(t) > l.Capacity {
			return Errorf(CodeInvalidLevel, "tube %d holds %d units, over the capacity %d", i+1, len(t), l.Capacity)
		}
		for j, c := range t {
			switch {
			case c == Hidden || c == Pending:
				hidden++
			case c == 0 || int(c) >= len(l.Names):
				return Errorf(CodeInvalidLevel, "tube %d unit %d has unknown colour id %d", i+1, j+1, c)
			default:
				counts[c]++
			}
			units++
		}
	}
	if units == 0 {
		return Errorf(CodeInvalidLevel, "empty level: no liquid in any tube")
	}
	missing := 0
	for c := 1; c < len(counts); c++ {
		n := counts[c]
		switch {
		case n == 0 && !curtainColor[c]:
			return Errorf(CodeInvalidLevel, "colour %q is named but has no units", abbreviate(l.Names[c]))
		case n > l.Capacity || (hidden == 0 && !covered && n != l.Capacity):
			return Errorf(CodeInvalidLevel, "colour %q has %d units, want %d (the capacity)", abbreviate(l.Names[c]), n, l.Capacity)
		}
		missing += l.Capacity - n
	}
	if covered {
		return nil // the curtains hide an unknown number of units
	}
	if hidden > 0 && hidden%l.Capacity != missing%l.Capacity {
		return Errorf(CodeInvalidLevel, "%d hidden units cannot complete the visible colours (%d units missing from them)", hidden, missing)
	}
	if hidden > 0 && hidden < missing {
		return Errorf(CodeInvalidLevel, "%d hidden units cannot complete the visible colours (%d units missing from them)", hidden, missing)
	}
	return nil
}

// builder collects tubes with colour names and turns them into a Level.
type builder struct {
	ids      map[string]Color
	names    []string
	tubes    [][]Color
	curtains []Color
}

func newBuilder() *builder { return &builder{ids: map[string]Color{}, names: []string{""}} }

func (b *builder) tube(names []string) error {
	if len(names) == 1 && strings.HasPrefix(names[0], CurtainPrefix) {
		return b.curtain(strings.TrimPrefix(names[0], CurtainPrefix))
	}
	t := make([]Color, 0, len(names))
	for _, n := range names {
		switch n {
		case "?":
			t = append(t, Hidden)
			continue
		case "!":
			t = append(t, Pending)
			continue
		}
		if strings.HasPrefix(n, CurtainPrefix) {
			return Errorf(CodeInvalidLevel, "tube %d: a curtain tube is the one token %q, with no units", len(b.tubes)+1, abbreviate(n))
		}
		id, err := b.color(n)
		if err != nil {
			return err
		}
		t = append(t, id)
	}
	b.tubes = append(b.tubes, t)
	b.curtains = append(b.curtains, 0)
	return nil
}

// curtain adds a tube covered by a curtain that opens when colour name is complete.
func (b *builder) curtain(name string) error {
	id, err := b.color(name)
	if err != nil {
		return err
	}
	b.tubes = append(b.tubes, []Color{})
	b.curtains = append(b.curtains, id)
	return nil
}

// color returns the id of a colour name, adding it if new.
func (b *builder) color(n string) (Color, error) {
	if n == "" || n == "?" || n == "!" {
		return 0, Errorf(CodeInvalidLevel, "tube %d has an empty colour name", len(b.tubes)+1)
	}
	id, ok := b.ids[n]
	if !ok {
		if len(b.names) > MaxColors {
			return 0, Errorf(CodeInvalidLevel, "more than %d colours (%s)", MaxColors, limitsText)
		}
		id = Color(len(b.names))
		b.ids[n] = id
		b.names = append(b.names, n)
	}
	return id, nil
}

// level returns the level built, not yet validated.
func (b *builder) level(capacity int) *Level {
	l := &Level{Capacity: capacity, Tubes: b.tubes, Names: b.names}
	if slices.ContainsFunc(b.curtains, func(c Color) bool { return c != 0 }) {
		l.Curtains = b.curtains
	}
	return l
}

// validated returns l when it keeps the rules, else Validate's error.
func validated(l *Level) (*Level, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// NewLevel builds a level from tubes of colour names (bottom to top; "?" is hidden; a tube of
// the one token "curtain:NAME" is covered by a curtain) and checks it with Validate.
func NewLevel(capacity int, tubes [][]string) (*Level, error) {
	l, err := BuildLevel(capacity, tubes)
	if err != nil {
		return nil, err
	}
	return validated(l)
}

// BuildLevel builds a level from tubes of colour names without checking it against the rules,
// for callers that report a level breaking them rather than drop it (a screenshot read with
// low confidence calls Validate itself). It fails only on names it cannot encode: an empty
// name, a misplaced curtain token, more colours than MaxColors.
func BuildLevel(capacity int, tubes [][]string) (*Level, error) {
	b := newBuilder()
	for _, t := range tubes {
		if err := b.tube(t); err != nil {
			return nil, err
		}
	}
	return b.level(capacity), nil
}

// ParseLevel reads a level in any of the three formats, told apart by their first character:
// the JSON level document ('{'), the compact one-line form (see ParseCompact), or the
// plain-text format of the reference levels (see ParseText).
func ParseLevel(data []byte) (*Level, error) {
	s := bytes.TrimSpace(data)
	switch {
	case len(s) == 0:
		return nil, Errorf(CodeInvalidLevel, "empty input: no level")
	case !utf8.Valid(s):
		return nil, Errorf(CodeInvalidLevel, "not a level: %d bytes of binary data", len(data))
	case s[0] == '{':
		l := new(Level)
		if err := json.Unmarshal(s, l); err != nil {
			if ErrorCode(err) == CodeInternal {
				return nil, Errorf(CodeInvalidLevel, "level document: %v", err)
			}
			return nil, err
		}
		return l, nil
	case bytes.ContainsRune(s, '|') || bytes.HasSuffix(bytes.SplitN(s, []byte("\n"), 2)[0], []byte(":")):
		return ParseCompact(string(s))
	default:
		return ParseText(data)
	}
}

// ParseText reads the plain-text format of the reference levels: the number of tubes on the
// first line, the capacity on the second, then one line per tube with its colours from bottom
// to top separated by spaces. An empty line is an empty tube; missing trailing lines are empty
// tubes too, since editors strip them.
func ParseText(data []byte) (*Level, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(lines) < 2 {
		return nil, Errorf(CodeInvalidLevel, "text level: want the number of tubes and the capacity on the first two lines")
	}
	n, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || n < 1 || n > MaxTubes {
		return nil, Errorf(CodeInvalidLevel, "text level line 1: %q is not a tube count 1..%d (%s)", abbreviate(strings.TrimSpace(lines[0])), MaxTubes, limitsText)
	}
	capacity, err := strconv.Atoi(strings.TrimSpace(lines[1]))
	if err != nil {
		return nil, Errorf(CodeInvalidLevel, "text level line 2: %q is not a capacity", abbreviate(strings.TrimSpace(lines[1])))
	}
	body := lines[2:]
	for i := n; i < len(body); i++ {
		if strings.TrimSpace(body[i]) != "" {
			return nil, Errorf(CodeInvalidLevel, "text level line %d: %d tubes were declared but line %q follows them", i+3, n, abbreviate(body[i]))
		}
	}
	b := newBuilder()
	for i := 0; i < n; i++ {
		var units []string
		if i < len(body) {
			units = strings.Fields(body[i])
		}
		if err := b.tube(units); err != nil {
			return nil, err
		}
	}
	return validated(b.level(capacity))
}

// ParseCompact reads the compact one-line form used by tests and the command line: the
// capacity, a colon, then tubes separated by '|', each tube's colours bottom to top separated
// by spaces. "4: r g b r | g r b b | |" is a level of four tubes, two of them empty.
func ParseCompact(s string) (*Level, error) {
	head, rest, ok := strings.Cut(s, ":")
	if !ok {
		return nil, Errorf(CodeInvalidLevel, "compact level %q: want CAPACITY: tube | tube | ...", abbreviate(s))
	}
	capacity, err := strconv.Atoi(strings.TrimSpace(head))
	if err != nil {
		return nil, Errorf(CodeInvalidLevel, "compact level: %q is not a capacity", abbreviate(strings.TrimSpace(head)))
	}
	b := newBuilder()
	for _, t := range strings.Split(rest, "|") {
		if err := b.tube(strings.Fields(t)); err != nil {
			return nil, err
		}
	}
	return validated(b.level(capacity))
}

// abbreviate shortens user text quoted in an error message.
func abbreviate(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}

// Compact formats the level in the compact one-line form read by ParseCompact.
func (l *Level) Compact() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d:", l.Capacity)
	for i := range l.Tubes {
		if i > 0 {
			sb.WriteString(" |")
		}
		for _, tok := range l.Tokens(i) {
			sb.WriteByte(' ')
			sb.WriteString(tok)
		}
	}
	return sb.String()
}

// Text formats the level in the plain-text format read by ParseText.
func (l *Level) Text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d\n%d\n", len(l.Tubes), l.Capacity)
	for i := range l.Tubes {
		sb.WriteString(strings.Join(l.Tokens(i), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// String returns the compact form.
func (l *Level) String() string { return l.Compact() }

// levelDoc is the JSON level document shared by the CLI, the server and labels. A tube is an
// array of colour names, or {"curtain": "orange"} for a tube covered until orange is complete.
type levelDoc struct {
	Capacity int       `json:"capacity"`
	Tubes    []tubeDoc `json:"tubes"`
}

// tubeDoc is one tube of the level document.
type tubeDoc struct {
	units   []string
	curtain string
}

func (t tubeDoc) MarshalJSON() ([]byte, error) {
	if t.curtain != "" {
		return json.Marshal(map[string]string{"curtain": t.curtain})
	}
	return json.Marshal(t.units)
}

func (t *tubeDoc) UnmarshalJSON(data []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		var c struct {
			Curtain string `json:"curtain"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil || c.Curtain == "" {
			return fmt.Errorf("a tube object must be {\"curtain\": \"colour\"}")
		}
		t.curtain = c.Curtain
		return nil
	}
	t.units = []string{}
	return json.Unmarshal(data, &t.units)
}

// MarshalJSON writes the level document: {"capacity": 4, "tubes": [["red", ...], [], ...]}.
func (l *Level) MarshalJSON() ([]byte, error) {
	d := levelDoc{Capacity: l.Capacity, Tubes: make([]tubeDoc, len(l.Tubes))}
	for i := range l.Tubes {
		if l.Curtained(i) {
			d.Tubes[i].curtain = l.Name(l.Curtains[i])
		} else {
			d.Tubes[i].units = l.Tokens(i)
		}
	}
	return json.Marshal(d)
}

// UnmarshalJSON reads the level document and validates it.
func (l *Level) UnmarshalJSON(data []byte) error {
	var d levelDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Errorf(CodeInvalidLevel, "level document: %v", err)
	}
	if d.Tubes == nil {
		return Errorf(CodeInvalidLevel, "level document: no \"tubes\"")
	}
	tubes := make([][]string, len(d.Tubes))
	for i, t := range d.Tubes {
		tubes[i] = t.units
		if t.curtain != "" {
			tubes[i] = []string{CurtainPrefix + t.curtain}
		}
	}
	nl, err := NewLevel(d.Capacity, tubes)
	if err != nil {
		return err
	}
	*l = *nl
	return nil
}

// Canonical returns the compact form with colours renamed 1, 2, ... in order of first
// appearance (tubes in order, bottom to top; curtains count as appearances), so that two
// levels that differ only in colour names compare equal as strings. Tests use it to compare
// readings with ground truth.
func (l *Level) Canonical() string {
	ids := map[Color]int{}
	id := func(c Color) string {
		if _, ok := ids[c]; !ok {
			ids[c] = len(ids) + 1
		}
		return strconv.Itoa(ids[c])
	}
	tubes := make([]string, len(l.Tubes))
	for i, t := range l.Tubes {
		if l.Curtained(i) {
			tubes[i] = CurtainPrefix + id(l.Curtains[i])
			continue
		}
		parts := make([]string, len(t))
		for j, c := range t {
			if c == Hidden || c == Pending {
				parts[j] = l.Name(c)
				continue
			}
			parts[j] = id(c)
		}
		tubes[i] = strings.Join(parts, " ")
	}
	return fmt.Sprintf("%d: %s", l.Capacity, strings.Join(tubes, " | "))
}
