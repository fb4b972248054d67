package dev.restbench.contract;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.fail;

/**
 * Property-based fuzzing of every variant against its dialect's OpenAPI document with schemathesis: generated
 * requests (schema-valid and schema-invalid bodies, parameters, headers, unexpected methods and media types, chains
 * of calls linked by Location), each response checked for "never a 5xx", a documented status, the documented media
 * type, documented headers, a body valid against the response schema, valid input accepted and invalid input
 * rejected. The hand-written {@link HostileRequestsTest} keeps what this found as regression cases.
 *
 * <p>Variants and their dialects come from benchmarks.json; the document of dialect {@code d} is the main resource
 * {@code openapi.yaml} for {@code plain}, else {@code openapi-d.yaml}, and its fuzzing settings (the checks,
 * dictionaries of existing ids) are {@code fuzz/d.toml}. A dialect without them fails here, so a new variant is
 * never left unfuzzed.
 *
 * <p>Runs after every other suite of the run (the fuzzer rewrites and deletes the seeded rows that the other
 * suites assert exactly), against the same processes {@link ContractEnvironment} started for them.
 */
@ExtendWith(ContractEnvironment.class)
@Order(FuzzTest.AFTER_EVERY_OTHER_SUITE)
class FuzzTest {

    static final int AFTER_EVERY_OTHER_SUITE = Integer.MAX_VALUE;

    /**
     * Rotates with the UTC date (yyyymmdd), so that each day's runs explore other inputs while a run repeated the
     * same day, or with {@code -Drestbench.fuzz.seed=N}, replays one (up to the server's own state). Printed at the
     * start and in every failure. What a seed found is kept in {@link HostileRequestsTest}, which needs no seed.
     */
    static final long SEED = Long.getLong("restbench.fuzz.seed",
            Long.parseLong(LocalDate.now(ZoneOffset.UTC).format(DateTimeFormatter.BASIC_ISO_DATE)));

    static {
        System.out.printf("fuzz: seed %d (replay: -Drestbench.fuzz.seed=%d)%n", SEED, SEED);
    }
    /** Generated cases per operation and phase; ~1 min per variant on the 2-core box (contract-tests/README.md). */
    static final int EXAMPLES = 50;

    private static final Duration HANG_GUARD = Duration.ofMinutes(10);

    /** Every selected variant of the manifest with its dialect (which document and settings it is fuzzed with). */
    static Stream<Arguments> variants() {
        return ContractManifest.all().stream().map(name -> Arguments.of(name, ContractManifest.variant(name).dialect()));
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("variants")
    void answersEveryGeneratedRequestAsItsDocumentSays(String variant, String dialect) {
        Path document = resourceFile(dialect.equals("plain") ? "openapi.yaml" : "openapi-" + dialect + ".yaml",
                dialect);
        Path settings = resourceFile("fuzz/" + dialect + ".toml", dialect);
        Path out = Schemathesis.HOME.resolve(variant);
        ContractEnvironment.Service service = ContractEnvironment.service(variant);
        Schemathesis.Run run = Schemathesis.run(List.of(
                "--config-file", settings.toString(),
                "run", document.toString(),
                "--url", service.baseUri().toString(),
                "--seed", Long.toString(SEED),
                "--max-examples", Integer.toString(EXAMPLES),
                "--phases", "examples,coverage,fuzzing,stateful",
                "--workers", "1",
                "--generation-database", "none",
                "--request-timeout", "30",
                "--continue-on-failure",
                "--no-color",
                "--report", "junit",
                "--report-dir", out.resolve("report").toString()),
                out, out.resolve("schemathesis.log"), HANG_GUARD);
        System.out.printf("fuzz %s (%s): seed %d, exit %d after %.1f s, log %s%n", variant, dialect, SEED,
                run.exitCode(), run.wallTime().toMillis() / 1000.0, out.resolve("schemathesis.log"));
        if (run.exitCode() != 0) {
            fail("schemathesis found problems in %s (seed %d, %d examples per operation, %.0f s; replay: "
                            + "-Drestbench.fuzz.seed=%d -Drestbench.variants=%s); full log: %s%n%s", variant, SEED,
                    EXAMPLES, run.wallTime().toMillis() / 1000.0, SEED, variant, out.resolve("schemathesis.log"),
                    report(run.output()));
        }
    }

    /** The failures and the summary, without the progress lines; long reports are cut (the log has everything). */
    static String report(String output) {
        List<String> lines = output.lines().toList();
        int start = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).matches("=+ (FAILURES|ERRORS) =+")) {
                start = i;
                break;
            }
        }
        List<String> shown = lines.subList(start, lines.size());
        if (shown.size() > 400) {
            shown = new ArrayList<>(shown.subList(0, 300));
            shown.add("… (cut: " + (lines.size() - start - 300) + " more lines in the log)");
        }
        return String.join("\n", shown);
    }

    private static Path resourceFile(String name, String dialect) {
        URL url = FuzzTest.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("dialect " + dialect + " has no " + name + " in contract-tests"
                    + " (src/main/resources for the OpenAPI document, src/test/resources for fuzz settings):"
                    + " every dialect in benchmarks.json needs both to be fuzzed");
        }
        try {
            Path path = Path.of(url.toURI());
            if (!Files.isRegularFile(path)) {
                throw new IllegalStateException(name + " is not a file: " + url);
            }
            return path;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
