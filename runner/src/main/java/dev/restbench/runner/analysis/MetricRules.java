package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.stats.PairedRatio;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How each metric is judged, as the metric catalogue says (benchmarks.json {@code metrics}, docs/method.md
 * "Minimum effects"): its minimum effect, whether it is discrete (the exact sign-flip test instead of the t-test),
 * and whether it is a reciprocal of another metric (shown, never judged). An A/B records its rules in ab.json, so a
 * recorded run is judged again with the rules it was measured under.
 */
public final class MetricRules {

    /**
     * @param minEffectPct the smallest change that matters, in %
     * @param discrete     the paired test is {@link PairedRatio.Test#SIGN_FLIP}
     * @param reciprocalOf the metric this one is 1 / x of; null for a judged metric
     * @param hostIndependent judged even when the host check withholds the other verdicts (a count of work)
     * @param adjustedBy   the metric of the same windows that gauges the host's speed: where the cell qualifies an
     *                     A/B judges this one's change relative to it (analysis.HostGauge); null for none
     * @param crossCheckedBy the second gauge the first must have moved with; null for none
     * @param gaugeOf      the metric whose host gauge this one cross-checks: shown, never judged; null otherwise
     * @param shownOnly    why the catalogue shows this metric and never judges it (its ratio would mean nothing);
     *                     null otherwise
     */
    public record Rule(double minEffectPct, boolean discrete, String reciprocalOf, boolean hostIndependent,
                       String adjustedBy, String crossCheckedBy, String gaugeOf, String shownOnly) {

        Rule(double minEffectPct, boolean discrete, String reciprocalOf, boolean hostIndependent) {
            this(minEffectPct, discrete, reciprocalOf, hostIndependent, null, null, null, null);
        }

        public boolean judged() {
            return reciprocalOf == null && gaugeOf == null && shownOnly == null;
        }

        /** Why a row has no verdict (the A/B's and the history's rows say it alike). */
        public String shownOnlyReason() {
            return reciprocalOf != null ? "shown only: the reciprocal of " + reciprocalOf + ", judged there"
                    : gaugeOf != null ? "shown only: it cross-checks the host's speed gauge of " + gaugeOf
                    : "shown only: " + shownOnly;
        }

        /** A row's reason, after why the metric is never judged where it is not: every row of it says so. */
        public String reason(String why) {
            return judged() ? why : shownOnlyReason() + "; " + why;
        }

        Rule withMinEffect(double pct) {
            return new Rule(pct, discrete, reciprocalOf, hostIndependent, adjustedBy, crossCheckedBy, gaugeOf,
                    shownOnly);
        }

        public PairedRatio.Test test() {
            return discrete ? PairedRatio.Test.SIGN_FLIP : PairedRatio.Test.T;
        }
    }

    private final Map<String, Rule> rules;
    /** For a metric the rules do not know (a record older than the catalogue): the largest minimum effect, t-test. */
    private final Rule unknown;

    private MetricRules(Map<String, Rule> rules, Rule unknown) {
        this.rules = Map.copyOf(rules);
        this.unknown = unknown;
    }

    /** The catalogue's rules; a reciprocal takes its source's minimum effect (shown beside it, in the same terms). */
    public static MetricRules of(Manifest manifest) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        Map<String, Double> minEffects = new LinkedHashMap<>();
        manifest.metrics().forEach(m -> minEffects.put(m.id(), m.minEffectPct()));
        for (Manifest.MetricDefinition m : manifest.metrics()) {
            Double minEffect = m.reciprocalOf() != null ? minEffects.get(m.reciprocalOf()) : m.minEffectPct();
            if (minEffect == null) {
                throw new IllegalArgumentException("metric " + m.id() + " has no minEffectPct");
            }
            rules.put(m.id(), new Rule(minEffect, m.discrete(), m.reciprocalOf(), m.hostIndependent(),
                    m.adjustedBy(), m.adjustedBy() == null ? null : m.crossCheckedBy(), null, m.shownOnly()));
        }
        return new MetricRules(withGauges(rules), largest(rules));
    }

    /**
     * One minimum effect for every metric, every metric judged with the t-test: the rule before the catalogue held
     * per-metric rules (the history verdict still uses it).
     */
    public static MetricRules uniform(double minEffectPct) {
        return new MetricRules(Map.of(), new Rule(requireMinEffect(minEffectPct, "minEffectPct"), false, null, false));
    }

    /** The same rules with every minimum effect replaced ({@code --min-effect}). */
    public MetricRules withMinEffect(double minEffectPct) {
        requireMinEffect(minEffectPct, "minEffectPct");
        Map<String, Rule> replaced = new LinkedHashMap<>();
        rules.forEach((id, r) -> replaced.put(id, r.withMinEffect(minEffectPct)));
        return new MetricRules(replaced, new Rule(minEffectPct, false, null, false));
    }

    /**
     * These rules with each metric's facts — whether it is discrete, a reciprocal, shown only — taken from
     * {@code catalogue} wherever it knows the metric; only the minimum effects stay. A recorded design is untrusted
     * data (the PR comment job reads it from the benchmark job's artifact): its minimum effects are range-checked
     * settings, as schema 1's one minimum effect was, but a record that called CPU per request a reciprocal would take
     * it out of the verdict, and one that called it host-independent would judge it on a host that changed.
     */
    public MetricRules withFactsOf(MetricRules catalogue) {
        Map<String, Rule> out = new LinkedHashMap<>();
        rules.forEach((id, r) -> {
            Rule known = catalogue.rules.get(id);
            // A gauge whose cross-check the record left out is not used at all: unchecked, it would judge PostgreSQL's
            // own changes as the stack's.
            boolean adjusted = known != null && known.adjustedBy() != null && rules.containsKey(known.adjustedBy())
                    && (known.crossCheckedBy() == null || rules.containsKey(known.crossCheckedBy()));
            out.put(id, known == null ? new Rule(r.minEffectPct(), r.discrete(), r.reciprocalOf(), false)
                    : new Rule(r.minEffectPct(), known.discrete(), known.reciprocalOf(), known.hostIndependent(),
                    adjusted ? known.adjustedBy() : null, adjusted ? known.crossCheckedBy() : null, null,
                    known.shownOnly()));
        });
        // A metric the catalogue never judges stays unjudged when the record leaves it out: as an unknown metric it
        // would be judged with the t-test (the planner's runs, a reciprocal, the load generator's CPU).
        catalogue.rules.forEach((id, known) -> {
            if (!out.containsKey(id) && !known.judged()) {
                out.put(id, new Rule(known.minEffectPct(), known.discrete(), known.reciprocalOf(),
                        known.hostIndependent(), null, null, known.gaugeOf(), known.shownOnly()));
            }
        });
        return new MetricRules(withGauges(out), unknown);
    }

    public Rule rule(String metric) {
        return rules.getOrDefault(metric, unknown);
    }

    public double minEffectPct(String metric) {
        return rule(metric).minEffectPct();
    }

    /** The minimum effect most metrics have (the rest are listed by {@link #describe}). */
    public double commonMinEffectPct() {
        Map<Double, Integer> counts = new LinkedHashMap<>();
        rules.values().forEach(r -> counts.merge(r.minEffectPct(), 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.<Double, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).orElse(unknown.minEffectPct());
    }

    /** The metrics whose minimum effect differs from {@link #commonMinEffectPct}, by id, in catalogue order. */
    public Map<String, Double> exceptions() {
        double common = commonMinEffectPct();
        Map<String, Double> out = new LinkedHashMap<>();
        MetricCatalog.ids().forEach(id -> {
            Rule r = rules.get(id);
            if (r != null && r.judged() && r.minEffectPct() != common) {
                out.put(id, r.minEffectPct());
            }
        });
        rules.forEach((id, r) -> {
            if (!out.containsKey(id) && r.judged() && r.minEffectPct() != common) {
                out.put(id, r.minEffectPct());
            }
        });
        return out;
    }

    /** The metrics judged even when the host check withholds the rest, sorted by id. */
    public List<String> hostIndependent() {
        return rules.entrySet().stream().filter(e -> e.getValue().hostIndependent()).map(Map.Entry::getKey).sorted()
                .toList();
    }

    /** "5 %" or "5 % (alloc_bytes_per_req 1 %)". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        exceptions().forEach((id, pct) -> parts.add(id + " " + number(pct) + " %"));
        return number(commonMinEffectPct()) + " %" + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")");
    }

    /** {"cpu_us_per_req": {"minEffectPct": 5}, "latency_p99": {"minEffectPct": 5, "discrete": true}, …}. */
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        rules.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            ObjectNode rule = node.putObject(e.getKey());
            rule.put("minEffectPct", e.getValue().minEffectPct());
            if (e.getValue().discrete()) {
                rule.put("discrete", true);
            }
            if (e.getValue().reciprocalOf() != null) {
                rule.put("reciprocalOf", e.getValue().reciprocalOf());
            }
            if (e.getValue().hostIndependent()) {
                rule.put("hostIndependent", true);
            }
            if (e.getValue().adjustedBy() != null) {
                rule.put("adjustedBy", e.getValue().adjustedBy());
            }
            if (e.getValue().crossCheckedBy() != null) {
                rule.put("crossCheckedBy", e.getValue().crossCheckedBy());
            }
            if (e.getValue().shownOnly() != null) {
                rule.put("shownOnly", e.getValue().shownOnly());
            }
        });
        return node;
    }

    /**
     * The rules a run was measured under, from its run.json {@code metricDefinitions}; a record older than the
     * rules in it gets {@link #uniform} at {@code fallbackMinEffectPct} (every metric judged, one minimum effect).
     */
    public static MetricRules ofRecord(RunRecord record, double fallbackMinEffectPct) {
        return ofRecord(record.metricDefinitions(), fallbackMinEffectPct);
    }

    static MetricRules ofRecord(JsonNode metricDefinitions, double fallbackMinEffectPct) {
        ObjectNode byId = Json.MAPPER.createObjectNode();
        for (JsonNode definition : metricDefinitions) {
            if (!definition.path(RunRecord.DEFINITION_MIN_EFFECT_PCT).isNumber()
                    && !definition.path(RunRecord.DEFINITION_RECIPROCAL_OF).isTextual()) {
                return uniform(fallbackMinEffectPct);
            }
            ObjectNode rule = byId.putObject(definition.path(RunRecord.DEFINITION_ID).asText());
            rule.set("minEffectPct", definition.path(RunRecord.DEFINITION_MIN_EFFECT_PCT).isNumber()
                    ? definition.get(RunRecord.DEFINITION_MIN_EFFECT_PCT) : null);
            for (String fact : List.of(RunRecord.DEFINITION_DISCRETE, RunRecord.DEFINITION_RECIPROCAL_OF,
                    RunRecord.DEFINITION_HOST_INDEPENDENT, RunRecord.DEFINITION_ADJUSTED_BY,
                    RunRecord.DEFINITION_CROSS_CHECKED_BY, RunRecord.DEFINITION_SHOWN_ONLY)) {
                if (definition.has(fact)) {
                    rule.set(fact, definition.get(fact));
                }
            }
        }
        if (byId.isEmpty()) {
            return uniform(fallbackMinEffectPct);
        }
        // A reciprocal takes its source's minimum effect, as in the catalogue.
        byId.fields().forEachRemaining(e -> {
            if (e.getValue().path("reciprocalOf").isTextual()) {
                JsonNode source = byId.path(e.getValue().get("reciprocalOf").asText()).path("minEffectPct");
                ((ObjectNode) e.getValue()).set("minEffectPct", source.isNumber() ? source
                        : Json.MAPPER.getNodeFactory().numberNode(fallbackMinEffectPct));
            }
        });
        return fromJson(byId, "metricDefinitions");
    }

    /** Reads {@link #toJson}; the record may be untrusted data, so every value is checked. */
    public static MetricRules fromJson(JsonNode node, String source) {
        if (!node.isObject() || node.isEmpty()) {
            throw new IllegalArgumentException(source + ": metrics must be a non-empty object");
        }
        Map<String, Rule> rules = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = source + ": metrics." + e.getKey();
            JsonNode rule = e.getValue();
            if (!e.getKey().matches("[a-z][a-z0-9_]{0,60}") || !rule.path("minEffectPct").isNumber()) {
                throw new IllegalArgumentException(at + " needs a metric id and a minEffectPct");
            }
            JsonNode reciprocal = rule.path("reciprocalOf");
            if (!reciprocal.isMissingNode() && !(reciprocal.isTextual() && node.has(reciprocal.asText()))) {
                throw new IllegalArgumentException(at + ".reciprocalOf must name another metric of the record");
            }
            JsonNode adjustedBy = rule.path("adjustedBy");
            if (!adjustedBy.isMissingNode() && !(adjustedBy.isTextual() && node.has(adjustedBy.asText())
                    && !adjustedBy.asText().equals(e.getKey()))) {
                throw new IllegalArgumentException(at + ".adjustedBy must name another metric of the record");
            }
            JsonNode crossCheckedBy = rule.path("crossCheckedBy");
            if (!crossCheckedBy.isMissingNode() && !(crossCheckedBy.isTextual() && adjustedBy.isTextual()
                    && node.has(crossCheckedBy.asText()) && !crossCheckedBy.asText().equals(e.getKey())
                    && !crossCheckedBy.asText().equals(adjustedBy.asText()))) {
                throw new IllegalArgumentException(at + ".crossCheckedBy must name a third metric of the record,"
                        + " beside adjustedBy");
            }
            JsonNode shownOnly = rule.path("shownOnly");
            if (!shownOnly.isMissingNode() && !(shownOnly.isTextual() && !shownOnly.asText().isBlank()
                    && shownOnly.asText().length() <= 500)) {
                throw new IllegalArgumentException(at + ".shownOnly must be a short text: why it is not judged");
            }
            rules.put(e.getKey(), new Rule(requireMinEffect(rule.path("minEffectPct").asDouble(), at + ".minEffectPct"),
                    rule.path("discrete").asBoolean(false), reciprocal.isTextual() ? reciprocal.asText() : null,
                    rule.path("hostIndependent").asBoolean(false), adjustedBy.isTextual() ? adjustedBy.asText() : null,
                    crossCheckedBy.isTextual() ? crossCheckedBy.asText() : null, null,
                    shownOnly.isTextual() ? shownOnly.asText() : null));
        }
        return new MetricRules(withGauges(rules), largest(rules));
    }

    /**
     * The rules with each metric another's gauge is cross-checked by marked as a gauge (shown, never judged: the load
     * generator's CPU per request is the harness's work, not the stack's cost). The gauge itself ({@code adjustedBy},
     * PostgreSQL's CPU per request) stays judged as measured: it is what the stack's data access costs the database.
     */
    private static Map<String, Rule> withGauges(Map<String, Rule> rules) {
        Map<String, Rule> out = new LinkedHashMap<>(rules);
        rules.forEach((id, r) -> {
            Rule gauge = r.crossCheckedBy() == null ? null : out.get(r.crossCheckedBy());
            if (gauge != null) {
                out.put(r.crossCheckedBy(), new Rule(gauge.minEffectPct(), gauge.discrete(), gauge.reciprocalOf(),
                        gauge.hostIndependent(), null, null, id, gauge.shownOnly()));
            }
        });
        return out;
    }

    private static Rule largest(Map<String, Rule> rules) {
        double max = rules.values().stream().mapToDouble(Rule::minEffectPct).max().orElse(5);
        return new Rule(max, false, null, false);
    }

    private static double requireMinEffect(double pct, String what) {
        if (!(pct > 0 && pct < 100)) {
            throw new IllegalArgumentException(what + " must be in (0, 100), was " + pct);
        }
        return pct;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%s", value);
    }
}
