// Package solver is decant's domain core: water-sort levels, the rule of a pour, and a search
// for the shortest plan. It has no cgo and prints nothing.
//
// # Levels
//
// A Level is tubes of equal capacity holding colours bottom to top. NewLevel, ParseLevel,
// ParseText, ParseCompact and the JSON level document build levels and check them with
// (*Level).Validate; BuildLevel builds without checking, for callers that report a level
// breaking the rules instead of dropping it. Validate enforces the counting rules (every
// colour has exactly Capacity units, or at most Capacity when units are hidden or covered by
// curtains) and the solver's limits: at most MaxTubes tubes and MaxColors colours, and a
// capacity of at most MaxCapacityFor(colours), since a tube is one 64-bit word with each unit
// in as many bits as the level's colour count needs.
//
// # The rule and plans
//
// A pour moves a non-empty tube's top run (its top units of one colour) onto an empty tube or
// onto a tube with the same top colour, as many units as fit. The search states this rule
// once, on packed tubes; (*Level).Moves lists legal pours with it. Replay and CheckPlan check a
// plan with a second, independent statement of the rule on the level's own slices, so a
// returned plan is verified by code the search does not share.
//
// # Verdicts
//
// Solve returns a Plan whose Status is one of:
//
//   - StatusSolved: Moves replays legally to a solved level. Optimal is true only when no
//     shorter plan exists, proven by the exact search (the default A*, or BFS); the fast mode
//     and MCTS never claim it.
//   - StatusUnsolvable: every position reachable from the level was searched (up to tube
//     order and to pruned moves that provably keep every solved position reachable) and none
//     is solved. Only a search that ran to completion says it; MCTS never does.
//   - StatusUnknown: the search stopped on a budget (Stats.Stopped says which: StopTimeout,
//     StopStates, StopMemory) before a verdict; nothing is proven. Moves may hold the best plan
//     found so far, valid but not proven shortest.
//
// Stats reports the work done: states expanded, generated and stored, the admissible lower
// bound at the start, and the time taken. Stored states, unlike times, do not depend on the
// machine, so the benchmarks gate on them.
//
// # Errors
//
// Every failure is an *Error with a Code from one vocabulary shared by the whole project (see
// errors.go), extracted with ErrorCode or errors.As. Solve's error is non-nil only for a level
// that cannot be searched: CodeInvalidLevel (breaks the rules or the limits), CodeHiddenUnits
// (hidden units or curtains still to reveal), CodeInvalidArgument (an unknown algorithm).
// Replay and CheckPlan report CodeInvalidPlan. An unsolvable level or an exhausted budget is a
// verdict, not an error.
//
// Sub-package gen makes seeded levels for tests, benchmarks and tools.
package solver
