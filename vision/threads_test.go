package vision

import "testing"

func TestSetThreads(t *testing.T) {
	def := Threads()
	t.Cleanup(func() { SetThreads(0) })
	SetThreads(1)
	if got := Threads(); got != 1 {
		t.Errorf("after SetThreads(1): %d threads, want 1", got)
	}
	SetThreads(0)
	if got := Threads(); got != def {
		t.Errorf("after SetThreads(0): %d threads, want the default %d", got, def)
	}
}
