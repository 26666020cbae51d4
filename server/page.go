package server

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// staticFiles are the phone page (static/index.html, served at /) and its scripts, styles and
// images, served under /static/.
//
//go:embed all:static
var staticFiles embed.FS

// pageHTML is the phone page.
var pageHTML = must(staticFiles.ReadFile("static/index.html"))

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err) // the page is embedded at build time: missing, the build is broken
	}
	return data
}

func (s *Server) page(c *gin.Context) {
	c.Header("Cache-Control", "no-cache")
	c.Data(http.StatusOK, "text/html; charset=utf-8", pageHTML)
}

// static serves a file from static/ (not directories, not dotfiles), with an ETag so a phone
// revalidates instead of downloading again.
func (s *Server) static(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("file"), "/")
	if name == "" || strings.HasPrefix(path.Base(name), ".") || !fs.ValidPath(name) {
		s.fail(c, solver.Errorf(solver.CodeNotFound, "no static file %q", name))
		return
	}
	data, err := staticFiles.ReadFile("static/" + name)
	if err != nil {
		s.fail(c, solver.Errorf(solver.CodeNotFound, "no static file %q", name))
		return
	}
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	c.Header("ETag", etag)
	c.Header("Cache-Control", "no-cache")
	if c.GetHeader("If-None-Match") == etag {
		c.Status(http.StatusNotModified)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	c.Data(http.StatusOK, ctype, data)
}

// inlineBlock matches the page's inline <script> and <style> elements (not ones with src).
var inlineBlock = regexp.MustCompile(`(?is)<(script|style)>(.*?)</(?:script|style)>`)

// contentSecurityPolicy allows scripts, styles, connections and images from the server only
// (images also from data: and blob: URLs, which the page makes from answers and uploads).
// Inline scripts and styles still in the page are allowed by their hashes, no others: the
// policy never says 'unsafe-inline'.
func contentSecurityPolicy(page []byte) string {
	var scripts, styles []string
	for _, m := range inlineBlock.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[2])
		hash := " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if strings.EqualFold(string(m[1]), "script") {
			scripts = append(scripts, hash)
		} else {
			styles = append(styles, hash)
		}
	}
	return "default-src 'none'; script-src 'self'" + strings.Join(scripts, "") +
		"; style-src 'self'" + strings.Join(styles, "") +
		"; img-src 'self' data: blob:; connect-src 'self'; manifest-src 'self'" +
		"; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
