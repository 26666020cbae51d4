package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/decant/decant/solver"
)

// maxInputBytes bounds what decant reads from one file or standard input.
const maxInputBytes = 64 << 20

// readInput reads FILE, or standard input for "-", refusing anything over maxInputBytes.
func readInput(e *env, name string) ([]byte, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, solver.Errorf(solver.CodeNotFound, "%s: no such file", name)
			}
			return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", name, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, solver.Errorf(solver.CodeInvalidArgument, "%s: %v", name, err)
	}
	if len(data) > maxInputBytes {
		return nil, solver.Errorf(solver.CodeImageTooLarge, "%s is over %d MiB", name, maxInputBytes>>20)
	}
	return data, nil
}

// isImage tells image bytes (PNG, JPEG, WebP, GIF, BMP) from level text by their signature.
func isImage(data []byte) bool {
	return strings.HasPrefix(http.DetectContentType(data), "image/")
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// errorDoc is the JSON form of an error: {"error": {"code": ..., "message": ...}}.
type errorDoc struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    solver.Code `json:"code"`
	Message string      `json:"message"`
}

func newErrorDoc(err error) errorDoc {
	return errorDoc{errorBody{Code: solver.ErrorCode(err), Message: solver.ErrorMessage(err)}}
}

// asJSON prints an application error as an error document on stdout and turns it into a plain
// exit status, for commands run with --json. Usage errors pass through.
func asJSON(e *env, err error) error {
	var u *usageError
	var s exitStatus
	if err == nil || errors.As(err, &u) || errors.As(err, &s) {
		return err
	}
	if solver.ErrorCode(err) == solver.CodeInternal {
		fmt.Fprintln(e.stderr, "decant: internal error:", err)
	}
	writeJSON(e.stdout, newErrorDoc(err))
	return exitStatus(exitError)
}
