// Package labels batch-reads screenshots into JSON lines of levels: one line per input path,
// written as each image finishes, so that a run can be killed at any moment and resumed.
//
// Inputs are files, folders (walked recursively in lexical order, symbolic links followed
// but never round a loop) and bucket URLs opened through gocloud.dev/blob; which image
// format a file holds is decided by its bytes. The listing is streamed: memory holds the
// images in flight, the set of paths already labelled and a bounded cache of recent readings
// (two paths with the same bytes share one reading), never all results. The screenshot reader
// and the solver are behind small interfaces (Reader, Solver), so the engine is tested
// without OpenCV. Lines can be split by shard (a hash of the path relative to its input
// root), merged, exported as COCO and laid out as an HTML review sheet.
package labels
