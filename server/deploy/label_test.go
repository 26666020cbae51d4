// Package deploy checks the Kubernetes manifests in k8s/ by strict decoding into the
// Kubernetes API types: a misspelt or misplaced field fails the test.
package deploy

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func TestLabelJob(t *testing.T) {
	data, err := os.ReadFile("k8s/label-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(data, &job); err != nil {
		t.Fatalf("label-job.yaml: %v", err)
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Name == "" {
		t.Errorf("%s %s %q", job.APIVersion, job.Kind, job.Name)
	}
	spec := job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("not an Indexed Job")
	}
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Parallelism > *spec.Completions {
		t.Fatal("completions and parallelism must be set, parallelism ≤ completions")
	}
	pod := spec.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever && pod.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("restartPolicy %q", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	// decant label BUCKET --out BUCKET --shard $(JOB_COMPLETION_INDEX)/N, N = completions.
	if len(c.Args) < 1 || c.Args[0] != "label" || len(c.Command) != 0 {
		t.Fatalf("args %q: want the image's entry point (decant) with label", c.Args)
	}
	i := slices.Index(c.Args, "--shard")
	if i < 0 || i+1 >= len(c.Args) {
		t.Fatalf("no --shard in %q", c.Args)
	}
	m := regexp.MustCompile(`^\$\(JOB_COMPLETION_INDEX\)/(\d+)$`).FindStringSubmatch(c.Args[i+1])
	if m == nil || m[1] != strconv.Itoa(int(*spec.Completions)) {
		t.Errorf("--shard %q: want $(JOB_COMPLETION_INDEX)/%d", c.Args[i+1], *spec.Completions)
	}
	if o := slices.Index(c.Args, "--out"); o < 0 || !regexp.MustCompile(`^(s3|gs|azblob)://`).MatchString(c.Args[o+1]) {
		t.Errorf("--out must be a bucket URL: %q", c.Args)
	}
	if !regexp.MustCompile(`^(s3|gs|azblob)://`).MatchString(c.Args[1]) {
		t.Errorf("input %q is not a bucket URL", c.Args[1])
	}
	// The index is declared for $(...) expansion, credentials come from a Secret.
	declared := false
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			declared = true
		}
	}
	if !declared {
		t.Error("JOB_COMPLETION_INDEX is not declared from the completion-index annotation")
	}
	secret := false
	for _, e := range c.EnvFrom {
		secret = secret || e.SecretRef != nil && e.SecretRef.Name != ""
	}
	if !secret {
		t.Error("no bucket credentials from a Secret")
	}
	if c.Resources.Limits.Memory().IsZero() || c.Resources.Requests.Cpu().IsZero() {
		t.Error("memory limit and CPU request must be set")
	}
	// --workers matches the CPU the pod gets.
	if w := slices.Index(c.Args, "--workers"); w >= 0 && c.Args[w+1] != c.Resources.Requests.Cpu().String() {
		t.Errorf("--workers %s with %s CPUs requested", c.Args[w+1], c.Resources.Requests.Cpu())
	}
}
