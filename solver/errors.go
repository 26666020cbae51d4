package solver

import (
	"errors"
	"fmt"
)

// Code classifies an application error. Every layer (solver, vision, CLI, server) reports
// failures with one of these codes so that callers can map them to exit statuses and HTTP
// statuses in one place.
type Code string

// The error vocabulary shared by the whole project.
const (
	CodeInvalidLevel    Code = "invalid_level"    // a level document or text that breaks the rules
	CodeHiddenUnits     Code = "hidden_units"     // a level with "?" units the solver cannot plan for
	CodeInvalidPlan     Code = "invalid_plan"     // a plan that does not replay on its level
	CodeUnreadableImage Code = "unreadable_image" // bytes that are not a decodable image
	CodeImageTooLarge   Code = "image_too_large"  // an image over the pixel or byte limit
	CodeImageTooSmall   Code = "image_too_small"  // an image too small to hold a level
	CodeNoPuzzle        Code = "no_puzzle"        // an image without a water-sort level on it
	CodeLowConfidence   Code = "low_confidence"   // a reading that breaks the level's counting rules
	CodeUnsolvable      Code = "unsolvable"       // proven: no sequence of pours solves the level
	CodeBudgetExhausted Code = "budget_exhausted" // the search stopped on a budget; nothing proven
	CodeInvalidArgument Code = "invalid_argument" // a bad option or request parameter
	CodeNotFound        Code = "not_found"        // a file or resource that does not exist
	CodeInternal        Code = "internal"         // anything else: a bug

	// Codes of the HTTP service's own refusals.
	CodeOverloaded       Code = "overloaded"         // the service is too busy or stopping: try again later
	CodeUnauthorized     Code = "unauthorized"       // a missing or wrong bearer token
	CodeMethodNotAllowed Code = "method_not_allowed" // a route that exists, asked with the wrong method
	CodeSlowUpload       Code = "slow_upload"        // an upload that arrived slower than the service accepts
)

// Codes returns the whole vocabulary, in the order above.
func Codes() []Code {
	return []Code{CodeInvalidLevel, CodeHiddenUnits, CodeInvalidPlan, CodeUnreadableImage,
		CodeImageTooLarge, CodeImageTooSmall, CodeNoPuzzle, CodeLowConfidence, CodeUnsolvable,
		CodeBudgetExhausted, CodeInvalidArgument, CodeNotFound, CodeInternal, CodeOverloaded,
		CodeUnauthorized, CodeMethodNotAllowed, CodeSlowUpload}
}

// Error is an application error: a code from the vocabulary and a message that names the
// offending tube, colour or count.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, CodeInternal for any other
// non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the message of the first *Error in err's chain. Other errors are
// internal and their text is not meant for users, so it returns "internal error".
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
