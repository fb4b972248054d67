// The Kubernetes pool recipe (docs/runner-host.md section 10, .github/host/arc): no cluster runs here, so it is
// checked where it can be. The runner pod template and the kubelet configuration decode strictly into Kubernetes'
// own types (a misspelt or misplaced field fails), and the pieces agree with each other and with the workflow: the
// scale set carries the benchmark job's labels, the pod is Guaranteed with whole CPUs (what the static CPU manager
// needs to give it exclusive cores), and the hooks the runner's environment names are the ones mounted read-only
// from the ConfigMap.
package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	kubelet "k8s.io/kubelet/config/v1beta1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// decodeStrictly decodes YAML the way the API server and the kubelet do: field names case-sensitive, an unknown or
// duplicated field an error.
func decodeStrictly(data []byte, into any) error {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	strict, err := kjson.UnmarshalStrict(js, into)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return strict[0]
	}
	return nil
}

// The top-level values of actions-runner-controller's gha-runner-scale-set chart this recipe uses (read from the
// chart's values.yaml, 0.14.2; scaleSetLabels exists since 0.14.0).
var scaleSetChartValues = map[string]bool{"githubConfigUrl": true, "githubConfigSecret": true,
	"runnerScaleSetName": true, "scaleSetLabels": true, "runnerGroup": true, "minRunners": true, "maxRunners": true,
	"template": true}

func TestTheKubernetesPoolRecipeHoldsTogether(t *testing.T) {
	dir := filepath.Join(root, ".github/host/arc")
	data, err := os.ReadFile(filepath.Join(dir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(data, &values); err != nil {
		t.Fatal(err)
	}
	for key := range values {
		if !scaleSetChartValues[key] {
			t.Errorf("values.yaml sets %q, which the recipe's chart values do not include", key)
		}
	}
	var labels []string
	for _, l := range values["scaleSetLabels"].([]any) {
		labels = append(labels, l.(string))
	}
	var runsOn []string
	for _, l := range loadWorkflows(t)["benchmark.yml"].Jobs["benchmark"].RunsOn.([]any) {
		runsOn = append(runsOn, l.(string))
	}
	if strings.Join(labels, ",") != strings.Join(runsOn, ",") {
		t.Errorf("the scale set's labels %v are not the benchmark job's runs-on %v", labels, runsOn)
	}
	if values["runnerScaleSetName"] != manifest(t)["sharding"].(map[string]any)["runnerLabel"] {
		t.Errorf("the scale set is named %v, not benchmarks.json's runnerLabel", values["runnerScaleSetName"])
	}

	// The pod template, strictly, as Kubernetes decodes it.
	raw, err := yaml.Marshal(values["template"])
	if err != nil {
		t.Fatal(err)
	}
	var pod corev1.PodTemplateSpec
	if err := decodeStrictly(raw, &pod); err != nil {
		t.Fatalf("the runner pod template does not decode as a PodTemplateSpec: %v", err)
	}
	if len(pod.Spec.NodeSelector) == 0 || len(pod.Spec.Tolerations) == 0 {
		t.Error("the runner pods must go to dedicated nodes (a node selector and a toleration of their taint)")
	}
	var runner *corev1.Container
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == "runner" {
			runner = &pod.Spec.Containers[i]
		}
	}
	if runner == nil || len(pod.Spec.Containers) != 1 {
		t.Fatal("the template must hold exactly the chart's container named runner")
	}
	req, lim := runner.Resources.Requests, runner.Resources.Limits
	cpu := lim.Cpu()
	if !req.Cpu().Equal(*cpu) || !req.Memory().Equal(*lim.Memory()) || lim.Memory().IsZero() ||
		cpu.MilliValue()%1000 != 0 || cpu.MilliValue() < 2000 {
		t.Errorf("resources %v / %v: the pod must be Guaranteed with whole CPUs (requests = limits, >= 2 CPUs) for "+
			"the static CPU manager to give it exclusive cores", req, lim)
	}
	env := map[string]string{}
	for _, e := range runner.Env {
		env[e.Name] = e.Value
	}
	mounts := map[string]corev1.VolumeMount{}
	for _, m := range runner.VolumeMounts {
		mounts[m.Name] = m
	}
	for _, hook := range []string{"ACTIONS_RUNNER_HOOK_JOB_STARTED", "ACTIONS_RUNNER_HOOK_JOB_COMPLETED"} {
		path := env[hook]
		mounted := false
		for _, v := range pod.Spec.Volumes {
			m, ok := mounts[v.Name]
			if !ok || v.ConfigMap == nil || filepath.Dir(path) != m.MountPath {
				continue
			}
			if !m.ReadOnly || v.ConfigMap.DefaultMode == nil || *v.ConfigMap.DefaultMode&0o222 != 0 {
				t.Errorf("%s: the hooks must be mounted read-only, not writable by the job", hook)
			}
			if _, err := os.Stat(hostScript(filepath.Base(path))); err != nil {
				t.Errorf("%s names %s, which .github/host does not have", hook, filepath.Base(path))
			}
			mounted = true
		}
		if !mounted {
			t.Errorf("%s = %q is not in a ConfigMap volume mounted into the runner container", hook, path)
		}
	}

	// The kubelet's side, strictly as the kubelet decodes it.
	data, err = os.ReadFile(filepath.Join(dir, "kubelet-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg kubelet.KubeletConfiguration
	if err := decodeStrictly(data, &cfg); err != nil {
		t.Fatalf("kubelet-config.yaml does not decode as a KubeletConfiguration: %v", err)
	}
	if cfg.Kind != "KubeletConfiguration" || cfg.CPUManagerPolicy != "static" || cfg.ReservedSystemCPUs == "" {
		t.Errorf("the kubelet needs the static CPU manager with CPUs reserved for the system, got kind %q policy %q reserved %q",
			cfg.Kind, cfg.CPUManagerPolicy, cfg.ReservedSystemCPUs)
	}
}
