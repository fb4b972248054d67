package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What an A/B decided before it measured, written beside its run.json as {@code ab.json}: the commits, the level its
 * verdict is judged at, each metric's rules (minimum effect, discrete, reciprocal; from the catalogue the measuring
 * checkout had) and why it stopped. Judging a recorded A/B again ({@code ./bench ab --from}) needs exactly these, so
 * the verdict does not depend on who renders it.
 *
 * <p>Schema 1 (before 2026-11-25) recorded α, the number of looks (every look at α / looks) and one minimum effect for
 * all metrics; such a record is judged at α / looks with that minimum effect and the reading checkout's other rules.
 *
 * @param alpha         the level the verdict is judged at (Holm's family-wise level for the primary series, BH's
 *                      false discovery rate for the others)
 * @param recordedLooks schema 1's looks (the verdict's α is already divided by them); 0 for schema 2
 * @param scope         which variants were measured and why ({@code ChangedVariants}), or null (all, or unknown)
 */
record Design(String base, String head, double alpha, MetricRules rules, String stopReason, int recordedLooks,
              String scope) {

    static final String FILE = "ab.json";
    static final int SCHEMA_VERSION = 2;
    private static final int MAX_LOOKS = 50;

    Design {
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("alpha must be in (0, 0.5), was " + alpha);
        }
        if (rules == null) {
            throw new IllegalArgumentException("metric rules are missing");
        }
    }

    Design(String base, String head, double alpha, MetricRules rules, String stopReason) {
        this(base, head, alpha, rules, stopReason, 0, null);
    }

    Judgement judge(RunRecord run) {
        int rounds = run.plannedRounds();
        String level = recordedLooks > 0
                ? String.format(Locale.ROOT, "%d look(s) at α/%d (an ab.json of schema 1)", recordedLooks, recordedLooks)
                : "judged once, after the last round";
        String detail = String.format(Locale.ROOT, "%d round(s) of one base and one head start each, in random order;"
                + " paired test on ln(head/base) per series (t; exact sign-flip for discrete metrics), one-sided,"
                + " regressions and improvements corrected as separate families; %s", rounds, level);
        return PairedJudge.judge(InterleavedRun.select(run, "base", base), InterleavedRun.select(run, "head", head),
                alpha, rules, detail);
    }

    ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("schemaVersion", SCHEMA_VERSION);
        node.put("base", base);
        node.put("head", head);
        node.put("alpha", alpha);
        node.set("metrics", rules.toJson());
        if (stopReason != null) {
            node.put("stopReason", stopReason);
        }
        if (scope != null) {
            node.put("scope", scope);
        }
        return node;
    }

    /**
     * Reads a design; {@code base}/{@code head} given by the caller (the commits it trusts) replace the recorded ones.
     *
     * @param catalogue this checkout's rules: a schema 1 record holds only one minimum effect, and a metric's facts
     *                  (discrete, reciprocal) are never taken from a record ({@link MetricRules#withFactsOf})
     */
    static Design read(Path file, String base, String head, Supplier<MetricRules> catalogue) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is missing (an A/B run directory holds run.json and ab.json)");
        }
        JsonNode node = Json.MAPPER.readTree(file.toFile());
        int schema = node == null ? 0 : node.path("schemaVersion").asInt();
        if (schema != 1 && schema != SCHEMA_VERSION) {
            throw new IllegalArgumentException(file + ": schemaVersion must be 1 or " + SCHEMA_VERSION);
        }
        if (!node.path("alpha").isNumber()) {
            throw new IllegalArgumentException(file + ": alpha must be a number");
        }
        String baseCommit = base != null ? base : text(node, "base", COMMIT);
        String headCommit = head != null ? head : text(node, "head", COMMIT);
        String stop = text(node, "stopReason", PROSE);
        if (schema == SCHEMA_VERSION) {
            return new Design(baseCommit, headCommit, node.path("alpha").asDouble(),
                    MetricRules.fromJson(node.path("metrics"), file.toString()).withFactsOf(catalogue.get()), stop, 0,
                    text(node, "scope", SCOPE));
        }
        for (String field : new String[] {"looks", "minEffectPct"}) {
            if (!node.path(field).isNumber()) {
                throw new IllegalArgumentException(file + ": " + field + " must be a number");
            }
        }
        if (!node.path("looks").canConvertToExactIntegral()) {
            throw new IllegalArgumentException(file + ": looks must be a whole number");
        }
        int looks = node.path("looks").asInt();
        if (looks < 1 || looks > MAX_LOOKS) {
            throw new IllegalArgumentException("looks must be 1.." + MAX_LOOKS + ", was " + looks);
        }
        double alpha = node.path("alpha").asDouble();
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("alpha must be in (0, 0.5), was " + alpha);
        }
        return new Design(baseCommit, headCommit, alpha / looks,
                catalogue.get().withMinEffect(node.path("minEffectPct").asDouble()), stop, looks, null);
    }

    /** Recorded strings reach markdown: commits are hex, prose has no markdown or HTML syntax; anything else is dropped. */
    private static final String COMMIT = "[0-9a-f]{7,40}";
    private static final String PROSE = "[A-Za-z0-9 ,.'()-]{1,200}";
    /** Which variants were measured: prose that may list every variant of a profile. */
    private static final String SCOPE = "[A-Za-z0-9 ,.'()-]{1,1000}";

    private static String text(JsonNode node, String field, String pattern) {
        JsonNode value = node.path(field);
        return value.isTextual() && value.asText().matches(pattern) ? value.asText() : null;
    }
}
