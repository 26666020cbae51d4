package server

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

//go:embed page.html
var pageHTML []byte

func (s *server) page(c *gin.Context) {
	c.Data(http.StatusOK, "text/html; charset=utf-8", pageHTML)
}
