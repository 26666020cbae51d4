package server

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// static holds the phone page: index.html, its script, style sheet and images.
//
//go:embed static
var static embed.FS

// pageCSP allows the page its own files only: no inline script or style. Blob and data URLs
// are images the page makes from the API's answers (the annotated PNG, the GIF).
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func (s *server) page(c *gin.Context) { s.staticFile(c, "index.html") }

func (s *server) asset(c *gin.Context) { s.staticFile(c, path.Clean(c.Param("file"))[1:]) }

func (s *server) staticFile(c *gin.Context, name string) {
	data, err := fs.ReadFile(static, path.Join("static", name))
	if err != nil || name == "" {
		s.fail(c, solver.Errorf(solver.CodeNotFound, "no file %q", name))
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	c.Header("Content-Security-Policy", pageCSP)
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, ctype, data)
}
