package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/decant/decant/server"
)

// chromium finds Debian's headless browser; .ci/run installs it.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium on the CI machine: .ci/run should have installed it")
	}
	t.Skip("no Chromium installed (apt-get install chromium)")
	return ""
}

// TestUploadPage drives the upload page in headless Chromium against the real server and
// screenshot reader: upload the bundled level-98 screenshot, see the plan and the annotated
// image.
func TestUploadPage(t *testing.T) {
	exe := chromium(t)
	srv := httptest.NewServer(server.New(server.Config{Reader: visionReader{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()
	shot, err := filepath.Abs("../../testdata/seed-98.png")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	err = chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.SetUploadFiles("#image", []string{shot}),
		chromedp.Click("button[type=submit]"),
		chromedp.WaitVisible(`#annotated[src^="data:image/png"]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text("#status"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := chromedp.Run(ctx, chromedp.AttributeValue("#annotated", "src"))
	if err != nil {
		t.Fatal(err)
	}
	src := img.Value
	moves, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#moves li').length`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status, "Shortest plan: 40 pours") || moves != 40 || len(src) < 10_000 {
		t.Fatalf("status %q, %d moves listed, image data %d bytes", status, moves, len(src))
	}
}
