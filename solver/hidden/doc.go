// Package hidden plans water-sort levels whose units are partly hidden ("?") or whose tubes are
// covered by curtains: the "mystery" levels where players get stuck, and where no plan can be
// complete, since what a pour reveals decides what to pour next.
//
// # Rules (in the terms of design/DOMAIN.md)
//
//   - A hidden unit shows its colour once it is the top unit of its tube, that is once every
//     unit above it has been poured away. A tube's top unit is never hidden: a level whose
//     top unit is "?" or "!" must first have that colour written in.
//   - A pour moves the visible top run only: a hidden unit of the run's colour directly below
//     it stays where it is until it is revealed (the default, Rules.Carry false). Some games
//     move it along with the run; Rules.Carry models them. Either way the pour that empties a
//     tube down to a hidden unit is the pour that reveals it.
//   - Counts are known: each colour has exactly Capacity units, so the multiset of hidden
//     colours is what the visible units leave over, including whole colours with no visible
//     unit at all (anonymous colours, interchangeable until one of their units shows).
//   - A covered tube (curtain) cannot be poured into or from until the colour it names is
//     complete (a tube full of it); then it opens and all its units show (which may complete
//     the colour another curtain names: that one opens too). How many units it holds is
//     unknown: the planner assumes the fewest anonymous colours the hidden units
//     need, and lets the curtains hold what the counts leave over, at most Capacity each.
//
// # Answers
//
// Plan returns the pours to play now, up to and including the pour that reveals something (a
// hidden unit, or a curtain's contents), the estimated probability of finishing the level
// from there (PSuccess, from PSamples sampled completions of the hidden units, corrected for
// the searches' sight of every hidden unit by a calibration fitted on simulated games) and
// the expected number of pours. Its status is solver.StatusPartial; solver.StatusSolved (a whole
// plan) only when nothing is hidden and the exact search proved it; solver.StatusUnsolvable
// only when it is proven for every completion (no pour is legal, or nothing is hidden and the
// exact search proved it, or no pour can ever reveal anything and no position reachable can
// be solved whatever is hidden); a budget answers solver.StatusUnknown. Where the pours stop
// pointing anywhere — no sampled completion finishes after any of them, or every one leads
// back to a position of the segment — the segment plays the fewest pours that reveal
// something (solver.StatusUnknown when no completion finishes: PSuccess 0, a guess, not a
// plan), or, where nothing can be revealed, none (stuck). Next is the position after the
// pours with the revealed unit written solver.Pending ("!"): writing the colour that appeared
// in its place and planning again gives the next segment — the loop is stateless.
//
// # Methods
//
//   - Determinised (PIMC, the baseline): sample completions consistent with the counts; score
//     every legal pour by the exact A* (package solver) on each completion after it; play the
//     pour that finishes the most completions, then the fewest pours.
//   - Lookahead: the determinised scores, then for the best two pours an expectimax over the
//     colour the pour reveals — for each possible colour, with its probability from the
//     counts, fresh completions conditioned on it choose the next pour without seeing the
//     rest. This removes the determinised search's assumption that everything is known after
//     the next pour, for one step.
//   - Endgame: the determinised choice, ties (within one sample) going to the
//     pour that buries the fewest hidden units under it, until few units are hidden
//     (DefaultEndgameHidden) — on small levels from the start — then the exact expectimax
//     below over every reveal to come, ties going to the determinised order; over its budget
//     (DefaultEndgameBeliefs) it keeps the determinised choice.
//   - ISMCTS (information-set Monte Carlo tree search; the default): the determinised scores, then among the
//     best six pours that finish some completion a tree search whose nodes are the player's
//     information states — the position as it shows, what is hidden unknown — and whose
//     branches after a pour are what it reveals. Each iteration draws a completion, descends
//     by UCB1 among the pours legal in each information state (a pour not yet tried valued at
//     the node's mean), adds the first information state not in the tree and scores it by the
//     exact search on that completion. A pour's value is so that of the choices a player could
//     make after it without seeing what is hidden, for as deep as the tree reaches, where the
//     determinised search lets every completion choose its own; below the tree (3–6 pours
//     deep on the 8–12-colour mystery levels, since nearly every pour there reveals a unit
//     and splits its node's visits over the colours it may show) the exact search still
//     sees everything. The pour visited most is played, with its determinised score — or,
//     among the pours visited at least 90% as often (ismctsMargin), the one whose finishing
//     iterations took the fewest pours on average: the tree rates them alike, and the
//     shorter way is worth taking. Its tree takes at most ismctsShare of the work the call
//     has left, and its call's budget is larger (DefaultISMCTSWork). Where Endgame turns to
//     the exact expectimax (few units hidden, or a small level), ISMCTS does too.
//   - Exact (small levels only): an AND-OR expectimax over every reveal, giving the best
//     achievable probability of finishing a mystery level — the ceiling the others are
//     measured against (Ceiling). Beliefs are memoised up to a renaming of the colours.
//
// Every method's work a decision is bounded in counts, so that answers stay seeded:
// each search on a completion by MaxStates, each pour's searches by MaxDecisionStates, the
// expectimax by MaxBeliefs (Endgame's by EndgameBeliefs), and the whole call — every pour of
// the segment, Lookahead's refinement, ISMCTS's tree and Endgame's expectimax together — by
// MaxDecisionWork, counted in units of about one stored state (a search on a completion
// counts its states and a fixed cost, a belief of the expectimax a fixed cost, a node of the
// tree its candidate pours). Once that is spent, no new
// round of completions is scored (a round cut short counts for nothing), Lookahead, ISMCTS
// and Endgame keep the determinised choice, and the segment plays on by the exact plan of one
// completion that finishes, up to the pour that reveals something. On a loaded machine the
// same work takes longer, so a call also stops so once it has run MaxDecisionTime on the
// clock (DefaultMaxDecisionTime), ISMCTS's tree taking its share of the time left as it
// does of the work; such an answer says so (Answer.TimeCut) and depends on the machine.
//
// Game holds a level with its hidden truth and plays pours under the rules; the simulator in
// the tests plays generated levels against their truth with each method. Oracle is the
// yardstick for their pours: the exact optimum of a player who sees every hidden colour but
// plays under the same rules (a face-down unit stays until it is its tube's top, a curtain
// stays shut until its colour is complete), where package solver's optimum on the full level
// moves face-down units along with their run and ignores curtains.
package hidden
