package validate

import (
	"strings"
	"testing"
)

// Bug 6: a concurrency group keeps at most ONE pending run and cancels the older pending one (also with
// cancel-in-progress: false), so a main or nightly run that shares a group with any other run can vanish while it
// waits, and its history point with it. Every run that can be queued at the same time is simulated here, sharded
// and not, and every group a main run's job is in must belong to that job alone.
func TestConcurrencyNeverCancelsAMainRun(t *testing.T) {
	workflow := loadWorkflows(t)["benchmark.yml"]
	sharded := shardedManifest(t)

	type slot struct {
		run, job, group string
		main, cancel    bool
	}
	var slots []slot
	runID := 7000
	for _, manifest := range []string{"", sharded} {
		for _, c := range benchCases() {
			if c.checkouts == nil {
				continue // nothing queues for the runner
			}
			runID++
			w := c.world(t)
			if manifest != "" {
				w.extraEnv = append(w.extraEnv, "MANIFEST="+manifest)
			}
			ev := loadEvent(t, c.fixture, c.event, c.sha, c.ref, runID, c.mutate)
			sim := simulate(t, workflow, ev, w, []string{"plan", "benchmark", "publish"}, map[string]bool{"plan": true})
			isMain := sim.Jobs["plan"][0].Outputs["kind"] == "main" && sim.Jobs["plan"][0].Outputs["run"] == "true"
			name := c.name + map[bool]string{true: " (sharded)", false: ""}[manifest != ""]
			if sim.Workflow != "" {
				slots = append(slots, slot{name, "(workflow)", sim.Workflow, isMain, false})
			}
			for _, job := range []string{"plan", "benchmark", "publish"} {
				for _, r := range sim.ran(job) {
					if r.Group != "" {
						slots = append(slots, slot{name, job, r.Group, isMain, r.Cancel})
					}
				}
			}
		}
	}
	mainJobs := 0
	for i, a := range slots {
		if !a.main {
			continue
		}
		mainJobs++
		if a.cancel {
			t.Errorf("%s/%s: cancel-in-progress on a main run's group %q would cancel a running measurement", a.run, a.job, a.group)
		}
		for j, b := range slots {
			if i != j && a.group == b.group {
				t.Errorf("%s/%s shares concurrency group %q with %s/%s: a newer pending run cancels the older one",
					a.run, a.job, a.group, b.run, b.job)
			}
		}
	}
	if mainJobs == 0 {
		t.Fatal("no main run had a concurrency group: the rehearsal lost its subject")
	}
	// Superseded A/B runs of one pull request do cancel each other: that is the only sharing allowed.
	prGroups := map[string]bool{}
	for _, s := range slots {
		if !s.main && s.job == "benchmark" {
			prGroups[s.group] = true
			if !s.cancel || !strings.HasPrefix(s.group, "benchmark-pr-") {
				t.Errorf("%s: A/B group %q (cancel %v): a newer push should cancel the older A/B", s.run, s.group, s.cancel)
			}
		}
	}
	if !prGroups["benchmark-pr-41-all"] || !prGroups["benchmark-pr-42-all"] {
		t.Errorf("want one group per pull request, got %v", prGroups)
	}
}

// Bug 1's safety net: should the guard ever let a fork's pull_request_target event through, the pinned
// actions/checkout refuses the fork's head (no allow-unsafe-pr-checkout), and the approved path, a dispatch, checks
// it out. resolveCheckout ports the action's own check.
func TestAForkHeadIsNeverCheckedOutInAPullRequestTargetRun(t *testing.T) {
	workflow := loadWorkflows(t)["benchmark.yml"]
	forced := map[string]map[string]any{"plan": {"result": "success", "outputs": map[string]any{
		"run": "true", "kind": "pr", "pr": "42", "head_sha": forkHead, "publish": "false",
		"matrix": `{"include":[{"shard":"all","variants":"jersey"}]}`, "profile": "quick", "scenarios": "read-heavy",
		"concurrency_group": "benchmark-pr-42", "cancel_superseded": "true"}}}
	for _, fixture := range []string{"pull_request_target-fork-opened", "pull_request_target-fork-labeled-approved"} {
		w := newWorld(t)
		w.seed = forced
		ev := loadEvent(t, fixture, "pull_request_target", mainSHA, "refs/heads/main", 1, nil)
		sim := simulate(t, workflow, ev, w, []string{"benchmark"}, nil)
		refused := 0
		for _, r := range sim.ran("benchmark") {
			for _, co := range r.Checkouts {
				if co.Refused != nil {
					refused++
				} else if co.SHA() == forkHead {
					t.Errorf("%s: the fork's head %s is checked out into %s in a pull_request_target run", fixture, forkHead, co.Path)
				}
			}
		}
		if refused != 1 {
			t.Errorf("%s: want actions/checkout to refuse the fork's head once, refused %d times", fixture, refused)
		}
	}
	w := newWorld(t)
	w.seed = forced
	ev := loadEvent(t, "workflow_dispatch-fork-approval", "workflow_dispatch", mainSHA, "refs/heads/main", 2, nil)
	for _, r := range simulate(t, workflow, ev, w, []string{"benchmark"}, nil).ran("benchmark") {
		for _, co := range r.Checkouts {
			if co.Refused != nil {
				t.Errorf("the approved dispatch cannot check out %s: %v", co.SHA(), co.Refused)
			}
		}
	}
}
