package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a sequential A/B decided before it measured, written beside its run.json as {@code ab.json}: the commits, α,
 * the number of looks the plan allowed (each tested at α / looks) and the smallest effect that matters. Judging a
 * recorded A/B again ({@code ./bench ab --from}) needs exactly these, so the verdict does not depend on who renders it.
 */
record Design(String base, String head, double alpha, int looks, double minEffectPct, String stopReason) {

    static final String FILE = "ab.json";
    static final int SCHEMA_VERSION = 1;
    private static final int MAX_LOOKS = 50;

    Design {
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("alpha must be in (0, 0.5), was " + alpha);
        }
        if (looks < 1 || looks > MAX_LOOKS) {
            throw new IllegalArgumentException("looks must be 1.." + MAX_LOOKS + ", was " + looks);
        }
        if (!(minEffectPct > 0 && minEffectPct < 100)) {
            throw new IllegalArgumentException("minEffectPct must be in (0, 100), was " + minEffectPct);
        }
    }

    double lookAlpha() {
        return alpha / looks;
    }

    Judgement judge(RunRecord run) {
        int rounds = run.raw().path("plan").path("rounds").asInt();
        String detail = String.format(Locale.ROOT, "%d round(s) of one base and one head start each, in random order;"
                + " paired t-test on ln(head/base) per series; %d look(s) at α/%d", rounds, looks, looks);
        return PairedJudge.judge(InterleavedRun.select(run, "base", base), InterleavedRun.select(run, "head", head),
                lookAlpha(), minEffectPct, detail);
    }

    ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("schemaVersion", SCHEMA_VERSION);
        node.put("base", base);
        node.put("head", head);
        node.put("alpha", alpha);
        node.put("looks", looks);
        node.put("minEffectPct", minEffectPct);
        if (stopReason != null) {
            node.put("stopReason", stopReason);
        }
        return node;
    }

    /**
     * Reads a design; {@code base}/{@code head} given by the caller (the commits it trusts) replace the recorded ones.
     */
    static Design read(Path file, String base, String head) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is missing (an A/B run directory holds run.json and ab.json)");
        }
        JsonNode node = Json.MAPPER.readTree(file.toFile());
        if (node == null || node.path("schemaVersion").asInt() != SCHEMA_VERSION) {
            throw new IllegalArgumentException(file + ": schemaVersion must be " + SCHEMA_VERSION);
        }
        for (String field : new String[] {"alpha", "looks", "minEffectPct"}) {
            if (!node.path(field).isNumber()) {
                throw new IllegalArgumentException(file + ": " + field + " must be a number");
            }
        }
        if (!node.path("looks").canConvertToExactIntegral()) {
            throw new IllegalArgumentException(file + ": looks must be a whole number");
        }
        return new Design(base != null ? base : text(node, "base", COMMIT), head != null ? head : text(node, "head", COMMIT),
                node.path("alpha").asDouble(), node.path("looks").asInt(), node.path("minEffectPct").asDouble(),
                text(node, "stopReason", PROSE));
    }

    /** Recorded strings reach markdown: commits are hex, prose has no markdown or HTML syntax; anything else is dropped. */
    private static final String COMMIT = "[0-9a-f]{7,40}";
    private static final String PROSE = "[A-Za-z0-9 ,.'()-]{1,200}";

    private static String text(JsonNode node, String field, String pattern) {
        JsonNode value = node.path(field);
        return value.isTextual() && value.asText().matches(pattern) ? value.asText() : null;
    }
}
