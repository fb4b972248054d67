package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.Direction;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.stats.Summary;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dev/bench/data.js in github-action-benchmark v1.22's own format, so the action (in CI) and the runner (locally)
 * read and write the same file: {@code window.BENCHMARK_DATA = } followed by {@code JSON.stringify(data, null, 2)}
 * of {@code {lastUpdate, repoUrl, entries: {suite: [{commit, date, tool, benches}]}}}. Entries written by the
 * action are kept as they are.
 */
public final class DataJs {

    public static final String PREFIX = "window.BENCHMARK_DATA = ";
    public static final String THROUGHPUT_SUITE = "throughput";
    public static final String COSTS_SUITE = "costs";
    static final String BIGGER_TOOL = "customBiggerIsBetter";
    static final String SMALLER_TOOL = "customSmallerIsBetter";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern NAME_AND_EMAIL = Pattern.compile("^\\s*(.*?)\\s*<([^>]*)>\\s*$");

    private final ObjectNode data;

    private DataJs(ObjectNode data) {
        this.data = data;
    }

    public static DataJs read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            ObjectNode empty = NODES.objectNode();
            empty.put("lastUpdate", 0);
            empty.put("repoUrl", "");
            empty.putObject("entries");
            return new DataJs(empty);
        }
        String script = Files.readString(file, StandardCharsets.UTF_8);
        if (!script.startsWith(PREFIX)) {
            throw new IllegalArgumentException(file + " does not start with \"" + PREFIX.trim() + "\"");
        }
        JsonNode node = Json.MAPPER.readTree(script.substring(PREFIX.length()));
        if (!(node instanceof ObjectNode object) || !object.path("entries").isObject()) {
            throw new IllegalArgumentException(file + " is not github-action-benchmark data (no entries object)");
        }
        return new DataJs(object);
    }

    public ObjectNode data() {
        return data;
    }

    public String render() {
        return PREFIX + JsJson.stringify(data);
    }

    /**
     * Adds the run's ok values: bigger-is-better series to the throughput suite, the rest to costs; one entry per
     * suite and run. An entry with the same commit id and date (the same run appended before) is replaced in place,
     * so appending twice leaves one entry.
     */
    public void add(RunRecord run, String repoUrl, String treeId) {
        long date = epochMillis(run.finishedAt());
        ArrayNode throughput = NODES.arrayNode();
        ArrayNode costs = NODES.arrayNode();
        for (RunRecord.Point point : run.points()) {
            if (!point.ok() || point.values().length == 0) {
                continue; // failed cells contribute no numbers
            }
            (point.direction() == Direction.BIGGER ? throughput : costs).add(bench(point, run));
        }
        if (repoUrl != null && !repoUrl.isEmpty()) {
            data.put("repoUrl", repoUrl);
        }
        String effectiveRepoUrl = data.path("repoUrl").asText("");
        ObjectNode entries = (ObjectNode) data.get("entries");
        putEntry(entries, THROUGHPUT_SUITE, BIGGER_TOOL, throughput, run, date, effectiveRepoUrl, treeId);
        putEntry(entries, COSTS_SUITE, SMALLER_TOOL, costs, run, date, effectiveRepoUrl, treeId);
        // The action stamps Date.now(); stamping the run's own time keeps a re-append byte-identical.
        data.put("lastUpdate", Math.max(data.path("lastUpdate").asLong(0), date));
    }

    private static void putEntry(ObjectNode entries, String suite, String tool, ArrayNode benches, RunRecord run,
                                 long date, String repoUrl, String treeId) {
        if (benches.isEmpty()) {
            return;
        }
        ObjectNode entry = NODES.objectNode();
        entry.set("commit", commit(run, repoUrl, treeId));
        entry.put("date", date);
        entry.put("tool", tool);
        entry.set("benches", benches);
        ArrayNode list = entries.has(suite) ? (ArrayNode) entries.get(suite) : entries.putArray(suite);
        for (int i = 0; i < list.size(); i++) {
            JsonNode existing = list.get(i);
            if (existing.path("date").asLong() == date
                    && existing.path("commit").path("id").asText().equals(run.commitId())) {
                list.set(i, entry);
                return;
            }
        }
        list.add(entry);
    }

    private static ObjectNode bench(RunRecord.Point point, RunRecord run) {
        Summary summary = Summary.of(point.values());
        ObjectNode bench = NODES.objectNode();
        // Key order as the action's BenchmarkResult schema (name, value, range, unit, extra) emits it.
        bench.put("name", point.seriesKey());
        bench.put("value", JsJson.round(summary.value()));
        bench.put("range", "± " + JsJson.number(JsJson.round((summary.max() - summary.min()) / 2)));
        bench.put("unit", point.unit() == null ? "" : point.unit());
        bench.put("extra", "n=" + summary.n() + " min=" + JsJson.number(JsJson.round(summary.min()))
                + " max=" + JsJson.number(JsJson.round(summary.max())) + " profile=" + run.profile()
                + " env=" + shortFingerprint(run.fingerprint()));
        return bench;
    }

    /** The commit object as GitHub's push payload (head_commit) gives it to the action. */
    static ObjectNode commit(RunRecord run, String repoUrl, String treeId) {
        JsonNode source = run.commit();
        ObjectNode user = NODES.objectNode();
        String author = source.path("author").isTextual() ? source.path("author").asText() : "";
        String name = author;
        String email = source.path("email").asText("");
        Matcher matcher = NAME_AND_EMAIL.matcher(author);
        if (matcher.matches()) {
            name = matcher.group(1);
            email = matcher.group(2);
        }
        user.put("email", email);
        user.put("name", name);
        // No GitHub login is known locally; like the action's pull-request fallback, use the name.
        user.put("username", source.path("username").asText(name));
        ObjectNode commit = NODES.objectNode();
        commit.set("author", user);
        commit.set("committer", user.deepCopy());
        commit.put("distinct", true);
        commit.put("id", run.commitId());
        commit.put("message", source.path("message").asText(""));
        commit.put("timestamp", source.path("timestamp").asText(""));
        commit.put("tree_id", treeId != null ? treeId : source.path("treeId").asText(""));
        String url = source.path("url").isTextual() ? source.path("url").asText() : "";
        if (url.isEmpty() && !repoUrl.isEmpty() && !run.commitId().isEmpty()) {
            url = repoUrl + "/commit/" + run.commitId();
        }
        commit.put("url", url);
        return commit;
    }

    static String shortFingerprint(String fingerprint) {
        return dev.restbench.runner.analysis.Judgement.shortFingerprint(fingerprint);
    }

    static long epochMillis(String iso) {
        try {
            return Instant.parse(iso).toEpochMilli();
        } catch (RuntimeException e) {
            try {
                return java.time.OffsetDateTime.parse(iso).toInstant().toEpochMilli();
            } catch (RuntimeException again) {
                throw new IllegalArgumentException("run time is not ISO-8601: \"" + iso + "\"");
            }
        }
    }
}
