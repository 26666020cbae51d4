package hidden

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/decant/decant/solver"
)

// Rules are the variants of the pour rule that games with hidden units differ on.
type Rules struct {
	// Carry moves hidden units of the run's colour directly below it along with the run (and
	// so reveals them); by default they stay until revealed.
	Carry bool
}

// Game is a position with what is hidden in it: every unit's colour where it is known, which
// units show, and which tubes are covered. It serves both as the truth of a simulated level
// (every colour known) and as the planner's belief (hidden colours unknown, written 0).
type Game struct {
	Capacity int
	// Names[c] names colour c, as in solver.Level; colours after the level's are anonymous.
	Names []string
	// Tubes holds each tube's units bottom to top; 0 is a colour not known (in a belief). A
	// covered tube's contents are nil in a belief, where even their number is unknown.
	Tubes [][]solver.Color
	// Shown[i][j] reports whether unit j of tube i shows. A shown unit of colour 0 is one
	// just revealed whose colour the player has yet to write in (solver.Pending).
	Shown [][]bool
	// Covers[i] is the colour whose completion opens tube i's curtain, 0 for an open tube.
	Covers []solver.Color
	Rules  Rules
}

// NewGame returns the game of a level with full truth: hidden[i][j] hides unit j of tube i,
// covers[i] (nil for none) covers tube i until that colour is complete.
func NewGame(truth *solver.Level, hidden [][]bool, covers []solver.Color, rules Rules) *Game {
	g := &Game{Capacity: truth.Capacity, Names: slices.Clone(truth.Names), Rules: rules}
	g.Covers = make([]solver.Color, len(truth.Tubes))
	copy(g.Covers, covers)
	for i, t := range truth.Tubes {
		g.Tubes = append(g.Tubes, slices.Clone(t))
		shown := make([]bool, len(t))
		for j := range t {
			shown[j] = i >= len(hidden) || j >= len(hidden[i]) || !hidden[i][j]
		}
		if len(t) > 0 {
			shown[len(t)-1] = true // a tube's top always shows
		}
		g.Shown = append(g.Shown, shown)
	}
	return g
}

// Belief returns the game a player sees in level l: its hidden units unknown, its curtains
// closed on unknown contents. A top unit that is hidden or "!" must be written in first.
func Belief(l *solver.Level, rules Rules) (*Game, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	g := &Game{Capacity: l.Capacity, Names: slices.Clone(l.Names), Covers: make([]solver.Color, len(l.Tubes)), Rules: rules}
	for i, t := range l.Tubes {
		if l.Curtained(i) {
			g.Covers[i] = l.Curtains[i]
			g.Tubes = append(g.Tubes, nil)
			g.Shown = append(g.Shown, nil)
			continue
		}
		tube, shown := make([]solver.Color, len(t)), make([]bool, len(t))
		for j, c := range t {
			switch {
			case c == solver.Pending:
				return nil, solver.Errorf(solver.CodeHiddenUnits, "tube %d unit %d is \"!\": write in the colour that appeared there", i+1, j+1)
			case c == solver.Hidden && j == len(t)-1:
				return nil, solver.Errorf(solver.CodeHiddenUnits, "tube %d's top unit is hidden, but a top unit always shows: write in its colour", i+1)
			case c != solver.Hidden:
				tube[j], shown[j] = c, true
			}
		}
		g.Tubes, g.Shown = append(g.Tubes, tube), append(g.Shown, shown)
	}
	return g, nil
}

// Clone returns a deep copy of g. Its tubes share one backing array, each with room for
// Capacity units, so that pours append in place (cloning is most of the searches' work).
func (g *Game) Clone() *Game {
	c := &Game{Capacity: g.Capacity, Names: g.Names, Covers: slices.Clone(g.Covers), Rules: g.Rules}
	c.Tubes = make([][]solver.Color, len(g.Tubes))
	c.Shown = make([][]bool, len(g.Shown))
	room := g.Capacity
	for _, t := range g.Tubes {
		room = max(room, len(t))
	}
	units, shown := make([]solver.Color, room*len(g.Tubes)), make([]bool, room*len(g.Tubes))
	for i, t := range g.Tubes {
		if t == nil {
			continue
		}
		at := i * room
		c.Tubes[i] = units[at : at+copy(units[at:at+room], t) : at+room]
		c.Shown[i] = shown[at : at+copy(shown[at:at+room], g.Shown[i]) : at+room]
	}
	return c
}

// name returns colour c's name; anonymous colours are named by their id.
func (g *Game) name(c solver.Color) string {
	if int(c) < len(g.Names) && c != 0 {
		return g.Names[c]
	}
	return fmt.Sprintf("anon%d", c)
}

// topRun returns the colour of tube i's top and how many units of it can be poured: the
// visible run, or with Carry the run through known hidden units of that colour. ok is false
// when the tube is covered, empty, or its top colour is not known yet.
func (g *Game) topRun(i int) (c solver.Color, run int, ok bool) {
	t := g.Tubes[i]
	if g.Covers[i] != 0 || len(t) == 0 || t[len(t)-1] == 0 {
		return 0, 0, false
	}
	c = t[len(t)-1]
	for run < len(t) && t[len(t)-1-run] == c && (g.Shown[i][len(t)-1-run] || g.Rules.Carry) {
		run++
	}
	return c, run, true
}

// accepts reports whether tube j can take colour c: open, not full, empty or topped by c.
func (g *Game) accepts(j int, c solver.Color) bool {
	t := g.Tubes[j]
	return g.Covers[j] == 0 && len(t) < g.Capacity && (len(t) == 0 || t[len(t)-1] == c && g.Shown[j][len(t)-1])
}

// Legal lists the pours legal in the position as the player sees it. Count is the number of
// units known to move (with Carry, hidden units of the same colour may join them).
func (g *Game) Legal() []solver.Move {
	var out []solver.Move
	for a := range g.Tubes {
		c, _, ok := g.topRun(a)
		if !ok {
			continue
		}
		run := 0
		for t := g.Tubes[a]; run < len(t) && t[len(t)-1-run] == c && g.Shown[a][len(t)-1-run]; run++ {
		}
		for b := range g.Tubes {
			if a != b && g.accepts(b, c) {
				out = append(out, solver.Move{From: a, To: b, Count: min(run, g.Capacity-len(g.Tubes[b])), Color: c})
			}
		}
	}
	return out
}

// Pour plays the pour from→to under the rules and returns it, with the tube in which it
// revealed something (a hidden unit that became a top, or a curtain that opened), or -1.
func (g *Game) Pour(from, to int) (solver.Move, int, error) {
	n := len(g.Tubes)
	if from < 0 || from >= n || to < 0 || to >= n || from == to {
		return solver.Move{}, -1, solver.Errorf(solver.CodeInvalidPlan, "pour %d→%d: no such pair of tubes", from+1, to+1)
	}
	c, run, ok := g.topRun(from)
	if !ok || !g.accepts(to, c) {
		return solver.Move{}, -1, solver.Errorf(solver.CodeInvalidPlan, "pour %d→%d is not legal here", from+1, to+1)
	}
	k := min(run, g.Capacity-len(g.Tubes[to]))
	src := g.Tubes[from]
	reveal := -1
	for j := len(src) - k; j < len(src); j++ {
		if !g.Shown[from][j] {
			reveal = from // carried along, and so revealed
		}
		g.Tubes[to] = append(g.Tubes[to], c)
		g.Shown[to] = append(g.Shown[to], true)
	}
	g.Tubes[from], g.Shown[from] = src[:len(src)-k], g.Shown[from][:len(src)-k]
	if h := len(g.Tubes[from]); h > 0 && !g.Shown[from][h-1] {
		g.Shown[from][h-1] = true
		reveal = from
	}
	if t := g.openCurtains(); t >= 0 {
		reveal = t
	}
	return solver.Move{From: from, To: to, Count: k, Color: c}, reveal, nil
}

// openCurtains opens the curtains whose colour is complete and returns one such tube, or -1.
// A belief does not know what an opened curtain held: it shows units of unknown colour, as
// many as the counts leave over when it was the last curtain, else as many as can be.
func (g *Game) openCurtains() int {
	opened := -1
	// An opened curtain may show a complete colour that opens another: repeat until none
	// opens, as the oracle does.
	for again := true; again; {
		again = false
		for i, c := range g.Covers {
			if c != 0 && g.complete(c) {
				g.open(i)
				opened, again = i, true
			}
		}
	}
	return opened
}

// open opens the curtain over tube i.
func (g *Game) open(i int) {
	if g.Tubes[i] == nil {
		closed := 0
		for j := range g.Tubes {
			if g.Covers[j] != 0 && g.Tubes[j] == nil {
				closed++
			}
		}
		_, covered, _ := g.unseen()
		if closed > 1 {
			covered = min(covered, g.Capacity)
		}
		g.Tubes[i], g.Shown[i] = make([]solver.Color, covered), make([]bool, covered)
	}
	g.Covers[i] = 0
	for j := range g.Shown[i] {
		g.Shown[i][j] = true
	}
}

// complete reports whether some open tube is full of colour c, every unit showing.
func (g *Game) complete(c solver.Color) bool {
	for i, t := range g.Tubes {
		if g.Covers[i] == 0 && len(t) == g.Capacity && g.sorted(i) && t[0] == c {
			return true
		}
	}
	return false
}

// sorted reports whether tube i holds one known colour, every unit showing.
func (g *Game) sorted(i int) bool {
	for j, c := range g.Tubes[i] {
		if c == 0 || c != g.Tubes[i][0] || !g.Shown[i][j] {
			return false
		}
	}
	return true
}

// Solved reports whether every tube is empty or full of one colour (hidden units included:
// the truth decides, as in the game).
func (g *Game) Solved() bool {
	for _, t := range g.Tubes {
		if len(t) == 0 {
			continue
		}
		if len(t) != g.Capacity || slices.ContainsFunc(t, func(c solver.Color) bool { return c == 0 || c != t[0] }) {
			return false
		}
	}
	return true
}

// Hidden counts the units that do not show (covered tubes' included, when known).
func (g *Game) Hidden() int {
	n := 0
	for i, s := range g.Shown {
		for _, v := range s {
			if !v || g.Covers[i] != 0 {
				n++
			}
		}
	}
	return n
}

// Full returns the level with every colour known and every curtain open: what the exact
// search plans on once a completion is assumed. Nil when a colour is unknown.
func (g *Game) Full() *solver.Level {
	l := &solver.Level{Capacity: g.Capacity, Tubes: make([][]solver.Color, len(g.Tubes))}
	top := solver.Color(len(g.Names) - 1)
	for i, t := range g.Tubes {
		if slices.Contains(t, 0) {
			return nil
		}
		l.Tubes[i] = slices.Clone(t)
		for _, c := range t {
			top = max(top, c)
		}
	}
	l.Names = slices.Clone(g.Names)
	for c := solver.Color(len(g.Names)); c <= top; c++ {
		l.Names = append(l.Names, g.name(c))
	}
	return l
}

// View returns the level the player sees: hidden units "?", a revealed unit of unknown colour
// "!", covered tubes as curtains. Colours are renumbered in order of appearance.
func (g *Game) View() (*solver.Level, error) {
	tubes := make([][]string, len(g.Tubes))
	for i, t := range g.Tubes {
		if g.Covers[i] != 0 {
			tubes[i] = []string{solver.CurtainPrefix + g.name(g.Covers[i])}
			continue
		}
		tubes[i] = make([]string, len(t))
		for j, c := range t {
			switch {
			case !g.Shown[i][j]:
				tubes[i][j] = "?"
			case c == 0:
				tubes[i][j] = "!"
			default:
				tubes[i][j] = g.name(c)
			}
		}
	}
	return solver.NewLevel(g.Capacity, tubes)
}

// Key is the position as the player sees it, tube order ignored: equal keys, equal beliefs.
func (g *Game) Key() string {
	parts := make([]string, len(g.Tubes))
	var sb strings.Builder
	for i, t := range g.Tubes {
		sb.Reset()
		if g.Covers[i] != 0 {
			fmt.Fprintf(&sb, "c%d", g.Covers[i])
		}
		for j, c := range t {
			if !g.Shown[i][j] {
				c = 0xFF
			}
			sb.WriteByte(byte(c))
		}
		parts[i] = sb.String()
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}

// unseen returns the colours not yet seen, one entry a unit (anonymous colours numbered after
// the named ones), and the number of units the curtains hold between them.
func (g *Game) unseen() (units []solver.Color, covered int, err error) {
	counts := make([]int, len(g.Names))
	hidden, curtains := 0, 0
	for i, t := range g.Tubes {
		if g.Covers[i] != 0 && t == nil {
			curtains++
			continue
		}
		for _, c := range t {
			switch {
			case c == 0:
				hidden++
			case int(c) < len(counts):
				counts[c]++
			}
		}
	}
	for c := 1; c < len(counts); c++ {
		for range g.Capacity - counts[c] {
			units = append(units, solver.Color(c))
		}
	}
	anon := 0
	for len(units) < hidden {
		anon++
		for range g.Capacity {
			units = append(units, solver.Color(len(g.Names)-1+anon))
		}
	}
	covered = len(units) - hidden
	if covered < 0 || covered > curtains*g.Capacity || curtains == 0 && covered != 0 {
		return nil, 0, solver.Errorf(solver.CodeInvalidLevel, "%d hidden units and %d curtains cannot hold the %d units the counts leave unseen", hidden, curtains, len(units))
	}
	return units, covered, nil
}

// Sample returns a completion of the belief g drawn uniformly among those consistent with the
// counts: every unknown colour filled in, every covered tube's contents chosen.
func (g *Game) Sample(r *rand.Rand) (*Game, error) {
	units, covered, err := g.unseen()
	if err != nil {
		return nil, err
	}
	r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	s := g.Clone()
	var curtains []int
	for i, t := range s.Tubes {
		if s.Covers[i] != 0 && t == nil {
			curtains = append(curtains, i)
			continue
		}
		for j := range t {
			if t[j] == 0 {
				t[j], units = units[0], units[1:]
			}
		}
	}
	r.Shuffle(len(curtains), func(i, j int) { curtains[i], curtains[j] = curtains[j], curtains[i] })
	for _, i := range curtains {
		k := min(covered, s.Capacity)
		s.Tubes[i], units, covered = slices.Clone(units[:k]), units[k:], covered-k
		s.Shown[i] = make([]bool, k)
	}
	return s, nil
}

// SymKey is Key up to a renaming of the colours as well: colours are renamed in order of
// first appearance, reading the tubes sorted by their pattern (which units are hidden, which
// equal which). Positions with equal SymKeys are the same up to names, so they have the same
// chances; positions that are the same up to names may still differ in SymKey (a tie in the
// patterns), which costs only a repeated search. It is the expectimax's memo key, computed
// once a belief, so it builds every tube's bytes in one buffer.
func (g *Game) SymKey() string {
	// buf holds, for each tube, its pattern then its key (each as long as the tube plus the
	// cover byte), then its renamed bytes.
	n := 0
	for i, t := range g.Tubes {
		n += len(t) + 1
		if g.Covers[i] != 0 {
			n += 2
		}
	}
	buf := make([]byte, 0, 3*n)
	type tube struct{ pattern, key, out []byte }
	ts := make([]tube, len(g.Tubes))
	for i, t := range g.Tubes {
		at := len(buf)
		if g.Covers[i] != 0 {
			buf = append(buf, 0xFD)
		}
		for j, c := range t {
			switch {
			case !g.Shown[i][j]:
				buf = append(buf, 0xFF)
			case c == 0:
				buf = append(buf, 0xFE)
			default:
				buf = append(buf, byte(slices.Index(t, c)))
			}
		}
		mid := len(buf)
		for j, c := range t {
			if !g.Shown[i][j] {
				c = 0xFF
			}
			buf = append(buf, byte(c))
		}
		ts[i] = tube{pattern: buf[at:mid:mid], key: buf[mid:len(buf):len(buf)]}
	}
	order := make([]int, len(ts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(bytes.Compare(ts[a].pattern, ts[b].pattern), bytes.Compare(ts[a].key, ts[b].key))
	})
	var rename [256]byte
	named := 0
	id := func(c solver.Color) byte {
		if rename[c] == 0 {
			named++
			rename[c] = byte(named)
		}
		return rename[c]
	}
	for _, i := range order {
		at := len(buf)
		if g.Covers[i] != 0 {
			buf = append(buf, 0xFD, id(g.Covers[i]))
		}
		for j, c := range g.Tubes[i] {
			switch {
			case !g.Shown[i][j]:
				buf = append(buf, 0xFF)
			case c == 0:
				buf = append(buf, 0xFE)
			default:
				buf = append(buf, id(c))
			}
		}
		ts[i].out = buf[at:len(buf):len(buf)]
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(ts[a].out, ts[b].out) })
	var sb strings.Builder
	sb.Grow(n + 8)
	sb.WriteString(strconv.Itoa(len(g.Names) - named))
	for _, i := range order {
		sb.WriteByte('|')
		sb.Write(ts[i].out)
	}
	return sb.String()
}
