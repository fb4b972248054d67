package dev.restbench.runner.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.restbench.runner.analysis.MetricCatalog;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads benchmarks.json: JSON Schema validation first (benchmarks.schema.json, packaged into the runner jar from
 * the repository root), then the cross-references a schema cannot express (names that must exist, be unique, and
 * the metric ids the runner produces). Every problem is reported with its JSON Pointer.
 */
public final class ManifestLoader {

    /** Metric ids the runner computes; each must be described in the manifest catalogue. */
    public static final List<String> PRODUCED_METRICS = MetricCatalog.ids();

    private static final JsonSchema SCHEMA = loadSchema();

    private ManifestLoader() {
    }

    public static Manifest load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ManifestException(file.toString(), List.of("cannot read: " + e.getMessage()));
        }
        return parse(text, file.toString());
    }

    public static Manifest parse(String text, String source) {
        JsonNode tree;
        try {
            tree = Json.MAPPER.readTree(text);
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
                .forEach(m -> problems.add(pointer(m.getInstanceLocation().toString()) + ": " + m.getError()));
        if (!problems.isEmpty()) {
            throw new ManifestException(source, problems);
        }
        Manifest manifest;
        try {
            manifest = Json.MAPPER.treeToValue(tree, Manifest.class);
        } catch (JsonProcessingException e) {
            throw new ManifestException(source, List.of("cannot bind: " + e.getOriginalMessage()));
        }
        problems.addAll(crossReferences(manifest));
        if (!problems.isEmpty()) {
            throw new ManifestException(source, problems);
        }
        return manifest;
    }

    /** The validator reports the root as "" in pointer form; say "/" so every problem starts with a path. */
    private static String pointer(String location) {
        return location.isEmpty() ? "/" : location;
    }

    private static List<String> crossReferences(Manifest m) {
        List<String> problems = new ArrayList<>();
        unique(problems, "/variants", m.variants().stream().map(Manifest.Variant::name).toList(), "name");
        unique(problems, "/scenarios", m.scenarios().stream().map(Manifest.Scenario::name).toList(), "name");
        unique(problems, "/metrics", m.metrics().stream().map(Manifest.MetricDefinition::id).toList(), "id");
        Set<String> scenarioNames = new HashSet<>(m.scenarios().stream().map(Manifest.Scenario::name).toList());
        m.profiles().forEach((name, profile) -> {
            String at = "/profiles/" + name;
            if (profile.scenarios() != null) {
                for (int i = 0; i < profile.scenarios().size(); i++) {
                    if (!scenarioNames.contains(profile.scenarios().get(i))) {
                        problems.add(at + "/scenarios/" + i + ": unknown scenario '" + profile.scenarios().get(i)
                                + "' (known: " + String.join(", ", scenarioNames.stream().sorted().toList()) + ")");
                    }
                }
            }
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
        if (!m.profiles().containsKey(m.defaultProfile())) {
            problems.add("/defaultProfile: unknown profile '" + m.defaultProfile() + "'");
        }
        Set<String> catalogue = new HashSet<>(m.metrics().stream().map(Manifest.MetricDefinition::id).toList());
        for (String id : PRODUCED_METRICS) {
            if (!catalogue.contains(id)) {
                problems.add("/metrics: no entry for metric '" + id + "' (the runner produces it)");
            }
        }
        for (int i = 0; i < m.metrics().size(); i++) {
            Manifest.MetricDefinition metric = m.metrics().get(i);
            if (!PRODUCED_METRICS.contains(metric.id())) {
                problems.add("/metrics/" + i + "/id: unknown metric '" + metric.id() + "' (the runner does not produce it)");
            }
            // github-action-benchmark's direction is per suite: a bigger-is-better metric in "costs" would be
            // alerted the wrong way round.
            boolean bigger = metric.biggerIsBetter();
            if (bigger != "throughput".equals(metric.suite())) {
                problems.add("/metrics/" + i + "/suite: suite 'throughput' holds exactly the bigger-is-better metrics, "
                        + "'costs' the smaller-is-better ones");
            }
        }
        return problems;
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
                throw new IllegalStateException("benchmarks.schema.json is not on the classpath (runner build broken)");
            }
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in), config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
