package gen

import (
	"fmt"
	"testing"
)

// Deal and Scramble name levels by their seeds in tests and tables across the project: the
// same arguments must give the same valid level, and different seeds different ones.
func TestSeededLevels(t *testing.T) {
	for _, tc := range []struct{ colors, capacity, empties int }{{3, 3, 1}, {12, 4, 2}, {40, 4, 2}, {100, 9, 3}} {
		t.Run(fmt.Sprintf("%dx%d+%d", tc.colors, tc.capacity, tc.empties), func(t *testing.T) {
			a := Deal(7, tc.colors, tc.capacity, tc.empties)
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
			if got, want := len(a.Tubes), tc.colors+tc.empties; got != want {
				t.Fatalf("got %d tubes, want %d", got, want)
			}
			if b := Deal(7, tc.colors, tc.capacity, tc.empties); b.Compact() != a.Compact() {
				t.Fatalf("same seed, different levels:\n%s\n%s", a, b)
			}
			if c := Deal(8, tc.colors, tc.capacity, tc.empties); c.Compact() == a.Compact() {
				t.Fatalf("seeds 7 and 8 give the same level %s", a)
			}
			m := Scramble(a, 3, 10)
			if err := m.Validate(); err != nil {
				t.Fatalf("scrambled: %v", err)
			}
			if again := Scramble(a, 3, 10); again.Compact() != m.Compact() {
				t.Fatalf("same seed, different scrambles")
			}
			if m.Compact() == a.Compact() && len(a.Moves()) > 0 {
				t.Fatalf("10 pours left the level unchanged")
			}
		})
	}
}
