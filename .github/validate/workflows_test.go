// Structural tests of the GitHub workflows: the security properties and the manifest-driven matrix that the
// README promises. actionlint (validate.sh) checks syntax and expressions; these check policy.
package validate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const root = "../.."

type workflow struct {
	file        string
	raw         string
	RunName     string         `yaml:"run-name"`
	On          map[string]any `yaml:"on"`
	Permissions any            `yaml:"permissions"`
	Concurrency any            `yaml:"concurrency"`
	Jobs        map[string]job `yaml:"jobs"`
}

type job struct {
	RunsOn      any               `yaml:"runs-on"`
	Needs       any               `yaml:"needs"`
	If          string            `yaml:"if"`
	Permissions map[string]string `yaml:"permissions"`
	Concurrency map[string]any    `yaml:"concurrency"`
	Outputs     map[string]string `yaml:"outputs"`
	Env         map[string]string `yaml:"env"`
	Timeout     int               `yaml:"timeout-minutes"`
	Strategy    struct {
		Matrix any `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []step `yaml:"steps"`
}

type step struct {
	ID              string            `yaml:"id"`
	Name            string            `yaml:"name"`
	If              string            `yaml:"if"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	With            map[string]any    `yaml:"with"`
	Env             map[string]string `yaml:"env"`
	ContinueOnError any               `yaml:"continue-on-error"`
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

func TestSelfHostedJobsAreGuarded(t *testing.T) {
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
		labels, _ := j.RunsOn.([]any)
		if len(labels) < 2 || labels[len(labels)-1] != manifest(t)["sharding"].(map[string]any)["runnerLabel"] {
			t.Errorf("%s: runs-on %v must end with benchmarks.json sharding.runnerLabel", name, labels)
		}
		// The cleanup is the host's job-started hook, before the first step (host_test.go): a step after the checkout
		// would come too late (an earlier job's .git/hooks run during the checkout) and would run the workspace's own,
		// rewritable copy. The job checks that the host has its hooks right after the trusted checkout.
		if len(j.Steps) < 2 || !strings.HasPrefix(j.Steps[0].Uses, checkoutPin) || j.Steps[1].Run != ".github/scripts/host-check.sh" {
			t.Errorf("%s: must start with the trusted checkout, then the host check", name)
		}
		for _, s := range j.Steps {
			if strings.Contains(s.Run, "cleanup") {
				t.Errorf("%s: step %q cleans up from the workspace; the host's hooks do that, before the first step", name, s.Name)
			}
			// The runtimes are the host's: root-owned, fixed, in every run's fingerprint. An action that installs one
			// downloads from outside the egress list into a cache the job can write.
			for _, setup := range []string{"actions/setup-java@", "actions/setup-node@", "actions/setup-go@", "actions/setup-python@"} {
				if strings.HasPrefix(s.Uses, setup) {
					t.Errorf("%s: %s installs a runtime on the benchmark host; provision it on the host instead", name, s.Uses)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no self-hosted job in benchmark.yml")
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

// shardedManifest writes benchmarks.json with sharding switched on and returns its path.
func shardedManifest(t *testing.T) string {
	t.Helper()
	m := manifest(t)
	m["sharding"].(map[string]any)["enabled"] = true
	sharded := filepath.Join(t.TempDir(), "benchmarks.json")
	data, _ := json.Marshal(m)
	if err := os.WriteFile(sharded, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return sharded
}

// plan runs plan.sh as the plan job does after the guard: KIND and PR_NUMBER from the guard, the dispatch inputs in
// the event payload.
func plan(t *testing.T, manifestPath string, kind string, inputs map[string]string) (map[string]string, error) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	eventName := "push"
	payload := map[string]any{}
	if inputs != nil {
		eventName = "workflow_dispatch"
		payload["inputs"] = inputs
	}
	data, _ := json.Marshal(payload)
	eventFile := filepath.Join(dir, "event.json")
	if err := os.WriteFile(eventFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, ".github/scripts/plan.sh"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + out, "MANIFEST=" + manifestPath, "KIND=" + kind,
		"PR_NUMBER=41", "GITHUB_RUN_ID=8001", "GITHUB_EVENT_NAME=" + eventName, "GITHUB_EVENT_PATH=" + eventFile}
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &exec.ExitError{ProcessState: cmd.ProcessState, Stderr: msg}
	}
	return readOutputs(t, out), nil
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
	out, err := plan(t, manifestPath, "main", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "all:" + strings.Join(variants, ",")
	if got := shards(t, out["matrix"]); len(got) != 1 || got[0] != want {
		t.Errorf("unsharded matrix = %v, want [%s]", got, want)
	}

	// The sharding switch: one shard per variant.
	sharded := shardedManifest(t)
	out, err = plan(t, sharded, "main", map[string]string{"variants": variants[0]})
	if err != nil {
		t.Fatal(err)
	}
	if got := shards(t, out["matrix"]); len(got) != 1 || got[0] != variants[0]+":"+variants[0] {
		t.Errorf("sharded matrix for one requested variant = %v", got)
	}
	out, err = plan(t, sharded, "main", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := shards(t, out["matrix"]); len(got) != len(variants) {
		t.Errorf("sharded matrix = %v, want one shard per variant", got)
	}

	// Scenarios: the profile's own list by default (as ./bench run does); any manifest scenario on request.
	profiles := m["profiles"].(map[string]any)
	for _, profile := range []string{"full", "smoke"} {
		out, err = plan(t, manifestPath, "main", map[string]string{"profile": profile})
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
	out, err = plan(t, manifestPath, "main", map[string]string{"scenarios": last})
	if err != nil || out["scenarios"] != last {
		t.Errorf("a requested scenario outside the profile's list: scenarios = %q, err %v", out["scenarios"], err)
	}
	if _, err := plan(t, manifestPath, "main", map[string]string{"scenarios": "nope"}); err == nil {
		t.Error("an unknown scenario in the dispatch input must fail the plan")
	}

	if _, err := plan(t, manifestPath, "main", map[string]string{"variants": "nope"}); err == nil {
		t.Error("an unknown variant in the dispatch input must fail the plan")
	}
	if _, err := plan(t, manifestPath, "main", map[string]string{"profile": "nope"}); err == nil {
		t.Error("an unknown profile must fail the plan")
	}

	// A/B runs are never sharded (base and head share one machine) and use the quick profile by default.
	out, err = plan(t, sharded, "pr", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := shards(t, out["matrix"]); len(got) != 1 || !strings.HasPrefix(got[0], "all:") || out["profile"] != "quick" {
		t.Errorf("A/B plan: matrix %v, profile %s; want one unsharded job, quick", got, out["profile"])
	}

	// Every line of a dispatch input is checked: a line break never reaches $GITHUB_OUTPUT.
	for _, in := range []map[string]string{{"scenarios": last + "\nmatrix={}"}, {"variants": variants[0] + "\nkind=main"},
		{"profile": "smoke\nmatrix={}"}, {"scenarios": last + "\r"}, {"variants": variants[0] + ",\n"}} {
		if out, err := plan(t, manifestPath, "main", in); err == nil {
			t.Errorf("input %q was accepted: outputs %v", in, out)
		}
	}
}

// A push and the nightly measure what one benchmark job can finish: its budget leaves the job 45 minutes to set up
// and upload, bench-run.sh hands the budget to ./bench run (which refuses a plan whose lower bound exceeds it and
// leaves out a start that might not end in time), and the plan a push gets leaves room for 2.5 times its lower
// bound: of the runs measured on the 2-core box, the slowest took 2.55 times its own (quick, whose Spring warmups
// reach their cap; docs/results/2026-12-07-push-budget.md). The lower bound is computed here apart from the runner
// (RunSelection.minimumSeconds): per start, the first cell's warmup cycles; per cell, the warmup's minimum and the
// windows. A manifest that outgrows one job fails here, not in a push's run.
func TestThePushPlanFitsOneBenchmarkJob(t *testing.T) {
	job := loadWorkflows(t)["benchmark.yml"].Jobs["benchmark"]
	budget, err := strconv.Atoi(job.Env["BUDGET_MINUTES"])
	if err != nil || budget <= 0 {
		t.Fatalf("benchmark job: BUDGET_MINUTES %q is not a number of minutes", job.Env["BUDGET_MINUTES"])
	}
	if job.Timeout <= 0 || budget > job.Timeout-45 {
		t.Errorf("benchmark job: budget %d min against a timeout of %d min: leave 45 min to check out, build and"+
			" upload", budget, job.Timeout)
	}
	benchRun, err := os.ReadFile(filepath.Join(root, ".github/scripts/bench-run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(benchRun), `--budget-minutes "${BUDGET_MINUTES:?}"`) {
		t.Error("bench-run.sh does not hand BUDGET_MINUTES to ./bench run: a run that cannot fit would go on until" +
			" the job's timeout and write nothing")
	}
	m := manifest(t)
	for label, manifestPath := range map[string]string{"unsharded": filepath.Join(root, "benchmarks.json"),
		"sharded": shardedManifest(t)} {
		out, err := plan(t, manifestPath, "main", nil)
		if err != nil {
			t.Fatal(err)
		}
		profile := m["profiles"].(map[string]any)[out["profile"]].(map[string]any)
		number := func(v any) float64 { f, _ := v.(float64); return f }
		warmup := profile["warmup"].(map[string]any)
		cycles := 0.0
		if c, ok := warmup["cycles"].(map[string]any); ok {
			cycles = number(c["count"]) * (number(c["loadSeconds"]) + number(c["idleSeconds"]))
		}
		regimes := 2.0
		if r, ok := profile["regimes"].([]any); ok {
			regimes = float64(len(r))
		}
		cells := float64(len(strings.Split(out["scenarios"], ","))) * regimes
		perStart := cycles + cells*(number(warmup["minSeconds"])+number(profile["windows"])*number(profile["windowSeconds"]))
		var matrix struct {
			Include []struct{ Variants string } `json:"include"`
		}
		if err := json.Unmarshal([]byte(out["matrix"]), &matrix); err != nil {
			t.Fatal(err)
		}
		for _, shard := range matrix.Include {
			starts := float64(len(strings.Split(shard.Variants, ","))) * number(profile["trials"])
			if minutes := starts * perStart / 60; 2.5*minutes > float64(budget) {
				t.Errorf("%s: a push measures profile %s, %.0f starts of at least %.0f min in all; a run may take"+
					" 2.5 times that, over the job's budget of %d min: narrow the profile or switch sharding on"+
					" (docs/runner-host.md)", label, out["profile"], starts,
					minutes, budget)
			}
		}
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
				pushes := name == "benchmark.yml" && jobName == "publish" && s.With["path"] == "gh-pages"
				if s.With["persist-credentials"] != pushes {
					t.Errorf("%s/%s step %d: persist-credentials = %v, want %v", name, jobName, i+1, s.With["persist-credentials"], pushes)
				}
			}
		}
	}
}

func TestTheCommentIsPostedByAJobThatRunsOnlyMainsCode(t *testing.T) {
	w := loadWorkflows(t)["benchmark-comment.yml"]
	if _, ok := w.On["workflow_run"]; !ok || len(w.On) != 1 {
		t.Errorf("benchmark-comment.yml must trigger only on workflow_run, got %v", w.On)
	}
	for jobName, j := range w.Jobs {
		for _, s := range j.Steps {
			// The default checkout of a workflow_run run is the default branch: main's scripts and runner.
			if strings.HasPrefix(s.Uses, "actions/checkout@") && (s.With["ref"] != nil || s.With["repository"] != nil) {
				t.Errorf("benchmark-comment.yml/%s checks out something else than main: %v", jobName, s.With)
			}
		}
	}
	for jobName, j := range loadWorkflows(t)["benchmark.yml"].Jobs {
		if j.Permissions["pull-requests"] == "write" {
			t.Errorf("benchmark.yml/%s may not comment: pull-request code runs in this workflow", jobName)
		}
	}
	if !strings.Contains(loadWorkflows(t)["benchmark.yml"].RunName, "github.event.pull_request.head.sha") {
		t.Error("benchmark.yml's run-name must carry the pull request's head for benchmark-comment.yml")
	}
}

// YAML only wires: every decision is in a script the tests run.
func TestWorkflowsOnlyCallScripts(t *testing.T) {
	call := regexp.MustCompile(`^\.github/scripts/[a-z-]+\.sh( [A-Za-z0-9"$/_. -]+)?$`)
	for _, name := range []string{"benchmark.yml", "benchmark-comment.yml"} {
		for jobName, j := range loadWorkflows(t)[name].Jobs {
			for i, s := range j.Steps {
				if s.Run != "" && !call.MatchString(strings.TrimSpace(s.Run)) {
					t.Errorf("%s/%s step %d runs %q: put it in a script under .github/scripts", name, jobName, i+1, s.Run)
				}
			}
		}
	}
}

// Finding 5 of issue 20: no workflow uses the Actions cache, ci.yml included. The benchmark job runs pull-request code
// on the runner as the user whose later node actions hold ACTIONS_RUNTIME_TOKEN; any entry it writes in main's scope
// would be restored by every workflow that reads the cache.
func TestNoDependencyCacheIsSharedWithPullRequestRuns(t *testing.T) {
	for name := range loadWorkflows(t) {
		for jobName, j := range loadWorkflows(t)[name].Jobs {
			for _, s := range j.Steps {
				if s.With["cache"] != nil || strings.HasPrefix(s.Uses, "actions/cache") {
					t.Errorf("%s/%s uses the Actions cache (%s): a pull_request_target run saves into main's scope", name, jobName, s.Uses)
				}
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(root, ".github/scripts/lib.sh"))
	if err != nil || !strings.Contains(string(data), "-Dmaven.repo.local=$home/repository") {
		t.Error("lib.sh's private_maven must point Maven at a job-private repository")
	}
}

// github-action-benchmark only alerts: it never writes gh-pages (one writer: publish-pages.sh), data.js or its own
// dev/bench/index.html, and credits the run to the measured commit.
func TestGithubActionBenchmarkOnlyAlerts(t *testing.T) {
	found := 0
	for jobName, j := range loadWorkflows(t)["benchmark.yml"].Jobs {
		for _, s := range j.Steps {
			if !strings.HasPrefix(s.Uses, "benchmark-action/github-action-benchmark@") {
				continue
			}
			found++
			want := map[string]any{"auto-push": false, "save-data-file": false, "ref": "${{ github.sha }}"}
			for k, v := range want {
				if s.With[k] != v {
					t.Errorf("%s: %s = %v, want %v", jobName, k, s.With[k], v)
				}
			}
			if s.With["external-data-json-path"] == nil || s.With["gh-pages-branch"] != nil {
				t.Errorf("%s: the action must read an external file, never gh-pages", jobName)
			}
			if s.ContinueOnError != true {
				t.Errorf("%s: a failed alert must not fail the published run", jobName)
			}
		}
	}
	if found != 2 {
		t.Errorf("want the two alert steps (throughput, costs), found %d", found)
	}
}

func TestPullRequestTargetOnlyForMain(t *testing.T) {
	prt, _ := loadWorkflows(t)["benchmark.yml"].On["pull_request_target"].(map[string]any)
	if branches, _ := prt["branches"].([]any); len(branches) != 1 || branches[0] != "main" {
		t.Errorf("pull_request_target needs a branch filter [main], got %v", prt["branches"])
	}
}
