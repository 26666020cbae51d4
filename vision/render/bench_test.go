package render

import "testing"

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
