package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A history directory in the gh-pages layout (docs/ARCHITECTURE.md, "Results, history and their names"): under
 * {@code dev/bench/} data.js (github-action-benchmark's file), index.json, runs/YYYY-MM/&lt;runId&gt;.json,
 * latest.json and analysis.json.
 *
 * <p>Appending is idempotent and crash-safe: every file is replaced atomically, each file's update is itself
 * idempotent (a run already present is replaced, not duplicated), and index.json, which defines which runs the
 * history holds, is written last. An append cut off half-way leaves every file readable and holding the previous
 * history (plus, possibly, the new run in the files written before the cut); running the same append again
 * completes it.
 */
public final class History {

    public static final String DIR = "dev/bench";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern SAFE_RUN_ID = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern MONTH = Pattern.compile("^(\\d{4})-?(\\d{2}).*");

    private final Path root;
    private final Path dir;

    public History(Path root) {
        this.root = root;
        this.dir = root.resolve(DIR);
    }

    public Path root() {
        return root;
    }

    public Path dir() {
        return dir;
    }

    /** Options of an append: repoUrl may be null (keeps data.js's), skipDataJs when the action writes data.js. */
    public record AppendOptions(String repoUrl, boolean skipDataJs, String treeId) {
        public static AppendOptions defaults() {
            return new AppendOptions(null, false, null);
        }
    }

    /** What an append did, for the command's output. */
    public record AppendResult(String runId, boolean alreadyPresent, List<String> changedFiles) {
    }

    public AppendResult append(Path runDirOrFile, AppendOptions options) throws IOException {
        Path file = Files.isDirectory(runDirOrFile) ? runDirOrFile.resolve("run.json") : runDirOrFile;
        RunRecord run = RunRecord.read(file);
        byte[] bytes = Files.readAllBytes(file);
        List<String> graphs = Files.isDirectory(runDirOrFile) ? copyFlameGraphs(run, runDirOrFile) : List.of();
        AppendResult result = append(run, bytes, options);
        List<String> changed = new ArrayList<>(graphs);
        changed.addAll(result.changedFiles());
        return new AppendResult(result.runId(), result.alreadyPresent(), changed);
    }

    /**
     * The run's flame graphs (--flamegraphs), the HTML pages only, to flamegraphs/&lt;runId&gt;/&lt;cell&gt;/ in the
     * history: before latest.json, which links them only once they are there.
     */
    private List<String> copyFlameGraphs(RunRecord run, Path runDir) throws IOException {
        if (!SAFE_RUN_ID.matcher(run.runId()).matches()) {
            throw new IllegalArgumentException("runId \"" + run.runId() + "\" is not a safe file name");
        }
        List<String> copied = new ArrayList<>();
        for (RunRecord.Cell cell : run.cells()) {
            for (RunRecord.Trial trial : cell.trials()) {
                for (String path : java.util.Arrays.asList(trial.cpuFlameGraph(), trial.allocFlameGraph())) {
                    String target = FlameGraphLinks.inHistory(run.runId(), path);
                    Path source = path == null ? null : runDir.resolve(path).normalize();
                    if (target == null || !source.startsWith(runDir) || !Files.isRegularFile(source)) {
                        continue;
                    }
                    if (writeIfChanged(dir.resolve(target), Files.readAllBytes(source))) {
                        copied.add(target);
                    }
                }
            }
        }
        return copied;
    }

    public AppendResult append(RunRecord run, byte[] runJson, AppendOptions options) throws IOException {
        if (!SAFE_RUN_ID.matcher(run.runId()).matches()) {
            throw new IllegalArgumentException("runId \"" + run.runId() + "\" is not a safe file name");
        }
        List<String> changed = new ArrayList<>();
        ObjectNode index = readIndex();
        ArrayNode runs = (ArrayNode) index.get("runs");
        boolean alreadyPresent = findRun(runs, run.runId()) >= 0;

        String relative = "runs/" + month(run) + "/" + run.runId() + ".json";
        if (writeIfChanged(dir.resolve(relative), runJson)) {
            changed.add(relative);
        }

        if (!options.skipDataJs()) {
            DataJs dataJs = DataJs.read(dir.resolve("data.js"));
            dataJs.add(run, options.repoUrl(), options.treeId());
            if (writeIfChanged(dir.resolve("data.js"), dataJs.render())) {
                changed.add("data.js");
            }
        }

        VariantLabels.remember(index, run);
        MetricNames.remember(index, run);
        ObjectNode entry = indexEntry(run, relative);
        int position = findRun(runs, run.runId());
        if (position >= 0) {
            runs.set(position, entry);
        } else {
            runs.add(entry);
        }

        List<RunRecord> all = loadRuns(runs, run);
        if (writeIfChanged(dir.resolve("latest.json"), JsJson.stringify(LatestJson.build(all,
                path -> Files.isRegularFile(dir.resolve(path)))))) {
            changed.add("latest.json");
        }
        if (writeIfChanged(dir.resolve("analysis.json"), JsJson.stringify(AnalysisJson.build(all)))) {
            changed.add("analysis.json");
        }
        // Last: index.json is what says the run belongs to the history.
        if (writeIfChanged(dir.resolve("index.json"), JsJson.stringify(index))) {
            changed.add("index.json");
        }
        return new AppendResult(run.runId(), alreadyPresent, changed);
    }

    /** Replaces the file atomically unless it already holds exactly these bytes; returns whether it changed. */
    private static boolean writeIfChanged(Path file, byte[] content) throws IOException {
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), content)) {
            return false;
        }
        AtomicFiles.write(file, content);
        return true;
    }

    private static boolean writeIfChanged(Path file, String content) throws IOException {
        return writeIfChanged(file, content.getBytes(StandardCharsets.UTF_8));
    }

    /** index.json, or an empty one when the history is new. */
    public ObjectNode readIndex() throws IOException {
        Path file = dir.resolve("index.json");
        if (!Files.isRegularFile(file)) {
            ObjectNode index = NODES.objectNode();
            index.put("schemaVersion", 1);
            index.putArray("runs");
            return index;
        }
        JsonNode node = Json.MAPPER.readTree(file.toFile());
        if (!(node instanceof ObjectNode object) || !object.path("runs").isArray()) {
            throw new IllegalArgumentException(file + " is not a history index (no runs array)");
        }
        return object;
    }

    /** All runs of the history, oldest first (index order); records whose file is missing are skipped. */
    public List<RunRecord> loadRuns() throws IOException {
        return loadRuns((ArrayNode) readIndex().get("runs"), null);
    }

    private List<RunRecord> loadRuns(ArrayNode runs, RunRecord pending) throws IOException {
        List<RunRecord> records = new ArrayList<>();
        for (JsonNode entry : runs) {
            if (pending != null && pending.runId().equals(entry.path("runId").asText())) {
                records.add(pending);
                continue;
            }
            Path file = dir.resolve(entry.path("file").asText());
            if (!file.normalize().startsWith(dir.normalize()) || !Files.isRegularFile(file)) {
                continue;
            }
            records.add(RunRecord.read(file));
        }
        return records;
    }

    private static int findRun(ArrayNode runs, String runId) {
        for (int i = 0; i < runs.size(); i++) {
            if (runId.equals(runs.get(i).path("runId").asText())) {
                return i;
            }
        }
        return -1;
    }

    private static ObjectNode indexEntry(RunRecord run, String file) {
        ObjectNode entry = NODES.objectNode();
        entry.put("runId", run.runId());
        entry.set("commit", LatestJson.commitSummary(run));
        entry.put("date", run.finishedAt());
        entry.put("profile", run.profile());
        entry.put("fingerprint", run.fingerprint());
        entry.put("status", run.ok() ? "ok" : "failed");
        entry.put("file", file);
        return entry;
    }

    /** YYYY-MM of the run's start (its runId starts with the same date when the start time is missing). */
    static String month(RunRecord run) {
        for (String text : List.of(run.startedAt(), run.runId())) {
            var matcher = MONTH.matcher(text);
            if (matcher.matches()) {
                return matcher.group(1) + "-" + matcher.group(2);
            }
        }
        throw new IllegalArgumentException("run " + run.runId() + " has no start date to file it under");
    }
}
