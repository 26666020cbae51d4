package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// statusOf is the one table from application error codes to HTTP statuses.
var statusOf = map[solver.Code]int{
	solver.CodeInvalidLevel:    http.StatusUnprocessableEntity,
	solver.CodeHiddenUnits:     http.StatusUnprocessableEntity,
	solver.CodeInvalidPlan:     http.StatusUnprocessableEntity,
	solver.CodeUnreadableImage: http.StatusUnsupportedMediaType,
	solver.CodeImageTooLarge:   http.StatusRequestEntityTooLarge,
	solver.CodeImageTooSmall:   http.StatusUnprocessableEntity,
	solver.CodeNoPuzzle:        http.StatusUnprocessableEntity,
	solver.CodeLowConfidence:   http.StatusUnprocessableEntity,
	solver.CodeUnsolvable:      http.StatusUnprocessableEntity,
	solver.CodeBudgetExhausted: http.StatusServiceUnavailable,
	solver.CodeInvalidArgument: http.StatusBadRequest,
	solver.CodeNotFound:        http.StatusNotFound,
	solver.CodeInternal:        http.StatusInternalServerError,
}

// fail writes {"error": {"code", "message"}}. Unknown errors are logged and shown as internal,
// without their text.
func (s *server) fail(c *gin.Context, err error) {
	code := solver.ErrorCode(err)
	if code == solver.CodeInternal {
		s.cfg.Logger.Error("internal error", "path", c.Request.URL.Path, "err", err)
	}
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	c.AbortWithStatusJSON(status, gin.H{"error": gin.H{"code": code, "message": solver.ErrorMessage(err)}})
}
