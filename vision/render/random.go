package render

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/solver/gen"
)

// choice is one factor of the distribution: its values and their relative weights.
type choice []struct {
	v string
	w float64
}

func (c choice) pick(r *rand.Rand) string {
	total := 0.0
	for _, o := range c {
		total += o.w
	}
	x := r.Float64() * total
	for _, o := range c {
		if x -= o.w; x < 0 {
			return o.v
		}
	}
	return c[len(c)-1].v
}

// values lists the factor's values.
func (c choice) values() []string {
	out := make([]string, len(c))
	for i, o := range c {
		out[i] = o.v
	}
	return out
}

// Factors are the named, documented draws of the distribution Random samples from, each value
// with its weight. A Scene's Factors map records the value drawn for every factor, so that a
// reader's accuracy can be broken down by factor. The weights favour what real games do
// often, but every value is drawn often enough to measure.
var Factors = map[string]choice{
	// style: "random" scenes draw every factor below; "theme" scenes are Render's four fixed
	// themes (the old renderer), drawn with a random level, size and encoding.
	"style": {{"random", 0.92}, {"theme", 0.08}},

	// capacity: units a tube holds.
	"capacity": {{"3", 1}, {"4", 3}, {"5", 2}, {"6", 1}, {"7", 1}},
	// empties: empty tubes in the dealt level (a mid-game position may empty more).
	"empties": {{"0", 1}, {"1", 2}, {"2", 3}, {"3", 1}},
	// position: the level's start, a mid-game position reached by random legal pours from
	// it, or a late position a few pours away from sorted (some tubes complete; needs an
	// empty tube, else it is drawn as "mid").
	"position": {{"start", 2}, {"mid", 2}, {"late", 1}},
	// hidden: units of unknown colour (the bottom ones of a tube; its top is always shown)
	// and how they are drawn: a dark box with "?", a plain grey box, a grey box with "?",
	// a "?" in a circle, a hatched box.
	"hidden": {{"none", 6}, {"dark-q", 1}, {"grey-box", 1}, {"grey-q", 1}, {"glyph-circle", 1}, {"hatched", 1}},
	// cover: whole tubes covered until a colour is complete: folded curtains with a lantern in
	// the colour, a lid-and-padlock panel, a plain sheet with a colour badge.
	"cover": {{"none", 8}, {"curtain", 1}, {"lid", 1}, {"sheet", 1}},

	// rows of tubes, and how they are placed: centred with even gaps, staggered (every other
	// row shifted by half a pitch), uneven gaps.
	"rows":   {{"1", 3}, {"2", 4}, {"3", 2}, {"4", 1}},
	"layout": {{"even", 3}, {"staggered", 1}, {"uneven", 1}},

	// shape: the tube's silhouette: round bottom, flat (rounded-corner) bottom, a flask with
	// a narrower neck above the liquid, a bulb with a wider round bottom.
	"shape": {{"round", 3}, {"flat", 2}, {"flask", 1}, {"bulb", 1}},
	// rim: the tube's top: nothing, a lip wider than the tube, a cork on empty and full tubes.
	"rim": {{"none", 1}, {"lip", 3}, {"cork", 1}},
	// stand: what the tubes stand on: nothing, a shelf under each row, a holder per tube.
	"stand": {{"none", 4}, {"shelf", 1}, {"holder", 1}},
	// outline: the glass's outline width, and its tone against the background (recorded as
	// "none" when there is no outline).
	"outline":      {{"none", 1}, {"thin", 2}, {"thick", 2}},
	"outline-tone": {{"light", 3}, {"dark", 1}, {"colour", 1}},
	// glass: what an empty part of a tube looks like: clear (the background shows), tinted
	// (a translucent colour over it), frosted (a light milky fill).
	"glass": {{"clear", 2}, {"tinted", 2}, {"frosted", 1}},
	// glare: a light stripe down the tube, over glass and liquid.
	"glare": {{"none", 2}, {"stripe", 2}, {"wide", 1}},
	// shadow: a soft drop shadow behind each tube.
	"shadow": {{"none", 3}, {"drop", 1}},
	// edge: how layers meet: flat, a curved meniscus, a thin separator line between
	// colours, shading within each layer, bubbles in the liquid.
	"edge": {{"flat", 3}, {"meniscus", 1}, {"separator", 1}, {"shaded", 1}, {"bubbles", 1}},

	// background: flat colour, vertical gradient, radial gradient, wood grain, noise
	// texture, blurred photo-like blobs, line doodles, bokeh circles.
	"background": {{"flat", 2}, {"vgradient", 2}, {"radial", 1}, {"wood", 1}, {"noise", 1}, {"blobs", 1}, {"doodles", 1}, {"bokeh", 1}},
	// palette: the liquids' colours: well apart (ΔE ≥ 20), the old renderer's named colours,
	// with one or two near pairs (CIEDE2000 ΔE 8–20 from another liquid), with one colour
	// near the background (ΔE 8–20).
	"palette": {{"distinct", 2}, {"classic", 1}, {"near-pair", 2}, {"near-bg", 1}},

	// clutter: what else is on the screen besides a header: nothing, round buttons, a coin
	// counter, an ad banner, a progress bar, hint counters, number labels under the tubes, a
	// small "well done" toast that leaves the board visible, all of them.
	"clutter": {{"none", 1}, {"buttons", 2}, {"coins", 1}, {"banner", 1}, {"progress", 1}, {"hints", 1}, {"labels", 1}, {"toast", 1}, {"all", 1}},
	// status-bar: a phone's status bar (clock, signal, battery) across the top.
	"status-bar": {{"no", 1}, {"yes", 1}},

	// size: small screenshots (250–480 wide, as shared images often are), phones, large phones (1440 wide), 4:3 tablets,
	// landscape phones and tablets.
	"size": {{"small", 2}, {"phone", 4}, {"large", 1}, {"tablet", 1}, {"landscape", 1}},
	// resize: drawn at the final size, or drawn larger and scaled down (soft edges), or drawn
	// smaller and scaled up (blur).
	"resize": {{"none", 3}, {"down", 1}, {"up", 1}},
	// jpeg: the encoding: PNG, or JPEG in a quality band.
	"jpeg": {{"png", 2}, {"40-60", 1}, {"60-80", 1}, {"80-95", 2}},
	// photo: a phone photo of the screen: perspective tilt, moiré, a glare spot, and the EXIF
	// orientation the camera wrote ("exif" factor) which a reader must apply.
	"photo": {{"no", 6}, {"yes", 1}},
	"exif":  {{"none", 2}, {"90", 1}, {"180", 1}, {"270", 1}},
}

// Derived are factors a scene records that are not drawn directly but follow from the
// draws: "per-row", the most tubes in one row of the layout.
var Derived = map[string][]string{"per-row": {"1-5", "6-8", "9-12", "13-16"}}

// perRowBucket names the "per-row" value of a layout whose longest row holds n tubes.
func perRowBucket(n int) string {
	switch {
	case n <= 5:
		return "1-5"
	case n <= 8:
		return "6-8"
	case n <= 12:
		return "9-12"
	}
	return "13-16"
}

// sizes are the screen sizes of each "size" value, portrait (landscape swaps a phone's or a
// tablet's sides).
var sizes = map[string][][2]int{
	"small":  {{250, 444}, {270, 480}, {320, 568}, {360, 640}, {360, 800}, {375, 667}, {414, 736}, {480, 854}},
	"phone":  {{720, 1280}, {720, 1600}, {750, 1334}, {828, 1792}, {1080, 1920}, {1080, 2340}, {1080, 2400}, {1170, 2532}},
	"large":  {{1284, 2778}, {1440, 2560}, {1440, 3200}},
	"tablet": {{768, 1024}, {1200, 1600}, {1536, 2048}},
}

// Level shape limits: colours dealt, and the narrowest tube and shortest unit drawn (in the
// final image's pixels) for a human to read the level.
const (
	minColors    = 2
	maxColors    = 20
	minTubeWidth = 14
	minUnitH     = 8
	maxPerRow    = 16
)

// FactorNames lists Random's factors in the order they are drawn.
func FactorNames() []string { return slices.Clone(factorOrder) }

// FactorValues lists the values a factor of Random (or NonPuzzle's "screen") can take, in the
// order Factors gives them; nil for an unknown factor. A scene's recorded value may also be
// "theme" (a fixed-theme scene), "theme-NAME" (its background), "given" (RandomLevel's
// position) or "none" (outline-tone without an outline).
func FactorValues(name string) []string {
	if c, ok := Factors[name]; ok {
		return c.values()
	}
	if c, ok := NonPuzzleFactors[name]; ok {
		return c.values()
	}
	return slices.Clone(Derived[name])
}

// draws holds the factors drawn for a scene.
type draws map[string]string

// sample draws every factor from r.
func sample(r *rand.Rand) draws {
	d := draws{}
	for _, k := range factorOrder {
		d[k] = Factors[k].pick(r)
	}
	return d
}

// factorOrder fixes the order factors are drawn in, so that a seed always gives the same scene.
var factorOrder = []string{
	"style", "capacity", "empties", "position", "hidden", "cover", "rows", "layout",
	"shape", "rim", "stand", "outline", "outline-tone", "glass", "glare", "shadow", "edge",
	"background", "palette", "clutter", "size", "resize", "jpeg", "photo", "exif", "status-bar",
}

// Random draws one puzzle screenshot from the distribution, its level dealt from the seed.
// The same seed always gives the same scene.
func Random(seed uint64) (*Scene, error) { return RandomWith(seed, nil) }

// RandomWith draws like Random with some factors fixed (name to value, as FactorValues lists
// them), to look at or tune on one corner of the distribution. A fixed value the scene cannot
// honour falls back as a drawn one does (Factors records what was drawn). Unknown names or
// values are invalid_argument errors. Unless "style" is fixed too, a scene with fixed factors
// is drawn in the "random" style (a fixed theme would override them).
func RandomWith(seed uint64, fixed map[string]string) (*Scene, error) {
	r := rand.New(rand.NewPCG(seed, 0x7a2d00))
	d := sample(r)
	if _, ok := fixed["style"]; len(fixed) > 0 && !ok {
		d["style"] = "random"
	}
	for k, v := range fixed {
		c, ok := Factors[k]
		if !ok {
			return nil, solver.Errorf(solver.CodeInvalidArgument, "unknown factor %q: want one of %v", k, factorOrder)
		}
		if !slices.Contains(c.values(), v) {
			return nil, solver.Errorf(solver.CodeInvalidArgument, "factor %s has no value %q: want one of %v", k, v, c.values())
		}
		d[k] = v
	}
	l := dealLevel(r, d, seed)
	return paint(r, d, l)
}

// RandomLevel draws a screenshot of l from the same distribution as Random (the level's own
// hidden units and curtains are kept; none are added).
func RandomLevel(l *solver.Level, seed uint64) (*Scene, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x7a2d01))
	d := sample(r)
	d["capacity"] = strconv.Itoa(l.Capacity)
	d["hidden"], d["cover"] = "none", "none"
	if l.HasHidden() {
		d["hidden"] = Factors["hidden"][1+r.IntN(len(Factors["hidden"])-1)].v
	}
	if l.HasCurtains() {
		d["cover"] = Factors["cover"][1+r.IntN(len(Factors["cover"])-1)].v
	}
	d["position"], d["empties"] = "given", strconv.Itoa(countEmpty(l))
	return paint(r, d, l.Clone())
}

func countEmpty(l *solver.Level) int {
	n := 0
	for i, t := range l.Tubes {
		if len(t) == 0 && !l.Curtained(i) {
			n++
		}
	}
	return n
}

// dealLevel deals the scene's level: colours to fill the rows drawn, then a mid-game
// position, hidden units and covered tubes as drawn.
func dealLevel(r *rand.Rand, d draws, seed uint64) *solver.Level {
	capacity, _ := strconv.Atoi(d["capacity"])
	empties, _ := strconv.Atoi(d["empties"])
	rows, _ := strconv.Atoi(d["rows"])
	perRow := tubesPerRow(r, d)
	if rows*perRow > maxColors+empties { // a long row: fewer rows keep it long
		rows = max(1, (maxColors+empties)/perRow)
		d["rows"] = strconv.Itoa(rows)
	}
	colors := max(minColors, min(maxColors, rows*perRow-empties))
	if d["cover"] != "none" {
		colors = max(colors, 4)
	}
	l := gen.Deal(seed, colors, capacity, empties)
	if d["position"] == "late" && empties == 0 {
		d["position"] = "mid"
	}
	switch d["position"] {
	case "mid":
		l = gen.Scramble(l, seed^0x3c, 4+r.IntN(4*colors))
	case "late":
		for i := range colors {
			l.Tubes[i] = slices.Repeat([]solver.Color{solver.Color(i + 1)}, capacity)
		}
		l = gen.Scramble(l, seed^0x3c, 2+r.IntN(colors))
	}
	if d["hidden"] != "none" {
		hide(r, l)
		dropUnseen(l)
	}
	if d["cover"] != "none" && !cover(r, l) {
		d["cover"] = "none"
	}
	return l
}

// tubesPerRow draws how many tubes a row holds: mostly 3–8, sometimes 9 to 14 (maxPerRow on
// a landscape or tablet screen).
func tubesPerRow(r *rand.Rand, d draws) int {
	if r.IntN(4) == 0 {
		hi := 14
		if d["size"] == "landscape" || d["size"] == "tablet" {
			hi = maxPerRow
		}
		return 9 + r.IntN(hi-8)
	}
	return 3 + r.IntN(6)
}

// hide turns units into hidden ones as mystery levels show them: in each tube, the units
// below the top one, all of them at a level's start or a random share of them later.
func hide(r *rand.Rand, l *solver.Level) {
	all := r.IntN(2) == 0
	for i, t := range l.Tubes {
		if len(t) < 2 {
			continue
		}
		k := len(t) - 1
		if !all {
			k = r.IntN(len(t))
		}
		for j := range k {
			l.Tubes[i][j] = solver.Hidden
		}
	}
}

// cover puts 1–3 tubes behind curtains, each opening when a colour still shown elsewhere is
// complete (never one complete already: its curtain would be open, and Validate refuses the
// level); it reports false (and leaves l alone) when no such choice keeps the level valid.
func cover(r *rand.Rand, l *solver.Level) bool {
	if l.Colors() == 0 {
		return false
	}
	for range 20 {
		c := l.Clone()
		c.Curtains = make([]solver.Color, len(c.Tubes))
		n := 1 + r.IntN(3)
		for _, i := range r.Perm(len(c.Tubes))[:max(0, min(n, len(c.Tubes)-2))] {
			if len(c.Tubes[i]) == 0 {
				continue
			}
			c.Tubes[i] = []solver.Color{}
			c.Curtains[i] = solver.Color(1 + r.IntN(c.Colors()))
		}
		dropUnseen(c)
		if c.HasCurtains() && c.Validate() == nil {
			*l = *c
			return true
		}
	}
	return false
}

// dropUnseen removes the colours no unit shows and no curtain names, as a reader's level
// does: the hidden units stand for them.
func dropUnseen(l *solver.Level) {
	seen := make([]bool, len(l.Names))
	for i, t := range l.Tubes {
		for _, c := range t {
			if c != solver.Hidden {
				seen[c] = true
			}
		}
		if l.Curtained(i) {
			seen[l.Curtains[i]] = true
		}
	}
	id := make([]solver.Color, len(l.Names))
	names := []string{""}
	for c := 1; c < len(l.Names); c++ {
		if seen[c] {
			id[c] = solver.Color(len(names))
			names = append(names, l.Names[c])
		}
	}
	for _, t := range l.Tubes {
		for j, c := range t {
			if c != solver.Hidden {
				t[j] = id[c]
			}
		}
	}
	for i, c := range l.Curtains {
		l.Curtains[i] = id[c]
	}
	l.Names = names
}

// String formats draws for test messages.
func (d draws) String() string {
	s := ""
	for _, k := range factorOrder {
		if v, ok := d[k]; ok {
			s += fmt.Sprintf("%s=%s ", k, v)
		}
	}
	return s
}
