package solver

import (
	"context"
	"testing"
)

// FuzzParseLevel feeds the parsers arbitrary bytes. Whatever parses must be a valid level
// that survives the compact round trip, and a small one must get a verdict whose plan replays.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{
		"4\n4\n\n\ng r r b0\npo g0 br po\nbr y y g0\ng o o g0\ng y po br\nb0 po b o\nb b0 br r\nb y o b\nb0 g r g0\n",
		"3: red blue red | blue red blue | |",
		`{"capacity": 2, "tubes": [["a","b"],["b","a"],[]]}`,
		"2: r ? | b ? | |",
		"1:",
		"{",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		l, err := ParseLevel(data)
		if err != nil {
			if ErrorCode(err) == CodeInternal {
				t.Fatalf("parse error without a code: %v", err)
			}
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("parsed level fails validation: %v", err)
		}
		again, err := ParseCompact(l.Compact())
		if err != nil || again.Canonical() != l.Canonical() {
			t.Fatalf("compact round trip: %q → %v, %v", l.Compact(), again, err)
		}
		if l.HasHidden() || len(l.Tubes) > 8 || l.Colors() > 5 {
			return
		}
		plan, _, err := Solve(context.Background(), l, Options{MaxStates: 20000})
		if err != nil {
			t.Fatal(err)
		}
		if plan.Status == StatusSolved {
			if err := CheckPlan(l, plan.Moves); err != nil {
				t.Fatal(err)
			}
		}
	})
}
