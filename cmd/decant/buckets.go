//go:build !novision && !nobuckets

package main

import (
	"context"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/fileblob"  // file://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
)

// openBucket opens a bucket URL with the drivers linked above.
func openBucket(ctx context.Context, url string) (*blob.Bucket, error) {
	return blob.OpenBucket(ctx, url)
}
