// What an adversarial review of the host found (after issue 20's first version), each re-checked here for real under
// throwaway uids: a refused job must not run any further step, a fork's pull_request_target run is refused by the host
// too, and the cleanup cannot be dodged by links, stopped by an unwritable tree, or broken by a container's process 1.
package validate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startUnderWorker runs the hook as the runner does: a child of a process named Runner.Worker (a script of that name,
// which goes on to "run the job's next step" when the hook returns). It returns the hook's output and whether that
// next step ran.
func (j hookJob) startUnderWorker(t *testing.T) (string, bool) {
	t.Helper()
	dir := filepath.Join(j.tmp, "..", "worker")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "next-step-ran")
	worker := filepath.Join(dir, "Runner.Worker")
	script := "#!/bin/bash\nbash -e \"$1\"\necho \"hook exit $?\"\necho ran > " + marker + "\n"
	if err := os.WriteFile(worker, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(dir, 0o777)
	hook := j.host.env["ACTIONS_RUNNER_HOOK_JOB_STARTED"]
	j.hookCommand = []string{worker, hook}
	out, _ := j.start(t)
	_, err := os.Stat(marker)
	return out, err == nil
}

// Review finding 1: a failing job-started hook only fails its own step; the runner goes on with the job's always()
// steps and its actions' pre: scripts. A refusal therefore ends the worker, so nothing after the hook runs.
func TestARefusedJobRunsNoFurtherStep(t *testing.T) {
	refused := newHookJob(t, 54460, map[string]string{"GITHUB_REPOSITORY": testRepo,
		"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/ci.yml@refs/pull/42/merge", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_JOB": "mine"})
	out, nextStep := refused.startUnderWorker(t)
	if nextStep || !strings.Contains(out, "ending this job's runner worker") {
		t.Errorf("a refused job went on to its next step (or the worker was not ended):\n%s", out)
	}
	accepted := newHookJob(t, 54461, map[string]string{"GITHUB_REPOSITORY": testRepo,
		"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@refs/heads/main", "GITHUB_EVENT_NAME": "push",
		"GITHUB_JOB": "benchmark"})
	if out, nextStep := accepted.startUnderWorker(t); !nextStep || !strings.Contains(out, "hook exit 0") {
		t.Errorf("an accepted job did not go on:\n%s", out)
	}
}

// Review finding 11: main's benchmark.yml started by a fork's pull request (pull_request_target) is refused by the
// host as well as by the workflow's guard.
func TestTheHookRefusesAForksPullRequestTargetRun(t *testing.T) {
	for i, c := range []struct {
		event    string
		accepted bool
	}{{"pull_request_target-fork-opened.json", false}, {"pull_request_target-same-repo-opened.json", true}} {
		path, _ := filepath.Abs("testdata/events/" + c.event)
		job := newHookJob(t, 54462+i, map[string]string{"GITHUB_REPOSITORY": testRepo,
			"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@refs/heads/main",
			"GITHUB_EVENT_NAME":   "pull_request_target", "GITHUB_JOB": "benchmark", "GITHUB_EVENT_PATH": path})
		if out, accepted := job.start(t); accepted != c.accepted {
			t.Errorf("%s: accepted=%v, want %v:\n%s", c.event, accepted, c.accepted, out)
		}
	}
}

// Review findings 4 and 5: a link from $HOME into the runner's directory is removed (not kept as if it were the
// runner), and a tree the job made unwritable neither survives nor makes the cleanup fail.
func TestTheCleanupRemovesLinksAndUnwritableTrees(t *testing.T) {
	job := newHookJob(t, 54464, map[string]string{"GITHUB_REPOSITORY": testRepo,
		"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@refs/heads/main", "GITHUB_EVENT_NAME": "push",
		"GITHUB_JOB": "benchmark"})
	// Links AT the runner's directory: resolved, they were "the runner" and were kept, so ~/.config/git/config (a
	// file the job wrote into the runner's directory) configured every later job's git.
	runnerDir := filepath.Dir(filepath.Dir(job.runnerBinary))
	if err := os.MkdirAll(filepath.Join(runnerDir, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(runnerDir, "git", "config"), []byte("[core]\n\tfsmonitor = touch /tmp/x\n"), 0o644)
	links := []string{filepath.Join(job.home, ".config"), filepath.Join(job.home, ".m2")}
	for _, l := range links {
		if err := os.Symlink(runnerDir, l); err != nil {
			t.Fatal(err)
		}
	}
	stuck := filepath.Join(job.home, ".stuck")
	_ = os.MkdirAll(filepath.Join(stuck, "inner"), 0o755)
	_ = os.WriteFile(filepath.Join(stuck, "inner", "f"), []byte("x"), 0o644)
	out, ok := job.start(t, func() {
		chmod := append(append([]string{}, job.prefix...), "chmod", "0500", filepath.Join(stuck, "inner"), stuck)
		if o, err := exec.Command(chmod[0], chmod[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, o)
		}
	})
	if !ok {
		t.Fatalf("the cleanup failed:\n%s", out)
	}
	for _, gone := range append(links, stuck) {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s survived the cleanup:\n%s", gone, out)
		}
	}
	if _, err := os.Stat(job.runnerBinary); err != nil {
		t.Errorf("the runner's own files went with the links: %v", err)
	}
}

// Review finding 3: in a container the runner is process 1; the cleanup must not try to stop it (process 1 ignores
// the signal, and "processes survived SIGKILL: 1" failed every job). Run in a PID namespace of its own.
func TestTheCleanupLeavesProcessOneAlone(t *testing.T) {
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare (util-linux) is missing")
	}
	job := newHookJob(t, 54465, map[string]string{"GITHUB_REPOSITORY": testRepo,
		"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@refs/heads/main", "GITHUB_EVENT_NAME": "push",
		"GITHUB_JOB": "benchmark"})
	// unshare -p -f makes its child process 1 of a new namespace; setpriv (inside job.start) then execs the runner's
	// stand-in, a shell that stays process 1 while the hook runs as its child.
	job.wrap = []string{"unshare", "--pid", "--fork", "--mount-proc"}
	job.hookCommand = []string{"/bin/bash", "-c", "bash -e \"$0\"; status=$?; sleep 0.1; exit $status",
		job.host.env["ACTIONS_RUNNER_HOOK_JOB_STARTED"]}
	done := make(chan struct{})
	var out string
	var ok bool
	go func() { out, ok = job.start(t); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the cleanup in a PID namespace did not finish")
	}
	if !ok || strings.Contains(out, "survived") {
		t.Errorf("the cleanup tried to stop process 1:\n%s", out)
	}
}

// CLEANUP=no in host.conf (a fresh container per job, where HOME is the runner's own directory): the hook still
// refuses and accepts, and removes nothing.
func TestACleanupFreeHostStillFilters(t *testing.T) {
	host := provision(t)
	prefix := asRoot(t)
	dir, err := os.MkdirTemp("", "host-nocleanup-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rm := append(append([]string{}, prefix...), "rm", "-rf", dir)
		_ = exec.Command(rm[0], rm[1:]...).Run()
	})
	cp := append(append([]string{}, prefix...), "bash", "-c", `cp -a "$0"/. "$1"/ && printf 'REPOSITORY=%s\nCLEANUP=no\n' "$2" > "$1/host.conf" && chown -R root:root "$1" && chmod 0755 "$1"`,
		host.hostDir, dir, testRepo)
	if o, err := exec.Command(cp[0], cp[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, o)
	}
	for i, c := range []struct {
		ref      string
		accepted bool
	}{{"refs/heads/main", true}, {"refs/heads/faster-json", false}} {
		job := newHookJob(t, 54466+i, map[string]string{"GITHUB_REPOSITORY": testRepo,
			"GITHUB_WORKFLOW_REF": testRepo + "/.github/workflows/benchmark.yml@" + c.ref, "GITHUB_EVENT_NAME": "push",
			"GITHUB_JOB": "benchmark"})
		kept := filepath.Join(job.home, ".gitconfig")
		_ = os.WriteFile(kept, []byte("[user]\n\tname = x\n"), 0o644)
		job.hookCommand = []string{filepath.Join(dir, "job-started.sh")}
		out, accepted := job.start(t)
		if accepted != c.accepted {
			t.Errorf("%s: accepted=%v, want %v:\n%s", c.ref, accepted, c.accepted, out)
		}
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s: with CLEANUP=no the hook removed %s:\n%s", c.ref, kept, out)
		}
	}
}

// Review finding 7: the job's host check is not satisfied by the cleanup-only hook in the STARTED slot, nor by hooks
// that differ from this commit's .github/host.
func TestTheHostCheckWantsTheFilteringHookAsProvisioned(t *testing.T) {
	host := provision(t)
	prefix := asRoot(t)
	swapped := map[string]string{}
	for k, v := range host.env {
		swapped[k] = v
	}
	swapped["ACTIONS_RUNNER_HOOK_JOB_STARTED"] = host.env["ACTIONS_RUNNER_HOOK_JOB_COMPLETED"]
	if out, ok := hostCheck(t, swapped, "jdk 17", 54470); ok || !strings.Contains(out, "not a job-started.sh") {
		t.Errorf("the cleanup-only hook in the STARTED slot passes the host check:\n%s", out)
	}
	dir, err := os.MkdirTemp("", "host-changed-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rm := append(append([]string{}, prefix...), "rm", "-rf", dir)
		_ = exec.Command(rm[0], rm[1:]...).Run()
	})
	cp := append(append([]string{}, prefix...), "bash", "-c",
		`cp -a "$0"/. "$1"/ && echo 'exit 0' > "$1/runner-cleanup.sh" && chown -R root:root "$1" && chmod 0755 "$1"`,
		host.hostDir, dir)
	if o, err := exec.Command(cp[0], cp[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, o)
	}
	changed := map[string]string{}
	for k, v := range host.env {
		changed[k] = v
	}
	changed["ACTIONS_RUNNER_HOOK_JOB_STARTED"] = filepath.Join(dir, "job-started.sh")
	changed["ACTIONS_RUNNER_HOOK_JOB_COMPLETED"] = filepath.Join(dir, "job-completed.sh")
	if out, ok := hostCheck(t, changed, "jdk 17", 54470); ok || !strings.Contains(out, "differs from .github/host/runner-cleanup.sh") {
		t.Errorf("a host whose cleanup was replaced passes the host check:\n%s", out)
	}
}

// Review finding 8: a name given twice is refused (two shards with one artifact name, or a variant measured twice).
func TestThePlanRefusesANameGivenTwice(t *testing.T) {
	for _, in := range []map[string]string{{"variants": "jersey,jersey"}, {"scenarios": "mixed,mixed"}} {
		if out, err := plan(t, filepath.Join(root, "benchmarks.json"), "main", in); err == nil {
			t.Errorf("%v was accepted: %v", in, out)
		}
	}
}

// Review finding 2: on a persistent runner the runner's directory belongs to the runner's user, who could plant
// links where provision.sh (as root) writes and reads the .env. The .env is now written as the directory's owner and
// an existing one read only when it is no link: a root-only file behind a link is neither copied nor touched.
func TestProvisionWritesNothingThroughTheRunnerUsersLinks(t *testing.T) {
	prefix := asRoot(t)
	host := provision(t) // its runner and service users exist: this provisioning names them again
	base, err := os.MkdirTemp("", "provision-links-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rm := append(append([]string{}, prefix...), "rm", "-rf", base)
		_ = exec.Command(rm[0], rm[1:]...).Run()
	})
	_ = os.Chmod(base, 0o755)
	// A runner user of this test's own (a persistent runner's directory belongs to it).
	runnerUser := "rblinks" + strconv.Itoa(os.Getpid())
	add := append(append([]string{}, prefix...), "useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", runnerUser)
	if o, err := exec.Command(add[0], add[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, o)
	}
	t.Cleanup(func() {
		del := append(append([]string{}, prefix...), "userdel", runnerUser)
		_ = exec.Command(del[0], del[1:]...).Run()
	})
	runnerDir, secretDir := filepath.Join(base, "runner"), filepath.Join(base, "secret")
	secret := filepath.Join(secretDir, "shadow")
	target := filepath.Join(secretDir, "cron")
	script := `set -e; mkdir -p "$1" "$2"; echo root-secret > "$3"; echo '# root only' > "$4"; chmod 600 "$3" "$4"
chmod 700 "$2"; chown "$5" "$1"; runuser -u "$5" -- ln -s "$3" "$1/.env"`
	setup := append(append([]string{}, prefix...), "bash", "-c", script, "_", runnerDir, secretDir, secret, target,
		runnerUser)
	if o, err := exec.Command(setup[0], setup[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, o)
	}
	args := append(append([]string{}, prefix...), "bash", hostScript("provision.sh"), "--repository", testRepo,
		"--runner-dir", runnerDir, "--host-dir", filepath.Join(base, "host"), "--runner-user", runnerUser,
		"--service-user", host.serviceUser, "--sudoers", filepath.Join(base, "sudoers"))
	if o, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("provision.sh: %v\n%s", err, o)
	}
	read := func(path string) string {
		cat := append(append([]string{}, prefix...), "cat", path)
		o, _ := exec.Command(cat[0], cat[1:]...).CombinedOutput()
		return string(o)
	}
	env := read(filepath.Join(runnerDir, ".env"))
	if strings.Contains(env, "root-secret") || !strings.Contains(env, "ACTIONS_RUNNER_HOOK_JOB_STARTED=") {
		t.Errorf("the new .env copied what the link pointed at, or lacks the hooks:\n%s", env)
	}
	if got := read(secret); got != "root-secret\n" {
		t.Errorf("the file behind the runner user's link was changed: %q", got)
	}
	if uid := statUID(t, filepath.Join(runnerDir, ".env")); uid == 0 {
		t.Error("the .env in the runner user's directory was written by root")
	}
}
