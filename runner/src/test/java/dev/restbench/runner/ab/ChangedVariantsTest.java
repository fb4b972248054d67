package dev.restbench.runner.ab;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which variants an A/B measures, from two commits of a throwaway repository holding the project's manifest. */
class ChangedVariantsTest {

    private static final List<String> PROFILE = List.of("jersey", "spring-mvc", "spring-data-rest", "express");

    @TempDir
    Path repo;
    private String base;

    @BeforeEach
    void baseCommit() throws Exception {
        git("init", "-q", "-b", "main");
        Files.writeString(repo.resolve("benchmarks.json"),
                Files.readString(RevisionBuildTest.ROOT.resolve("benchmarks.json")));
        for (String file : List.of("services/jersey/src/Main.java", "services/spring-mvc/src/App.java",
                "services/express/app.js", "shared/support/src/Faults.java", "runner/src/Run.java",
                "docs/method.md", "site/app.js", "contract-tests/src/T.java", "pom.xml")) {
            write(file, "v1");
        }
        base = commit("base");
    }

    @Test
    void aDocsOnlyChangeMeasuresNothing() throws Exception {
        write("docs/method.md", "v2");
        write("site/app.js", "v2");
        write("contract-tests/src/T.java", "v2");
        ChangedVariants.Scope scope = ChangedVariants.of(repo, base, commit("docs"), PROFILE);
        assertThat(scope.measure()).isEmpty();
        assertThat(scope.method()).isNull();
        assertThat(scope.skipped()).containsOnlyKeys(PROFILE);
        assertThat(scope.describe()).startsWith("nothing");
    }

    @Test
    void aChangeInOneVariantsFolderMeasuresTheVariantsBuiltFromIt() throws Exception {
        write("services/jersey/src/Main.java", "v2");
        String head = commit("jersey");
        assertThat(ChangedVariants.of(repo, base, head, PROFILE).measure()).containsExactly("jersey");
        // jersey-jetty compiles jersey's sources (build.inputs), and jersey-jetty-virtual extends it.
        assertThat(ChangedVariants.of(repo, base, head, List.of("jersey-jetty", "jersey-jetty-virtual", "quarkus"))
                .measure()).containsExactly("jersey-jetty", "jersey-jetty-virtual");
    }

    @Test
    void aSharedModuleOrTheRootPomMeasuresEveryMavenVariantButNotExpress() throws Exception {
        write("shared/support/src/Faults.java", "v2");
        assertThat(ChangedVariants.of(repo, base, commit("shared"), PROFILE).measure())
                .containsExactly("jersey", "spring-mvc", "spring-data-rest");
    }

    @Test
    void aHarnessChangeIsAMethodChangeThatMeasuresTheWholeProfile() throws Exception {
        write("runner/src/Run.java", "v2");
        ChangedVariants.Scope scope = ChangedVariants.of(repo, base, commit("runner"), PROFILE);
        assertThat(scope.measure()).isEqualTo(PROFILE);
        assertThat(scope.method()).isEqualTo("runner/src/Run.java");
        assertThat(scope.describe()).contains("changes the harness (runner src Run.java)");
    }

    @Test
    void theManifestSaysWhatChangedEntryByEntry() throws Exception {
        String manifest = Files.readString(repo.resolve("benchmarks.json"));
        // A label is description; an environment variable changes what is started.
        Files.writeString(repo.resolve("benchmarks.json"), manifest
                .replace("\"label\": \"Spring MVC · Tomcat\"", "\"label\": \"Spring MVC on Tomcat\"")
                .replace("\"name\": \"express\",", "\"name\": \"express\", \"env\": {\"NODE_OPTIONS\": \"--max-old-space-size=256\"},"));
        assertThat(ChangedVariants.of(repo, base, commit("entries"), PROFILE).measure()).containsExactly("express");

        // A profile's variant list is a selection, not the method.
        Files.writeString(repo.resolve("benchmarks.json"), manifest.replaceFirst(
                "\"variants\": \\[\"jersey\", \"spring-mvc\", \"spring-data-rest\"\\]",
                "\"variants\": [\"jersey\", \"spring-mvc\", \"spring-data-rest\", \"express\"]"));
        String profiles = commit("profile list");
        assertThat(ChangedVariants.of(repo, base, profiles, PROFILE).method()).isNull();

        // The method is: the windows of a profile.
        Files.writeString(repo.resolve("benchmarks.json"), manifest.replaceFirst("\"windows\": (\\d+)", "\"windows\": 7"));
        ChangedVariants.Scope method = ChangedVariants.of(repo, base, commit("windows"), PROFILE);
        assertThat(method.method()).isEqualTo("benchmarks.json outside its variants");
        assertThat(method.measure()).isEqualTo(PROFILE);
    }

    @Test
    void aVariantNewInHeadIsMeasuredAndOneItRemovedIsSkipped() throws Exception {
        String manifest = Files.readString(repo.resolve("benchmarks.json"));
        Files.writeString(repo.resolve("benchmarks.json"), manifest.replaceFirst("\"variants\": \\[\n",
                "\"variants\": [\n    {\"name\": \"jersey-again\", \"extends\": \"jersey\"},\n"));
        ChangedVariants.Scope scope = ChangedVariants.of(repo, base, commit("new"), List.of("jersey-again", "jersey"));
        assertThat(scope.measure()).containsExactly("jersey-again");
        assertThat(scope.why()).containsEntry("jersey-again", "new in head");
        assertThat(ChangedVariants.of(repo, commit("again"), base, List.of("jersey-again")).skipped())
                .containsEntry("jersey-again", "not in head's benchmarks.json");
    }

    /** The scope travels in ab.json to the comment job, as prose only: anything else in a record is dropped. */
    @Test
    void theScopeTravelsInAbJsonAsProseOnly() throws Exception {
        write("services/jersey/src/Main.java", "v2");
        ChangedVariants.Scope scope = ChangedVariants.of(repo, base, commit("jersey"), PROFILE);
        Path file = repo.resolve("ab.json");
        dev.restbench.runner.analysis.MetricRules rules = dev.restbench.runner.analysis.RunFixtures.catalogue();
        Files.writeString(file, new Design("aaaaaaa", "bbbbbbb", 0.05, rules, null, 0, scope.describe()).toJson()
                .toString());
        assertThat(Design.read(file, null, null, () -> rules).scope())
                .isEqualTo("jersey, whose build or start changed, and not spring-mvc, spring-data-rest, express");
        Files.writeString(file, new Design("aaaaaaa", "bbbbbbb", 0.05, rules, null, 0, "[click](https://x)").toJson()
                .toString());
        assertThat(Design.read(file, null, null, () -> rules).scope()).isNull();
    }

    private void write(String file, String text) throws IOException {
        Path path = repo.resolve(file);
        Files.createDirectories(path.getParent() == null ? repo : path.getParent());
        Files.writeString(path, text);
    }

    private String commit(String message) throws Exception {
        git("add", "-A");
        git("-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", message);
        return Git.resolve(repo, "HEAD");
    }

    private void git(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Git.Result result = Git.exec(repo, command);
        assertThat(result.exit()).as(result.output()).isZero();
    }
}
