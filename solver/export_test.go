package solver

// Internals the external tests measure.

// Estimate is the search's lower bound on the pours still needed from l.
func Estimate(l *Level) int {
	g := newGame(l)
	return g.estimate(g.codesOf(l))
}

// StateBytes is the memory one stored state of l is counted at.
func StateBytes(l *Level) int64 { return newGame(l).stateBytes() }
