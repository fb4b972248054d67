package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.io.Json;

import java.util.Set;
import java.util.TreeSet;

/**
 * The parts of an interleaved run: copies of variants run side by side in ONE run, named {@code <variant>--<label>}
 * (e.g. {@code jersey--base}; manifest names allow only [a-z0-9-]), alternating in every round on the same machine
 * (A/B builds of two revisions, or one build with and without injected faults). {@link #select} splits the run back
 * into one record per label. Deriving and starting such runs is {@code ab.Copies}' job.
 */
public final class InterleavedRun {

    public static final String SEPARATOR = "--";

    private InterleavedRun() {
    }

    /** The label of a copy's name ({@code jersey--base} → {@code base}); null for a name that is no copy. */
    public static String label(String name) {
        int at = name.lastIndexOf(SEPARATOR);
        return at > 0 ? name.substring(at + SEPARATOR.length()) : null;
    }

    /** The variant a copy's name copies ({@code jersey--base} → {@code jersey}); the name itself when it is no copy. */
    public static String variant(String name) {
        int at = name.lastIndexOf(SEPARATOR);
        return at > 0 ? name.substring(0, at) : name;
    }

    /** The labels of a run's cells, sorted. */
    public static Set<String> labels(RunRecord run) {
        Set<String> labels = new TreeSet<>();
        for (RunRecord.Cell cell : run.cells()) {
            String label = label(cell.variant());
            if (label != null) {
                labels.add(label);
            }
        }
        return labels;
    }

    /**
     * The part of an interleaved run that belongs to one label, with the label stripped from variant names, so
     * {@code jersey--base} and {@code jersey--head} become two comparable records of {@code jersey}.
     *
     * @param commit the commit id this part measured (null keeps the run's)
     */
    public static RunRecord select(RunRecord run, String label, String commit) {
        ObjectNode raw = run.raw().deepCopy();
        String suffix = SEPARATOR + label;
        ArrayNode variants = Json.MAPPER.createArrayNode();
        for (RunRecord.Variant variant : run.variants()) {
            if (variant.name().endsWith(suffix)) {
                ObjectNode copy = (ObjectNode) variant.raw().deepCopy();
                copy.put(RunRecord.VARIANT_NAME, strip(variant.name(), suffix));
                variants.add(copy);
            }
        }
        ArrayNode cells = Json.MAPPER.createArrayNode();
        for (RunRecord.Cell cell : run.cells()) {
            if (cell.variant().endsWith(suffix)) {
                ObjectNode copy = (ObjectNode) cell.raw().deepCopy();
                copy.put(RunRecord.CELL_VARIANT, strip(cell.variant(), suffix));
                cells.add(copy);
            }
        }
        raw.set(RunRecord.VARIANTS, variants);
        raw.set(RunRecord.CELLS, cells);
        raw.put(RunRecord.RUN_ID, run.runId() + "-" + label);
        if (commit != null) {
            ((ObjectNode) raw.path(RunRecord.COMMIT)).put(RunRecord.COMMIT_ID, commit);
        }
        return RunRecord.of(raw, run.runId() + " (" + label + ")");
    }

    private static String strip(String name, String suffix) {
        return name.substring(0, name.length() - suffix.length());
    }
}
