package vision

import "math"

// clusterUnits groups unit colours into the level's colours by average-linkage agglomerative
// clustering under CIEDE2000, never letting a group grow past capacity units: two
// near-identical colours (two greens) cannot merge once each has its tube's worth. With
// k > 0 it merges down to k groups; with k = 0 (hidden units make the count unknown) it merges
// while the closest pair is within maxDE. It returns each colour's group, 0..groups-1.
func clusterUnits(colors []lab, capacity, k int, maxDE float64) []int {
	n := len(colors)
	dist := make([][]float64, n)
	for i := range dist {
		dist[i] = make([]float64, n)
		for j := range i {
			dist[i][j] = deltaE(colors[i], colors[j])
			dist[j][i] = dist[i][j]
		}
	}
	groups := make([][]int, n)
	for i := range groups {
		groups[i] = []int{i}
	}
	linkage := func(a, b []int) float64 {
		s := 0.0
		for _, i := range a {
			for _, j := range b {
				s += dist[i][j]
			}
		}
		return s / float64(len(a)*len(b))
	}
	for len(groups) > max(k, 1) {
		bi, bj, bd := -1, -1, math.Inf(1)
		for i := range groups {
			for j := range i {
				if len(groups[i])+len(groups[j]) > capacity {
					continue
				}
				if d := linkage(groups[i], groups[j]); d < bd {
					bi, bj, bd = i, j, d
				}
			}
		}
		if bi < 0 || (k == 0 && bd > maxDE) {
			break
		}
		groups[bj] = append(groups[bj], groups[bi]...)
		groups = append(groups[:bi], groups[bi+1:]...)
	}
	labels := make([]int, n)
	for g, members := range groups {
		for _, i := range members {
			labels[i] = g
		}
	}
	return labels
}
