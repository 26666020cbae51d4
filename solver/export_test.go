package solver

// Internals the external tests measure.

// Estimate is the search's lower bound on the pours still needed from l.
func Estimate(l *Level) int {
	g := newGame(l)
	return g.estimate(g.codesOf(l))
}

// StateBytes is the memory one stored state of l is counted at.
func StateBytes(l *Level) int64 { return newGame(l).stateBytes() }

// DrainStats is the dead-position tests a search ran and the skeletons they stored.
func DrainStats(s Stats) (searches, skeletons int) { return s.drains, s.skeletons }

// Dead reports whether the search prunes position l as one that can never be solved: it needs
// an empty tube to be solved, has none, and the drain search proves none can appear.
func Dead(l *Level) bool {
	g := newGame(l)
	codes := g.codesOf(l)
	canon(codes)
	return g.needsEmpty && codes[0] != 0 && newDrainer(g, 1<<20).drain(codes) == drainNever
}
