package dev.restbench.runner.merge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.io.Trees;
import dev.restbench.runner.run.CpuComparisons;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code ./bench merge --out <dir> <shard dir>…}: joins the results of shards — the same commit, profile and
 * hardware class, different variants — into one results directory, as if one runner had run them all. Used by the
 * workflow's publish job; with one shard it is a plain copy, so the job is the same with sharding on or off. The CPU
 * comparisons (run.json {@code comparisons}: the site's answer, {@code ./bench answer}) are computed again over every
 * shard's cells, since each shard compared only its own variants.
 *
 * <p>Shards measured on machines with different environment fingerprints are refused, not merged: their numbers
 * would sit side by side in one table as if comparable.
 */
@Command(name = "merge",
        header = "merge the results of sharded runs (same commit, profile, hardware) into one results directory",
        description = "Finds every finished run (a directory with run.json) under the given paths, checks they share"
                + " commit, profile and environment fingerprint and cover different variants, and writes <dir> with"
                + " the merged run.json (its CPU comparisons computed again over every shard's cells), both"
                + " github-action-benchmark files, summary.md and every shard's Gatling reports and logs.",
        exitCodeList = {"0:merged", "1:failure", "2:bad input (no runs, or runs that must not be merged)"})
public final class MergeCommand implements Callable<Integer> {

    static final List<String> BENCH_FILES = List.of("bench-throughput.json", "bench-costs.json");

    @Option(names = "--out", paramLabel = "<dir>", required = true, description = "the merged results directory")
    private Path out;

    @Parameters(paramLabel = "<results dir or folder holding them>", arity = "1..*",
            description = "the shards' results directories")
    private List<Path> shards;

    @Override
    public Integer call() throws Exception {
        List<Path> runs = new ArrayList<>();
        try {
            for (Path path : shards) {
                runs.addAll(findRuns(path));
            }
            merge(runs, out);
        } catch (IllegalArgumentException e) {
            System.err.println("bench merge: " + e.getMessage());
            return 2;
        }
        System.out.println("merged " + runs.size() + " run(s) into " + out);
        return 0;
    }

    static List<Path> findRuns(Path root) throws IOException {
        if (!Files.exists(root)) {
            throw new IllegalArgumentException("no such directory: " + root);
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals("run.json"))
                    .map(Path::getParent).sorted().toList();
        }
    }

    static void merge(List<Path> runs, Path out) throws IOException {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no finished run (run.json) found");
        }
        List<RunRecord> records = new ArrayList<>();
        for (Path run : runs) {
            records.add(RunRecord.read(run));
        }
        RunRecord first = records.get(0);
        for (int i = 1; i < records.size(); i++) {
            RunRecord other = records.get(i);
            requireSame("/commit/id", first.commitId(), other.commitId(), runs.get(i));
            requireSame("/profile", first.profile(), other.profile(), runs.get(i));
            requireSame("/environment/fingerprint", first.fingerprint(), other.fingerprint(), runs.get(i));
        }
        ObjectNode merged = first.raw().deepCopy();
        ArrayNode variants = merged.putArray(RunRecord.VARIANTS);
        ArrayNode cells = merged.putArray(RunRecord.CELLS);
        List<String> seenVariants = new ArrayList<>();
        boolean anyFailed = false;
        boolean anyMeasured = false;
        for (int i = 0; i < records.size(); i++) {
            RunRecord record = records.get(i);
            for (RunRecord.Variant variant : record.variants()) {
                if (seenVariants.contains(variant.name())) {
                    throw new IllegalArgumentException("variant " + variant.name() + " appears in two shards ("
                            + runs.get(i) + "): shards must split the variants, not repeat them");
                }
                seenVariants.add(variant.name());
                variants.add(variant.raw());
            }
            record.cells().forEach(cell -> cells.add(cell.raw()));
            anyFailed |= record.cells().stream().anyMatch(RunRecord.Cell::failed);
            anyMeasured |= record.cells().stream().anyMatch(RunRecord.Cell::ok);
            for (String field : List.of(RunRecord.STARTED_AT, RunRecord.FINISHED_AT)) {
                int order = record.raw().path(field).asText().compareTo(merged.path(field).asText());
                if (field.equals(RunRecord.STARTED_AT) ? order < 0 : order > 0) {
                    merged.set(field, record.raw().get(field)); // the earliest start, the latest finish
                }
            }
        }
        // As the runner's rule (ResultsWriter.runStatus): no cell failed and some cell measured; a cell a shard did
        // not measure (no runtime on its host, no budget left) fails nothing.
        merged.put(RunRecord.STATUS, !anyFailed && anyMeasured ? "ok" : "failed");
        if (records.size() > 1) {
            merged.put(RunRecord.RUN_ID, first.runId() + "-merged" + records.size());
            merged.remove(RunRecord.TIMINGS); // wall-time splits of different machines do not add up
            // Each shard compared only its own variants: the comparisons are computed again over every shard's cells.
            merged.set(RunRecord.COMPARISONS, Json.MAPPER.valueToTree(comparisons(records).json()));
        }

        Files.createDirectories(out);
        StringBuilder summary = new StringBuilder();
        for (String file : BENCH_FILES) {
            ArrayNode entries = Json.MAPPER.createArrayNode();
            for (Path run : runs) {
                Path path = run.resolve(file);
                if (Files.exists(path)) {
                    entries.addAll((ArrayNode) Json.MAPPER.readTree(path.toFile()));
                }
            }
            AtomicFiles.writeJson(out.resolve(file), entries);
        }
        for (Path run : runs) {
            for (String dir : List.of("gatling", "logs")) {
                Trees.copy(run.resolve(dir), out.resolve(dir));
            }
            Path shardSummary = run.resolve("summary.md");
            if (Files.exists(shardSummary)) {
                if (records.size() > 1) {
                    summary.append("<!-- shard ").append(run.getFileName()).append(" -->\n");
                }
                summary.append(Files.readString(shardSummary)).append('\n');
            }
        }
        AtomicFiles.writeString(out.resolve("summary.md"), summary.toString());
        AtomicFiles.writeJson(out.resolve("run.json"), merged); // last, as every results directory
    }

    /** The comparisons over the cells of every shard, with the variants' classification as the shards recorded it. */
    static CpuComparisons comparisons(List<RunRecord> records) {
        List<String> scenarios = new ArrayList<>();
        List<CpuComparisons.Cell> cells = new ArrayList<>();
        Map<String, Map<String, String>> labels = new HashMap<>();
        for (RunRecord record : records) {
            record.variants().forEach(v -> labels.put(v.name(), v.labels()));
            for (RunRecord.Cell cell : record.cells()) {
                if (!scenarios.contains(cell.scenario())) {
                    scenarios.add(cell.scenario());
                }
                cells.add(new CpuComparisons.Cell(cell.variant(), cell.scenario(), cell.regime(), cell.ok(),
                        cell.value(CpuComparisons.METRIC), cell.windows(CpuComparisons.METRIC),
                        cell.value(CpuComparisons.STATEMENTS)));
            }
        }
        return CpuComparisons.ofCells(scenarios, cells, name -> Optional.ofNullable(labels.get(name))
                .filter(l -> !l.isEmpty()));
    }

    private static void requireSame(String what, String a, String b, Path run) {
        if (!Objects.equals(a, b)) {
            throw new IllegalArgumentException(run + " differs in " + what + " (" + a + " vs " + b
                    + "): only shards of one run on identical machines can be merged");
        }
    }
}
