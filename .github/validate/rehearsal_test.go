// The rehearsal: recorded events in GitHub's payload shape (testdata/events) go through benchmark.yml exactly as
// GitHub would decide them (the guard and plan scripts really run; the benchmark and publish jobs are evaluated:
// which commit each checkout gets, which step runs, which concurrency group), and each finished run then goes
// through benchmark-comment.yml (its scripts really run, against recorded API responses, with a stand-in for the
// Java renderer) to see which comment is written where. Bugs 1, 2 and 6 of issue 11 each fail a test here.
package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type commentWant int

const (
	noComment       commentWant = iota
	updatesOurs                 // PATCH of the bot's own marker comment
	createsComment              // POST of a new comment
	postsFailure                // a failure notice (created, as the PR has no comment of ours)
	commentNotDrawn             // the case does not go on to benchmark-comment.yml
)

type benchCase struct {
	name    string
	fixture string
	event   string
	sha     string
	ref     string
	api     map[string]string // "GET <path>" → testdata/api fixture
	mutate  func(map[string]any)

	planFails   bool
	hostRefuses bool              // the benchmark job is queued, and the host's job-started hook refuses it
	kind        string            // guard's kind when the benchmark job runs
	publish     bool              // the publish job runs
	checkouts   map[string]string // the benchmark job's checkouts: path → SHA; nil = the job must not run
	title       string            // the run's display title (run-name)
	pr          string            // the pull request the comment goes to
	comment     commentWant
}

// prAPI is GitHub's API as the recorded pull requests #41 (this repository), #42 (a fork) and #43 (into another
// branch) answer it.
func prAPI() map[string]string {
	return map[string]string{
		"GET repos/acme/restbench/pulls/41":                                  "pull-41",
		"GET repos/acme/restbench/pulls/42":                                  "pull-42",
		"GET repos/acme/restbench/pulls/43":                                  "pull-43",
		"GET repos/acme/restbench/issues/41/comments?per_page=100":           "comments-with-ours",
		"GET repos/acme/restbench/issues/42/comments?per_page=100":           "comments-without-ours",
		"GET repos/acme/restbench/compare/" + mainSHA + "..." + sameRepoHead: "compare",
		"GET repos/acme/restbench/compare/" + mainSHA + "..." + forkHead:     "compare",
	}
}

func benchCases() []benchCase {
	prAPI := prAPI()
	forkMovedOn := map[string]string{"GET repos/acme/restbench/pulls/42": "pull-42-pushed"}
	forkClosed := map[string]string{"GET repos/acme/restbench/pulls/42": "pull-42-closed"}
	main := map[string]string{".": mainSHA}
	return []benchCase{
		{name: "push to main", fixture: "push", event: "push", sha: mainSHA, ref: "refs/heads/main",
			kind: "main", publish: true, checkouts: main, title: "benchmark push @ " + mainSHA, comment: noComment},
		{name: "push to a feature branch (were the filter bypassed)", fixture: "push-feature-branch", event: "push",
			sha: mainSHA, ref: "refs/heads/faster-json", title: "benchmark push @ " + mainSHA, comment: noComment},
		{name: "nightly schedule", fixture: "schedule", event: "schedule", sha: mainSHA, ref: "refs/heads/main",
			kind: "main", publish: true, checkouts: main, title: "benchmark schedule @ " + mainSHA, comment: noComment},
		{name: "manual run on main", fixture: "workflow_dispatch-main", event: "workflow_dispatch", sha: mainSHA,
			ref: "refs/heads/main", kind: "main", publish: true, checkouts: main,
			title: "benchmark workflow_dispatch @ " + mainSHA, comment: noComment},
		// The run uses the branch's own copy of benchmark.yml and its scripts, so only the host can refuse it.
		{name: "manual run on a branch: refused by the host", fixture: "workflow_dispatch-main",
			event: "workflow_dispatch", sha: sameRepoHead, ref: "refs/heads/faster-json", kind: "main",
			hostRefuses: true, title: "benchmark workflow_dispatch @ " + sameRepoHead, comment: noComment},
		{name: "same-repository pull request, pushed", fixture: "pull_request_target-same-repo-synchronize",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/main", api: prAPI, kind: "pr",
			checkouts: map[string]string{".": mainSHA, "pr-head": sameRepoHead},
			title:     "benchmark PR #41 @ " + sameRepoHead, pr: "41", comment: updatesOurs},
		{name: "same-repository pull request, opened", fixture: "pull_request_target-same-repo-opened",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/main", api: prAPI, kind: "pr",
			checkouts: map[string]string{".": mainSHA, "pr-head": sameRepoHead},
			title:     "benchmark PR #41 @ " + sameRepoHead, pr: "41", comment: updatesOurs},
		{name: "same-repository pull request, labelled (no code change)", fixture: "pull_request_target-same-repo-labeled",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/main", api: prAPI,
			title: "benchmark PR #41 @ " + sameRepoHead, pr: "41", comment: noComment},
		{name: "pull request into another branch", fixture: "pull_request_target-same-repo-into-release",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/release-1", api: prAPI,
			title: "benchmark PR #43 @ " + sameRepoHead, comment: noComment},
		{name: "fork pull request opened: nothing runs", fixture: "pull_request_target-fork-opened",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/main", api: prAPI,
			title: "benchmark PR #42 @ " + forkHead, pr: "42", comment: noComment},
		{name: "fork pull request labelled benchmark:approved by a triager: a label approves nothing",
			fixture: "pull_request_target-fork-labeled-approved", event: "pull_request_target", sha: mainSHA,
			ref: "refs/heads/main", api: prAPI, title: "benchmark PR #42 @ " + forkHead, pr: "42", comment: noComment},
		{name: "fork pushes after approval: nothing runs", fixture: "pull_request_target-fork-synchronize-after-approval",
			event: "pull_request_target", sha: mainSHA, ref: "refs/heads/main", api: prAPI,
			title: "benchmark PR #42 @ " + forkPushed, pr: "42", comment: noComment},
		{name: "maintainer approves the reviewed fork commit", fixture: "workflow_dispatch-fork-approval",
			event: "workflow_dispatch", sha: mainSHA, ref: "refs/heads/main", api: prAPI, kind: "pr",
			checkouts: map[string]string{".": mainSHA, "pr-head": forkHead},
			title:     "benchmark PR #42 @ " + forkHead, pr: "42", comment: createsComment},
		{name: "approval of a commit the fork has moved on from", fixture: "workflow_dispatch-fork-approval",
			event: "workflow_dispatch", sha: mainSHA, ref: "refs/heads/main", api: merge(prAPI, forkMovedOn),
			planFails: true, title: "benchmark PR #42 @ " + forkHead, pr: "42", comment: noComment},
		{name: "approval of a closed pull request", fixture: "workflow_dispatch-fork-approval",
			event: "workflow_dispatch", sha: mainSHA, ref: "refs/heads/main", api: merge(prAPI, forkClosed),
			planFails: true, title: "benchmark PR #42 @ " + forkHead, pr: "42", comment: noComment},
		{name: "approval dispatched from a branch (its harness would judge)", fixture: "workflow_dispatch-fork-approval",
			event: "workflow_dispatch", sha: sameRepoHead, ref: "refs/heads/faster-json", api: prAPI, planFails: true,
			title: "benchmark PR #42 @ " + forkHead, comment: noComment},
		{name: "approval with an abbreviated SHA", fixture: "workflow_dispatch-short-sha", event: "workflow_dispatch",
			sha: mainSHA, ref: "refs/heads/main", api: prAPI, planFails: true,
			title: "benchmark PR #42 @ " + forkHead[:7], comment: noComment},
		{name: "a line break in a dispatch input injects no output", fixture: "workflow_dispatch-newline-injection",
			event: "workflow_dispatch", sha: mainSHA, ref: "refs/heads/main", planFails: true,
			title: "benchmark workflow_dispatch @ " + mainSHA, comment: noComment},
	}
}

func merge(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func (c benchCase) world(t *testing.T) *world {
	w := newWorld(t)
	for call, fixture := range c.api {
		method, path, _ := strings.Cut(call, " ")
		w.api(method, path, fixture)
	}
	return w
}

func TestRehearsal(t *testing.T) {
	workflows := loadWorkflows(t)
	for i, c := range benchCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runID := 8100 + i
			ev := loadEvent(t, c.fixture, c.event, c.sha, c.ref, runID, c.mutate)
			w := c.world(t)
			sim := simulate(t, workflows["benchmark.yml"], ev, w, []string{"plan", "benchmark", "publish"}, map[string]bool{"plan": true})
			checkBenchmarkRun(t, c, sim, 55000+10*i)
			if c.comment == commentNotDrawn {
				return
			}
			conclusion := "success"
			if c.planFails {
				conclusion = "failure"
			}
			benchmarked := len(sim.ran("benchmark")) > 0 && sim.Jobs["plan"][0].Outputs["kind"] == "pr"
			if benchmarked {
				w.artifact(runID, "pr-ab", map[string]string{"run.json": "testdata/ab-run.json", "ab.json": "testdata/ab-design.json"})
			}
			branch := strings.TrimPrefix(c.ref, "refs/heads/")
			writes, _ := commentRun(t, w, c.event, sim.Title, c.sha, branch, conclusion, runID, "")
			checkComment(t, c, writes)
		})
	}
}

// checkBenchmarkRun checks the run's jobs; each benchmark job that is queued on the runner first goes through the
// host's job-started hook, run for real under throwaway uids from uidBase on (where this test may be root).
func checkBenchmarkRun(t *testing.T, c benchCase, sim simulation, uidBase int) {
	t.Helper()
	plan := sim.Jobs["plan"][0]
	if sim.Title != c.title {
		t.Errorf("run-name gives %q, want %q", sim.Title, c.title)
	}
	if (plan.Result == "failure") != c.planFails {
		t.Errorf("plan job %s, want failure=%v\n%s", plan.Result, c.planFails, stepLogs(plan))
	}
	// Bug 1: every checkout that runs must succeed with the pinned actions/checkout.
	for _, job := range []string{"plan", "benchmark", "publish"} {
		for _, r := range sim.ran(job) {
			for _, co := range r.Checkouts {
				if co.Refused != nil {
					t.Errorf("%s: actions/checkout would refuse %s at %s into %s: %v", job, co.Repo, co.SHA(), co.Path, co.Refused)
				}
			}
		}
	}
	runs := sim.ran("benchmark")
	if c.hostRefuses && len(runs) == 0 {
		t.Fatalf("the benchmark job is not even queued (guard: %q)", plan.Outputs["reason"])
	}
	for i := range runs {
		if !canRunHooks() {
			t.Log("the host's job-started hook is not evaluated: it needs root or passwordless sudo, and setpriv")
			break
		}
		job := newHookJob(t, uidBase+i, map[string]string{"GITHUB_REPOSITORY": testRepo,
			"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@" + c.ref, "GITHUB_EVENT_NAME": c.event,
			"GITHUB_JOB": "benchmark"})
		if out, accepted := job.start(t); accepted == c.hostRefuses {
			t.Errorf("the host's job-started hook accepted=%v, want %v:\n%s", accepted, !c.hostRefuses, out)
		}
	}
	if c.hostRefuses {
		return
	}
	if c.checkouts == nil {
		if len(runs) > 0 {
			t.Fatalf("the benchmark job runs on the self-hosted runner (%s), but must not (guard: %s)", plan.Outputs["kind"], plan.Outputs["reason"])
		}
	} else {
		if len(runs) == 0 {
			t.Fatalf("the benchmark job does not run (guard: %q)\n%s", plan.Outputs["reason"], stepLogs(plan))
		}
		if plan.Outputs["kind"] != c.kind {
			t.Errorf("kind = %q, want %q", plan.Outputs["kind"], c.kind)
		}
		for _, r := range runs {
			got := map[string]string{}
			for _, co := range r.Checkouts {
				got[co.Path] = co.SHA()
			}
			if !equalMaps(got, c.checkouts) {
				t.Errorf("shard %v checks out %v, want %v", r.Matrix["shard"], got, c.checkouts)
			}
			ab, run := r.step("A/B benchmark (pull request)"), r.step("Benchmark (main, nightly, manual)")
			if ab == nil || run == nil {
				t.Fatal("the benchmark job lost its A/B or run step")
			}
			if ab.Ran != (c.kind == "pr") || run.Ran != (c.kind == "main") {
				t.Errorf("A/B step ran=%v, run step ran=%v for kind %s", ab.Ran, run.Ran, c.kind)
			}
			if c.kind == "pr" && ab.Env["HEAD_SHA"] != c.checkouts["pr-head"] {
				t.Errorf("the A/B measures HEAD_SHA=%s, but pr-head holds %s", ab.Env["HEAD_SHA"], c.checkouts["pr-head"])
			}
			if check := r.step("Check the host (its hooks, the runtimes this plan needs)"); check == nil || !check.Ran ||
				r.Matrix["runtimes"] == "" {
				t.Errorf("the host check does not run with the shard's runtimes (matrix %v)", r.Matrix)
			}
		}
	}
	publish := sim.ran("publish")
	if (len(publish) > 0) != c.publish {
		t.Errorf("publish runs: %v, want %v", len(publish) > 0, c.publish)
	}
	for _, r := range publish {
		for _, s := range r.Steps {
			if strings.HasPrefix(s.Uses, "benchmark-action/github-action-benchmark@") && s.With["ref"] != c.sha {
				t.Errorf("github-action-benchmark credits the run to %q, not the measured commit %s", s.With["ref"], c.sha)
			}
		}
		if got := r.Checkouts[0].SHA(); got != c.sha {
			t.Errorf("publish builds the runner from %s, want %s", got, c.sha)
		}
		checkPagesWorktree(t, r, c.sha)
	}
}

// checkPagesWorktree: the publish job never checks out a branch, which may not exist (gh-pages, on the first run of
// a new repository, makes actions/checkout fail); its gh-pages worktree is the run's own commit, and
// publish-pages.sh --prepare makes it gh-pages (an empty orphan when there is none yet) before anything reads it.
func checkPagesWorktree(t *testing.T, r jobResult, sha string) {
	t.Helper()
	pages := -1
	for i, co := range r.Checkouts {
		if co.Commit == "" {
			t.Errorf("publish checks out the ref %q into %s, which need not exist: check out a commit", co.Ref, co.Path)
		}
		if co.Path == "gh-pages" {
			pages = i
			if co.Commit != sha {
				t.Errorf("publish's gh-pages worktree starts at %q, want the run's commit %s", co.Commit, sha)
			}
		}
	}
	if pages < 0 {
		t.Fatal("publish checks out no gh-pages worktree")
	}
	order := map[string]int{}
	for i, s := range r.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["path"] == "gh-pages" && s.Ran:
			order["checkout"] = i
		case strings.TrimSpace(s.Run) == ".github/scripts/publish-pages.sh --prepare gh-pages" && s.Ran:
			order["prepare"] = i
		case strings.HasPrefix(strings.TrimSpace(s.Run), ".github/scripts/alert-input.sh gh-pages ") && s.Ran:
			order["alerts"] = i
		case strings.HasPrefix(strings.TrimSpace(s.Run), ".github/scripts/publish-pages.sh gh-pages ") && s.Ran:
			order["publish"] = i
		}
	}
	for _, step := range []string{"checkout", "prepare", "alerts", "publish"} {
		if _, ok := order[step]; !ok {
			t.Errorf("publish lacks its %s step for gh-pages (steps found: %v)", step, order)
		}
	}
	if len(order) == 4 && !(order["checkout"] < order["prepare"] && order["prepare"] < order["alerts"] && order["alerts"] < order["publish"]) {
		t.Errorf("publish's gh-pages steps run in the order %v, want checkout < prepare < alerts < publish", order)
	}
}

func checkComment(t *testing.T, c benchCase, writes []string) {
	t.Helper()
	switch c.comment {
	case noComment:
		if len(writes) > 0 {
			t.Errorf("benchmark-comment.yml writes %v, want nothing", writes)
		}
	case updatesOurs, createsComment, postsFailure:
		if len(writes) != 1 {
			t.Fatalf("benchmark-comment.yml writes %d times, want once: %v", len(writes), writes)
		}
		want := "POST repos/acme/restbench/issues/" + c.pr + "/comments "
		if c.comment == updatesOurs {
			want = "PATCH repos/acme/restbench/issues/comments/2500000003 "
		}
		if !strings.HasPrefix(writes[0], want) {
			t.Errorf("writes %.120s…, want %s…", writes[0], want)
		}
		var body struct{ Body string }
		_ = json.Unmarshal([]byte(writes[0][strings.Index(writes[0], "{"):]), &body)
		if !strings.HasPrefix(body.Body, commentMarker+"\n") {
			t.Errorf("the comment does not start with the marker: %.80q", body.Body)
		}
		head := c.checkouts["pr-head"]
		if c.comment == postsFailure {
			if !strings.Contains(body.Body, "failed") {
				t.Errorf("want a failure notice, got %q", body.Body)
			}
			return
		}
		// Judged by main's code (ab --from) from the record: base = the merge base, head = the benchmarked commit.
		for _, line := range []string{"base: " + mergeBaseSHA + " 20261121T031500Z-5e2c7a9-base jersey cells=jersey,jersey",
			"head: " + head + " 20261121T031500Z-5e2c7a9-head jersey cells=jersey,jersey"} {
			if !strings.Contains(body.Body, line) {
				t.Errorf("comment lacks %q:\n%s", line, body.Body)
			}
		}
	}
}

// commentRun simulates benchmark-comment.yml for a finished benchmark run and returns the writes to GitHub.
func commentRun(t *testing.T, w *world, runEvent, title, headSHA, branch, conclusion string, runID int,
	path string) ([]string, jobResult) {
	t.Helper()
	if path == "" {
		path = ".github/workflows/benchmark.yml"
	}
	wr := loadEvent(t, "workflow_run", "workflow_run", mainSHA, "refs/heads/main", runID+50000, func(p map[string]any) {
		run := p["workflow_run"].(map[string]any)
		run["event"], run["display_title"], run["head_sha"], run["head_branch"] = runEvent, title, headSHA, branch
		run["conclusion"], run["id"], run["path"] = conclusion, runID, path
		run["html_url"] = "https://github.com/acme/restbench/actions/runs/" + itoa(runID)
		run["head_commit"].(map[string]any)["id"] = headSHA
	})
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	w.extraEnv = append(w.extraEnv, "BENCH="+fakeBench)
	before := len(w.writes())
	sim := simulate(t, loadWorkflows(t)["benchmark-comment.yml"], wr, w, []string{"comment"}, map[string]bool{"comment": true})
	job := sim.Jobs["comment"][0]
	if job.Result != "success" {
		t.Errorf("benchmark-comment.yml fails (a red run for nothing to post):\n%s", stepLogs(job))
	}
	for _, co := range job.Checkouts {
		if co.Refused != nil || co.SHA() != mainSHA {
			t.Errorf("the comment job checks out %s (%v), want main's %s", co.SHA(), co.Refused, mainSHA)
		}
	}
	return w.writes()[before:], job
}

func itoa(i int) string {
	data, _ := json.Marshal(i)
	return string(data)
}

func stepLogs(j jobResult) string {
	var b strings.Builder
	for _, s := range j.Steps {
		if s.Output != "" {
			b.WriteString("--- " + s.Name + s.ID + ":\n" + s.Output)
		}
	}
	return b.String()
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Comment-job cases that need no benchmark run: forged, stale, failed and empty runs.
func TestRehearsalOfTheCommentJob(t *testing.T) {
	record := "testdata/ab-run.json"
	cases := []struct {
		name, event, title, head, branch, conclusion, path string
		api                                                map[string]string
		artifact                                           string
		want                                               string // prefix of the one write, "" = no write
		body                                               string // in the body
	}{
		{name: "a fork's own workflow named benchmark (event pull_request) with a forged title",
			event: "pull_request", title: "benchmark PR #41 @ " + sameRepoHead, head: sameRepoHead, conclusion: "success",
			artifact: record},
		{name: "a run of another workflow file", event: "pull_request_target", title: "benchmark PR #41 @ " + sameRepoHead,
			head: mainSHA, conclusion: "success", path: ".github/workflows/evil.yml", artifact: record},
		{name: "a title that only starts like ours", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead + " and more", head: mainSHA, conclusion: "success", artifact: record},
		{name: "the pull request moved on since: no stale verdict", event: "pull_request_target",
			title: "benchmark PR #42 @ " + forkHead, head: mainSHA, conclusion: "success", artifact: record,
			api: map[string]string{"GET repos/acme/restbench/pulls/42": "pull-42-pushed"}},
		{name: "no artifact, run succeeded (nothing was benchmarked)", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "success"},
		{name: "no artifact, run cancelled by a newer push", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "cancelled"},
		{name: "no artifact, run failed: the notice replaces our comment", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "failure",
			want: "PATCH repos/acme/restbench/issues/comments/2500000003 ", body: "failed"},
		{name: "nothing to measure (a head that changes no variant): the notice says so", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "success", artifact: "nothing",
			want: "PATCH repos/acme/restbench/issues/comments/2500000003 ", body: "Nothing to measure"},
		{name: "a scope that measured something but no record: nothing to post", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "success", artifact: "scope-measured"},
		{name: "a record naming a variant main does not know", event: "pull_request_target",
			title: "benchmark PR #41 @ " + sameRepoHead, head: mainSHA, conclusion: "success", artifact: "forged",
			want: "PATCH repos/acme/restbench/issues/comments/2500000003 ", body: "could not be read"},
		{name: "a dispatched approval run from a branch", event: "workflow_dispatch", branch: "faster-json",
			title: "benchmark PR #42 @ " + forkHead, head: sameRepoHead, conclusion: "success", artifact: record},
		{name: "a push run", event: "push", title: "benchmark push @ " + mainSHA, head: mainSHA, conclusion: "success"},
	}
	forged := filepath.Join(t.TempDir(), "forged.json")
	data, _ := os.ReadFile(record)
	if err := os.WriteFile(forged, []byte(strings.ReplaceAll(string(data), "jersey--head", "evil-[click](https://x)--head")), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			api := merge(prAPI(), c.api)
			for call, fixture := range api {
				method, path, _ := strings.Cut(call, " ")
				w.api(method, path, fixture)
			}
			runID := 9100 + i
			switch c.artifact {
			case "":
			case "forged":
				w.artifact(runID, "pr-ab", map[string]string{"run.json": forged, "ab.json": "testdata/ab-design.json"})
			case "nothing":
				w.artifact(runID, "pr-ab", map[string]string{"scope.json": "testdata/ab-scope-nothing.json"})
			case "scope-measured":
				w.artifact(runID, "pr-ab", map[string]string{"scope.json": "testdata/ab-design.json"})
			default:
				w.artifact(runID, "pr-ab", map[string]string{"run.json": c.artifact, "ab.json": "testdata/ab-design.json"})
			}
			branch := c.branch
			if branch == "" {
				branch = "main"
			}
			writes, job := commentRun(t, w, c.event, c.title, c.head, branch, c.conclusion, runID, c.path)
			if c.want == "" {
				if len(writes) > 0 {
					t.Errorf("writes %v, want nothing (%s)", writes, job.Outputs)
				}
				return
			}
			if len(writes) != 1 || !strings.HasPrefix(writes[0], c.want) || !strings.Contains(writes[0], c.body) {
				t.Errorf("writes %v, want one %s… containing %q\n%s", writes, c.want, c.body, stepLogs(job))
			}
		})
	}
}
