package labels

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/decant/decant/solver"
)

// Shard is one of N parts of any input: the paths whose hash modulo N is Index.
type Shard struct{ Index, Count int }

// All is the shard that covers everything.
var All = Shard{0, 1}

// ParseShard reads "i/n" with 0 ≤ i < n (i is 0-based, like a Kubernetes completion index).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(i)
	b, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || b < 1 || a < 0 || a >= b {
		return Shard{}, solver.Errorf(solver.CodeInvalidArgument, "--shard %q: want i/n with 0 ≤ i < n", s)
	}
	return Shard{a, b}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has tells whether the path (relative to its input root) falls in the shard. The hash is
// FNV-1a of the path alone, so a folder and a bucket holding the same files split alike.
func (s Shard) Has(rel string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(rel))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}
