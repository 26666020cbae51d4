package solver

import (
	"math/rand/v2"
	"testing"
)

// TestStateTable checks the state table against a map: keys that differ in one byte, enough of
// them to fill several pages and grow the index, each found with the id it was given.
func TestStateTable(t *testing.T) {
	for _, keyBytes := range []int{1, 7, 73} {
		r := rand.New(rand.NewPCG(uint64(keyBytes), 5))
		tab := newStateTable(keyBytes)
		want := map[string]int32{}
		base := make([]byte, keyBytes)
		for range 3 * pageStates {
			k := append([]byte(nil), base...)
			k[r.IntN(keyBytes)] = byte(r.IntN(256))
			id, slot := tab.find(k)
			got, ok := want[string(k)]
			switch {
			case ok && id != got:
				t.Fatalf("key %x: found id %d, want %d", k, id, got)
			case !ok && id >= 0:
				t.Fatalf("key %x: found id %d, want none", k, id)
			case !ok:
				want[string(k)] = tab.insert(k, slot)
			}
		}
		for k, id := range want {
			if got, _ := tab.find([]byte(k)); got != id || string(tab.key(id)) != k {
				t.Fatalf("key %x: found id %d holding %x, want %d", k, got, tab.key(id), id)
			}
		}
		if tab.n != len(want) {
			t.Errorf("%d states stored, want %d", tab.n, len(want))
		}
		// Emptied, the table finds none of its keys and stores them again from id 0 in
		// the pages it has.
		pages := len(tab.pages)
		tab.reset()
		var next int32
		for k := range want {
			id, slot := tab.find([]byte(k))
			if id >= 0 {
				t.Fatalf("key %x found as id %d after reset", k, id)
			}
			if got := tab.insert([]byte(k), slot); got != next {
				t.Fatalf("key %x stored as id %d after reset, want %d", k, got, next)
			}
			if got, _ := tab.find([]byte(k)); got != next || string(tab.key(next)) != k {
				t.Fatalf("key %x: found id %d holding %x, want %d", k, got, tab.key(next), next)
			}
			next++
		}
		if len(tab.pages) != pages {
			t.Errorf("%d pages after storing the keys again, want %d", len(tab.pages), pages)
		}
	}
}
