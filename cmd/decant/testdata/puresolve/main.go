// Command puresolve is the floor decant's start-up is measured against (startup_test.go): a
// pure-Go program that reads a level file, solves it and prints the plan, nothing more.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/decant/decant/solver"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	l, err := solver.ParseLevel(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	plan, _, err := solver.Solve(context.Background(), l, solver.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(plan.Format(l))
}
