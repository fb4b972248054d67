package dev.restbench.manifest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Collections;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestLoaderTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "../..")).toAbsolutePath().normalize();

    @Test
    void theRepositoryManifestIsValidAndItsVariantsAreComplete() {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        assertThat(manifest.variants()).isNotEmpty().allSatisfy(v -> {
            assertThat(v.folder()).isNotBlank();
            assertThat(v.artifact()).isNotBlank();
            assertThat(v.command()).isNotEmpty();
            assertThat(v.runtime()).isNotNull();
            assertThat(v.env()).containsKey("DB_POOL_SIZE");
            assertThat(v.labels()).containsKeys("framework", "server", "threading", "language", "dataAccess",
                    "runtime", "dialect");
            if (!v.runtime().isNative()) {
                assertThat(v.labels()).containsKey("runtimeVersion");
            }
        });
        assertThat(manifest.profiles()).containsKeys("smoke", "quick", "full", "matrix");
        assertThat(manifest.profiles().get("quick").variants())
                .containsExactly("jersey", "spring-mvc", "spring-data-rest");
        assertThat(manifest.defaultProfile()).isEqualTo("quick");
    }

    /** What a ratio between two variants compares: every classification key whose value differs, none left out. */
    @Test
    void twoVariantsSayWhichClassificationKeysDifferBetweenThem() {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        Manifest.Variant jersey = manifest.variant("jersey").orElseThrow();
        Manifest.Variant mvc = manifest.variant("spring-mvc").orElseThrow();
        assertThat(jersey.differingKeys(mvc)).containsExactly("framework", "server", "dataAccess", "springBoot");
        assertThat(jersey.differingKeys(jersey)).isEmpty();
        assertThat(jersey.differingKeys(manifest.variant("jersey-jetty-virtual").orElseThrow()))
                .containsExactly("server", "threading", "jdk");
        assertThat(jersey.differingKeys(manifest.variant("express").orElseThrow()))
                .contains("framework", "language", "runtime", "runtimeVersion", "jdk").doesNotContain("dialect");
    }

    @Test
    void anEntryThatExtendsAnotherInheritsItMergesEnvAndClassificationAndKeepsItsOwnName() throws IOException {
        Manifest manifest = parse(m -> m.withArray("variants").addObject()
                .put("name", "mvc-copy")
                .put("extends", "spring-mvc")
                .put("label", "Spring MVC · virtual threads")
                .set("runtime", ManifestLoader.MAPPER.createObjectNode().put("name", "jdk").put("version", 25)));
        Manifest.Variant base = manifest.variant("spring-mvc").orElseThrow();
        Manifest.Variant copy = manifest.variant("mvc-copy").orElseThrow();
        assertThat(copy.artifact()).isEqualTo(base.artifact());
        assertThat(copy.build()).isEqualTo(base.build());
        assertThat(copy.folder()).isEqualTo(base.folder());
        assertThat(copy.runtime()).isEqualTo(new Manifest.Runtime("jdk", 25));
        assertThat(copy.displayName()).isEqualTo("Spring MVC · virtual threads");
        assertThat(copy.description()).as("a description names one stack, so it is not inherited").isNull();
        assertThat(copy.labels()).containsEntry("jdk", "25").containsEntry("framework", "spring-mvc");

        Manifest merged = parse(m -> {
            ObjectNode entry = m.withArray("variants").addObject().put("name", "mvc-vt").put("extends", "spring-mvc");
            entry.putObject("env").put("SPRING_THREADS_VIRTUAL_ENABLED", "true");
            entry.putObject("classification").put("threading", "virtual");
        });
        Manifest.Variant vt = merged.variant("mvc-vt").orElseThrow();
        assertThat(vt.env()).containsEntry("SPRING_THREADS_VIRTUAL_ENABLED", "true").containsEntry("DB_POOL_SIZE", "16");
        assertThat(vt.classification()).containsEntry("threading", "virtual").containsEntry("server", "tomcat");
    }

    @Test
    void aVariantExtendingAnUnknownOneOrItselfIsReported() throws IOException {
        List<String> known = new ArrayList<>(List.of("x"));
        repositoryManifest().withArray("variants").forEach(v -> known.add(v.path("name").asText()));
        Collections.sort(known);
        int n = repositoryManifest().withArray("variants").size(); // the first appended entry's index
        assertProblem(m -> m.withArray("variants").addObject().put("name", "x").put("extends", "nope"),
                "/variants/" + n + "/extends: unknown variant 'nope' (known: " + String.join(", ", known) + ")");
        assertProblem(m -> {
            m.withArray("variants").addObject().put("name", "a").put("extends", "b");
            m.withArray("variants").addObject().put("name", "b").put("extends", "a");
        }, "/variants/" + (n + 1) + "/extends: cycle a → b → a", "/variants/" + n + "/extends: cycle b → a → b");
    }

    @Test
    void aStandaloneEntryNeedsItsFolderArtifactDialectAndClassification() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0)).remove("artifact"),
                "/variants/0: required property 'artifact' not found");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0).get("classification")).remove("threading"),
                "/variants/0/classification: required property 'threading' not found");
    }

    @Test
    void derivedClassificationKeysCannotBeSetByHand() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0).get("classification")).put("jdk", "21"),
                "/variants/0/classification/jdk: set from the entry itself (runtime, dialect), not by hand");
    }

    @Test
    void aMavenBuildTakesNoCommandAndACommandBuildNeedsOne() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0).get("build")).putArray("command").add("make"),
                "/variants/0/build/command: schema for 'command' is false");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0).get("build")).put("tool", "command"),
                "/variants/0/build: required property 'command' not found");
    }

    @Test
    void anAotCacheNeedsAJdkOf25OrLater() throws IOException {
        // Entry 0 runs on the defaults' JDK 17.
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0)).put("aotCache", true),
                "/variants/0/aotCache: an AOT cache (-XX:AOTCache) needs a JDK 25 or later, and the runtime is JDK 17");
    }

    @Test
    void aRegimeIsCapacityLatencyOrASweepStepWhoseUsersMatchItsName() throws IOException {
        Manifest manifest = parse(m -> ((ObjectNode) m.withArray("scenarios").get(0).get("regimes"))
                .putObject("users-50").putObject("load").put("users", 50));
        assertThat(manifest.scenarios().get(0).regimes()).containsKey("users-50");
        assertThat(Manifest.Regime.sweepUsers("users-50")).hasValue(50);
        assertThat(Manifest.Regime.sweepUsers("capacity")).isEmpty();
        assertThat(Manifest.Regime.closedModel("users-50")).isTrue();
        assertThat(Manifest.Regime.closedModel("latency")).isFalse();
        assertProblem(m -> ((ObjectNode) m.withArray("scenarios").get(0).get("regimes"))
                        .putObject("users-50").putObject("load").put("users", 40),
                "/scenarios/0/regimes/users-50/load/users: the sweep step users-50 runs 50 users, not 40");
        assertProblem(m -> ((ObjectNode) m.withArray("scenarios").get(0).get("regimes"))
                        .putObject("users-50").putObject("load").put("rate", 40),
                "/scenarios/0/regimes/users-50/load: users-50 is a closed model and needs users");
        assertProblem(m -> ((ObjectNode) m.withArray("scenarios").get(0).get("regimes"))
                        .putObject("users-0").putObject("load").put("users", 1),
                "/scenarios/0/regimes: property 'users-0' name is not valid: does not match the regex pattern ^(capacity|latency|users-[1-9][0-9]{0,3})$");
    }

    @Test
    void launchPlaceholdersMustExistAndFitTheRuntime() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).putArray("command").add("{java}").add("-jar")
                        .add("{artifcat}"),
                "/variants/1/command/2: unknown placeholder {artifcat} (known: {artifact}, {java}, {jvmOptions}, {node}, {port})");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).set("runtime",
                        ManifestLoader.MAPPER.createObjectNode().put("name", "node").put("version", 20)),
                "/variants/1: its command [{java}, {jvmOptions}, -jar, {artifact}] uses {java}, which needs a JDK, but its"
                        + " runtime is Node.js 20 (give it a command with {node})");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).putArray("command").add("{java}")
                        .add("x{jvmOptions}"),
                "/variants/1/command/1: {jvmOptions} must be a whole argument (it expands to several)");
    }

    @Test
    void aNodeVariantIsOneEntryWithItsOwnCommandAndRuntime() throws IOException {
        Manifest manifest = parse(m -> {
            ObjectNode entry = commandEntry(m, "express", "services/express", "npm", "ci", "--prefix", "services/express");
            entry.putArray("command").add("{node}").add("{artifact}/server.js");
            entry.putObject("runtime").put("name", "node").put("version", 20);
            entry.putObject("classification").put("framework", "express").put("server", "node")
                    .put("threading", "event-loop").put("language", "javascript").put("dataAccess", "pg");
        });
        Manifest.Variant express = manifest.variant("express").orElseThrow();
        assertThat(express.labels()).containsEntry("runtime", "node").containsEntry("runtimeVersion", "20")
                .doesNotContainKey("jdk");
        Runtimes.Found node = new Runtimes.Found(express.runtime(), Path.of("/opt/node"), Path.of("/opt/node/bin/node"), "20.1.0");
        LaunchCommand.Launch launch = LaunchCommand.of(express, node, Path.of("/tmp/app"), 8080, List.of("-Xmx1g"));
        assertThat(launch.argv()).containsExactly("/opt/node/bin/node", "/tmp/app/server.js");
        assertThat(launch.env()).containsEntry("PORT", "8080").doesNotContainKey("JAVA_HOME");
    }

    @Test
    void aNativeExecutableHasNoRuntimeToFindAndIsItsOwnCommand() throws IOException {
        Manifest manifest = parse(m -> {
            ObjectNode entry = commandEntry(m, "native-one", "services/x/target/x", "services/x/build.sh");
            entry.put("folder", "services/x");
            entry.putArray("command").add("{artifact}");
            entry.putObject("runtime").put("name", "native");
            entry.putObject("classification").put("framework", "net-http").put("server", "net-http")
                    .put("threading", "goroutine").put("language", "go").put("dataAccess", "pgx");
        });
        Manifest.Variant variant = manifest.variant("native-one").orElseThrow();
        assertThat(variant.runtime().isNative()).isTrue();
        assertThat(variant.runtime()).hasToString("native executable");
        assertThat(variant.labels()).containsEntry("runtime", "native").containsEntry("threading", "goroutine")
                .doesNotContainKeys("runtimeVersion", "jdk");
        Runtimes.Found found = Runtimes.ofThisMachine().find(variant.runtime());
        assertThat(found.executable()).isNull();
        assertThat(found.describe()).isEqualTo("(no runtime needed)");
        LaunchCommand.Launch launch = LaunchCommand.of(variant, found, Path.of("/tmp/x"), 8080, List.of("-Xmx1g"));
        assertThat(launch.argv()).containsExactly("/tmp/x");
        assertThat(launch.env()).containsEntry("PORT", "8080").doesNotContainKey("JAVA_HOME");
        assertThat(ManifestLoader.MAPPER.valueToTree(variant.runtime()).toString()).isEqualTo("{\"name\":\"native\"}");
    }

    @Test
    void aNativeRuntimeHasNoVersionAndNoOtherRuntimesPlaceholders() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).putObject("runtime").put("name", "native")
                        .put("version", 8),
                "/variants/1/runtime/version: schema for 'version' is false");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).putObject("runtime").put("name", "jdk"),
                "/variants/1/runtime: required property 'version' not found");
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).putObject("runtime").put("name", "native"),
                "/variants/1: its command [{java}, {jvmOptions}, -jar, {artifact}] uses {java}, which needs a JDK, but its"
                        + " runtime is native executable (its command starts {artifact} itself)");
        assertProblem(m -> {
            ObjectNode entry = (ObjectNode) m.withArray("variants").get(1);
            entry.putObject("runtime").put("name", "native");
            entry.putArray("command").add("{node}").add("{artifact}");
        }, "/variants/1: its command [{node}, {artifact}] uses {node}, but its runtime is native executable (its"
                + " command starts {artifact} itself)");
    }

    @Test
    void aJvmLaunchExpandsTheJvmOptionsThenTheCallersAndSetsJavaHome() throws IOException {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        Manifest.Variant jersey = manifest.variant("jersey").orElseThrow();
        Runtimes.Found jdk = new Runtimes.Found(jersey.runtime(), Path.of("/jdk17"), Path.of("/jdk17/bin/java"), "17.0.1");
        LaunchCommand.Launch launch = LaunchCommand.of(jersey, jdk, Path.of("/a/jersey.jar"), 9000, List.of("-Xmx256m"));
        assertThat(launch.argv()).containsExactly("/jdk17/bin/java", "-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-Xmx256m",
                "-jar", "/a/jersey.jar");
        assertThat(launch.env()).containsEntry("JAVA_HOME", "/jdk17").containsEntry("PORT", "9000")
                .containsEntry("BIND_ADDRESS", "127.0.0.1").containsEntry("HTTP_THREADS", "64");
    }

    @Test
    void aWrongTypeIsReportedAtItsPath() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).put("port", "8082"),
                "/variants/1/port: string found, integer expected");
    }

    @Test
    void anUnknownEnumValueIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(2)).put("dialect", "json-api"),
                "/variants/2/dialect: does not have a value in the enumeration [\"plain\", \"hal\"]");
    }

    @Test
    void anUnknownPropertyIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("profiles").get("quick")).put("windowSecs", 10),
                "/profiles/quick: property 'windowSecs' is not defined in the schema and the schema does not allow additional properties");
    }

    @Test
    void aWarmupWhoseStableWindowExceedsItsMinimumIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("profiles").get("quick").get("warmup")).put("stableSeconds", 30),
                "/profiles/quick/warmup: needs stableSeconds <= minSeconds <= maxSeconds (has 30, 20, 120)");
    }

    @Test
    void aBadCpuSetIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("pinning")).put("service", "one"),
                "/pinning/service: does not match the regex pattern ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$");
    }

    @Test
    void aProfileNamingAnUnknownScenarioOrVariantIsReported() throws IOException {
        // The known names are whatever the repository's manifest holds (adding a scenario or a variant touches no
        // test).
        List<String> scenarios = new ArrayList<>();
        repositoryManifest().withArray("scenarios").forEach(s -> scenarios.add(s.path("name").asText()));
        Collections.sort(scenarios);
        assertProblem(m -> ((ArrayNode) m.get("profiles").get("smoke").get("scenarios")).add("write-only"),
                "/profiles/smoke/scenarios/1: unknown scenario 'write-only' (known: " + String.join(", ", scenarios)
                        + ")");
        List<String> known = new ArrayList<>();
        repositoryManifest().withArray("variants").forEach(v -> known.add(v.path("name").asText()));
        Collections.sort(known);
        int index = repositoryManifest().get("profiles").get("quick").get("variants").size();
        assertProblem(m -> ((ArrayNode) m.get("profiles").get("quick").get("variants")).add("quarkus"),
                "/profiles/quick/variants/" + index + ": unknown variant 'quarkus' (known: " + String.join(", ", known)
                        + ")");
    }

    @Test
    void duplicateVariantNamesAreReported() throws IOException {
        // What else breaks when spring-mvc disappears (profiles, entries extending it) depends on the manifest.
        ObjectNode manifest = repositoryManifest();
        ((ObjectNode) manifest.withArray("variants").get(1)).put("name", "jersey");
        String text = ManifestLoader.MAPPER.writeValueAsString(manifest);
        assertThatThrownBy(() -> ManifestLoader.parse(text, "test.json"))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems())
                        .contains("/variants/1/name: duplicate name 'jersey'")
                        .anySatisfy(p -> assertThat(p).startsWith("/profiles/quick/variants/1: unknown variant 'spring-mvc'")));
    }

    @Test
    void aMetricInTheWrongSuiteIsReported() throws IOException {
        int p50 = index("latency_p50");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(p50)).put("suite", "throughput"),
                "/metrics/" + p50 + "/suite: suite 'throughput' holds exactly the bigger-is-better metrics, 'costs' the"
                        + " smaller-is-better ones");
    }

    /** The report tables have one home, the catalogue: a cell metric names them, a startup metric has its own. */
    @Test
    void onlyACellMetricIsAColumnOfTheMeasuresOrResourcesTable() throws IOException {
        int ready = index("time_to_ready_ms");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(ready)).putArray("tables").add("resources"),
                "/metrics/" + ready + "/tables: only a cell metric is a column of the measures or resources table;"
                        + " a startup metric is in the startup table by its scope");
        int cpu = index("cpu_us_per_req");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(cpu)).putArray("tables").add("startup"),
                "/metrics/" + cpu + "/tables/0: does not have a value in the enumeration [\"measures\", \"resources\"]");
    }

    /** The verdict's per-metric rules: every judged metric states its minimum effect; a reciprocal states none. */
    @Test
    void aJudgedMetricNeedsAMinimumEffectAndAReciprocalHasNone() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(0)).remove("minEffectPct"),
                "/metrics/0: required property 'minEffectPct' not found");
        int reciprocal = index("req_per_cpu_s");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(reciprocal)).put("minEffectPct", 5),
                "/metrics/" + reciprocal + "/minEffectPct: schema for 'minEffectPct' is false");
    }

    @Test
    void aReciprocalMustNameAnotherJudgedMetricOfTheOppositeDirection() throws IOException {
        int reciprocal = index("req_per_cpu_s");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(reciprocal)).put("reciprocalOf", "nothing"),
                "/metrics/" + reciprocal + "/reciprocalOf: 'nothing' is not another metric of the catalogue");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(reciprocal)).put("reciprocalOf", "throughput"),
                "/metrics/" + reciprocal + "/reciprocalOf: 'throughput' must be a judged metric of the same scope with"
                        + " the opposite direction");
    }

    /**
     * A metric shown only cannot count in the headline, nor be a reciprocal or adjusted, nor another's source or gauge:
     * those have rules of their own. Its reason is at most 500 characters, as a record's reader accepts.
     */
    @Test
    void aMetricShownOnlyIsSecondaryAndPlain() throws IOException {
        int cpu = index("cpu_us_per_req");
        int perCpuSecond = index("req_per_cpu_s");
        int postgres = index("postgres_cpu_us_per_req");
        int plans = index("sql_plans_per_req");
        String problem = "/shownOnly: a metric shown only is secondary, neither a reciprocal nor adjusted by a gauge,"
                + " nor another's source or gauge";
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(cpu)).put("shownOnly", "why"),
                "/metrics/" + cpu + problem);
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(perCpuSecond)).put("shownOnly", "why"),
                "/metrics/" + perCpuSecond + problem);
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(postgres)).put("shownOnly", "why"),
                "/metrics/" + postgres + problem);
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(plans)).put("shownOnly", "x".repeat(501)),
                "/metrics/" + plans + "/shownOnly: must be at most 500 characters long");
    }

    @Test
    void aHostGaugeMustBeAnotherSecondaryCostOfTheSameScope() throws IOException {
        int cpu = index("cpu_us_per_req");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(cpu)).put("adjustedBy", "nothing"),
                "/metrics/" + cpu + "/adjustedBy: 'nothing' is not another metric of the catalogue");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(cpu)).put("adjustedBy", "alloc_bytes_per_req"),
                "/metrics/" + cpu + "/adjustedBy: 'alloc_bytes_per_req' must be a secondary metric of the same scope"
                        + " and direction, neither a reciprocal nor adjusted itself");
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(cpu)).put("adjustedBy", "throughput"),
                "/metrics/" + cpu + "/adjustedBy: 'throughput' must be a secondary metric of the same scope"
                        + " and direction, neither a reciprocal nor adjusted itself");
    }

    private static int index(String metric) throws IOException {
        ArrayNode metrics = (ArrayNode) repositoryManifest().get("metrics");
        for (int i = 0; i < metrics.size(); i++) {
            if (metrics.get(i).path("id").asText().equals(metric)) {
                return i;
            }
        }
        throw new AssertionError(metric + " is not in the catalogue");
    }

    @Test
    void callersAddTheirOwnChecks() throws IOException {
        String text = ManifestLoader.MAPPER.writeValueAsString(repositoryManifest());
        assertThatThrownBy(() -> ManifestLoader.parse(text, "test.json", m -> List.of("/metrics: not for us")))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems())
                        .containsExactly("/metrics: not for us"));
    }

    @Test
    void notJsonIsReportedWithItsPosition() {
        assertThatThrownBy(() -> ManifestLoader.parse("{\n  \"schemaVersion\": 1,,\n}", "bad.json"))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("invalid manifest bad.json:\n  not valid JSON: line 2, column 22");
    }

    @Test
    void variantsAreSelectedByClassificationGlobs() throws IOException {
        Manifest manifest = parse(m -> { });
        List<Manifest.Variant> all = manifest.variants();
        assertThat(VariantFilter.parse(List.of("framework=SPRING*")).apply(all, all))
                .extracting(Manifest.Variant::name).containsExactly("spring-mvc", "spring-data-rest");
        assertThat(VariantFilter.parse(List.of("server=*", "dataAccess=jdbc")).apply(all, all))
                .extracting(Manifest.Variant::name).containsExactly("jersey");
        assertThat(VariantFilter.parse(List.of("dialect=hal")).and(Map.of("jdk", "1?")).apply(all, all))
                .extracting(Manifest.Variant::name).containsExactly("spring-data-rest");
        assertThatThrownBy(() -> VariantFilter.parse(List.of("sever=tomcat")).apply(all, all))
                .hasMessageStartingWith("--where: no variant has a classification key 'sever' (known: connectionPool, dataAccess, dialect,");
        assertThatThrownBy(() -> VariantFilter.parse(List.of("server")))
                .hasMessage("--where 'server' is not key=glob (e.g. server=jetty, framework=spring*)");
    }

    private static Manifest parse(Consumer<ObjectNode> change) throws IOException {
        ObjectNode manifest = repositoryManifest();
        change.accept(manifest);
        return ManifestLoader.parse(ManifestLoader.MAPPER.writeValueAsString(manifest), "test.json");
    }

    /**
     * The repository's manifest with only the three reference variants (quick's, which stays those three): the
     * tests below break it on purpose and name entries by index, so an added variant must not change what they see.
     */
    private static ObjectNode repositoryManifest() throws IOException {
        ObjectNode manifest = (ObjectNode) ManifestLoader.MAPPER.readTree(Files.readString(ROOT.resolve("benchmarks.json")));
        java.util.Set<String> reference = new java.util.HashSet<>();
        manifest.get("profiles").get("quick").get("variants").forEach(v -> reference.add(v.asText()));
        ArrayNode variants = manifest.withArray("variants");
        for (int i = variants.size() - 1; i >= 0; i--) {
            if (!reference.contains(variants.get(i).path("name").asText())) {
                variants.remove(i);
            }
        }
        manifest.get("profiles").forEach(profile -> {
            if (profile.has("variants")) {
                ArrayNode names = (ArrayNode) profile.get("variants");
                for (int i = names.size() - 1; i >= 0; i--) {
                    if (!reference.contains(names.get(i).asText())) {
                        names.remove(i);
                    }
                }
            }
        });
        return manifest;
    }

    /** A new plain entry built by a command, its folder the artifact's (the caller adds runtime and command). */
    private static ObjectNode commandEntry(ObjectNode manifest, String name, String artifact, String... build) {
        ObjectNode entry = manifest.withArray("variants").addObject().put("name", name).put("folder", artifact)
                .put("artifact", artifact).put("dialect", "plain");
        com.fasterxml.jackson.databind.node.ArrayNode argv = entry.putObject("build").put("tool", "command")
                .putArray("command");
        for (String arg : build) {
            argv.add(arg);
        }
        return entry;
    }

    private static void assertProblem(Consumer<ObjectNode> breakIt, String... expected) throws IOException {
        ObjectNode manifest = repositoryManifest();
        breakIt.accept(manifest);
        String text = ManifestLoader.MAPPER.writeValueAsString(manifest);
        assertThatThrownBy(() -> ManifestLoader.parse(text, "test.json"))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems()).containsExactly(expected));
    }
}
