package render

import (
	"context"
	"os"
	"testing"

	"github.com/decant/decant/solver"
)

// BenchmarkRandom draws scenes of successive seeds (the mix of sizes and factors the
// distribution gives).
func BenchmarkRandom(b *testing.B) {
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		if _, err := Random(seed); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}

// BenchmarkNonPuzzle draws non-puzzle screens of successive seeds.
func BenchmarkNonPuzzle(b *testing.B) {
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		if _, err := NonPuzzle(seed); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}

// BenchmarkGIF animates level 98's 40-pour plan at the default 360×800, as POST /api/gif does.
func BenchmarkGIF(b *testing.B) {
	l, plan := seed98Plan(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := GIF(l, plan.Moves, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func seed98Plan(tb testing.TB) (*solver.Level, solver.Plan) {
	tb.Helper()
	data, err := os.ReadFile("../../testdata/levels/seed-98.txt")
	if err != nil {
		tb.Fatal(err)
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		tb.Fatal(err)
	}
	plan, _, err := solver.Solve(context.Background(), l, solver.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return l, plan
}
