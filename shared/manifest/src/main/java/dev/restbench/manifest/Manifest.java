package dev.restbench.manifest;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * benchmarks.json, bound after schema validation (see {@link ManifestLoader}). Variants are resolved: each one
 * carries every field, from its own entry, the entries it extends and the defaults.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // "$schema"
public record Manifest(
        int schemaVersion,
        int harnessVersion,
        Defaults defaults,
        Pinning pinning,
        Shared shared,
        List<Variant> variants,
        Map<String, Dataset> datasets,
        List<Scenario> scenarios,
        Map<String, Profile> profiles,
        String defaultProfile,
        ErrorBudget errorBudget,
        List<MetricDefinition> metrics,
        Sharding sharding) {

    public record Defaults(List<String> command, Runtime runtime, List<String> jvmOptions, Map<String, String> env,
                           String healthPath, String metricsPath, int healthTimeoutSeconds) {
    }

    public record Pinning(String service, String gatling, String postgres, String note) {
    }

    /** @param maven Maven module folders the Maven variants build on (one reactor with them, see the builder) */
    public record Shared(List<String> maven) {
    }

    /**
     * What runs the artifact: a JDK or a Node.js of a major version, which {@link Runtimes} finds on the machine, or
     * {@code native}: the artifact is itself the executable (a Go binary, a GraalVM native image), nothing to find;
     * the toolchain that compiled it is the build step's concern. A native runtime has no version (0 here).
     */
    public record Runtime(String name, @JsonInclude(JsonInclude.Include.NON_DEFAULT) int version) {
        public static final String JDK = "jdk";
        public static final String NODE = "node";
        public static final String NATIVE = "native";

        @JsonIgnore
        public boolean isJdk() {
            return JDK.equals(name);
        }

        @JsonIgnore
        public boolean isNative() {
            return NATIVE.equals(name);
        }

        /**
         * The runtime's executable as a command names it ({@code java}, {@code node}: the placeholder {@code {java}}
         * / {@code {node}} without braces, and the program's name in a container image); null for a native
         * executable, whose command starts {@code {artifact}} itself.
         */
        @JsonIgnore
        public String executableName() {
            return switch (name) {
                case JDK -> "java";
                case NODE -> "node";
                default -> null;
            };
        }

        @Override
        public String toString() {
            return switch (name) {
                case JDK -> "JDK " + version;
                case NODE -> "Node.js " + version;
                case NATIVE -> "native executable";
                default -> name + " " + version;
            };
        }
    }

    /**
     * How {@code ./bench build} makes the artifact: {@code maven} (the folder is a Maven module) or {@code command}
     * (argv from the repository root, with an optional test argv). {@code inputs}: further folders the build reads
     * besides the variant's own (sources it compiles from another variant's folder); a change there makes the
     * artifact stale as a change in its own does.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Build(String tool, List<String> command, List<String> test, List<String> inputs) {
        public static final String MAVEN = "maven";

        public Build {
            inputs = inputs == null ? List.of() : List.copyOf(inputs);
        }

        @JsonIgnore
        public boolean isMaven() {
            return MAVEN.equals(tool);
        }
    }

    /** One variant, resolved (own entry over the entries it extends over the defaults); serialises schema-valid. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Variant(String name, String label, String description, String folder, Build build, String artifact,
                          List<String> command, Runtime runtime, Integer port, String healthPath, String metricsPath,
                          String dialect, List<String> jvmOptions, String cpuSet, Map<String, String> env,
                          Map<String, String> classification, boolean aotCache) {

        /** Short display name: the label, else the name. */
        @JsonIgnore
        public String displayName() {
            return label != null ? label : name;
        }

        /**
         * The classification as results label it: the entry's own keys plus what the entry itself says about
         * runtime and API (runtime, runtimeVersion unless native, jdk for JVM variants, dialect), so these cannot
         * disagree.
         */
        @JsonIgnore
        public Map<String, String> labels() {
            Map<String, String> labels = new LinkedHashMap<>(classification);
            labels.put("runtime", runtime.name());
            if (!runtime.isNative()) { // a native executable has no runtime version (its compiler is the build's)
                labels.put("runtimeVersion", Integer.toString(runtime.version()));
            }
            if (runtime.isJdk()) {
                labels.put("jdk", Integer.toString(runtime.version()));
            }
            labels.put("dialect", dialect);
            return labels;
        }

        /**
         * The classification keys whose values differ between this variant and {@code other} (a key one of them lacks
         * counts as differing), in this variant's order then the other's: what a ratio between the two compares
         * besides the stack it names. {@code runtimeVersion} is left out where {@code jdk} says it already.
         */
        @JsonIgnore
        public List<String> differingKeys(Variant other) {
            Map<String, String> mine = labels();
            Map<String, String> theirs = other.labels();
            java.util.Set<String> keys = new java.util.LinkedHashSet<>(mine.keySet());
            keys.addAll(theirs.keySet());
            if (mine.containsKey("jdk") && theirs.containsKey("jdk")) {
                keys.remove("runtimeVersion");
            }
            return keys.stream().filter(k -> !java.util.Objects.equals(mine.get(k), theirs.get(k))).toList();
        }

        /** The same variant under another name (the copies of an A/B run or a drill). */
        public Variant renamed(String newName, String newArtifact, Map<String, String> extraEnv, Build newBuild) {
            Map<String, String> mergedEnv = new LinkedHashMap<>(env);
            mergedEnv.putAll(extraEnv);
            return new Variant(newName, label, description, folder, newBuild, newArtifact, command, runtime, port,
                    healthPath, metricsPath, dialect, jvmOptions, cpuSet, mergedEnv, classification, aotCache);
        }
    }

    public record Dataset(int categories, int items, double heavyShare, long seed) {
    }

    public record Scenario(String name, String description, String simulation, Map<String, Regime> regimes) {
    }

    public record Regime(String description, Map<String, Double> load) {

        private static final java.util.regex.Pattern SWEEP_STEP = java.util.regex.Pattern.compile("users-([1-9][0-9]*)");

        /**
         * capacity and the sweep steps users-N are closed models (a fixed number of users, each sending its next
         * request when the last one is answered); latency is an open model (arrivals per second).
         */
        public static boolean closedModel(String regime) {
            return !regime.equals("latency");
        }

        /** The users of a concurrency-sweep step (users-N, seed 004), or empty for capacity and latency. */
        public static java.util.OptionalInt sweepUsers(String regime) {
            java.util.regex.Matcher m = SWEEP_STEP.matcher(regime);
            return m.matches() ? java.util.OptionalInt.of(Integer.parseInt(m.group(1))) : java.util.OptionalInt.empty();
        }
    }

    /**
     * How a profile measures (docs/method.md, "Method"): {@code trials} starts of every variant in randomized
     * interleaved rounds; in each start, per cell, a warmup until steady (or its cap) and {@code windows} back-to-back
     * windows of {@code windowSeconds}. {@code variants} and {@code where} choose the variants (all when absent).
     */
    public record Profile(String description, List<String> variants, Map<String, String> where, List<String> scenarios,
                          List<String> regimes, int trials, int windows, int windowSeconds, Warmup warmup,
                          Double loadScale, String dataset) {
        public double scale() {
            return loadScale == null ? 1.0 : loadScale;
        }
    }

    /** The steady-state rule of a profile's warmup (SteadyState in the runner). */
    /**
     * @param cycles null: the warmup runs the load until steady; else it first runs these cycles of load and idle
     *               (issue 21, "cheaper, steadier starts": idle periods let the compiler threads drain on few cores)
     */
    public record Warmup(int minSeconds, int maxSeconds, int stableSeconds, double maxJitMsPerS, double maxDriftPct,
                         Cycles cycles) {

        /** Seconds the cycles take before the until-steady warmup; 0 without cycles. */
        public int cycleSeconds() {
            return cycles == null ? 0 : cycles.seconds();
        }
    }

    /** {@code count} times: {@code loadSeconds} of the cell's load, then {@code idleSeconds} with none. */
    public record Cycles(int count, int loadSeconds, int idleSeconds) {

        /** Seconds all the cycles take. */
        public int seconds() {
            return count * (loadSeconds + idleSeconds);
        }
    }

    public record ErrorBudget(double maxErrorPct, double capacityP99Ms) {
    }

    /**
     * @param version bumped when the definition changes (part of the environment fingerprint, so a new definition
     *                starts a new series instead of looking like a regression)
     * @param primary the regimes in which this metric is a primary one (judged with Holm's correction and counted
     *                by the PR headline); empty = secondary everywhere
     * @param minEffectPct the smallest change of this metric that matters, in %: a verdict's regression or
     *                improvement must reach it, and "no change" needs the interval inside ± it (docs/method.md,
     *                "Minimum effects"); null for a reciprocal, whose verdict is its source's
     * @param discrete   the metric moves in steps (whole milliseconds, counts): its paired test is the exact
     *                   sign-flip permutation test, not the t-test
     * @param reciprocalOf the metric this one is 1 / x of in every window (req_per_cpu_s of cpu_us_per_req): shown,
     *                   never judged, as its paired test would be its source's again
     * @param hostIndependent a count of the work done (SQL statements, rows): a slower or busier host cannot move
     *                   it, so it is judged even when the host check withholds the timings' verdicts
     * @param adjustedBy the metric that gauges the host's speed in the same window (PostgreSQL's CPU per request for
     *                   the service's): where the cell qualifies, an A/B judges this metric's change relative to it,
     *                   round by round (docs/method.md, "Relative to the host's speed"); the gauge itself is judged
     *                   as measured (PostgreSQL's CPU is a cost of the stack's data access)
     * @param crossCheckedBy a second gauge of the host in the same windows (the load generator's CPU per request): the
     *                   first gauge is used only while the two moved together, since a gauge that moved alone did
     *                   other work; shown, never judged
     * @param shownOnly  why this metric is shown and never judged, though it is no reciprocal: its paired ratio
     *                   would mean nothing (the planner's runs per request are 0 in most windows of a service whose
     *                   statements are prepared, so "from 0.000 to 0.004" is no change of any size); it still serves
     *                   where it has a meaning of its own (analysis.HostGauge compares the plans as a share of the
     *                   statements); null for a judged metric
     * @param tables     the report tables a cell metric is a column of ({@link #MEASURES_TABLE}, {@link
     *                   #RESOURCES_TABLE}), in catalogue order, for the runner's summary and the site alike; null or
     *                   empty: in neither (startup metrics have their own table, by scope)
     */
    public record MetricDefinition(String id, String label, String unit, String direction, String suite,
                                   String scope, int version, List<String> primary, String description,
                                   Double minEffectPct, boolean discrete, String reciprocalOf,
                                   boolean hostIndependent, String adjustedBy, String crossCheckedBy, String name,
                                   List<String> tables, String shownOnly) {
        /** The table of scenario × measure × variant (the reference report's first table). */
        public static final String MEASURES_TABLE = "measures";
        /** The table of variant × resources (the reference report's second table). */
        public static final String RESOURCES_TABLE = "resources";

        public boolean inTable(String table) {
            return tables != null && tables.contains(table);
        }

        public boolean biggerIsBetter() {
            return "bigger".equals(direction);
        }

        public boolean primaryIn(String regime) {
            return primary != null && primary.contains(regime);
        }
    }

    public record Sharding(boolean enabled, String runnerLabel) {
    }

    public Optional<Variant> variant(String name) {
        return variants.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    public Optional<Scenario> scenario(String name) {
        return scenarios.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public MetricDefinition metric(String id) {
        return metrics.stream().filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("metric '" + id + "' is not in the manifest catalogue"));
    }
}
