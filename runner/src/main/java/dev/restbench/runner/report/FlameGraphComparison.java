package dev.restbench.runner.report;

import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The flame graphs of an A/B run ({@code ./bench ab --flamegraphs}) side by side: per cell (variant, scenario,
 * regime) one page, {@code flamegraphs/ab/<variant>-<scenario>-<regime>.html}, with the base and the head graphs of
 * the same round next to each other and a differential table computed from both sides' collapsed stacks (the frames
 * whose share of the samples changed most; async-profiler's converter 4.2 has no differential graph). The pages'
 * names follow from the run record alone, so the PR comment, rendered elsewhere from the record, can name them.
 */
public final class FlameGraphComparison {

    /** The frames listed per direction (grew, shrank) and kind (CPU, allocation). */
    static final int TOP = 15;

    /** One start's two graphs, paths relative to the run directory. */
    public record Graphs(String cpu, String alloc) {
        String of(String kind) {
            return kind.equals("cpu") ? cpu : alloc;
        }
    }

    /** One cell's pair: the page, and the base and head graphs it shows (paths relative to the run directory). */
    public record Pair(String variant, String scenario, String regime, int round, String page,
                       Graphs base, Graphs head) {
        public String cellKey() {
            return variant + "/" + scenario + "/" + regime;
        }
    }

    private FlameGraphComparison() {
    }

    /**
     * Every cell whose base and head both have flame graphs in one round (the earliest such round), by cell key
     * ({@code variant/scenario/regime}, the variant without its --base/--head suffix).
     */
    public static Map<String, Pair> pairs(RunRecord run) {
        Map<String, Map<Integer, Graphs>> base = new HashMap<>();
        Map<String, Map<Integer, Graphs>> head = new HashMap<>();
        for (RunRecord.Cell cell : run.cells()) {
            String variant = cell.variant();
            String side = InterleavedRun.label(variant);
            if (side == null) {
                continue;
            }
            String key = InterleavedRun.variant(variant) + "/" + cell.scenario() + "/" + cell.regime();
            Map<String, Map<Integer, Graphs>> target = side.equals("base") ? base : side.equals("head") ? head : null;
            if (target == null) {
                continue;
            }
            for (RunRecord.Trial trial : cell.trials()) {
                if (trial.cpuFlameGraph() != null && trial.allocFlameGraph() != null) {
                    target.computeIfAbsent(key, k -> new TreeMap<>()).putIfAbsent(trial.round(),
                            new Graphs(trial.cpuFlameGraph(), trial.allocFlameGraph()));
                }
            }
        }
        Map<String, Pair> out = new LinkedHashMap<>();
        base.keySet().stream().sorted().forEach(key -> {
            Map<Integer, Graphs> b = base.get(key);
            Map<Integer, Graphs> h = head.getOrDefault(key, Map.of());
            b.keySet().stream().filter(h::containsKey).findFirst().ifPresent(round -> {
                String[] parts = key.split("/", 3);
                out.put(key, new Pair(parts[0], parts[1], parts[2], round,
                        "flamegraphs/ab/" + parts[0] + "-" + parts[1] + "-" + parts[2] + ".html", b.get(round),
                        h.get(round)));
            });
        });
        return out;
    }

    /** Writes the page of every pair into the run directory; returns how many it wrote. */
    public static int write(Path runDir, RunRecord run) throws IOException {
        int written = 0;
        for (Pair pair : pairs(run).values()) {
            Path page = runDir.resolve(pair.page());
            Files.createDirectories(page.getParent());
            AtomicFiles.writeString(page, page(runDir, pair));
            written++;
        }
        return written;
    }

    static String page(Path runDir, Pair pair) throws IOException {
        String up = "../../"; // the page lives in flamegraphs/ab/
        StringBuilder html = new StringBuilder();
        String title = pair.variant() + " · " + pair.scenario() + " (" + pair.regime() + "): base ↔ head";
        html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
                .append("</title>\n<style>body{font:14px system-ui,sans-serif;margin:1rem}"
                        + ".pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}"
                        + "iframe{width:100%;height:70vh;border:1px solid #ccc}"
                        + "table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{padding:2px 8px;text-align:right}"
                        + "td.frame{text-align:left;font-family:monospace;word-break:break-all}"
                        + "th{border-bottom:1px solid #999}</style></head><body>\n");
        html.append("<h1>").append(escape(title)).append("</h1>\n<p>Round ").append(pair.round() + 1)
                .append(" of the A/B run: one profiling window of each side after its published windows (JDK Flight"
                        + " Recorder, converted by async-profiler's converter); no published figure comes from it."
                        + " The differential tables compare the share of samples in which a frame appears"
                        + " (inclusive) and on top of the stack (self).</p>\n");
        for (String kind : List.of("cpu", "alloc")) {
            String label = kind.equals("cpu") ? "CPU" : "Allocation";
            html.append("<h2>").append(label).append("</h2>\n<div class=\"pair\">");
            for (String side : List.of("base", "head")) {
                String graph = (side.equals("base") ? pair.base() : pair.head()).of(kind);
                html.append("<div><h3>").append(side).append(" · <a href=\"").append(escape(up + graph))
                        .append("\">open</a></h3><iframe loading=\"lazy\" src=\"").append(escape(up + graph))
                        .append("\" title=\"").append(side).append(' ').append(label).append("\"></iframe></div>");
            }
            html.append("</div>\n");
            Optional<Profile> base = Profile.read(runDir, pair.base().of(kind));
            Optional<Profile> head = Profile.read(runDir, pair.head().of(kind));
            if (base.isEmpty() || head.isEmpty()) {
                html.append("<p>No collapsed stacks beside the graphs: no differential table.</p>\n");
                continue;
            }
            html.append(differential(label, base.get(), head.get()));
        }
        return html.append("</body></html>\n").toString();
    }

    private static String differential(String label, Profile base, Profile head) {
        Set<String> frames = new HashSet<>(base.inclusive.keySet());
        frames.addAll(head.inclusive.keySet());
        List<Row> rows = new ArrayList<>();
        for (String frame : frames) {
            rows.add(new Row(frame, base.inclusiveShare(frame), head.inclusiveShare(frame), base.selfShare(frame),
                    head.selfShare(frame)));
        }
        StringBuilder html = new StringBuilder();
        // Sampling noise of a share p over n samples: sqrt(p(1-p)/n); two standard errors of the difference at
        // p = 25 % say how large a change must be before it is more than the luck of the samples.
        double noise = base.total == 0 || head.total == 0 ? Double.NaN
                : 200 * Math.sqrt(0.25 * 0.75 * (1.0 / base.total + 1.0 / head.total));
        html.append(String.format(Locale.ROOT, "<p>%s samples: base %,d, head %,d. With these counts a frame near a"
                + " 25 %% share moves by up to ±%.1f points from sampling alone (two standard errors): smaller"
                + " differences below are noise.</p>%n", label, base.total, head.total, noise));
        for (boolean grew : List.of(true, false)) {
            List<Row> top = rows.stream().filter(r -> grew ? r.delta() > 0 : r.delta() < 0)
                    .sorted(Comparator.comparingDouble((Row r) -> grew ? -r.delta() : r.delta())
                            .thenComparing(Row::frame))
                    .limit(TOP).toList();
            html.append("<table><caption>").append(label).append(grew ? ": grew most in head" : ": shrank most in head")
                    .append(" (percentage points of all samples)</caption>\n<tr><th>frame</th><th>base incl.</th>"
                            + "<th>head incl.</th><th>Δ incl.</th><th>base self</th><th>head self</th></tr>\n");
            if (top.isEmpty()) {
                html.append("<tr><td class=\"frame\">(none)</td></tr>\n");
            }
            for (Row r : top) {
                html.append(String.format(Locale.ROOT, "<tr><td class=\"frame\">%s</td><td>%.1f %%</td><td>%.1f %%</td>"
                                + "<td>%+.1f</td><td>%.1f %%</td><td>%.1f %%</td></tr>%n", escape(r.frame()),
                        r.baseIncl(), r.headIncl(), r.delta(), r.baseSelf(), r.headSelf()));
            }
            html.append("</table>\n");
        }
        return html.toString();
    }

    private record Row(String frame, double baseIncl, double headIncl, double baseSelf, double headSelf) {
        double delta() {
            return headIncl - baseIncl;
        }
    }

    /** Collapsed stacks ("a;b;c count" per line) as sample counts per frame: inclusive (once per stack) and self. */
    static final class Profile {
        final Map<String, Long> inclusive = new HashMap<>();
        final Map<String, Long> self = new HashMap<>();
        long total;

        static Optional<Profile> read(Path runDir, String graph) throws IOException {
            Path collapsed = runDir.resolve(graph.replaceFirst("\\.html$", ".collapsed.txt"));
            if (!Files.isRegularFile(collapsed)) {
                return Optional.empty();
            }
            Profile profile = new Profile();
            try (var lines = Files.lines(collapsed)) {
                lines.forEach(profile::add);
            }
            return Optional.of(profile);
        }

        void add(String line) {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                return;
            }
            long count;
            try {
                count = Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                return;
            }
            String[] frames = line.substring(0, space).split(";");
            for (int i = 0; i < frames.length; i++) {
                frames[i] = frame(frames[i]);
            }
            total += count;
            for (String frame : new HashSet<>(List.of(frames))) {
                inclusive.merge(frame, count, Long::sum);
            }
            self.merge(frames[frames.length - 1], count, Long::sum);
        }

        double inclusiveShare(String frame) {
            return total == 0 ? 0 : 100.0 * inclusive.getOrDefault(frame, 0L) / total;
        }

        double selfShare(String frame) {
            return total == 0 ? 0 : 100.0 * self.getOrDefault(frame, 0L) / total;
        }
    }

    private static final java.util.regex.Pattern COMPILATION = java.util.regex.Pattern.compile("_\\[[a-z0-9]\\]$");
    private static final java.util.regex.Pattern LAMBDA = java.util.regex.Pattern.compile("\\$\\$Lambda[^.]*");
    private static final java.util.regex.Pattern ACCESSOR =
            java.util.regex.Pattern.compile("(Generated(?:Constructor|SerializationConstructor|Method)Accessor)\\d+");

    /**
     * One frame as both sides can share it: without the converter's compilation mark ({@code _[j]} JIT-compiled,
     * {@code _[i]} interpreted, {@code _[0]} inlined…: the same method in another state is not another method), and
     * without what differs per JVM start (a lambda's hidden-class number and address, a reflection accessor's
     * number); class names in dotted form (the converter writes most with slashes, lambdas with dots).
     */
    static String frame(String raw) {
        String frame = COMPILATION.matcher(raw).replaceFirst("");
        frame = LAMBDA.matcher(frame).replaceAll(java.util.regex.Matcher.quoteReplacement("$$Lambda"));
        frame = ACCESSOR.matcher(frame).replaceAll("$1");
        return frame.replace('/', '.');
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
