// The rehearsal's engine: runs a workflow's jobs for one event the way GitHub decides them. It evaluates the
// workflow's own expressions (run-name, if:, with:, env:, outputs, concurrency, matrix) with expr.go, executes the
// run: steps of the jobs it is told to (the plan and comment jobs: they decide, they measure nothing) with the
// event payload in $GITHUB_EVENT_PATH and a stand-in `gh` that answers from recorded API responses, and replays
// every actions/checkout step through a port of the pinned checkout's own input handling and fork guard.
package validate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const (
	testRepo = "acme/restbench"
	// The SHAs of the recorded events (testdata/events).
	mainSHA       = "5e2c7a9d41b08f3e6a1c2d4b7e9f0a3c5d8e1b2f" // main's tip: the harness of every run
	sameRepoHead  = "c81f0e2b7d4a9c3e5f1b6a8d0e2c4f7b9a1d3e56" // head of pull request #41 (acme/restbench)
	forkHead      = "3f9a1e7c5b2d8f0a4c6e1b3d5f7a9c2e4b6d8f01" // head of pull request #42 (mallory/restbench), reviewed
	forkPushed    = "7d2b5f8e1a3c6b9d0f4e7a2c5b8d1e3f6a9c0b27" // pushed to #42 after the review
	mergeBaseSHA  = "b5d8e1a4c7f0b3e6d9a2c5f8e1b4d7a0c3f6e9b2" // testdata/api/compare.json
	checkoutPin   = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1"
	commentMarker = "<!-- restbench-pr-comment -->"
)

// event is one recorded event as GitHub would deliver it to a run.
type event struct {
	name    string
	file    string
	payload map[string]any
	sha     string
	ref     string
	runID   int
}

// loadEvent reads testdata/events/<fixture>.json, lets mutate adjust it and writes it where the scripts read it.
func loadEvent(t *testing.T, fixture, name, sha, ref string, runID int, mutate func(map[string]any)) event {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/events", fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var payload map[string]any
	if err := json.Unmarshal(data, &payload); err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	if mutate != nil {
		mutate(payload)
	}
	file := filepath.Join(t.TempDir(), "event.json")
	data, _ = json.MarshalIndent(payload, "", "  ")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return event{name: name, file: file, payload: payload, sha: sha, ref: ref, runID: runID}
}

// world is what a simulated run sees besides its event: the recorded API and the logs of the stand-ins.
type world struct {
	t        *testing.T
	dir      string
	ghDir    string
	ghLog    string
	benchLog string
	extraEnv []string
	// seed stands in for jobs that are not simulated: their needs.<job> (result, outputs).
	seed map[string]map[string]any
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{t: t, dir: dir, ghDir: filepath.Join(dir, "api"), ghLog: filepath.Join(dir, "gh.log"),
		benchLog: filepath.Join(dir, "bench.log")}
	for _, d := range []string{w.ghDir, filepath.Join(dir, "home"), filepath.Join(dir, "runner-temp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// api records the answer to `gh api [--method M] PATH` from a testdata/api fixture.
func (w *world) api(method, path, fixture string) {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/api", fixture+".json"))
	if err != nil {
		w.t.Fatal(err)
	}
	name := regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(method+"_"+path, "_") + ".json"
	if err := os.WriteFile(filepath.Join(w.ghDir, name), data, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// artifact records an artifact of a run for `gh run download`.
func (w *world) artifact(runID int, name string, files map[string]string) {
	w.t.Helper()
	dir := filepath.Join(w.ghDir, "artifacts", strconv.Itoa(runID), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	for file, source := range files {
		data, err := os.ReadFile(source)
		if err != nil {
			w.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
}

// calls are the gh calls the scripts made, in order ("GET repos/…", "PATCH repos/… {body}").
func (w *world) calls() []string {
	data, _ := os.ReadFile(w.ghLog)
	return nonEmptyLines(string(data))
}

// writes are the calls that change something on GitHub.
func (w *world) writes() []string {
	var out []string
	for _, c := range w.calls() {
		if !strings.HasPrefix(c, "GET ") && !strings.HasPrefix(c, "run download ") {
			out = append(out, c)
		}
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// checkout is one actions/checkout step as the pinned action would resolve it.
type checkout struct {
	Path, Repo, Ref, Commit string
	AllowUnsafe             bool
	Refused                 error
}

// SHA is what ends up checked out: the commit when the action has one, else the ref it fetches.
func (c checkout) SHA() string {
	if c.Commit != "" {
		return c.Commit
	}
	return c.Ref
}

type stepResult struct {
	Name, ID, Uses, Run string
	With, Env           map[string]string
	Ran, Failed         bool
	Output              string
}

type jobResult struct {
	Job       string
	Ran       bool
	Result    string // success, failure, skipped
	Outputs   map[string]string
	Matrix    map[string]any
	Group     string
	Cancel    bool
	Checkouts []checkout
	Steps     []stepResult
	Summary   string
}

// step returns the job's step with that name or id (nil when absent).
func (j jobResult) step(name string) *stepResult {
	for i := range j.Steps {
		if j.Steps[i].Name == name || j.Steps[i].ID == name {
			return &j.Steps[i]
		}
	}
	return nil
}

type simulation struct {
	Title     string
	Workflow  string // the workflow-level concurrency group, when any
	Jobs      map[string][]jobResult
	jobsOrder []string
}

// ran returns the job's runs that happened (one per matrix entry).
func (s simulation) ran(job string) []jobResult {
	var out []jobResult
	for _, j := range s.Jobs[job] {
		if j.Ran {
			out = append(out, j)
		}
	}
	return out
}

func githubContext(ev event) map[string]any {
	return map[string]any{
		"event": ev.payload, "event_name": ev.name, "sha": ev.sha, "ref": ev.ref, "repository": testRepo,
		"repository_owner": "acme", "run_id": strconv.Itoa(ev.runID), "run_attempt": "1", "token": "ghs_simulated",
		"server_url": "https://github.com", "workflow": "benchmark", "workspace": root,
	}
}

func (w *world) baseEnv(ev event) []string {
	fakeBin, _ := filepath.Abs("testdata/bin")
	return append([]string{
		"PATH=" + fakeBin + ":" + os.Getenv("PATH"), "HOME=" + filepath.Join(w.dir, "home"), "LANG=C.UTF-8",
		"GITHUB_ACTIONS=true", "CI=true", "GITHUB_EVENT_NAME=" + ev.name, "GITHUB_EVENT_PATH=" + ev.file,
		"GITHUB_SHA=" + ev.sha, "GITHUB_REF=" + ev.ref, "GITHUB_REPOSITORY=" + testRepo,
		"GITHUB_RUN_ID=" + strconv.Itoa(ev.runID), "GITHUB_SERVER_URL=https://github.com", "GITHUB_WORKSPACE=" + root,
		"RUNNER_TEMP=" + filepath.Join(w.dir, "runner-temp"), "FAKE_GH_DIR=" + w.ghDir, "FAKE_GH_LOG=" + w.ghLog,
		"FAKE_BENCH_LOG=" + w.benchLog,
	}, w.extraEnv...)
}

// simulate runs the workflow's jobs in the given order for the event. Jobs in execute have their run: steps
// executed; the others are evaluated only (their if:, matrix, concurrency, checkouts and step inputs). needResults
// overrides the result a job reports to its dependants (default: success when it ran).
func simulate(t *testing.T, w workflow, ev event, world *world, order []string, execute map[string]bool) simulation {
	t.Helper()
	gh := githubContext(ev)
	inputs := map[string]any{}
	if ev.name == "workflow_dispatch" {
		if in, ok := ev.payload["inputs"].(map[string]any); ok {
			inputs = in
		}
	}
	top := Scope{Contexts: map[string]any{"github": gh, "inputs": inputs, "vars": map[string]any{}}, Status: Status{Success: true}}
	sim := simulation{Jobs: map[string][]jobResult{}, jobsOrder: order}
	var err error
	if w.RunName != "" {
		if sim.Title, err = EvalString(w.RunName, top); err != nil {
			t.Fatalf("%s run-name: %v", w.file, err)
		}
	}
	if w.Concurrency != nil {
		sim.Workflow = concurrencyGroup(t, w.Concurrency, top)
	}
	needs := map[string]any{}
	for name, seeded := range world.seed {
		needs[name] = seeded
	}
	for _, name := range order {
		j, ok := w.Jobs[name]
		if !ok {
			t.Fatalf("%s has no job %s", w.file, name)
		}
		ownNeeds := map[string]any{}
		allSucceeded, anyFailed := true, false
		for _, n := range needList(j.Needs) {
			ownNeeds[n] = needs[n]
			result := needs[n].(map[string]any)["result"]
			allSucceeded = allSucceeded && result == "success"
			anyFailed = anyFailed || result == "failure"
		}
		scope := Scope{Contexts: map[string]any{"github": gh, "inputs": inputs, "vars": map[string]any{}, "needs": ownNeeds},
			Status: Status{Success: allSucceeded, Failure: anyFailed}}
		runIt, err := EvalCondition(j.If, scope)
		if err != nil {
			t.Fatalf("%s/%s if: %v", w.file, name, err)
		}
		if !runIt {
			sim.Jobs[name] = []jobResult{{Job: name, Result: "skipped"}}
			needs[name] = map[string]any{"result": "skipped", "outputs": map[string]any{}}
			continue
		}
		matrices := []map[string]any{nil}
		if j.Strategy.Matrix != nil {
			m, err := EvalTemplate(fmt.Sprint(j.Strategy.Matrix), scope)
			if err != nil {
				t.Fatalf("%s/%s matrix: %v", w.file, name, err)
			}
			include, _ := property(m, "include").([]any)
			matrices = nil
			for _, entry := range include {
				matrices = append(matrices, entry.(map[string]any))
			}
		}
		result := "success"
		outputs := map[string]any{}
		for _, matrix := range matrices {
			r := runJob(t, w, name, j, ev, world, scope, matrix, execute[name])
			sim.Jobs[name] = append(sim.Jobs[name], r)
			if r.Result != "success" {
				result = r.Result
			}
			for k, v := range r.Outputs {
				outputs[k] = v
			}
		}
		needs[name] = map[string]any{"result": result, "outputs": outputs}
	}
	return sim
}

func needList(needs any) []string {
	switch n := needs.(type) {
	case string:
		return []string{n}
	case []any:
		var out []string
		for _, x := range n {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

func concurrencyGroup(t *testing.T, c any, scope Scope) string {
	t.Helper()
	var group any = c
	if m, ok := c.(map[string]any); ok {
		group = m["group"]
	}
	s, err := EvalString(fmt.Sprint(group), scope)
	if err != nil {
		t.Fatalf("concurrency group: %v", err)
	}
	return s
}

func runJob(t *testing.T, w workflow, name string, j job, ev event, world *world, jobScope Scope,
	matrix map[string]any, execute bool) jobResult {
	t.Helper()
	contexts := map[string]any{}
	for k, v := range jobScope.Contexts {
		contexts[k] = v
	}
	contexts["matrix"] = map[string]any{}
	if matrix != nil {
		contexts["matrix"] = matrix
	}
	contexts["strategy"] = map[string]any{}
	contexts["runner"] = map[string]any{"temp": filepath.Join(world.dir, "runner-temp"), "os": "Linux"}
	contexts["secrets"] = map[string]any{"GITHUB_TOKEN": "ghs_simulated"}
	steps := map[string]any{}
	contexts["steps"] = steps
	scope := Scope{Contexts: contexts, Status: Status{Success: true}}
	r := jobResult{Job: name, Ran: true, Result: "success", Matrix: matrix, Outputs: map[string]string{}}
	if j.Concurrency != nil {
		r.Group = concurrencyGroup(t, j.Concurrency, scope)
		cancel, err := EvalTemplate(fmt.Sprint(j.Concurrency["cancel-in-progress"]), scope)
		if err != nil {
			t.Fatalf("%s/%s cancel-in-progress: %v", w.file, name, err)
		}
		r.Cancel = truthy(cancel) && fmt.Sprint(cancel) != "false"
	}
	jobEnv := map[string]string{}
	for k, v := range j.Env {
		s, err := EvalString(v, scope)
		if err != nil {
			t.Fatalf("%s/%s env %s: %v", w.file, name, k, err)
		}
		jobEnv[k] = s
	}
	contexts["env"] = toAnyMap(jobEnv)
	summaryFile, err := os.CreateTemp(world.dir, "summary-")
	if err != nil {
		t.Fatal(err)
	}
	summaryFile.Close()
	summary := summaryFile.Name()
	failed := false
	for i, s := range j.Steps {
		scope.Status = Status{Success: !failed, Failure: failed}
		res := stepResult{Name: s.Name, ID: s.ID, Uses: s.Uses, Run: s.Run, With: map[string]string{}, Env: map[string]string{}}
		runIt, err := EvalCondition(s.If, scope)
		if err != nil {
			t.Fatalf("%s/%s step %d if: %v", w.file, name, i+1, err)
		}
		// Inputs are evaluated for skipped steps too, so tests can check what they would be given.
		for k, v := range s.With {
			if res.With[k], err = EvalString(fmt.Sprint(v), scope); err != nil {
				t.Fatalf("%s/%s step %d with.%s: %v", w.file, name, i+1, k, err)
			}
		}
		for k, v := range s.Env {
			if res.Env[k], err = EvalString(v, scope); err != nil {
				t.Fatalf("%s/%s step %d env.%s: %v", w.file, name, i+1, k, err)
			}
		}
		if !runIt {
			r.Steps = append(r.Steps, res)
			continue
		}
		res.Ran = true
		stepOutputs := map[string]any{}
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@"):
			c := resolveCheckout(res.With, ev)
			r.Checkouts = append(r.Checkouts, c)
			res.Failed = c.Refused != nil
		case s.Run != "" && execute:
			outFile, err := os.CreateTemp(world.dir, "output-")
			if err != nil {
				t.Fatal(err)
			}
			outFile.Close()
			out := outFile.Name()
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
			cmd.Dir = root
			cmd.Env = append(world.baseEnv(ev), "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary)
			for _, e := range []map[string]string{jobEnv, res.Env} {
				for k, v := range e {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
			}
			output, err := cmd.CombinedOutput()
			res.Output = string(output)
			res.Failed = err != nil
			for k, v := range readOutputs(t, out) {
				stepOutputs[k] = v
			}
		}
		if s.ID != "" {
			steps[s.ID] = map[string]any{"outputs": stepOutputs, "outcome": map[bool]string{true: "failure", false: "success"}[res.Failed]}
		}
		if res.Failed && !truthy(s.ContinueOnError) {
			failed = true
		}
		r.Steps = append(r.Steps, res)
	}
	if failed {
		r.Result = "failure"
	}
	scope.Status = Status{Success: !failed, Failure: failed}
	for k, v := range j.Outputs {
		s, err := EvalString(v, scope)
		if err != nil {
			t.Fatalf("%s/%s outputs.%s: %v", w.file, name, k, err)
		}
		r.Outputs[k] = s
	}
	if data, err := os.ReadFile(summary); err == nil {
		r.Summary = string(data)
	}
	return r
}

func toAnyMap(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// readOutputs parses a $GITHUB_OUTPUT file as the runner does: name=value lines and name<<DELIMITER blocks.
func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(file)
	if err != nil {
		return out
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var value []string
			for scanner.Scan() && scanner.Text() != delim {
				value = append(value, scanner.Text())
			}
			out[name] = strings.Join(value, "\n")
			continue
		}
		if name, value, ok := strings.Cut(line, "="); ok {
			out[name] = value
		} else if line != "" {
			t.Errorf("$GITHUB_OUTPUT line %q is neither name=value nor name<<delimiter: the runner would fail the step", line)
		}
	}
	return out
}

var shaRef = regexp.MustCompile(`^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$`)
var pullRef = regexp.MustCompile(`^refs/pull/[0-9]+/(?:head|merge)$`)

// resolveCheckout ports actions/checkout v7.0.1 (3d3c42e5aac5ba805825da76410c181273ba90b1): src/input-helper.ts,
// how repository, ref and commit are derived from the inputs and the event, and src/unsafe-pr-checkout-helper.ts,
// assertSafePrCheckout, which refuses a fork's pull-request code in pull_request_target and workflow_run runs
// unless allow-unsafe-pr-checkout is true. Read from the action's source at that SHA.
func resolveCheckout(with map[string]string, ev event) checkout {
	c := checkout{Path: with["path"], Repo: with["repository"], AllowUnsafe: strings.EqualFold(with["allow-unsafe-pr-checkout"], "true")}
	if c.Path == "" {
		c.Path = "."
	}
	if c.Repo == "" {
		c.Repo = testRepo
	}
	isWorkflowRepo := strings.EqualFold(c.Repo, testRepo)
	rawRef := with["ref"]
	trimmed := strings.Trim(rawRef, "\t\n\v\f\r ")
	switch {
	case strings.TrimSpace(rawRef) == "":
		if isWorkflowRepo {
			c.Ref, c.Commit = ev.ref, ev.sha
			if c.Commit != "" && c.Ref != "" && !strings.HasPrefix(c.Ref, "refs/") {
				c.Ref = "refs/heads/" + c.Ref
			}
		}
	case shaRef.MatchString(trimmed):
		c.Commit = trimmed
	default:
		c.Ref = strings.TrimSpace(rawRef)
	}
	isDefault := isWorkflowRepo && strings.TrimSpace(rawRef) == ""
	if !isDefault {
		c.Refused = assertSafePrCheckout(c, ev)
	}
	return c
}

func assertSafePrCheckout(c checkout, ev event) error {
	if c.AllowUnsafe || (ev.name != "pull_request_target" && ev.name != "workflow_run") {
		return nil
	}
	baseRepoID, ok := payloadValue(ev.payload, "repository.id").(float64)
	if !ok {
		return nil
	}
	var prHeadRepoID, prHeadRepoFullName any
	var prShas []string
	pushIfSha := func(v any) {
		if s, ok := v.(string); ok && s != "" {
			prShas = append(prShas, strings.ToLower(s))
		}
	}
	if ev.name == "pull_request_target" {
		prHeadRepoID = payloadValue(ev.payload, "pull_request.head.repo.id")
		prHeadRepoFullName = payloadValue(ev.payload, "pull_request.head.repo.full_name")
		pushIfSha(payloadValue(ev.payload, "pull_request.head.sha"))
		pushIfSha(payloadValue(ev.payload, "pull_request.merge_commit_sha"))
	} else {
		wrEvent, ok := payloadValue(ev.payload, "workflow_run.event").(string)
		if !ok || !strings.HasPrefix(wrEvent, "pull_request") {
			return nil
		}
		prHeadRepoID = payloadValue(ev.payload, "workflow_run.head_repository.id")
		prHeadRepoFullName = payloadValue(ev.payload, "workflow_run.head_repository.full_name")
		pushIfSha(payloadValue(ev.payload, "workflow_run.head_commit.id"))
		if wrEvent != "pull_request_target" {
			pushIfSha(payloadValue(ev.payload, "workflow_run.head_sha"))
		}
	}
	id, isNumber := prHeadRepoID.(float64)
	if !isNumber || id == baseRepoID {
		return nil
	}
	name, _ := prHeadRepoFullName.(string)
	repositoryMatchesPrHead := name != "" && strings.EqualFold(c.Repo, name)
	commitMatchesPrHeadSha := false
	for _, sha := range prShas {
		commitMatchesPrHeadSha = commitMatchesPrHeadSha || (c.Commit != "" && strings.ToLower(c.Commit) == sha)
	}
	if !repositoryMatchesPrHead && !pullRef.MatchString(c.Ref) && !commitMatchesPrHeadSha {
		return nil
	}
	return fmt.Errorf("Refusing to check out fork pull request code from a '%s' workflow (set 'allow-unsafe-pr-checkout: true')", ev.name)
}

func payloadValue(payload map[string]any, path string) any {
	var v any = payload
	for _, key := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[key]
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
