//go:build !novision && nobuckets

package main

import (
	"context"

	"github.com/decant/decant/solver"
	"gocloud.dev/blob"
)

// openBucket in a build without the bucket drivers (decant-vision) names the build that has
// them: decant hands label commands with a bucket URL to decant-label.
func openBucket(ctx context.Context, url string) (*blob.Bucket, error) {
	return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: this build has no bucket drivers; decant hands bucket URLs to %s, installed beside it", url, labelBinary)
}
