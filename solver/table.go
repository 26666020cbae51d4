package solver

import (
	"bytes"
	"hash/maphash"
)

// stateTable holds the keys of the search's stored states, side by side in pages of fixed-size
// keys (state id i at offset i*keyBytes), and an open-addressing index from a key to its id.
// The index compares full keys; the hash only picks where to look. Nothing in it holds a
// pointer per state, so a state costs its key and a few bytes of index, and the garbage
// collector has nothing to scan (a map of strings cost about 3× the memory).
type stateTable struct {
	keyBytes int
	pages    [][]byte // each holds pageStates keys
	n        int      // states stored
	slots    []int32  // id+1 of the state hashed there, 0 when free
	seed     maphash.Seed
}

// pageStates is the number of keys a page holds; the first page starts with firstPageStates.
const (
	pageStates      = 4096
	firstPageStates = 64
)

func newStateTable(keyBytes int) *stateTable {
	return &stateTable{keyBytes: keyBytes, slots: make([]int32, 1024), seed: maphash.MakeSeed()}
}

// key returns the key of state id.
func (t *stateTable) key(id int32) []byte {
	page, at := int(id)/pageStates, int(id)%pageStates*t.keyBytes
	return t.pages[page][at : at+t.keyBytes]
}

// find returns the id of the state with key k, or -1 and the slot where it would go.
func (t *stateTable) find(k []byte) (id int32, slot int) {
	mask := len(t.slots) - 1
	for i := int(maphash.Bytes(t.seed, k)) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return -1, i
		}
		if bytes.Equal(t.key(s-1), k) {
			return s - 1, i
		}
	}
}

// insert stores key k, which find reported missing at slot, and returns its id.
func (t *stateTable) insert(k []byte, slot int) int32 {
	id := int32(t.n)
	page, end := t.n/pageStates, (t.n%pageStates+1)*t.keyBytes
	if page == len(t.pages) {
		size := pageStates
		if page == 0 {
			size = firstPageStates // small searches (and the drain searches' tables) stay small
		}
		t.pages = append(t.pages, make([]byte, size*t.keyBytes))
	}
	if p := t.pages[page]; end > len(p) {
		// Only the first page grows, by doubling up to a full page.
		t.pages[page] = append(p, make([]byte, min(len(p), pageStates*t.keyBytes-len(p)))...)
	}
	copy(t.key(id), k)
	t.n++
	t.slots[slot] = id + 1
	if 2*t.n > len(t.slots) {
		t.grow()
	}
	return id
}

// reset empties the table and keeps its memory for the keys stored next: emptying it leaves
// no garbage.
func (t *stateTable) reset() {
	if t.n > 0 {
		t.n = 0
		clear(t.slots)
	}
}

// grow doubles the index, keeping it at most half full.
func (t *stateTable) grow() {
	slots := make([]int32, 2*len(t.slots))
	mask := len(slots) - 1
	for id := range int32(t.n) {
		i := int(maphash.Bytes(t.seed, t.key(id))) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = id + 1
	}
	t.slots = slots
}
