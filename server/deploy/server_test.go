// Package deploy checks the Kubernetes manifests in k8s/ by decoding them strictly into the
// Kubernetes API types: a misspelt or misplaced field fails here, not at kubectl apply.
package deploy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/decant/decant/server"
)

// decode reads k8s/name strictly into obj and checks its kind.
func decode(t *testing.T, name, apiVersion, kind string, obj any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("k8s", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, obj); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var meta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	yaml.Unmarshal(data, &meta)
	if meta.APIVersion != apiVersion || meta.Kind != kind {
		t.Fatalf("%s is %s %s, want %s %s", name, meta.APIVersion, meta.Kind, apiVersion, kind)
	}
}

func env(c corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func TestServerManifests(t *testing.T) {
	var dep appsv1.Deployment
	var svc corev1.Service
	var hpa autoscalingv2.HorizontalPodAutoscaler
	decode(t, "deployment.yaml", "apps/v1", "Deployment", &dep)
	decode(t, "service.yaml", "v1", "Service", &svc)
	decode(t, "hpa.yaml", "autoscaling/v2", "HorizontalPodAutoscaler", &hpa)

	pod := dep.Spec.Template
	for k, v := range dep.Spec.Selector.MatchLabels {
		if pod.Labels[k] != v {
			t.Errorf("the Deployment's selector %s=%s does not match its pods", k, v)
		}
	}
	for k, v := range svc.Spec.Selector {
		if pod.Labels[k] != v {
			t.Errorf("the Service's selector %s=%s does not match the pods", k, v)
		}
	}
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]

	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if len(c.Args) < 3 || c.Args[0] != "serve" || c.Args[2] != ":"+strconv.Itoa(int(ports["http"])) {
		t.Errorf("args %v do not serve on the http port %d", c.Args, ports["http"])
	}
	for _, p := range svc.Spec.Ports {
		if p.TargetPort.StrVal != "" && ports[p.TargetPort.StrVal] == 0 {
			t.Errorf("the Service targets port %q, which the container does not name", p.TargetPort.StrVal)
		}
	}

	probes := map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe}
	want := map[string]string{"readiness": "/readyz", "liveness": "/healthz", "startup": "/readyz"}
	for kind, p := range probes {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != want[kind] || ports[p.HTTPGet.Port.StrVal] == 0 {
			t.Errorf("%s probe: want GET %s on a named container port", kind, want[kind])
		}
	}

	// The memory limit holds the service's budget, with room for the process itself.
	budgetMiB, err := strconv.Atoi(env(c, "DECANT_MEMORY_BUDGET"))
	if err != nil {
		t.Fatalf("DECANT_MEMORY_BUDGET: %v", err)
	}
	budget := int64(budgetMiB) << 20
	// The Go heap's limit is what decant serve sets when GOMEMLIMIT is not given.
	heap := server.New(server.Config{MemoryBudget: budget}).HeapLimit()
	if got, want := env(c, "GOMEMLIMIT"), strconv.FormatInt(heap>>20, 10)+"MiB"; got != want {
		t.Errorf("GOMEMLIMIT %q, want %s, as decant serve sets it for a %d MiB budget", got, want, budgetMiB)
	}
	limit := c.Resources.Limits[corev1.ResourceMemory]
	request := c.Resources.Requests[corev1.ResourceMemory]
	if limit.Value() < budget+192<<20 {
		t.Errorf("memory limit %s leaves less than 192 MiB beyond the %d MiB budget", limit.String(), budgetMiB)
	}
	if request.Cmp(limit) != 0 {
		t.Errorf("memory request %s differs from the limit %s: the pod could be placed where the budget does not fit", request.String(), limit.String())
	}
	if c.Resources.Requests.Cpu().Cmp(resource.MustParse("1")) < 0 {
		t.Errorf("cpu request %s: reading a screenshot takes a core", c.Resources.Requests.Cpu())
	}

	// Shutdown: the pod's grace period covers the preStop pause and the server's own.
	grace := pod.Spec.TerminationGracePeriodSeconds
	serverGrace := strings.TrimSuffix(env(c, "DECANT_GRACE"), "s")
	g, err := strconv.Atoi(serverGrace)
	if err != nil || grace == nil {
		t.Fatalf("DECANT_GRACE %q and terminationGracePeriodSeconds %v must both be set", env(c, "DECANT_GRACE"), grace)
	}
	pause := int64(0)
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pause = c.Lifecycle.PreStop.Sleep.Seconds
	}
	if *grace <= int64(g)+pause {
		t.Errorf("terminationGracePeriodSeconds %d ≤ DECANT_GRACE %ds + preStop %ds: the kubelet would kill requests in flight", *grace, g, pause)
	}

	sc := pod.Spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Error("the pod may run as root")
	}

	ref := hpa.Spec.ScaleTargetRef
	if ref.Kind != "Deployment" || ref.Name != dep.Name || ref.APIVersion != "apps/v1" {
		t.Errorf("the HPA scales %s %s, not the Deployment %s", ref.Kind, ref.Name, dep.Name)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 1 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas {
		t.Errorf("replicas %v..%d", hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
}
