// Package render draws water-sort levels as screenshots with their exact ground truth, in pure
// Go (no cgo, no OpenCV), for fixtures, demos and for measuring a reader.
//
// Render draws a level in one of four fixed Themes and GIF animates a plan. Random draws a
// puzzle screenshot from a domain-randomised distribution (its level dealt from the seed),
// RandomLevel draws a given level from the same distribution, and NonPuzzle draws a screen
// with no level on it. The distribution is a set of named factors (Factors, NonPuzzleFactors),
// each a list of values with weights; every Scene records the value drawn for each factor so
// that a reader's accuracy can be broken down by factor. The same seed always gives the same
// scene.
//
// A scene's Truth is in the coordinates of the upright image a reader reconstructs (a photo's
// JPEG may carry an EXIF orientation that must be applied): the level in reading order (rows
// top to bottom, left to right), each tube's box and, bottom first, its units' boxes. Hidden
// units follow the solver's model (solver.Hidden; a tube's top unit is always shown, and a
// colour with no unit in view is not named), as do covered tubes (Level.Curtains, no units).
// Every puzzle scene stays readable by eye: cavities at least minTubeWidth pixels wide (before
// a photo shrinks the screen), units at least minUnitH pixels high, liquids
// at least nearLo (CIEDE2000) apart and from the glass and the background, and usually much
// further apart.
package render
