// Structural tests of the GitHub workflows: the security properties and the manifest-driven matrix that the
// README promises. actionlint (validate.sh) checks syntax and expressions; these check policy.
package validate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const root = "../.."

type workflow struct {
	file        string
	raw         string
	On          map[string]any `yaml:"on"`
	Permissions any            `yaml:"permissions"`
	Jobs        map[string]job `yaml:"jobs"`
}

type job struct {
	RunsOn      any               `yaml:"runs-on"`
	Needs       any               `yaml:"needs"`
	If          string            `yaml:"if"`
	Permissions map[string]string `yaml:"permissions"`
	Concurrency map[string]any    `yaml:"concurrency"`
	Strategy    struct {
		Matrix any `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []step `yaml:"steps"`
}

type step struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

func loadWorkflows(t *testing.T) map[string]workflow {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, ".github/workflows/*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows found: %v", err)
	}
	all := map[string]workflow{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var w workflow
		if err := yaml.Unmarshal(data, &w); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		w.file = filepath.Base(file)
		w.raw = string(data)
		all[w.file] = w
	}
	for _, name := range []string{"benchmark.yml", "benchmark-comment.yml", "ci.yml"} {
		if _, ok := all[name]; !ok {
			t.Fatalf("missing workflow %s", name)
		}
	}
	return all
}

func runsOnSelfHosted(j job) bool {
	labels, _ := j.RunsOn.([]any)
	for _, l := range labels {
		if l == "self-hosted" {
			return true
		}
	}
	return false
}

var pinned = regexp.MustCompile(`^\s*(?:-\s*)?uses:\s*([^@\s]+)@([0-9a-f]{40})\s+#\s*v\d+(\.\d+)*\s*$`)

func TestEveryActionIsPinnedToAFullCommitShaWithItsVersion(t *testing.T) {
	for name, w := range loadWorkflows(t) {
		for i, line := range strings.Split(w.raw, "\n") {
			if !strings.Contains(line, "uses:") || strings.Contains(line, "uses: ./") {
				continue
			}
			if !pinned.MatchString(line) {
				t.Errorf("%s:%d: not pinned to a 40-hex commit with a version comment: %s", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

func TestPermissionsAreLeastPrivilege(t *testing.T) {
	allowedWrites := map[string]map[string]bool{
		"benchmark.yml/publish":         {"contents": true},
		"benchmark-comment.yml/comment": {"pull-requests": true},
	}
	for name, w := range loadWorkflows(t) {
		switch p := w.Permissions.(type) {
		case map[string]any:
			for scope, level := range p {
				if level != "read" && level != "none" {
					t.Errorf("%s: top-level permission %s: %v (the default must be read or none)", name, scope, level)
				}
			}
		case nil:
			t.Errorf("%s: no top-level permissions (GitHub's default token is broader than needed)", name)
		default:
			t.Errorf("%s: top-level permissions must be a map, got %v", name, p)
		}
		for jobName, j := range w.Jobs {
			key := name + "/" + jobName
			if j.Permissions == nil && w.Permissions == nil {
				t.Errorf("%s: no permissions", key)
			}
			for scope, level := range j.Permissions {
				if level == "write" && !allowedWrites[key][scope] {
					t.Errorf("%s: %s: write is not allowed here", key, scope)
				}
			}
		}
	}
	if lvl := loadWorkflows(t)["benchmark.yml"].Jobs["benchmark"].Permissions["contents"]; lvl != "read" {
		t.Errorf("the job that runs benchmarked (possibly pull-request) code must only read contents, got %q", lvl)
	}
}

func TestPullRequestsNeverRunWorkflowDefinitionsFromTheirOwnBranchOnTheRunner(t *testing.T) {
	w := loadWorkflows(t)["benchmark.yml"]
	if _, ok := w.On["pull_request"]; ok {
		t.Error("benchmark.yml must not trigger on pull_request: a fork could edit the workflow that runs on our hardware")
	}
	if _, ok := w.On["pull_request_target"]; !ok {
		t.Error("benchmark.yml must benchmark pull requests through pull_request_target (definition from the base branch)")
	}
	for name, other := range loadWorkflows(t) {
		for jobName, j := range other.Jobs {
			if runsOnSelfHosted(j) && name != "benchmark.yml" {
				t.Errorf("%s/%s runs on the self-hosted runner; only benchmark.yml may", name, jobName)
			}
		}
	}
}

func TestSelfHostedJobsAreGuardedAndNeverOverlap(t *testing.T) {
	w := loadWorkflows(t)["benchmark.yml"]
	found := 0
	for name, j := range w.Jobs {
		if !runsOnSelfHosted(j) {
			continue
		}
		found++
		if !strings.Contains(j.If, "needs.plan.outputs.run == 'true'") {
			t.Errorf("%s: runs on the self-hosted runner without the fork guard's verdict in its if: %q", name, j.If)
		}
		if j.Concurrency == nil || j.Concurrency["group"] == nil {
			t.Errorf("%s: no concurrency group", name)
		} else if j.Concurrency["cancel-in-progress"] != false {
			t.Errorf("%s: a running measurement must not be cancelled", name)
		}
		labels, _ := j.RunsOn.([]any)
		if len(labels) < 2 || labels[len(labels)-1] != manifest(t)["sharding"].(map[string]any)["runnerLabel"] {
			t.Errorf("%s: runs-on %v must end with benchmarks.json sharding.runnerLabel", name, labels)
		}
	}
	if found == 0 {
		t.Fatal("no self-hosted job in benchmark.yml")
	}
	guard := w.Jobs["plan"].Steps
	usesGuard := false
	for _, s := range guard {
		if strings.Contains(s.Run, ".github/scripts/guard.sh") {
			usesGuard = true
		}
	}
	if !usesGuard {
		t.Error("the plan job must run .github/scripts/guard.sh")
	}
}

func guard(t *testing.T, env map[string]string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command("bash", filepath.Join(root, ".github/scripts/guard.sh"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + out}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("guard.sh failed: %v\n%s", err, msg)
	}
	data, _ := os.ReadFile(out)
	result := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		result[k] = v
	}
	return result
}

func TestForkGuardPolicy(t *testing.T) {
	pr := func(action, head, label string) map[string]string {
		return map[string]string{"EVENT_NAME": "pull_request_target", "EVENT_ACTION": action,
			"REPOSITORY": "acme/restbench", "PR_HEAD_REPO": head, "LABEL_NAME": label}
	}
	cases := []struct {
		name string
		env  map[string]string
		run  string
	}{
		{"push to main", map[string]string{"EVENT_NAME": "push"}, "true"},
		{"nightly", map[string]string{"EVENT_NAME": "schedule"}, "true"},
		{"same-repository pull request", pr("synchronize", "acme/restbench", ""), "true"},
		{"same-repository label change", pr("labeled", "acme/restbench", "docs"), "false"},
		{"fork pull request opened", pr("opened", "mallory/restbench", ""), "false"},
		{"fork pushes again after approval", pr("synchronize", "mallory/restbench", ""), "false"},
		{"fork labelled with another label", pr("labeled", "mallory/restbench", "bug"), "false"},
		{"fork approved by a maintainer", pr("labeled", "mallory/restbench", "benchmark:approved"), "true"},
		{"missing head repository", pr("opened", "", ""), "false"},
		{"pull_request (never used for the runner)", map[string]string{"EVENT_NAME": "pull_request"}, "false"},
	}
	for _, c := range cases {
		got := guard(t, c.env)
		if got["run"] != c.run {
			t.Errorf("%s: run=%s, want %s (reason: %s)", c.name, got["run"], c.run, got["reason"])
		}
	}
}

func manifest(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "benchmarks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func plan(t *testing.T, manifestPath string, env map[string]string) (map[string]string, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command("bash", filepath.Join(root, ".github/scripts/plan.sh"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + out, "MANIFEST=" + manifestPath}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &exec.ExitError{ProcessState: cmd.ProcessState, Stderr: msg}
	}
	data, _ := os.ReadFile(out)
	result := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		result[k] = v
	}
	return result, nil
}

func shards(t *testing.T, matrix string) []string {
	var m struct {
		Include []struct{ Shard, Variants string } `json:"include"`
	}
	if err := json.Unmarshal([]byte(matrix), &m); err != nil {
		t.Fatalf("matrix %q: %v", matrix, err)
	}
	var names []string
	for _, s := range m.Include {
		names = append(names, s.Shard+":"+s.Variants)
	}
	return names
}

func TestTheMatrixComesFromBenchmarksJson(t *testing.T) {
	m := manifest(t)
	var variants []string
	for _, v := range m["variants"].([]any) {
		variants = append(variants, v.(map[string]any)["name"].(string))
	}
	// Nothing about variants is repeated in YAML.
	for name, w := range loadWorkflows(t) {
		for _, v := range variants {
			if strings.Contains(w.raw, v) {
				t.Errorf("%s mentions variant %q: the matrix must come from benchmarks.json", name, v)
			}
		}
	}
	if got := loadWorkflows(t)["benchmark.yml"].Jobs["benchmark"].Strategy.Matrix; got != "${{ fromJSON(needs.plan.outputs.matrix) }}" {
		t.Errorf("benchmark matrix = %v, want it from the plan job", got)
	}

	manifestPath := filepath.Join(root, "benchmarks.json")
	out, err := plan(t, manifestPath, map[string]string{"EVENT_NAME": "push"})
	if err != nil {
		t.Fatal(err)
	}
	want := "all:" + strings.Join(variants, ",")
	if got := shards(t, out["matrix"]); len(got) != 1 || got[0] != want {
		t.Errorf("unsharded matrix = %v, want [%s]", got, want)
	}

	// The sharding switch: one shard per variant.
	m["sharding"].(map[string]any)["enabled"] = true
	sharded := filepath.Join(t.TempDir(), "benchmarks.json")
	data, _ := json.Marshal(m)
	if err := os.WriteFile(sharded, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = plan(t, sharded, map[string]string{"EVENT_NAME": "push", "VARIANTS_INPUT": variants[0]})
	if err != nil {
		t.Fatal(err)
	}
	if got := shards(t, out["matrix"]); len(got) != 1 || got[0] != variants[0]+":"+variants[0] {
		t.Errorf("sharded matrix for one requested variant = %v", got)
	}
	out, err = plan(t, sharded, map[string]string{"EVENT_NAME": "push"})
	if err != nil {
		t.Fatal(err)
	}
	if got := shards(t, out["matrix"]); len(got) != len(variants) {
		t.Errorf("sharded matrix = %v, want one shard per variant", got)
	}

	// Scenarios: the profile's own list by default (as ./bench run does); any manifest scenario on request.
	profiles := m["profiles"].(map[string]any)
	for _, profile := range []string{"full", "smoke"} {
		out, err = plan(t, manifestPath, map[string]string{"EVENT_NAME": "workflow_dispatch", "PROFILE_INPUT": profile})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, s := range profiles[profile].(map[string]any)["scenarios"].([]any) {
			want = append(want, s.(string))
		}
		if out["scenarios"] != strings.Join(want, ",") {
			t.Errorf("profile %s: scenarios = %q, want the profile's %q", profile, out["scenarios"], strings.Join(want, ","))
		}
	}
	scenarios := m["scenarios"].([]any)
	last := scenarios[len(scenarios)-1].(map[string]any)["name"].(string)
	out, err = plan(t, manifestPath, map[string]string{"EVENT_NAME": "workflow_dispatch", "SCENARIOS_INPUT": last})
	if err != nil || out["scenarios"] != last {
		t.Errorf("a requested scenario outside the profile's list: scenarios = %q, err %v", out["scenarios"], err)
	}
	if _, err := plan(t, manifestPath, map[string]string{"EVENT_NAME": "workflow_dispatch", "SCENARIOS_INPUT": "nope"}); err == nil {
		t.Error("an unknown scenario in the dispatch input must fail the plan")
	}

	if _, err := plan(t, manifestPath, map[string]string{"EVENT_NAME": "workflow_dispatch", "VARIANTS_INPUT": "nope"}); err == nil {
		t.Error("an unknown variant in the dispatch input must fail the plan")
	}
	if _, err := plan(t, manifestPath, map[string]string{"EVENT_NAME": "workflow_dispatch", "PROFILE_INPUT": "nope"}); err == nil {
		t.Error("an unknown profile must fail the plan")
	}
}

func TestNoExpressionIsInterpolatedIntoRunScripts(t *testing.T) {
	for name, w := range loadWorkflows(t) {
		for jobName, j := range w.Jobs {
			for i, s := range j.Steps {
				if strings.Contains(s.Run, "${{") {
					t.Errorf("%s/%s step %d: ${{ }} inside run: (pass it through env: instead)", name, jobName, i+1)
				}
			}
		}
	}
}

func TestCheckoutsKeepNoCredentialsUnlessTheyPush(t *testing.T) {
	for name, w := range loadWorkflows(t) {
		for jobName, j := range w.Jobs {
			for i, s := range j.Steps {
				if !strings.HasPrefix(s.Uses, "actions/checkout@") {
					continue
				}
				pushes := name == "benchmark.yml" && jobName == "publish" && s.With["ref"] == "gh-pages"
				if s.With["persist-credentials"] != pushes {
					t.Errorf("%s/%s step %d: persist-credentials = %v, want %v", name, jobName, i+1, s.With["persist-credentials"], pushes)
				}
			}
		}
	}
}

func TestTheCommentIsPostedByAJobThatRunsNoPullRequestCode(t *testing.T) {
	w := loadWorkflows(t)["benchmark-comment.yml"]
	if _, ok := w.On["workflow_run"]; !ok || len(w.On) != 1 {
		t.Errorf("benchmark-comment.yml must trigger only on workflow_run, got %v", w.On)
	}
	for jobName, j := range w.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "actions/checkout@") || s.Run != "" {
				t.Errorf("benchmark-comment.yml/%s checks out or runs code", jobName)
			}
		}
	}
	if !strings.Contains(w.raw, "<!-- restbench-pr-comment -->") {
		t.Error("the comment must carry the hidden marker that lets it be updated in place")
	}
	for jobName, j := range loadWorkflows(t)["benchmark.yml"].Jobs {
		if j.Permissions["pull-requests"] == "write" {
			t.Errorf("benchmark.yml/%s may not comment: pull-request code runs in this workflow", jobName)
		}
	}
}
