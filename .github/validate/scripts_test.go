// The scripts the benchmark and publish jobs run, each against real git repositories and files, with stand-ins only
// for ./bench (which would build and measure for minutes) and nothing else.
package validate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func script(name string) string {
	path, _ := filepath.Abs(filepath.Join(root, ".github/scripts", name))
	return path
}

// sh runs a command in dir with env; it returns the combined output and whether it succeeded.
func sh(t *testing.T, dir string, env []string, name string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C.UTF-8",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
		"GIT_CONFIG_NOSYSTEM=1"}, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func must(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	out, ok := sh(t, dir, nil, name, args...)
	if !ok {
		t.Fatalf("%s %v in %s: %s", name, args, dir, out)
	}
	return strings.TrimSpace(out)
}

func commit(t *testing.T, dir, file, content string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, dir, "git", "add", file)
	must(t, dir, "git", "commit", "-q", "-m", file+": "+content)
	return must(t, dir, "git", "rev-parse", "HEAD")
}

// The A/B step: main's checkout is the harness, the PR head comes only from pr-head (fetched locally), the base is
// the merge base, and every build goes to a job-private Maven repository.
func TestBenchAbMeasuresTheApprovedHeadAgainstTheMergeBase(t *testing.T) {
	origin := t.TempDir()
	must(t, origin, "git", "init", "-q", "-b", "main")
	base := commit(t, origin, "a.txt", "base")
	must(t, origin, "git", "switch", "-q", "-c", "pr")
	head := commit(t, origin, "b.txt", "the pull request")
	must(t, origin, "git", "switch", "-q", "main")
	tip := commit(t, origin, "c.txt", "main moved on")

	work := filepath.Join(t.TempDir(), "work")
	must(t, filepath.Dir(work), "git", "clone", "-q", "--no-local", "--single-branch", "--branch", "main", origin, work)
	if _, ok := sh(t, work, nil, "git", "cat-file", "-e", head); ok {
		t.Fatal("the harness clone must not hold the head yet")
	}
	must(t, work, "git", "clone", "-q", origin, "pr-head")
	must(t, filepath.Join(work, "pr-head"), "git", "checkout", "-q", head)

	tmp := t.TempDir()
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	record, _ := filepath.Abs("testdata/ab-run.json")
	benchLog, summary := filepath.Join(tmp, "bench.log"), filepath.Join(tmp, "summary.md")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + benchLog, "FAKE_AB_RECORD=" + record,
		"RUNNER_TEMP=" + filepath.Join(tmp, "runner-temp"), "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_SHA=" + tip,
		"HEAD_SHA=" + head, "PROFILE=quick", "VARIANTS=jersey", "SCENARIOS=read-heavy"}
	out, ok := sh(t, work, env, script("bench-ab.sh"))
	if !ok {
		t.Fatalf("bench-ab.sh failed:\n%s", out)
	}
	logged, _ := os.ReadFile(benchLog)
	want := "bench ab --base " + base + " --head " + head + " --profile quick --variants jersey --scenarios read-heavy"
	if !strings.HasPrefix(string(logged), want) {
		t.Errorf("ran %q, want %q…", logged, want)
	}
	if !strings.Contains(string(logged), " --flamegraphs") {
		t.Errorf("the A/B is not profiled (no --flamegraphs), so the comment could link no flame graphs: %q", logged)
	}
	repo := filepath.Join(tmp, "runner-temp", "maven-pr")
	if !strings.Contains(string(logged), "MAVEN_OPTS=-Dmaven.repo.local="+repo+"/repository MAVEN_USER_HOME="+repo) {
		t.Errorf("the PR builds do not use their own Maven repository under $RUNNER_TEMP: %s", logged)
	}
	for _, file := range []string{"run.json", "ab.json"} {
		if data, err := os.ReadFile(filepath.Join(work, "pr-ab", file)); err != nil || !json.Valid(data) {
			t.Errorf("pr-ab/%s (the artifact) is missing: %v", file, err)
		}
	}
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), commentMarker) {
		t.Error("the job summary lacks the A/B table")
	}
	// Issue 20, finding 7: on a host without a service user the pull request's code runs as the runner's user, and
	// the job says so; on a host with one (RESTBENCH_SERVICE_USER in the runner's .env) ./bench builds and runs every
	// variant as that user, and the job's files are created writable by their owner only.
	if !strings.Contains(string(logged), " BENCH_SERVICE_USER= ") || !strings.Contains(out, "::warning::this host has no service user") {
		t.Errorf("without RESTBENCH_SERVICE_USER: ran %q, said:\n%s", logged, out)
	}
	_ = os.Remove(benchLog)
	if out, ok := sh(t, work, append(env, "RESTBENCH_SERVICE_USER=restbench-svc"), "bash", "-c",
		"umask 002 && exec "+script("bench-ab.sh")); !ok || strings.Contains(out, "::warning::") {
		t.Fatalf("bench-ab.sh with a service user:\n%s", out)
	}
	logged, _ = os.ReadFile(benchLog)
	if !strings.Contains(string(logged), " BENCH_SERVICE_USER=restbench-svc umask=0022") {
		t.Errorf("the host's service user is not passed to ./bench (or the umask lets others write): %s", logged)
	}

	// pr-head at another commit than the approved one: nothing is measured.
	must(t, filepath.Join(work, "pr-head"), "git", "checkout", "-q", tip)
	_ = os.Remove(benchLog)
	if out, ok := sh(t, work, env, script("bench-ab.sh")); ok || !strings.Contains(out, "not at the approved") {
		t.Errorf("bench-ab.sh measured a head other than the approved one:\n%s", out)
	}
	if _, err := os.Stat(benchLog); err == nil {
		t.Error("./bench ran although pr-head was not the approved commit")
	}
}

// The run of main, nightly or manual: this checkout's ./bench run, as the host's service user when it has one.
func TestBenchRunRunsTheVariantsAsTheHostsServiceUser(t *testing.T) {
	tmp := t.TempDir()
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	benchLog := filepath.Join(tmp, "bench.log")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + benchLog, "RUNNER_TEMP=" + filepath.Join(tmp, "runner-temp"),
		"PROFILE=full", "VARIANTS=jersey,express", "SCENARIOS=read-heavy", "SHARD=2", "BUDGET_MINUTES=195"}
	want := "bench run --profile full --variants jersey,express --scenarios read-heavy --missing-runtimes record" +
		" --budget-minutes 195 --results results/shard-2 | "
	for host, user := range map[string]string{"": " BENCH_SERVICE_USER= ",
		"RESTBENCH_SERVICE_USER=restbench-svc": " BENCH_SERVICE_USER=restbench-svc umask=0022"} {
		_ = os.Remove(benchLog)
		runEnv := append([]string{}, env...)
		if host != "" {
			runEnv = append(runEnv, host)
		}
		out, ok := sh(t, tmp, runEnv, "bash", "-c", "umask 002 && exec "+script("bench-run.sh"))
		logged, _ := os.ReadFile(benchLog)
		if !ok || !strings.HasPrefix(string(logged), want) || !strings.Contains(string(logged), user) {
			t.Errorf("host %q: ran %q, want %q…%q:\n%s", host, logged, want, user, out)
		}
	}
}

// The publish job after a benchmark job that wrote no run (a plan refused for its budget, a host check that stopped
// it): download-artifact with a pattern that matches nothing downloads nothing and succeeds, leaving no shards folder
// at all (src/download-artifact.ts: no artifact, no download, no folder). merge-shards.sh says so in its own words,
// before building or merging anything; with one shard's run it merges.
func TestMergeShardsSaysSoWhenNoShardWroteARun(t *testing.T) {
	tmp := t.TempDir()
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	benchLog := filepath.Join(tmp, "bench.log")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + benchLog}
	emptyShard := filepath.Join(tmp, "empty", "results-1")
	if err := os.MkdirAll(emptyShard, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, shards := range []string{filepath.Join(tmp, "never-created"), filepath.Join(tmp, "empty")} {
		out, ok := sh(t, tmp, env, "bash", script("merge-shards.sh"), shards, filepath.Join(tmp, "merged"))
		if ok || !strings.Contains(out, "no shard wrote a run.json: the benchmark job measured nothing") {
			t.Errorf("%s: succeeded %v, said:\n%s", shards, ok, out)
		}
		if _, err := os.Stat(benchLog); err == nil {
			t.Errorf("%s: ./bench ran although there was nothing to merge", shards)
		}
	}
	run := filepath.Join(tmp, "shards", "results-1", "20261207T000000Z-abc1234")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(run, "run.json"), map[string]any{"runId": "20261207T000000Z-abc1234"})
	if out, ok := sh(t, tmp, env, "bash", script("merge-shards.sh"), filepath.Join(tmp, "shards"), filepath.Join(tmp, "merged")); !ok {
		t.Errorf("one shard's run: %s", out)
	}
	if logged, _ := os.ReadFile(benchLog); !strings.HasPrefix(string(logged), "bench merge --out "+filepath.Join(tmp, "merged")) {
		t.Errorf("ran %q", logged)
	}
}

func writeJSON(t *testing.T, file string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func dataJs(t *testing.T, file string, entries map[string][]map[string]any) {
	t.Helper()
	writeJSON(t, file, map[string]any{"lastUpdate": 1, "repoUrl": "https://github.com/acme/restbench", "entries": entries})
	data, _ := os.ReadFile(file)
	if err := os.WriteFile(file, append([]byte("window.BENCHMARK_DATA = "), data...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func entry(commit, extra string) map[string]any {
	return map[string]any{"commit": map[string]any{"id": commit}, "date": 1, "tool": "customBiggerIsBetter",
		"benches": []any{map[string]any{"name": "jersey/read-heavy/capacity/throughput", "value": 1, "unit": "req/s", "extra": extra}}}
}

// Alerts compare like with like only, and a run already in the history gets none.
func TestAlertInputComparesLikeRunsOnlyAndNeverTwice(t *testing.T) {
	results, _ := filepath.Abs("testdata/results") // profile smoke, fingerprint 45e99f3e9a36…
	pages := t.TempDir()
	bench := filepath.Join(pages, "dev/bench")
	like := "n=5 min=1 max=2 profile=smoke env=45e99f3e9a36"
	dataJs(t, filepath.Join(bench, "data.js"), map[string][]map[string]any{"throughput": {
		entry("a1", like), entry("a2", "n=5 min=1 max=2 profile=full env=45e99f3e9a36"),
		entry("a3", "n=5 min=1 max=2 profile=smoke env=0123456789ab"), entry("a4", like),
		entry("a5", "n=5 profile=smoked env=45e99f3e9a36"),
	}})
	run := func() map[string]string {
		out := filepath.Join(t.TempDir(), "out")
		msg, ok := sh(t, root, []string{"GITHUB_OUTPUT=" + out}, script("alert-input.sh"), pages, results, filepath.Join(t.TempDir(), "alerts"))
		if !ok {
			t.Fatalf("alert-input.sh failed:\n%s", msg)
		}
		return readOutputs(t, out)
	}
	got := run()
	if got["recorded"] != "false" || got["throughput_suite"] != "throughput (smoke, env 45e99f3e9a36)" {
		t.Fatalf("outputs %v", got)
	}
	if got["costs_suite"] != "" {
		t.Errorf("the run has no costs file, so no costs alert step: %v", got)
	}
	var input struct {
		Entries map[string][]struct{ Commit struct{ ID string } }
	}
	data, _ := os.ReadFile(got["throughput_data"])
	if err := json.Unmarshal(data, &input); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range input.Entries[got["throughput_suite"]] {
		ids = append(ids, e.Commit.ID)
	}
	if strings.Join(ids, ",") != "a1,a4" || len(input.Entries) != 1 {
		t.Errorf("the action would compare with %v (suites %d), want only the like runs a1,a4", ids, len(input.Entries))
	}

	writeJSON(t, filepath.Join(bench, "index.json"), map[string]any{"runs": []any{map[string]any{"runId": "20261121T031500Z-5e2c7a9"}}})
	if got := run(); got["recorded"] != "true" || got["throughput_suite"] != "" || got["costs_suite"] != "" {
		t.Errorf("a re-run of a recorded run must skip the alerts: %v", got)
	}

	if err := os.RemoveAll(bench); err != nil {
		t.Fatal(err)
	}
	if got := run(); got["throughput_suite"] == "" {
		t.Errorf("a fresh gh-pages (no data.js yet) still gets the alert step (with nothing to compare): %v", got)
	}
}

// The one gh-pages writer: it survives a concurrent writer by retrying, bounds data.js without losing entries,
// removes the action's own dashboard, and changes nothing on a re-run.
func TestPublishPagesRetriesBoundsAndIsIdempotent(t *testing.T) {
	tmp := t.TempDir()
	origin := filepath.Join(tmp, "origin.git")
	must(t, tmp, "git", "init", "-q", "--bare", "-b", "gh-pages", origin)
	seed := filepath.Join(tmp, "seed")
	must(t, tmp, "git", "clone", "-q", origin, seed)
	must(t, seed, "git", "switch", "-q", "--orphan", "gh-pages")
	var old []map[string]any
	for i, id := range []string{"o1", "o2", "o3"} {
		e := entry(id, "profile=full env=45e99f3e9a36")
		e["date"] = 1700000000000 + i
		old = append(old, e)
	}
	dataJs(t, filepath.Join(seed, "dev/bench/data.js"), map[string][]map[string]any{"throughput": old})
	if err := os.WriteFile(filepath.Join(seed, "dev/bench/index.html"), []byte("<html>github-action-benchmark</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, seed, "git", "add", "-A")
	must(t, seed, "git", "commit", "-q", "-m", "gh-pages")
	must(t, seed, "git", "push", "-q", "origin", "gh-pages")
	pages := filepath.Join(tmp, "pages")
	must(t, tmp, "git", "clone", "-q", "--branch", "gh-pages", origin, pages)

	// Another publish job pushes between our fetch and our push, once.
	other := filepath.Join(tmp, "other")
	must(t, tmp, "git", "clone", "-q", "--branch", "gh-pages", origin, other)
	race := "if [ ! -e " + tmp + "/raced ]; then touch " + tmp + "/raced && cd " + other +
		" && echo x > other-run.txt && git add other-run.txt && git commit -qm other && git push -q origin HEAD:gh-pages; fi"
	results, _ := filepath.Abs("testdata/results")
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + filepath.Join(tmp, "bench.log"), "FAKE_BENCH_AFTER_APPEND=" + race,
		"HISTORY_KEEP=2", "GITHUB_SHA=" + mainSHA}
	out, ok := sh(t, root, env, script("publish-pages.sh"), pages, results)
	if !ok || !strings.Contains(out, "pushed on attempt 2") {
		t.Fatalf("publish-pages.sh did not retry after the concurrent push:\n%s", out)
	}
	check := filepath.Join(tmp, "check")
	must(t, tmp, "git", "clone", "-q", "--branch", "gh-pages", origin, check)
	for _, file := range []string{"other-run.txt", "index.html", "dev/bench/index.json", "dev/bench/pack/manifest.json"} {
		if _, err := os.Stat(filepath.Join(check, file)); err != nil {
			t.Errorf("gh-pages lacks %s after publishing: %v", file, err)
		}
	}
	if _, err := os.Stat(filepath.Join(check, "dev/bench/index.html")); err == nil {
		t.Error("github-action-benchmark's dev/bench/index.html is still published beside the site")
	}
	text, _ := os.ReadFile(filepath.Join(check, "dev/bench/data.js"))
	var data struct {
		Entries map[string][]any
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(string(text), "window.BENCHMARK_DATA = ")), &data); err != nil {
		t.Fatal(err)
	}
	if n := len(data.Entries["throughput"]); n != 2 {
		t.Errorf("data.js holds %d entries, want HISTORY_KEEP=2", n)
	}
	var manifest struct {
		Runs struct{ CommitID []string }
	}
	text, _ = os.ReadFile(filepath.Join(check, "dev/bench/pack/manifest.json"))
	_ = json.Unmarshal(text, &manifest)
	if len(manifest.Runs.CommitID) != 4 {
		t.Errorf("the pack holds %v, want all four runs (three archived or kept, one new)", manifest.Runs.CommitID)
	}

	// A re-run of the job: nothing new.
	head := must(t, check, "git", "rev-parse", "HEAD")
	out, ok = sh(t, root, env, script("publish-pages.sh"), pages, results)
	if !ok || !strings.Contains(out, "nothing to publish") {
		t.Errorf("a re-run published again:\n%s", out)
	}
	must(t, check, "git", "fetch", "-q", "origin")
	if after := must(t, check, "git", "rev-parse", "origin/gh-pages"); after != head {
		t.Errorf("a re-run changed gh-pages (%s → %s)", head, after)
	}
}

// newRepositoryWithoutPages is a new repository's origin: a main commit with main's kind of files, no gh-pages. It
// returns origin's URL and main's commit.
func newRepositoryWithoutPages(t *testing.T, tmp string) (string, string) {
	t.Helper()
	origin := filepath.Join(tmp, "origin.git")
	must(t, tmp, "git", "init", "-q", "--bare", "-b", "main", origin)
	seed := filepath.Join(tmp, "seed")
	must(t, tmp, "git", "clone", "-q", origin, seed)
	for file, content := range map[string]string{"README.md": "# restbench\n", "benchmarks.json": "{}\n", ".gitignore": "*.log\n"} {
		if err := os.WriteFile(filepath.Join(seed, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(t, seed, "git", "add", "-A")
	must(t, seed, "git", "commit", "-q", "-m", "main")
	must(t, seed, "git", "push", "-q", "origin", "main")
	return "file://" + origin, must(t, seed, "git", "rev-parse", "HEAD")
}

// checkoutCommit does what the publish job's actions/checkout (ref: the run's commit, path: gh-pages, default
// fetch-depth 1) leaves: a shallow repository with origin as its remote, that commit checked out, detached.
func checkoutCommit(t *testing.T, origin, sha, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, dir, "git", "init", "-q")
	must(t, dir, "git", "remote", "add", "origin", origin)
	must(t, dir, "git", "fetch", "-q", "--depth=1", "origin", "+"+sha+":refs/remotes/origin/main")
	must(t, dir, "git", "checkout", "-q", "--force", sha)
	if err := os.WriteFile(filepath.Join(dir, "build.log"), []byte("an ignored file"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// anotherRun is the test run under another run id (a later run of the workflow).
func anotherRun(t *testing.T, id string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/results/run.json")
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]any
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	run["runId"] = id
	writeJSON(t, filepath.Join(dir, "run.json"), run)
	bench, _ := os.ReadFile("testdata/results/bench-throughput.json")
	if err := os.WriteFile(filepath.Join(dir, "bench-throughput.json"), bench, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pagesTree lists gh-pages on origin: its files and its commits (newest first, each with its parents).
func pagesTree(t *testing.T, origin string) (files []string, commits []string) {
	t.Helper()
	bare := strings.TrimPrefix(origin, "file://")
	files = strings.Fields(must(t, bare, "git", "ls-tree", "-r", "--name-only", "refs/heads/gh-pages"))
	commits = strings.Split(must(t, bare, "git", "rev-list", "--parents", "refs/heads/gh-pages"), "\n")
	return files, commits
}

func dataJsRuns(t *testing.T, origin string) []string {
	t.Helper()
	text := must(t, strings.TrimPrefix(origin, "file://"), "git", "show", "refs/heads/gh-pages:dev/bench/data.js")
	var data struct {
		Entries map[string][]struct{ Commit struct{ ID string } }
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(text, "window.BENCHMARK_DATA = ")), &data); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range data.Entries["throughput"] {
		ids = append(ids, e.Commit.ID)
	}
	return ids
}

func hasFile(files []string, name string) bool {
	for _, f := range files {
		if f == name {
			return true
		}
	}
	return false
}

// First use: a new repository has no gh-pages. The publish job's steps, in its order, on a worktree holding the run's
// own commit (as its checkout leaves it): --prepare makes it an empty orphan gh-pages, alert-input.sh reads an
// empty history, and the publish creates gh-pages on origin with the site and the history only (no commit and no file
// of main). The next run appends on top of it.
func TestPublishPagesCreatesGhPagesOnFirstUse(t *testing.T) {
	tmp := t.TempDir()
	origin, mainCommit := newRepositoryWithoutPages(t, tmp)
	pages := filepath.Join(tmp, "gh-pages")
	checkoutCommit(t, origin, mainCommit, pages)
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	results, _ := filepath.Abs("testdata/results")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + filepath.Join(tmp, "bench.log"), "GITHUB_SHA=" + mainCommit}

	out, ok := sh(t, root, env, script("publish-pages.sh"), "--prepare", pages)
	if !ok {
		t.Fatalf("publish-pages.sh --prepare failed on a repository without gh-pages:\n%s", out)
	}
	if entries, _ := os.ReadDir(pages); len(entries) != 1 || entries[0].Name() != ".git" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the prepared worktree still holds %v, want nothing but .git", names)
	}
	if head := must(t, pages, "git", "symbolic-ref", "HEAD"); head != "refs/heads/gh-pages" {
		t.Errorf("the prepared worktree is on %s, want the orphan gh-pages", head)
	}
	if _, ok := sh(t, pages, nil, "git", "rev-parse", "--verify", "-q", "HEAD"); ok {
		t.Error("the prepared gh-pages has a commit: it must be an orphan (main's commit would become its parent)")
	}
	alerts := filepath.Join(tmp, "out")
	msg, ok := sh(t, root, []string{"GITHUB_OUTPUT=" + alerts}, script("alert-input.sh"), pages, results, filepath.Join(tmp, "alerts"))
	if got := readOutputs(t, alerts); !ok || got["recorded"] != "false" || got["throughput_suite"] == "" {
		t.Errorf("alert-input.sh on the empty gh-pages: %v\n%s", got, msg)
	}

	out, ok = sh(t, root, env, script("publish-pages.sh"), pages, results)
	if !ok || !strings.Contains(out, "pushed on attempt 1") {
		t.Fatalf("the first publish did not create gh-pages:\n%s", out)
	}
	files, commits := pagesTree(t, origin)
	if len(commits) != 1 || len(strings.Fields(commits[0])) != 1 {
		t.Errorf("gh-pages has the commits %q, want one with no parent (an orphan)", commits)
	}
	for _, file := range []string{"index.html", "dev/bench/data.js", "dev/bench/index.json"} {
		if !hasFile(files, file) {
			t.Errorf("the new gh-pages lacks %s: %v", file, files)
		}
	}
	for _, file := range []string{"README.md", "benchmarks.json", ".gitignore", "build.log"} {
		if hasFile(files, file) {
			t.Errorf("the new gh-pages holds main's %s", file)
		}
	}
	if got := must(t, strings.TrimPrefix(origin, "file://"), "git", "rev-parse", "refs/heads/main"); got != mainCommit {
		t.Errorf("main moved to %s", got)
	}
	first := strings.Fields(commits[0])[0]

	// The next run: a fresh checkout of its commit, prepared to the existing gh-pages, appends on top.
	next := filepath.Join(tmp, "next", "gh-pages")
	checkoutCommit(t, origin, mainCommit, next)
	if out, ok := sh(t, root, env, script("publish-pages.sh"), "--prepare", next); !ok {
		t.Fatalf("publish-pages.sh --prepare failed on the existing gh-pages:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(next, "dev/bench/data.js")); err != nil {
		t.Errorf("the prepared worktree is not gh-pages: %v", err)
	}
	if _, err := os.Stat(filepath.Join(next, "README.md")); err == nil {
		t.Error("the prepared worktree still holds main's README.md")
	}
	out, ok = sh(t, root, env, script("publish-pages.sh"), next, anotherRun(t, "20261122T031500Z-5e2c7a9"))
	if !ok || !strings.Contains(out, "pushed on attempt 1") {
		t.Fatalf("the second publish failed:\n%s", out)
	}
	files, commits = pagesTree(t, origin)
	if len(commits) != 2 || strings.Join(strings.Fields(commits[0])[1:], " ") != first {
		t.Errorf("gh-pages has the commits %q, want the second run's on top of %s", commits, first)
	}
	if hasFile(files, "README.md") {
		t.Error("the second publish brought main's README.md into gh-pages")
	}
	if ids := dataJsRuns(t, origin); strings.Join(ids, ",") != "20261121T031500Z-5e2c7a9,20261122T031500Z-5e2c7a9" {
		t.Errorf("data.js holds the runs %v, want both", ids)
	}
}

// First use, raced: another writer creates gh-pages between our look at origin (none there) and our push. Our orphan
// is rejected (a push never forces), and the next attempt publishes on top of theirs: both contents survive.
func TestPublishPagesCreatingGhPagesLosesNoConcurrentWriter(t *testing.T) {
	tmp := t.TempDir()
	origin, mainCommit := newRepositoryWithoutPages(t, tmp)
	pages := filepath.Join(tmp, "gh-pages")
	checkoutCommit(t, origin, mainCommit, pages)
	other := filepath.Join(tmp, "other")
	must(t, tmp, "git", "clone", "-q", origin, other)
	race := "if [ ! -e " + tmp + "/raced ]; then touch " + tmp + "/raced && cd " + other +
		" && git switch -q --orphan gh-pages && echo x > other-run.txt && git add other-run.txt && git commit -qm other" +
		" && git push -q origin HEAD:gh-pages; fi"
	fakeBench, _ := filepath.Abs("testdata/bin/bench")
	results, _ := filepath.Abs("testdata/results")
	env := []string{"BENCH=" + fakeBench, "FAKE_BENCH_LOG=" + filepath.Join(tmp, "bench.log"),
		"FAKE_BENCH_AFTER_APPEND=" + race, "GITHUB_SHA=" + mainCommit}
	if out, ok := sh(t, root, env, script("publish-pages.sh"), "--prepare", pages); !ok {
		t.Fatalf("publish-pages.sh --prepare failed:\n%s", out)
	}
	out, ok := sh(t, root, env, script("publish-pages.sh"), pages, results)
	if !ok || !strings.Contains(out, "no gh-pages yet") || !strings.Contains(out, "pushed on attempt 2") {
		t.Fatalf("publish-pages.sh did not start again from the gh-pages created meanwhile:\n%s", out)
	}
	files, commits := pagesTree(t, origin)
	for _, file := range []string{"other-run.txt", "index.html", "dev/bench/data.js", "dev/bench/index.json"} {
		if !hasFile(files, file) {
			t.Errorf("gh-pages lacks %s: %v", file, files)
		}
	}
	if hasFile(files, "README.md") {
		t.Error("gh-pages holds main's README.md")
	}
	theirs := must(t, other, "git", "rev-parse", "HEAD")
	if len(commits) != 2 || strings.Join(strings.Fields(commits[0])[1:], " ") != theirs {
		t.Errorf("gh-pages has the commits %q, want ours on top of the other writer's %s", commits, theirs)
	}
	if ids := dataJsRuns(t, origin); strings.Join(ids, ",") != "20261121T031500Z-5e2c7a9" {
		t.Errorf("data.js holds the runs %v, want ours", ids)
	}
}

func TestOutputsNeverCarryALineBreak(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	msg, ok := sh(t, root, []string{"GITHUB_OUTPUT=" + out}, "bash", "-c",
		`source .github/scripts/lib.sh && out profile "$(printf 'smoke\nmatrix={}')"`)
	if ok || !strings.Contains(msg, "line break") {
		t.Errorf("out() wrote a value with a line break: %s", msg)
	}
	if data, _ := os.ReadFile(out); len(data) > 0 {
		t.Errorf("$GITHUB_OUTPUT got %q", data)
	}
}

// The job-start cleanup of a persistent runner, run for real under an unused uid (so it can only ever touch what
// this test made): left-over processes die, $HOME and the tool cache are emptied except the runner's own
// directory, and only this user's temporary files go. Needs root (setpriv); elsewhere it is skipped.
func TestRunnerCleanupLeavesNothingBehind(t *testing.T) {
	// As root directly; elsewhere (GitHub's runners) through passwordless sudo.
	var asRoot []string
	if os.Geteuid() != 0 {
		if exec.Command("sudo", "-n", "true").Run() != nil {
			t.Skip("needs root or passwordless sudo to run the cleanup under a throwaway uid (setpriv)")
		}
		asRoot = []string{"sudo", "-n"}
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("setpriv (util-linux) is missing")
	}
	privileged := func(args ...string) []string { return append(append([]string{}, asRoot...), args...) }
	const uid = 54321
	base, err := os.MkdirTemp("", "cleanup-")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = exec.Command(privileged("rm", "-rf", base)[0], privileged("rm", "-rf", base)[1:]...).Run() }()
	_ = os.Chmod(base, 0o755)
	home, tmp, tools := filepath.Join(base, "home"), filepath.Join(base, "tmp"), filepath.Join(base, "toolcache")
	runnerWork := filepath.Join(home, "actions-runner", "_work", "restbench")
	files := map[string]bool{ // path → must survive
		filepath.Join(home, ".m2/repository/org/x/x.jar"):                false,
		filepath.Join(home, ".gitconfig"):                                false,
		filepath.Join(home, ".mavenrc"):                                  false,
		filepath.Join(runnerWork, "restbench/pom.xml"):                   false, // the workspace is emptied
		filepath.Join(runnerWork, "restbench/.git/hooks/post-checkout"):  false, // checkout would run it
		filepath.Join(runnerWork, "../_actions/actions/checkout/x/a.js"): true,  // only after a job (end)
		filepath.Join(home, "actions-runner/bin/Runner.Listener"):        true,
		filepath.Join(tmp, "left-by-the-pr/file"):                        false,
		filepath.Join(tools, "Java_Temurin-Hotspot_jdk/17/x64/bin/java"): false,
	}
	for file := range files {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{home, tmp, tools} {
		cmd := privileged("chown", "-R", "54321:54321", dir)
		must(t, base, cmd[0], cmd[1:]...)
	}
	// Someone else's file in the shared temporary directory stays.
	rootsFile := filepath.Join(tmp, "not-ours")
	if err := os.WriteFile(rootsFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	files[rootsFile] = true

	start := privileged("setpriv", "--reuid=54321", "--regid=54321", "--clear-groups", "setsid", "sleep", "300")
	leftover := exec.Command(start[0], start[1:]...)
	if err := leftover.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- leftover.Wait() }()
	defer func() { _ = leftover.Process.Kill() }()

	env := []string{"HOME=" + home, "RUNNER_TOOL_CACHE=" + tools, "RUNNER_WORKSPACE=" + runnerWork,
		"GITHUB_WORKSPACE=" + filepath.Join(runnerWork, "restbench"), "RUNNER_CLEANUP_TMP=" + tmp}
	run := privileged(append(append([]string{"env"}, env...), "PATH="+os.Getenv("PATH"), "setpriv", "--reuid=54321",
		"--regid=54321", "--clear-groups", "bash", hostScript("runner-cleanup.sh"), "start")...)
	out, ok := sh(t, base, nil, run[0], run[1:]...)
	if !ok {
		t.Fatalf("runner-cleanup.sh failed:\n%s", out)
	}
	select {
	case err := <-done:
		// Directly: killed by SIGTERM; through sudo, which stays its parent: sudo's exit status 128+15.
		status, ok := err.(*exec.ExitError)
		if !ok || (status.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM && status.ExitCode() != 128+15) {
			t.Errorf("the left-over process ended with %v, want SIGTERM", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the left-over process survived the cleanup")
	}
	for file, survives := range files {
		_, err := os.Stat(file)
		if exists := err == nil; exists != survives {
			t.Errorf("%s: exists=%v after the cleanup, want %v", file, exists, survives)
		}
	}
	if !strings.Contains(out, "stopped 1 left-over process") {
		t.Errorf("cleanup output: %s", out)
	}
	if _, err := os.Stat(filepath.Join(runnerWork, "restbench")); err != nil {
		t.Errorf("the workspace itself must stay (the runner made it): %v", err)
	}
	// After a job, the actions the runner downloaded go too (a job can edit them; the next job downloads them again).
	run = privileged(append(append([]string{"env"}, env...), "PATH="+os.Getenv("PATH"), "setpriv", "--reuid=54321",
		"--regid=54321", "--clear-groups", "bash", hostScript("runner-cleanup.sh"), "end")...)
	if out, ok := sh(t, base, nil, run[0], run[1:]...); !ok {
		t.Fatalf("runner-cleanup.sh end failed:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(runnerWork, "../_actions/actions")); err == nil {
		t.Error("the downloaded actions survive the end of the job")
	}

	// As root it would signal every process of the machine: it refuses.
	run = privileged(append(append([]string{"env"}, env...), "PATH="+os.Getenv("PATH"), "bash", hostScript("runner-cleanup.sh"), "start")...)
	if out, ok := sh(t, base, nil, run[0], run[1:]...); ok || !strings.Contains(out, "refusing to run as root") {
		t.Errorf("runner-cleanup.sh ran as root:\n%s", out)
	}
}
