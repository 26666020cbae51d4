package solver

import (
	"bytes"
	"hash/maphash"
)

// stateTable holds the keys of the search's stored states, side by side in pages of fixed-size
// keys (state id i at offset i*keyBytes), and an open-addressing index from a key to its id.
// The index compares full keys; the hash only picks where to look, and 8 more of its bits kept
// beside each slot skip the comparison with most keys that merely share a run of slots (the
// comparisons took a third of a large search's time). Nothing in it holds a pointer per state,
// so a state costs its key and a few bytes of index, and the garbage collector has nothing to
// scan (a map of strings cost about 3× the memory).
type stateTable struct {
	keyBytes int
	pages    [][]byte // each holds pageStates keys
	n        int      // states stored
	slots    []int32  // id+1 of the state hashed there, 0 when free
	tags     []uint8  // the top 8 bits of the hash of the key in each slot
	seed     maphash.Seed
}

// pageStates is the number of keys a page holds; the first page starts with firstPageStates.
const (
	pageStates      = 4096
	firstPageStates = 64
)

func newStateTable(keyBytes int) *stateTable {
	return &stateTable{keyBytes: keyBytes, slots: make([]int32, 1024), tags: make([]uint8, 1024), seed: maphash.MakeSeed()}
}

// hash returns where key k's probe starts (before masking) and its tag.
func (t *stateTable) hash(k []byte) (int, uint8) {
	h := maphash.Bytes(t.seed, k)
	return int(h), uint8(h >> 56)
}

// key returns the key of state id.
func (t *stateTable) key(id int32) []byte {
	page, at := int(id)/pageStates, int(id)%pageStates*t.keyBytes
	return t.pages[page][at : at+t.keyBytes]
}

// find returns the id of the state with key k, or -1 and the slot where it would go.
func (t *stateTable) find(k []byte) (id int32, slot int) {
	mask := len(t.slots) - 1
	h, tag := t.hash(k)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return -1, i
		}
		if t.tags[i] == tag && bytes.Equal(t.key(s-1), k) {
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
	_, t.tags[slot] = t.hash(k)
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
		clear(t.tags)
	}
}

// grow doubles the index, keeping it at most half full.
func (t *stateTable) grow() {
	slots, tags := make([]int32, 2*len(t.slots)), make([]uint8, 2*len(t.slots))
	mask := len(slots) - 1
	for id := range int32(t.n) {
		h, tag := t.hash(t.key(id))
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i], tags[i] = id+1, tag
	}
	t.slots, t.tags = slots, tags
}
