package dev.restbench.runner;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README, every doc under docs/ and every folder's README name only what exists: a relative link or a repository
 * path in code resolves to a file or folder, a {@code ./bench <command>} is a command of {@link Main}, and each
 * {@code --option} after it is listed by that command's {@code --help}. A newcomer who copies a line from the docs
 * gets a command that runs.
 */
class DocsTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A Markdown link's or image's target: {@code ](target)}. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** An inline code span; it may wrap a line but never spans a blank one. */
    private static final Pattern CODE_SPAN = Pattern.compile("`((?:[^`\\n]|\\n(?![ \\t]*\\n))+?)`");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```[^\\n]*\\n(.*?)^```");
    private static final Pattern BENCH = Pattern.compile("(?<![\\w/.])\\./bench((?:[ \\t]+[^\\s#|;&`]+)*)");
    private static final Pattern OPTION = Pattern.compile("^--[a-z][a-z0-9-]*");
    /** Characters that mark a placeholder or an abbreviation, not a path to check. */
    private static final Pattern NOT_A_PATH = Pattern.compile("[<>{}*…$|=:@\\s]");
    /** Paths a doc names that a build or a test makes, or git's own folder: absent from a fresh checkout. */
    private static final Pattern MADE_ELSEWHERE =
            Pattern.compile("(^|/)(target|test-artifacts|node_modules|\\.git)(/|$)");
    /** Named on purpose although absent from a checkout, and why. */
    private static final Map<String, String> ABSENT_ON_PURPOSE = Map.of(
            "services/throwaway", "ThrowawayVariantTest makes it, in a copy of the repository",
            "shared/verdict-review", "the project's shared notes beside the repository, not its shared/ modules");

    @Test
    void everyLinkAndPathInTheDocsExists() {
        List<String> missing = new ArrayList<>();
        docs().forEach((doc, text) -> missing.addAll(missingPaths(doc, text)));
        assertThat(missing).as("links and paths that do not exist").isEmpty();
    }

    @Test
    void everyBenchCommandAndOptionInTheDocsExists() {
        List<String> unknown = new ArrayList<>();
        docs().forEach((doc, text) -> unknown.addAll(unknownCommands(doc, text)));
        assertThat(unknown).as("./bench commands and options that --help does not list").isEmpty();
    }

    @Test
    void theChecksCatchWhatTheyAreFor() {
        Path doc = ROOT.resolve("docs/example.md");
        assertThat(missingPaths(doc, "[method](method.md) and [gone](gone.md#x), `services/jersey`, `shared/nowhere`"))
                .containsExactly("docs/example.md: link gone.md#x", "docs/example.md: path shared/nowhere");
        assertThat(unknownCommands(doc, "`./bench run --profile quick --variants a,b`, `./bench frobnicate`\n"
                + "```\n./bench ab --base main \\\n    --no-such-option   # --neither-this\n```\n"))
                .containsExactlyInAnyOrder("docs/example.md: ./bench frobnicate (no such command)",
                        "docs/example.md: ./bench ab --no-such-option (not in its --help)");
    }

    /** README.md, every Markdown file under docs/ and every other folder's README.md. */
    static Map<Path, String> docs() {
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            List<Path> paths = new ArrayList<>(files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
            paths.add(0, ROOT.resolve("README.md"));
            List<Path> readmes = new ArrayList<>();
            Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    return MADE_ELSEWHERE.matcher(ROOT.relativize(dir).toString()).find()
                            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (file.getFileName().toString().equals("README.md") && !file.getParent().equals(ROOT)) {
                        readmes.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            readmes.stream().sorted().forEach(paths::add);
            Map<Path, String> texts = new java.util.LinkedHashMap<>();
            for (Path path : paths) {
                texts.put(path, Files.readString(path));
            }
            return texts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> missingPaths(Path doc, String text) {
        List<String> missing = new ArrayList<>();
        String prose = FENCE.matcher(text).replaceAll("");
        Matcher link = LINK.matcher(prose);
        while (link.find()) {
            String target = link.group(1);
            if (target.matches("^[a-z]+:.*") || target.startsWith("#")) {
                continue; // a URL, or an anchor in the same page
            }
            String file = target.replaceFirst("[#?].*$", "");
            if (!Files.exists(doc.getParent().resolve(file))) {
                missing.add(name(doc) + ": link " + target);
            }
        }
        Set<String> topLevel = topLevelNames();
        Matcher code = CODE_SPAN.matcher(prose);
        while (code.find()) {
            String path = code.group(1).strip();
            String first = path.split("/", 2)[0];
            if (!topLevel.contains(first) || !path.contains("/") || NOT_A_PATH.matcher(path).find()
                    || MADE_ELSEWHERE.matcher(path).find() || ABSENT_ON_PURPOSE.containsKey(path)) {
                continue; // not a path from the repository's root, or a pattern rather than a path
            }
            if (!Files.exists(ROOT.resolve(path))) {
                missing.add(name(doc) + ": path " + path);
            }
        }
        return missing;
    }

    static List<String> unknownCommands(Path doc, String text) {
        List<String> unknown = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Matcher fence = FENCE.matcher(text);
        while (fence.find()) {
            // a command continued with a trailing backslash is one line; a comment ends it
            for (String line : fence.group(1).replaceAll("\\\\\\n", " ").split("\\n")) {
                lines.add(line.replaceFirst("\\s#.*$", ""));
            }
        }
        Matcher span = CODE_SPAN.matcher(FENCE.matcher(text).replaceAll(""));
        while (span.find()) {
            lines.add(span.group(1).replace('\n', ' '));
        }
        for (String line : lines) {
            Matcher bench = BENCH.matcher(line);
            while (bench.find()) {
                check(name(doc), bench.group(1).strip(), unknown);
            }
        }
        return unknown;
    }

    private static void check(String doc, String arguments, List<String> unknown) {
        CommandLine command = Main.commandLine();
        String[] words = arguments.isEmpty() ? new String[0] : arguments.split("\\s+");
        int i = 0;
        // descend through the commands the words name: `history append`, `db load`
        while (i < words.length && words[i].matches("[a-z][a-z-]*")
                && command.getSubcommands().containsKey(words[i])) {
            command = command.getSubcommands().get(words[i++]);
        }
        if (command.getParent() == null && i < words.length && words[i].matches("[a-z][a-z-]*")) {
            unknown.add(doc + ": ./bench " + words[i] + " (no such command)");
            return;
        }
        String help = command.getUsageMessage();
        for (; i < words.length; i++) {
            Matcher option = OPTION.matcher(words[i]);
            if (option.find() && !Pattern.compile("(?<![\\w-])" + Pattern.quote(option.group()) + "(?![\\w-])")
                    .matcher(help).find()) {
                unknown.add(doc + ": " + command.getCommandSpec().qualifiedName(" ") + " " + option.group()
                        + " (not in its --help)");
            }
        }
    }

    private static Set<String> topLevelNames() {
        try (Stream<Path> entries = Files.list(ROOT)) {
            return Set.copyOf(entries.map(p -> p.getFileName().toString()).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(Path doc) {
        return ROOT.relativize(doc).toString();
    }
}
