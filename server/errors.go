package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/decant/decant/solver"
)

// statusOf is the one table from application error codes to HTTP statuses.
var statusOf = map[solver.Code]int{
	solver.CodeInvalidLevel:     http.StatusUnprocessableEntity,
	solver.CodeHiddenUnits:      http.StatusUnprocessableEntity,
	solver.CodeInvalidPlan:      http.StatusUnprocessableEntity,
	solver.CodeUnreadableImage:  http.StatusUnsupportedMediaType,
	solver.CodeImageTooLarge:    http.StatusRequestEntityTooLarge,
	solver.CodeImageTooSmall:    http.StatusUnprocessableEntity,
	solver.CodeNoPuzzle:         http.StatusUnprocessableEntity,
	solver.CodeLowConfidence:    http.StatusUnprocessableEntity,
	solver.CodeUnsolvable:       http.StatusUnprocessableEntity,
	solver.CodeBudgetExhausted:  http.StatusServiceUnavailable,
	solver.CodeInvalidArgument:  http.StatusBadRequest,
	solver.CodeNotFound:         http.StatusNotFound,
	solver.CodeInternal:         http.StatusInternalServerError,
	solver.CodeOverloaded:       http.StatusServiceUnavailable, // 429 for a full queue
	solver.CodeUnauthorized:     http.StatusUnauthorized,
	solver.CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	solver.CodeSlowUpload:       http.StatusRequestTimeout,
}

// httpError is an error whose status is not the code's usual one (429 for a full queue), or
// that carries Retry-After.
type httpError struct {
	status     int
	code       solver.Code
	msg        string
	retryAfter int    // seconds; 0: no header
	reason     string // for decant_refused_total; "" for other errors
}

func (e *httpError) Error() string { return e.msg }

// overloaded is the answer to work the server cannot take now.
func overloaded(status, retryAfter int, reason, msg string) *httpError {
	return &httpError{status: status, code: solver.CodeOverloaded, msg: msg, retryAfter: retryAfter, reason: reason}
}

// fail writes {"error": {"code", "message"}}. Unknown errors are logged and shown as internal,
// without their text.
func (s *Server) fail(c *gin.Context, err error) {
	var he *httpError
	if errors.As(err, &he) {
		if he.retryAfter > 0 {
			c.Header("Retry-After", strconv.Itoa(he.retryAfter))
		}
		if he.reason != "" {
			s.refused.WithLabelValues(he.reason).Inc()
		}
		if he.status == http.StatusUnauthorized {
			c.Header("WWW-Authenticate", `Bearer realm="decant"`)
		}
		c.AbortWithStatusJSON(he.status, errorBody(he.code, he.msg))
		return
	}
	code := solver.ErrorCode(err)
	if code == solver.CodeInternal {
		s.cfg.Logger.Error("internal error", "path", c.Request.URL.Path, "request_id", c.GetString(requestIDKey), "err", err)
	}
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	c.AbortWithStatusJSON(status, errorBody(code, solver.ErrorMessage(err)))
}

func errorBody(code solver.Code, msg string) gin.H {
	return gin.H{"error": gin.H{"code": code, "message": msg}}
}
