package vision

import (
	"context"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
)

// Benchmarks of the screenshot pipeline on the 1080×2400 seed-98 fixture, with decoding alone
// as the baseline measured in the same run (decode and annotate also report the thread's CPU
// time, cpu-ms/op, steadier than wall time on a shared machine):
//
//	go test ./vision -run '^$' -bench . -cpu 1 -benchtime 30x

// seed98PNG is the committed 1080×2400 screenshot of level 98.
func seed98PNG(tb testing.TB) []byte {
	data, err := os.ReadFile("../testdata/seed-98.png")
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// solvedSeed98 reads the level-98 screenshot and solves it.
func solvedSeed98(tb testing.TB) ([]byte, *Reading, solver.Plan) {
	data := seed98PNG(tb)
	r, err := Read(data)
	if err != nil {
		tb.Fatal(err)
	}
	plan, _, err := solver.Solve(context.Background(), r.Level, solver.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return data, r, plan
}

// BenchmarkDecode is the baseline: OpenCV decoding the PNG, nothing else.
func BenchmarkDecode(b *testing.B) {
	data := seed98PNG(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		m, err := gocv.IMDecode(data, gocv.IMReadColor)
		if err != nil || m.Empty() {
			b.Fatal(err)
		}
		m.Close()
	}
}

// BenchmarkRead is a whole read, decoding included.
func BenchmarkRead(b *testing.B) {
	data := seed98PNG(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnnotate draws the seed-98 plan, PNG encoding included.
func BenchmarkAnnotate(b *testing.B) {
	_, r, plan := solvedSeed98(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Annotate(r, plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnnotateDraw is Annotate without the PNG encoding: copying the pixels and drawing.
func BenchmarkAnnotateDraw(b *testing.B) {
	_, r, plan := solvedSeed98(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := r.annotated(plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadReal reads every real screenshot in ../shared once per iteration.
func BenchmarkReadReal(b *testing.B) {
	truth := loadTruth(b)
	var images [][]byte
	for name := range truth {
		data, err := os.ReadFile(shared + "/" + name)
		if err != nil {
			b.Fatal(err)
		}
		images = append(images, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range images {
			Read(data)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(images)), "ms/image")
}
