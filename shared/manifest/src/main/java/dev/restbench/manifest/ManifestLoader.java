package dev.restbench.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Loads benchmarks.json: JSON Schema validation first (benchmarks.schema.json, packaged into this jar from the
 * repository root), then every variant resolved through {@code extends} and the defaults, then the cross-references a
 * schema cannot express (names that must exist and be unique, no {@code extends} cycle, launch-command placeholders
 * that fit the variant's runtime). Every problem is reported with its JSON Pointer; callers may add their own checks
 * (the runner checks the metric catalogue against what it computes).
 */
public final class ManifestLoader {

    /** The fields a variant takes from {@code defaults} unless it (or what it extends) sets them. */
    private static final List<String> INHERITED_DEFAULTS = List.of("command", "runtime", "jvmOptions", "env",
            "healthPath", "metricsPath");
    /** Object fields merged key by key along {@code extends} (the others are replaced whole). */
    private static final Set<String> MERGED_FIELDS = Set.of("env", "classification");
    /** Classification keys {@link Manifest.Variant#labels()} derives, so they can never disagree with the entry. */
    private static final List<String> DERIVED_LABELS = List.of("runtime", "runtimeVersion", "jdk", "dialect");

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final JsonSchema SCHEMA = loadSchema();

    private ManifestLoader() {
    }

    public static Manifest load(Path file) {
        return load(file, m -> List.of());
    }

    /** @param moreChecks problems the caller finds in the bound manifest, each "{@code <json pointer>: <problem>}" */
    public static Manifest load(Path file, Function<Manifest, List<String>> moreChecks) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ManifestException(file.toString(), List.of("cannot read: " + e.getMessage()));
        }
        return parse(text, file.toString(), moreChecks);
    }

    public static Manifest parse(String text, String source) {
        return parse(text, source, m -> List.of());
    }

    public static Manifest parse(String text, String source, Function<Manifest, List<String>> moreChecks) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ManifestException(source, List.of("not valid JSON: line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage()));
        }
        if (tree == null) {
            throw new ManifestException(source, List.of("empty file"));
        }
        List<String> problems = new ArrayList<>();
        SCHEMA.validate(tree).stream()
                .sorted(Comparator.comparing((ValidationMessage m) -> m.getInstanceLocation().toString())
                        .thenComparing(ValidationMessage::getError))
                // "if/then" reports the failed "then" and the "if" it belongs to; the "then" line says it all.
                .filter(m -> !"if".equals(m.getType()))
                .forEach(m -> problems.add(pointer(m.getInstanceLocation().toString()) + ": " + m.getError()));
        if (!problems.isEmpty()) {
            throw new ManifestException(source, problems);
        }
        ObjectNode resolved = ((ObjectNode) tree).deepCopy();
        resolved.set("variants", resolveVariants(tree, problems));
        if (!problems.isEmpty()) {
            throw new ManifestException(source, problems);
        }
        Manifest manifest;
        try {
            manifest = MAPPER.treeToValue(resolved, Manifest.class);
        } catch (JsonProcessingException e) {
            throw new ManifestException(source, List.of("cannot bind: " + e.getOriginalMessage()));
        }
        problems.addAll(crossReferences(manifest));
        problems.addAll(LaunchCommand.problems(manifest));
        if (problems.isEmpty()) {
            problems.addAll(moreChecks.apply(manifest));
        }
        if (!problems.isEmpty()) {
            throw new ManifestException(source, problems);
        }
        return manifest;
    }

    /** The validator reports the root as "" in pointer form; say "/" so every problem starts with a path. */
    private static String pointer(String location) {
        return location.isEmpty() ? "/" : location;
    }

    /** Every entry with what it extends and the defaults folded in, in manifest order. */
    private static ArrayNode resolveVariants(JsonNode tree, List<String> problems) {
        JsonNode entries = tree.get("variants");
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            byName.putIfAbsent(entries.get(i).get("name").asText(), i);
        }
        Map<Integer, ObjectNode> done = new HashMap<>();
        ArrayNode out = MAPPER.createArrayNode();
        for (int i = 0; i < entries.size(); i++) {
            ObjectNode variant = resolve(i, entries, tree.get("defaults"), byName, done, new LinkedHashSet<>(), problems);
            if (variant != null) {
                out.add(variant);
            }
        }
        return out;
    }

    private static ObjectNode resolve(int i, JsonNode entries, JsonNode defaults, Map<String, Integer> byName,
                                      Map<Integer, ObjectNode> done, LinkedHashSet<String> chain, List<String> problems) {
        if (done.containsKey(i)) {
            return done.get(i);
        }
        JsonNode entry = entries.get(i);
        String name = entry.get("name").asText();
        ObjectNode out;
        if (entry.has("extends")) {
            String base = entry.get("extends").asText();
            Integer baseIndex = byName.get(base);
            if (baseIndex == null) {
                problems.add("/variants/" + i + "/extends: unknown variant '" + base + "' (known: "
                        + String.join(", ", byName.keySet().stream().sorted().toList()) + ")");
                return null;
            }
            chain.add(name);
            if (chain.contains(base)) {
                problems.add("/variants/" + i + "/extends: cycle " + String.join(" → ", chain) + " → " + base);
                return null;
            }
            ObjectNode parent = resolve(baseIndex, entries, defaults, byName, done, chain, problems);
            if (parent == null) {
                return null;
            }
            out = parent.deepCopy();
            // Said once by the entry it belongs to: a copy's label would name the base.
            out.remove(List.of("label", "description"));
        } else {
            out = MAPPER.createObjectNode();
            for (String field : INHERITED_DEFAULTS) {
                out.set(field, defaults.get(field).deepCopy());
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = entry.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getKey().equals("extends")) {
                continue;
            }
            if (MERGED_FIELDS.contains(field.getKey()) && out.get(field.getKey()) instanceof ObjectNode merged) {
                merged.setAll((ObjectNode) field.getValue().deepCopy());
            } else {
                out.set(field.getKey(), field.getValue().deepCopy());
            }
        }
        // Field order as in the schema, whatever the order of inheritance: derived manifests stay readable.
        ObjectNode ordered = MAPPER.createObjectNode();
        ordered.set("name", out.get("name"));
        out.fields().forEachRemaining(f -> ordered.set(f.getKey(), f.getValue()));
        done.put(i, ordered);
        return ordered;
    }

    private static List<String> crossReferences(Manifest m) {
        List<String> problems = new ArrayList<>();
        unique(problems, "/variants", m.variants().stream().map(Manifest.Variant::name).toList(), "name");
        unique(problems, "/scenarios", m.scenarios().stream().map(Manifest.Scenario::name).toList(), "name");
        unique(problems, "/metrics", m.metrics().stream().map(Manifest.MetricDefinition::id).toList(), "id");
        for (int i = 0; i < m.scenarios().size(); i++) {
            int scenario = i;
            m.scenarios().get(i).regimes().forEach((name, regime) -> {
                String at = "/scenarios/" + scenario + "/regimes/" + name + "/load";
                String needs = Manifest.Regime.closedModel(name) ? "users" : "rate";
                if (!regime.load().containsKey(needs)) {
                    problems.add(at + ": " + name + " is " + (needs.equals("users") ? "a closed model and needs users"
                            : "an open model and needs rate"));
                }
                Manifest.Regime.sweepUsers(name).ifPresent(users -> {
                    Double given = regime.load().get("users");
                    if (given != null && given != users) {
                        problems.add(at + "/users: the sweep step " + name + " runs " + users + " users, not "
                                + number(given));
                    }
                });
            });
        }
        Set<String> scenarioNames = new HashSet<>(m.scenarios().stream().map(Manifest.Scenario::name).toList());
        Set<String> variantNames = new HashSet<>(m.variants().stream().map(Manifest.Variant::name).toList());
        m.profiles().forEach((name, profile) -> {
            String at = "/profiles/" + name;
            known(problems, at + "/scenarios", profile.scenarios(), scenarioNames, "scenario");
            known(problems, at + "/variants", profile.variants(), variantNames, "variant");
            Manifest.Warmup w = profile.warmup();
            if (w.stableSeconds() > w.minSeconds() || w.minSeconds() > w.maxSeconds()) {
                problems.add(at + "/warmup: needs stableSeconds <= minSeconds <= maxSeconds (has " + w.stableSeconds()
                        + ", " + w.minSeconds() + ", " + w.maxSeconds() + ")");
            }
            if (!m.datasets().containsKey(profile.dataset())) {
                problems.add(at + "/dataset: unknown dataset '" + profile.dataset() + "' (known: "
                        + String.join(", ", m.datasets().keySet()) + ")");
            }
        });
        for (int i = 0; i < m.variants().size(); i++) {
            Manifest.Variant variant = m.variants().get(i);
            if (variant.aotCache() && (!variant.runtime().isJdk() || variant.runtime().version() < 25)) {
                problems.add("/variants/" + i + "/aotCache: an AOT cache (-XX:AOTCache) needs a JDK 25 or later, and"
                        + " the runtime is " + variant.runtime());
            }
            for (String derived : DERIVED_LABELS) {
                if (m.variants().get(i).classification().containsKey(derived)) {
                    problems.add("/variants/" + i + "/classification/" + derived + ": set from the entry itself (runtime,"
                            + " dialect), not by hand");
                }
            }
        }
        if (!m.profiles().containsKey(m.defaultProfile())) {
            problems.add("/defaultProfile: unknown profile '" + m.defaultProfile() + "'");
        }
        for (int i = 0; i < m.metrics().size(); i++) {
            // github-action-benchmark's direction is per suite: a bigger-is-better metric in "costs" would be
            // alerted the wrong way round.
            Manifest.MetricDefinition metric = m.metrics().get(i);
            if (metric.biggerIsBetter() != "throughput".equals(metric.suite())) {
                problems.add("/metrics/" + i + "/suite: suite 'throughput' holds exactly the bigger-is-better metrics, "
                        + "'costs' the smaller-is-better ones");
            }
            if (metric.reciprocalOf() != null) {
                // A reciprocal's paired log ratios are exactly minus its source's: judged too, the same test would
                // count twice (once in each family).
                Manifest.MetricDefinition source = m.metrics().stream()
                        .filter(other -> other.id().equals(metric.reciprocalOf())).findFirst().orElse(null);
                if (source == null || source == metric) {
                    problems.add("/metrics/" + i + "/reciprocalOf: '" + metric.reciprocalOf()
                            + "' is not another metric of the catalogue");
                } else if (source.reciprocalOf() != null || !source.scope().equals(metric.scope())
                        || source.biggerIsBetter() == metric.biggerIsBetter()) {
                    problems.add("/metrics/" + i + "/reciprocalOf: '" + metric.reciprocalOf() + "' must be a judged"
                            + " metric of the same scope with the opposite direction");
                }
            }
            if (metric.shownOnly() != null && (metric.reciprocalOf() != null || metric.adjustedBy() != null
                    || metric.primary() != null && !metric.primary().isEmpty()
                    || m.metrics().stream().anyMatch(other -> metric.id().equals(other.reciprocalOf())
                    || metric.id().equals(other.adjustedBy()) || metric.id().equals(other.crossCheckedBy())))) {
                // Shown only, it cannot count in the headline; a reciprocal or an adjusted metric has its own rule, and
                // a reciprocal's source or a gauge is judged or checked by its ratio, which a metric shown only lacks.
                problems.add("/metrics/" + i + "/shownOnly: a metric shown only is secondary, neither a reciprocal"
                        + " nor adjusted by a gauge, nor another's source or gauge");
            }
            if (metric.tables() != null && !metric.tables().isEmpty() && !"cell".equals(metric.scope())) {
                // A start's metrics have one table, the startup table, by their scope.
                problems.add("/metrics/" + i + "/tables: only a cell metric is a column of the measures or"
                        + " resources table; a startup metric is in the startup table by its scope");
            }
            // The gauge is divided out of this metric start by start, the cross-check compared with the gauge: each
            // must be measured in the same windows and be a cost of the same kind (smaller is better), and neither is
            // judged itself.
            gaugeProblem(m, metric, i, "adjustedBy", metric.adjustedBy(), problems);
            gaugeProblem(m, metric, i, "crossCheckedBy", metric.crossCheckedBy(), problems);
            if (metric.crossCheckedBy() != null && (metric.adjustedBy() == null
                    || metric.crossCheckedBy().equals(metric.adjustedBy()))) {
                problems.add("/metrics/" + i + "/crossCheckedBy: checks the gauge adjustedBy names, so it needs"
                        + " adjustedBy and another metric");
            }
        }
        return problems;
    }

    private static void gaugeProblem(Manifest m, Manifest.MetricDefinition metric, int i, String field, String id,
                                     List<String> problems) {
        if (id == null) {
            return;
        }
        Manifest.MetricDefinition gauge = m.metrics().stream().filter(other -> other.id().equals(id)).findFirst()
                .orElse(null);
        if (gauge == null || gauge == metric) {
            problems.add("/metrics/" + i + "/" + field + ": '" + id + "' is not another metric of the catalogue");
        } else if (gauge.reciprocalOf() != null || gauge.adjustedBy() != null || gauge.primary() != null
                && !gauge.primary().isEmpty() || !gauge.scope().equals(metric.scope())
                || gauge.biggerIsBetter() != metric.biggerIsBetter() || metric.reciprocalOf() != null) {
            problems.add("/metrics/" + i + "/" + field + ": '" + id + "' must be a secondary metric of the same"
                    + " scope and direction, neither a reciprocal nor adjusted itself");
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static void known(List<String> problems, String at, List<String> names, Set<String> known, String what) {
        if (names == null) {
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            if (!known.contains(names.get(i))) {
                problems.add(at + "/" + i + ": unknown " + what + " '" + names.get(i) + "' (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    private static void unique(List<String> problems, String at, List<String> names, String field) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            if (!seen.add(names.get(i))) {
                problems.add(at + "/" + i + "/" + field + ": duplicate " + field + " '" + names.get(i) + "'");
            }
        }
    }

    private static JsonSchema loadSchema() {
        try (InputStream in = ManifestLoader.class.getResourceAsStream("/benchmarks.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("benchmarks.schema.json is not on the classpath (bench-manifest build broken)");
            }
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(MAPPER.readTree(in), config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
