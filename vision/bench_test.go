package vision

import (
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/decant/decant/solver"
)

// Benchmarks of the screenshot pipeline on the 1080×2400 seed-98 fixture, with decoding alone
// as the baseline measured in the same run:
//
//	go test ./vision -run '^$' -bench . -cpu 1 -benchtime 30x

func benchFixture(b *testing.B) []byte {
	data, err := os.ReadFile("../testdata/seed-98.png")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkDecode is the baseline: OpenCV decoding the PNG, nothing else.
func BenchmarkDecode(b *testing.B) {
	data := benchFixture(b)
	b.ReportAllocs()
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
	data := benchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPlan reads the fixture and solves it, for the annotation benchmarks.
func benchPlan(b *testing.B) ([]byte, *Reading, solver.Plan) {
	data := benchFixture(b)
	r, err := Read(data)
	if err != nil {
		b.Fatal(err)
	}
	plan, _, err := solver.Solve(b.Context(), r.Level, solver.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return data, r, plan
}

// BenchmarkAnnotate draws the seed-98 plan, PNG encoding included.
func BenchmarkAnnotate(b *testing.B) {
	data, r, plan := benchPlan(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Annotate(data, r, plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnnotateDraw is Annotate without the PNG encoding: copying the pixels and drawing.
func BenchmarkAnnotateDraw(b *testing.B) {
	data, r, plan := benchPlan(b)
	for b.Loop() {
		m, err := annotated(data, r, plan)
		if err != nil {
			b.Fatal(err)
		}
		m.Close()
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
