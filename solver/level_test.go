package solver

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseFormatsAgree(t *testing.T) {
	text := "5\n3\nr g b\nb g r\ng r b\n\n"
	compact := "3: r g b | b g r | g r b | |"
	doc := `{"capacity": 3, "tubes": [["r","g","b"],["b","g","r"],["g","r","b"],[],[]]}`
	want := "3: 1 2 3 | 3 2 1 | 2 1 3 |  | "
	for name, in := range map[string]string{"text": text, "compact": compact, "json": doc} {
		t.Run(name, func(t *testing.T) {
			l, err := ParseLevel([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Canonical(); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestRoundTrips(t *testing.T) {
	data, err := os.ReadFile("../testdata/levels/seed-98.txt")
	if err != nil {
		t.Fatal(err)
	}
	l, err := ParseLevel(data)
	if err != nil {
		t.Fatal(err)
	}
	viaText, err := ParseText([]byte(l.Text()))
	if err != nil {
		t.Fatal(err)
	}
	viaCompact, err := ParseCompact(l.Compact())
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var viaJSON Level
	if err := json.Unmarshal(js, &viaJSON); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*Level{"text": viaText, "compact": viaCompact, "json": &viaJSON} {
		if got.Compact() != l.Compact() {
			t.Errorf("%s round trip: got %q, want %q", name, got.Compact(), l.Compact())
		}
	}
	if len(l.Tubes) != 14 || len(l.Tubes[0]) != 0 || l.Colors() != 12 {
		t.Errorf("seed-98: got %d tubes, %d colours, first tube %v", len(l.Tubes), l.Colors(), l.Tubes[0])
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		code     Code
		msg      string
	}{
		{"empty input", "  \n", CodeInvalidLevel, "empty input"},
		{"short colour", "4: r r r | b b b b | |", CodeInvalidLevel, `colour "r" has 3 units, want 4`},
		{"long colour", "2: r r | r b | b |", CodeInvalidLevel, `colour "r" has 3 units, want 2`},
		{"over capacity", "2: r r r | |", CodeInvalidLevel, "tube 1 holds 3 units, over the capacity 2"},
		{"no liquid", "4: | |", CodeInvalidLevel, "no liquid"},
		{"bad capacity", "0: | |", CodeInvalidLevel, "capacity 0 is out of range"},
		{"capacity word", "x: r | |", CodeInvalidLevel, `"x" is not a capacity`},
		{"text count", "many\n4\n", CodeInvalidLevel, "line 1"},
		{"text extra line", "1\n2\nr r\nb b\n", CodeInvalidLevel, "1 tubes were declared"},
		{"json unknown field", `{"capacity": 2, "tubes": [["r","r"]], "x": 1}`, CodeInvalidLevel, "unknown field"},
		{"json no tubes", `{"capacity": 2}`, CodeInvalidLevel, `no "tubes"`},
		{"json empty name", `{"capacity": 1, "tubes": [[""]]}`, CodeInvalidLevel, "empty colour name"},
		{"too many colours", "1: " + manyColours(255), CodeInvalidLevel, "more than 253 colours"},
		{"capacity too large", "11: " + manyColours(32), CodeInvalidLevel, "capacity 11 is too large for 32 colours"},
		{"hidden mismatch", "2: r ? | b b | ? ? | ?", CodeInvalidLevel, "hidden units cannot complete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLevel([]byte(tc.in))
			if got := ErrorCode(err); got != tc.code {
				t.Fatalf("code: got %q (%v), want %q", got, err, tc.code)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message: got %q, want it to contain %q", err, tc.msg)
			}
		})
	}
}

func manyColours(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "c" + strings.Repeat("x", i)
	}
	return strings.Join(parts, " | ")
}

func TestHiddenUnitsParseButDoNotSolve(t *testing.T) {
	l, err := ParseLevel([]byte("2: r ? | b ? | |"))
	if err != nil {
		t.Fatal(err)
	}
	if !l.HasHidden() {
		t.Fatal("HasHidden: got false")
	}
	_, _, err = Solve(t.Context(), l, Options{})
	if got := ErrorCode(err); got != CodeHiddenUnits {
		t.Fatalf("got %q (%v), want %q", got, err, CodeHiddenUnits)
	}
}

func TestReplayNamesTheBadMove(t *testing.T) {
	l, err := ParseCompact("3: r b | r | b r | b |")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		moves []Move
		msg   string
	}{
		{"from empty", []Move{{From: 4, To: 3, Count: 1, Color: 1}}, "tube 5 is empty"},
		{"colour clash", []Move{{From: 0, To: 1, Count: 1, Color: 2}}, "tube 2's top r differs from b"},
		{"wrong count", []Move{{From: 0, To: 4, Count: 2, Color: 2}}, "pours 1 b, not 2 b"},
		{"unsolved", []Move{{From: 0, To: 4, Count: 1, Color: 2}}, "leave the level unsolved"},
		{"out of range", []Move{{From: 0, To: 9, Count: 1, Color: 2}}, "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckPlan(l, tc.moves)
			if ErrorCode(err) != CodeInvalidPlan || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("got %v, want invalid_plan containing %q", err, tc.msg)
			}
		})
	}
}

func TestErrorCodeOfForeignErrors(t *testing.T) {
	if got := ErrorCode(strings.NewReader("").UnreadByte()); got != CodeInternal {
		t.Errorf("got %q, want internal", got)
	}
	if got := ErrorCode(nil); got != "" {
		t.Errorf("got %q for nil", got)
	}
}

func TestCurtains(t *testing.T) {
	doc := `{"capacity": 2, "tubes": [{"curtain": "red"}, ["blue", "?"], ["blue", "red"], []]}`
	l, err := ParseLevel([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Curtained(0) || l.Curtained(1) || !l.HasCurtains() {
		t.Fatalf("curtains: %v", l.Curtains)
	}
	if got, want := l.Compact(), "2: curtain:red | blue ? | blue red |"; got != want {
		t.Errorf("compact: got %q, want %q", got, want)
	}
	js, err := json.Marshal(l)
	if err != nil || string(js) != `{"capacity":2,"tubes":[{"curtain":"red"},["blue","?"],["blue","red"],[]]}` {
		t.Errorf("json: %s %v", js, err)
	}
	for name, in := range map[string]string{"compact": l.Compact(), "text": l.Text()} {
		again, err := ParseLevel([]byte(in))
		if err != nil || again.Canonical() != l.Canonical() {
			t.Errorf("%s round trip: %v, %v", name, again, err)
		}
	}
	if _, _, err := Solve(t.Context(), l, Options{}); ErrorCode(err) != CodeHiddenUnits || !strings.Contains(err.Error(), "curtain") {
		t.Errorf("solve: got %v, want a hidden_units error naming the curtains", err)
	}
	if _, err := Replay(l, []Move{{From: 2, To: 0, Count: 1, Color: 2}}); err == nil || !strings.Contains(err.Error(), "behind a curtain") {
		t.Errorf("pour into a curtain tube: got %v", err)
	}
	for _, bad := range []string{
		`{"capacity": 2, "tubes": [{"curtain": ""}, ["a", "a"]]}`,
		`{"capacity": 2, "tubes": [{"curtain": "a", "x": 1}, ["a", "a"]]}`,
		"2: curtain:a b | a a",
	} {
		if _, err := ParseLevel([]byte(bad)); ErrorCode(err) != CodeInvalidLevel {
			t.Errorf("%s: got %v, want invalid_level", bad, err)
		}
	}
	// A curtain opens when its colour is complete: one waiting for a colour complete in view
	// cannot be drawn (hidden units or no).
	for _, bad := range []string{"2: curtain:a | a a | b b |", "2: curtain:a | ? b | a a | b |"} {
		if _, err := ParseLevel([]byte(bad)); ErrorCode(err) != CodeInvalidLevel || !strings.Contains(err.Error(), "would be open") {
			t.Errorf("%s: got %v, want invalid_level: the curtain would be open", bad, err)
		}
	}
	if _, err := ParseLevel([]byte("2: curtain:a | a b | a b |")); err != nil {
		t.Errorf("a curtain waiting for a colour in view but not complete: %v", err)
	}
}

func TestPendingUnitRoundTrips(t *testing.T) {
	l, err := ParseLevel([]byte(`{"capacity": 2, "tubes": [["r", "!"], ["b", "?"], [], []]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Tubes[0][1], Pending; got != want {
		t.Errorf("unit \"!\": got colour %d, want Pending", got)
	}
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(js), `{"capacity":2,"tubes":[["r","!"],["b","?"],[],[]]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := l.Canonical(), "2: 1 ! | 2 ? |  | "; got != want {
		t.Errorf("Canonical: got %q, want %q", got, want)
	}
}

// sorted is a solved level of the given colours, capacity and extra empty tubes.
func sorted(colors, capacity, empties int) *Level {
	l := &Level{Capacity: capacity, Names: []string{""}}
	for c := 1; c <= colors; c++ {
		l.Names = append(l.Names, fmt.Sprintf("c%d", c))
		l.Tubes = append(l.Tubes, slices.Repeat([]Color{Color(c)}, capacity))
	}
	for range empties {
		l.Tubes = append(l.Tubes, []Color{})
	}
	return l
}

// TestLimits checks the combined limits at their edges: the capacity a level may have
// shrinks as its colours need more bits a unit.
func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		colors, capacity, empties int
		ok                        bool
	}{
		{31, 12, 2, true}, {32, 12, 2, false}, {32, 10, 2, true}, {63, 10, 2, true}, {63, 11, 2, false},
		{64, 9, 64, true}, {64, 10, 2, false}, {127, 9, 2, true}, {128, 9, 2, false}, {128, 8, 2, true},
		{253, 8, 1, true}, {254, 8, 0, false}, {7, 13, 2, false}, {200, 4, 55, true}, {200, 4, 56, false},
	} {
		t.Run(fmt.Sprintf("%dx%d+%d", tc.colors, tc.capacity, tc.empties), func(t *testing.T) {
			err := sorted(tc.colors, tc.capacity, tc.empties).Validate()
			if (err == nil) != tc.ok {
				t.Fatalf("got %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), limitsText) {
				t.Fatalf("the message %q does not state the limits", err)
			}
		})
	}
}
