// The runner host and what the plan asks of it: each event's profile and variants (a pull request's A/B gets its
// profile's variants, never every variant), the runtimes each shard needs against those the host is provisioned
// with, and the host's job-started hook, run for real under throwaway uids with the environments the runner gives
// main's benchmark job, a fork's added job, a branch's copy of benchmark.yml and the comment job.
package validate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func hostScript(name string) string {
	path, _ := filepath.Abs(filepath.Join(root, ".github/host", name))
	return path
}

// manifestRuntimes is ManifestLoader's rule, written again as the oracle: a variant's own runtime, else the one of the
// variant it extends, else defaults.runtime; "jdk 25", "node 20".
func manifestRuntimes(t *testing.T, m map[string]any) map[string]string {
	t.Helper()
	entries := map[string]map[string]any{}
	for _, v := range m["variants"].([]any) {
		entry := v.(map[string]any)
		entries[entry["name"].(string)] = entry
	}
	format := func(r any) string {
		rt := r.(map[string]any)
		version, ok := rt["version"].(float64)
		if !ok {
			return rt["name"].(string) // "native": a compiled executable, no version
		}
		return rt["name"].(string) + " " + strconv.Itoa(int(version))
	}
	var resolve func(name string, depth int) string
	resolve = func(name string, depth int) string {
		entry, ok := entries[name]
		if !ok || depth > len(entries) {
			t.Fatalf("variant %q cannot be resolved", name)
		}
		if r, ok := entry["runtime"]; ok && r != nil {
			return format(r)
		}
		if base, ok := entry["extends"].(string); ok {
			return resolve(base, depth+1)
		}
		return format(m["defaults"].(map[string]any)["runtime"])
	}
	out := map[string]string{}
	for name := range entries {
		out[name] = resolve(name, 0)
	}
	return out
}

// profileVariants: the profile's own list, else every variant of the manifest (as ./bench run selects).
func profileVariants(m map[string]any, profile string) []string {
	if list, ok := m["profiles"].(map[string]any)[profile].(map[string]any)["variants"].([]any); ok {
		var out []string
		for _, v := range list {
			out = append(out, v.(string))
		}
		return out
	}
	var out []string
	for _, v := range m["variants"].([]any) {
		out = append(out, v.(map[string]any)["name"].(string))
	}
	return out
}

type shard struct{ Shard, Variants, Runtimes string }

func planShards(t *testing.T, matrix string) []shard {
	t.Helper()
	var m struct {
		Include []shard `json:"include"`
	}
	if err := json.Unmarshal([]byte(matrix), &m); err != nil {
		t.Fatalf("matrix %q: %v", matrix, err)
	}
	return m.Include
}

func runtimesOf(runtimes map[string]string, variants []string) string {
	set := map[string]bool{}
	for _, v := range variants {
		set[runtimes[v]] = true
	}
	var out []string
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// Finding 2 of issue 20: an explicit variant list made a pull request's A/B measure all 19 variants. Every event's
// plan now measures its profile's variants, an input only narrows them, and each shard names the runtimes its
// variants need (finding 1: the host is asked for exactly those).
func TestProfilesMeanWhatTheySay(t *testing.T) {
	m := manifest(t)
	runtimes := manifestRuntimes(t, m)
	plain := filepath.Join(root, "benchmarks.json")
	check := func(what string, out map[string]string, wantProfile string, want []string) {
		t.Helper()
		if out["profile"] != wantProfile {
			t.Errorf("%s: profile %q, want %q", what, out["profile"], wantProfile)
		}
		var got []string
		for _, s := range planShards(t, out["matrix"]) {
			names := strings.Split(s.Variants, ",")
			got = append(got, names...)
			if s.Runtimes != runtimesOf(runtimes, names) {
				t.Errorf("%s: shard %s needs runtimes %q, the plan says %q", what, s.Shard, runtimesOf(runtimes, names), s.Runtimes)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: measures %v, want the profile's %v", what, got, want)
		}
		if out["runtimes"] != runtimesOf(runtimes, want) {
			t.Errorf("%s: runtimes output %q, want %q", what, out["runtimes"], runtimesOf(runtimes, want))
		}
	}
	for _, manifestPath := range []string{plain, shardedManifest(t)} {
		out, err := plan(t, manifestPath, "pr", nil)
		if err != nil {
			t.Fatal(err)
		}
		check("pull request A/B", out, "quick", profileVariants(m, "quick"))
		out, err = plan(t, manifestPath, "main", nil)
		if err != nil {
			t.Fatal(err)
		}
		check("push / nightly", out, "main", profileVariants(m, "main"))
		for profile := range m["profiles"].(map[string]any) {
			own := profileVariants(m, profile)
			out, err := plan(t, manifestPath, "main", map[string]string{"profile": profile})
			if err != nil {
				t.Fatal(err)
			}
			check("manual run of "+profile, out, profile, own)
			out, err = plan(t, manifestPath, "main", map[string]string{"profile": profile, "variants": own[len(own)-1]})
			if err != nil {
				t.Fatal(err)
			}
			check("manual run of "+profile+" narrowed", out, profile, own[len(own)-1:])
			for _, v := range profileVariants(m, "matrix") {
				if !contains(own, v) {
					if out, err := plan(t, manifestPath, "main", map[string]string{"profile": profile, "variants": v}); err == nil {
						t.Errorf("profile %s widened by the variants input to %s: %v", profile, v, out["matrix"])
					}
					break
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// provisioned is a host prepared by provision.sh, for real, in a temporary directory: root-owned hooks, host.conf and
// the runner's .env (the runtimes are this machine's own, which provision.sh finds and keeps); and a service user and
// its sudoers rule for a runner user, both throwaway (TestMain removes them after the package's tests), the rule in a
// file of its own under /etc/sudoers.d so that sudo itself is asked.
type provisioned struct {
	hostDir                 string
	env                     map[string]string
	output                  string
	runnerUser, serviceUser string
	sudoers                 string
}

var (
	provisionOnce sync.Once
	provisionHost provisioned
	provisionErr  string
)

// asRoot is the prefix that runs a command as root: none as root, passwordless sudo elsewhere; skips the test when
// neither is there (the hooks are only meaningful root-owned and run under another uid).
func asRoot(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("setpriv (util-linux) is missing")
	}
	if os.Geteuid() == 0 {
		return nil
	}
	if exec.Command("sudo", "-n", "true").Run() != nil {
		t.Skip("needs root or passwordless sudo to install root-owned hooks and run them under a throwaway uid")
	}
	return []string{"sudo", "-n"}
}

// canRunHooks: whether asRoot would let a test run the hooks here.
func canRunHooks() bool {
	if _, err := exec.LookPath("setpriv"); err != nil {
		return false
	}
	return os.Geteuid() == 0 || exec.Command("sudo", "-n", "true").Run() == nil
}

func provision(t *testing.T) provisioned {
	t.Helper()
	prefix := asRoot(t)
	provisionOnce.Do(func() {
		base, err := os.MkdirTemp("", "host-")
		if err != nil {
			provisionErr = err.Error()
			return
		}
		_ = os.Chmod(base, 0o755)
		runnerDir := filepath.Join(base, "actions-runner")
		_ = os.MkdirAll(runnerDir, 0o755)
		_ = os.WriteFile(filepath.Join(runnerDir, ".env"), []byte("LANG=C.UTF-8\n"), 0o644)
		hostDir := filepath.Join(base, "restbench-host")
		id := strconv.Itoa(os.Getpid())
		runnerUser, serviceUser := "rbrun"+id, "rbsvc"+id
		sudoers := "/etc/sudoers.d/restbench-test-" + id
		args := append(append([]string{}, prefix...), "bash", hostScript("provision.sh"), "--repository", testRepo,
			"--runner-dir", runnerDir, "--host-dir", hostDir, "--runner-user", runnerUser, "--service-user",
			serviceUser, "--sudoers", sudoers)
		cmd := exec.Command(args[0], args[1:]...)
		out, err := cmd.CombinedOutput()
		provisionHost = provisioned{runnerUser: runnerUser, serviceUser: serviceUser, sudoers: sudoers}
		if err != nil {
			provisionErr = "provision.sh failed: " + string(out)
			return
		}
		data, _ := os.ReadFile(filepath.Join(runnerDir, ".env"))
		env := map[string]string{}
		for _, line := range nonEmptyLines(string(data)) {
			k, v, _ := strings.Cut(line, "=")
			env[k] = v
		}
		provisionHost.hostDir, provisionHost.env, provisionHost.output = hostDir, env, string(out)
	})
	if provisionErr != "" {
		t.Fatal(provisionErr)
	}
	return provisionHost
}

// TestMain takes back, after every test of the package, what provision() added to the machine beyond its temporary
// directories: the throwaway users and their sudoers file (whichever test provisioned first).
func TestMain(m *testing.M) {
	code := m.Run()
	if host := provisionHost; host.serviceUser != "" {
		var prefix []string
		if os.Geteuid() != 0 {
			prefix = []string{"sudo", "-n"}
		}
		for _, cmd := range [][]string{{"rm", "-f", host.sudoers}, {"pkill", "-KILL", "-u", host.serviceUser},
			{"userdel", "--remove", host.serviceUser}, {"userdel", host.runnerUser}} {
			args := append(append([]string{}, prefix...), cmd...)
			_ = exec.Command(args[0], args[1:]...).Run()
		}
	}
	os.Exit(code)
}

// Finding 1 of issue 20: the host was documented with JDK 17 only, so every run that selected a JDK 25 or Node
// variant exited 2. The host is provisioned with every runtime of the manifest, in the runner's environment where the
// runner looks first, and the host check passes for every plan's runtimes.
func TestTheHostHasEveryRuntimeThePlansNeed(t *testing.T) {
	host := provision(t)
	m := manifest(t)
	for variant, runtime := range manifestRuntimes(t, m) {
		name, version, _ := strings.Cut(runtime, " ")
		if name == "native" {
			continue // a compiled executable: nothing to run it with
		}
		key := "JAVA_HOME_" + version + "_X64"
		if name == "node" {
			key = "NODE" + version + "_HOME"
		}
		if host.env[key] == "" {
			t.Errorf("%s needs %s, but the provisioned runner's .env has no %s:\n%s", variant, runtime, key, host.output)
		}
	}
	if host.env["ACTIONS_RUNNER_HOOK_JOB_STARTED"] != filepath.Join(host.hostDir, "job-started.sh") ||
		host.env["ACTIONS_RUNNER_HOOK_JOB_COMPLETED"] != filepath.Join(host.hostDir, "job-completed.sh") {
		t.Errorf("the runner's .env does not name the hooks: %v", host.env)
	}
	if host.env["LANG"] != "C.UTF-8" {
		t.Error("provision.sh dropped a line of the runner's existing .env")
	}
	for _, f := range []string{"", "job-started.sh", "job-completed.sh", "runner-cleanup.sh", "host.conf"} {
		info, err := os.Stat(filepath.Join(host.hostDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if uid := statUID(t, filepath.Join(host.hostDir, f)); uid != 0 || info.Mode().Perm()&0o022 != 0 {
			t.Errorf("%s: uid %d, mode %v: must be root-owned and writable by root only", f, uid, info.Mode())
		}
	}
	// The job's own check, on this host, as an unprivileged user, for every event's plan.
	for _, kind := range []string{"main", "pr"} {
		out, err := plan(t, filepath.Join(root, "benchmarks.json"), kind, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range planShards(t, out["matrix"]) {
			res, ok := hostCheck(t, host.env, s.Runtimes, 54390)
			if !ok || strings.Contains(res, "::warning::") {
				t.Errorf("host-check.sh on a provisioned host, runtimes %q:\n%s", s.Runtimes, res)
			}
		}
	}
	// A runtime the host lacks is named (and the run records its variants as not measured), a host without hooks fails.
	if res, ok := hostCheck(t, host.env, "jdk 17,jdk 99", 54390); !ok || !strings.Contains(res, "names no jdk 99") {
		t.Errorf("a missing runtime is not named:\n%s", res)
	}
	noHooks := map[string]string{}
	for k, v := range host.env {
		if !strings.HasPrefix(k, "ACTIONS_RUNNER_HOOK_") {
			noHooks[k] = v
		}
	}
	if res, ok := hostCheck(t, noHooks, "jdk 17", 54390); ok || !strings.Contains(res, "no ACTIONS_RUNNER_HOOK_JOB_STARTED") {
		t.Errorf("a host without the job hooks passes the check:\n%s", res)
	}
	checkServiceUser(t, host)
}

// Finding 7 of issue 20: the pull request's builds and services run as a user of their own (BENCH_SERVICE_USER). The
// host has it, without a login shell and with a home only it may enter; the runner's .env names it; and sudo itself,
// asked by the runner's user, runs a process as that user and as no one else.
func checkServiceUser(t *testing.T, host provisioned) {
	t.Helper()
	if host.env["RESTBENCH_SERVICE_USER"] != host.serviceUser {
		t.Errorf("the runner's .env names the service user %q, want %q", host.env["RESTBENCH_SERVICE_USER"], host.serviceUser)
	}
	entry, err := exec.Command("getent", "passwd", host.serviceUser).Output()
	fields := strings.Split(strings.TrimSpace(string(entry)), ":")
	if err != nil || len(fields) != 7 {
		t.Fatalf("no service user %s: %v", host.serviceUser, err)
	}
	if fields[6] != "/usr/sbin/nologin" || fields[5] != "/var/lib/"+host.serviceUser {
		t.Errorf("the service user has shell %s and home %s", fields[6], fields[5])
	}
	if info, err := os.Stat(fields[5]); err != nil || info.Mode().Perm() != 0o700 || strconv.Itoa(statUID(t, fields[5])) != fields[2] {
		t.Errorf("its home %s must be its own, mode 0700: %v %v", fields[5], info.Mode(), err)
	}
	if info, err := os.Stat(host.sudoers); err != nil || info.Mode().Perm() != 0o440 || statUID(t, host.sudoers) != 0 {
		t.Fatalf("the sudoers rule %s must be root's, mode 0440: %v", host.sudoers, err)
	}
	// The runner's user (made here; the ephemeral loop makes it for every job) asks sudo, non-interactively.
	prefix := asRoot(t)
	useradd := append(append([]string{}, prefix...), "useradd", "--system", "--shell", "/usr/sbin/nologin", host.runnerUser)
	if out, err := exec.Command(useradd[0], useradd[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %s", host.runnerUser, out)
	}
	asRunner := func(args ...string) (string, error) {
		all := append(append([]string{}, prefix...), "setpriv", "--reuid="+host.runnerUser, "--regid="+host.runnerUser,
			"--init-groups", "env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin")
		out, err := exec.Command(all[0], append(all[1:], args...)...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if out, err := asRunner("sudo", "-n", "-u", host.serviceUser, "--", "id", "-u"); err != nil || out != fields[2] {
		t.Errorf("the runner's user cannot run a process as %s (%v): %s", host.serviceUser, err, out)
	}
	for _, other := range [][]string{{"sudo", "-n", "-u", "root", "--", "true"}, {"sudo", "-n", "true"}} {
		if out, err := asRunner(other...); err == nil {
			t.Errorf("the runner's user may run %v: %s", other, out)
		}
	}
}

func statUID(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("stat", "-c", "%u", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return uid
}

// hostCheck runs .github/scripts/host-check.sh as uid (not root: root may write anything) with the runner's env.
func hostCheck(t *testing.T, runnerEnv map[string]string, runtimes string, uid int) (string, bool) {
	t.Helper()
	args := append([]string{}, asRoot(t)...)
	args = append(args, "env", "-i", "PATH="+os.Getenv("PATH"), "HOME=/nonexistent", "RUNTIMES="+runtimes)
	for k, v := range runnerEnv {
		if k != "PATH" {
			args = append(args, k+"="+v)
		}
	}
	id := strconv.Itoa(uid)
	args = append(args, "setpriv", "--reuid="+id, "--regid="+id, "--clear-groups", "bash", script("host-check.sh"))
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out), err == nil
}

// Findings 3 and 4 of issue 20. The job-started hook, root-owned as provision.sh installs it, run under a throwaway
// uid with the variables the runner sets for each job: it lets through only the benchmark job of main's
// benchmark.yml in this repository, and for that job it has emptied the workspace (an earlier job's .git and its
// hooks), $HOME (a ~/.gitconfig with core.hooksPath) and stopped left-over processes before the first step.
func TestTheJobStartedHookRefusesWhatIsNotOursAndCleansUpFirst(t *testing.T) {
	ours := testRepo + "/.github/workflows/benchmark.yml@refs/heads/main"
	cases := []struct {
		name, repo, workflowRef, event, job string
		accepted                            bool
	}{
		{"main's benchmark job on push", testRepo, ours, "push", "benchmark", true},
		{"main's benchmark job, nightly", testRepo, ours, "schedule", "benchmark", true},
		{"main's benchmark job, a maintainer's dispatch", testRepo, ours, "workflow_dispatch", "benchmark", true},
		{"main's benchmark job, a same-repository pull request", testRepo, ours, "pull_request_target", "benchmark", true},
		{"a fork's own workflow asking for the runner", testRepo,
			testRepo + "/.github/workflows/ci.yml@refs/pull/42/merge", "pull_request", "mine", false},
		{"a fork's edited benchmark.yml in its pull_request run", testRepo,
			testRepo + "/.github/workflows/benchmark.yml@refs/pull/42/merge", "pull_request", "benchmark", false},
		{"a branch's copy of benchmark.yml, pushed", testRepo,
			testRepo + "/.github/workflows/benchmark.yml@refs/heads/faster-json", "push", "benchmark", false},
		{"a branch's copy of benchmark.yml, dispatched", testRepo,
			testRepo + "/.github/workflows/benchmark.yml@refs/heads/faster-json", "workflow_dispatch", "benchmark", false},
		{"the comment job of benchmark-comment.yml", testRepo,
			testRepo + "/.github/workflows/benchmark-comment.yml@refs/heads/main", "workflow_run", "comment", false},
		{"the plan job of main's benchmark.yml", testRepo, ours, "push", "plan", false},
		{"main's benchmark.yml on an event it does not declare", testRepo, ours, "pull_request", "benchmark", false},
		{"another repository's benchmark job (a runner registered to the wrong repository)", "mallory/restbench",
			"mallory/restbench/.github/workflows/benchmark.yml@refs/heads/main", "push", "benchmark", false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			job := newHookJob(t, 54400+i, map[string]string{"GITHUB_REPOSITORY": c.repo,
				"GITHUB_WORKFLOW_REF": c.workflowRef, "GITHUB_EVENT_NAME": c.event, "GITHUB_JOB": c.job})
			planted := map[string]string{
				filepath.Join(job.workspace, ".git/hooks/post-checkout"): "#!/bin/sh\necho planted\n",
				filepath.Join(job.workspace, "pr-head/pom.xml"):          "x",
				filepath.Join(job.home, ".gitconfig"):                    "[core]\n\thooksPath = /tmp/evil-hooks\n",
				filepath.Join(job.home, ".m2/settings.xml"):              "x",
			}
			for file, content := range planted {
				_ = os.MkdirAll(filepath.Dir(file), 0o755)
				if err := os.WriteFile(file, []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			out, accepted := job.start(t)
			if accepted != c.accepted {
				t.Fatalf("accepted=%v, want %v:\n%s", accepted, c.accepted, out)
			}
			if !c.accepted {
				if !strings.Contains(out, "::error::restbench host: refusing this job") {
					t.Errorf("a refusal must say why in the job's log:\n%s", out)
				}
				return
			}
			for file := range planted {
				if _, err := os.Stat(file); err == nil {
					t.Errorf("%s is still there when the first step starts:\n%s", file, out)
				}
			}
			if _, err := os.Stat(job.workspace); err != nil {
				t.Errorf("the workspace itself must stay (the runner made it): %v", err)
			}
			if _, err := os.Stat(job.runnerBinary); err != nil {
				t.Errorf("the cleanup removed the runner: %v", err)
			}
		})
	}
}

// hookJob is one job as the runner starts it on a provisioned host, under its own throwaway uid (a cleanup can only
// ever touch what that uid owns, so parallel cases never meet): its HOME with the runner inside, its workspace, and
// the GITHUB_* variables the runner sets.
type hookJob struct {
	host                       provisioned
	prefix                     []string
	uid                        string
	home, work, workspace, tmp string
	runnerBinary               string
	vars                       map[string]string
	// hookCommand replaces the hook's path as the command run as the job's uid (a stand-in parent, another
	// host directory); wrap goes in front of setpriv (a PID namespace).
	hookCommand, wrap []string
}

func newHookJob(t *testing.T, uid int, vars map[string]string) hookJob {
	t.Helper()
	j := hookJob{host: provision(t), prefix: asRoot(t), uid: strconv.Itoa(uid), vars: vars}
	if _, given := vars["GITHUB_EVENT_PATH"]; !given && vars["GITHUB_EVENT_NAME"] == "pull_request_target" {
		// The hook reads the event's head repository: by default a pull request from this repository's own branch.
		vars["GITHUB_EVENT_PATH"], _ = filepath.Abs("testdata/events/pull_request_target-same-repo-synchronize.json")
	}
	base, err := os.MkdirTemp("", "hook-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rm := append(append([]string{}, j.prefix...), "rm", "-rf", base)
		_ = exec.Command(rm[0], rm[1:]...).Run()
	})
	_ = os.Chmod(base, 0o755)
	j.home = filepath.Join(base, "home")
	j.work = filepath.Join(j.home, "actions-runner", "_work", "restbench")
	j.workspace = filepath.Join(j.work, "restbench")
	j.tmp = filepath.Join(base, "tmp")
	j.runnerBinary = filepath.Join(j.home, "actions-runner", "bin", "Runner.Listener")
	for _, dir := range []string{j.workspace, j.tmp, filepath.Dir(j.runnerBinary)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(j.runnerBinary, []byte("x"), 0o755)
	return j
}

// start runs the host's job-started hook as the runner would before the job's first step; each of asRoot runs as
// root after the job's files are its own (to make some of them unwritable).
func (j hookJob) start(t *testing.T, asRoot ...func()) (string, bool) {
	t.Helper()
	chown := append(append([]string{}, j.prefix...), "chown", "-R", j.uid+":"+j.uid, j.home, j.tmp)
	if out, err := exec.Command(chown[0], chown[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, f := range asRoot {
		f()
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + j.home, "GITHUB_ACTIONS=true",
		"GITHUB_WORKSPACE=" + j.workspace, "RUNNER_WORKSPACE=" + j.work,
		"RUNNER_TEMP=" + filepath.Join(j.work, "..", "_temp"), "RUNNER_TOOL_CACHE=" + filepath.Join(j.work, "..", "_tool"),
		"RUNNER_CLEANUP_TMP=" + j.tmp}
	for k, v := range j.vars {
		env = append(env, k+"="+v)
	}
	args := append(append(append(append([]string{}, j.prefix...), j.wrap...), "env", "-i"), env...)
	args = append(args, "setpriv", "--reuid="+j.uid, "--regid="+j.uid, "--clear-groups")
	if j.hookCommand != nil {
		args = append(args, j.hookCommand...)
	} else {
		args = append(args, j.host.env["ACTIONS_RUNNER_HOOK_JOB_STARTED"])
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out), err == nil
}
