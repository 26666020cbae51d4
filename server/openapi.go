package server

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openapiYAML describes every route (OpenAPI 3); openapi_test.go checks real answers against it.
//
//go:embed openapi.yaml
var openapiYAML []byte

func (s *Server) openapi(c *gin.Context) {
	c.Data(http.StatusOK, "application/yaml", openapiYAML)
}
