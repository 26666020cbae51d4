// Package vision reads water-sort screenshots into levels and draws plans on them.
//
// It is the only package that imports gocv; OpenCV Mats never cross its API. Read takes image
// bytes and returns a solver.Level with the geometry it was read from (tube and unit boxes in
// the original image's coordinates), a confidence and the reasons behind it. Annotate draws a
// plan on the original image. The cgo-free sub-package render draws levels as screenshots
// with exact ground truth, for fixtures, tests and demos.
//
// Nothing is tied to pixel positions or exact colours: tubes are found from their outlines and
// liquid, sizes are relative to the tubes found, and colours are compared in CIELAB with
// CIEDE2000 under the rule that every colour fills exactly one tube. OpenCV aborts the process
// on an exception, so every input is validated before it reaches OpenCV: byte and pixel limits
// are checked from the header before decoding, and every region is clipped to its image.
package vision
