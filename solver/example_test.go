package solver_test

import (
	"context"
	"fmt"

	"github.com/decant/decant/solver"
)

// Solve finds the shortest plan and says whether it is proven optimal.
func Example() {
	level, err := solver.ParseCompact("3: red blue red | blue red blue | |")
	if err != nil {
		panic(err)
	}
	plan, stats, err := solver.Solve(context.Background(), level, solver.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(plan.Format(level))
	fmt.Println("lower bound:", stats.LowerBound)
	// Output:
	// solved: an optimal plan of 5 pours
	//   1. 2 → 3  (1 × blue)
	//   2. 1 → 2  (1 × red)
	//   3. 1 → 3  (1 × blue)
	//   4. 2 → 1  (2 × red)
	//   5. 2 → 3  (1 × blue)
	// lower bound: 4
}

// A position with no way out is proven lost, not merely given up on.
func ExampleSolve_unsolvable() {
	level, _ := solver.ParseCompact("3: blue red green | green red blue | green red blue | ")
	plan, _, _ := solver.Solve(context.Background(), level, solver.Options{})
	fmt.Print(plan.Format(level))
	// Output:
	// unsolvable: every reachable position was searched and none is solved
}
