package dev.restbench.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/** One scrape of a Prometheus text exposition: series (name, labels) → value. */
record PrometheusText(long nanoTime, List<Sample> samples) {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    static PrometheusText parse(String text, long nanoTime) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Sample sample = parseLine(line);
            if (sample != null) {
                samples.add(sample);
            }
        }
        return new PrometheusText(nanoTime, List.copyOf(samples));
    }

    private static Sample parseLine(String line) {
        int brace = line.indexOf('{');
        int space;
        String name;
        Map<String, String> labels = new TreeMap<>();
        if (brace >= 0 && brace < line.indexOf(' ')) {
            name = line.substring(0, brace);
            int i = brace + 1;
            while (i < line.length() && line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq).trim();
                StringBuilder value = new StringBuilder();
                int j = eq + 2; // skip ="
                while (line.charAt(j) != '"') {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                    j++;
                }
                labels.put(key, value.toString());
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') {
                    i++;
                }
            }
            space = i + 1;
        } else {
            space = line.indexOf(' ');
            if (space < 0) {
                return null;
            }
            name = line.substring(0, space);
        }
        String[] rest = line.substring(space).trim().split("\\s+");
        try {
            return new Sample(name, labels, Double.parseDouble(rest[0]));
        } catch (NumberFormatException e) {
            return null; // NaN written as "NaN" parses; anything else is not a value we use
        }
    }

    /**
     * Sum over all series of the first of {@code names} that is present whose labels include {@code label=value}
     * pairs (pass none for all). Names are alternatives because exposition names differ between registry
     * versions (e.g. a counter with or without "_total").
     */
    OptionalDouble sum(List<String> names, String... labelPairs) {
        for (String name : names) {
            double total = 0;
            boolean found = false;
            for (Sample s : samples) {
                if (s.name().equals(name) && matches(s.labels(), labelPairs) && !Double.isNaN(s.value())) {
                    total += s.value();
                    found = true;
                }
            }
            if (found) {
                return OptionalDouble.of(total);
            }
        }
        return OptionalDouble.empty();
    }

    /**
     * Sum over all series of the first of {@code names} that is present, leaving out those whose {@code label} is one
     * of {@code excluded} (a series without the label counts).
     */
    OptionalDouble sumExcept(List<String> names, String label, java.util.Set<String> excluded) {
        for (String name : names) {
            double total = 0;
            boolean found = false;
            for (Sample s : samples) {
                if (s.name().equals(name) && !Double.isNaN(s.value())) {
                    found = true;
                    String value = s.labels().get(label);
                    if (value == null || !excluded.contains(value)) {
                        total += s.value();
                    }
                }
            }
            if (found) {
                return OptionalDouble.of(total);
            }
        }
        return OptionalDouble.empty();
    }

    private static boolean matches(Map<String, String> labels, String[] pairs) {
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (!pairs[i + 1].equals(labels.get(pairs[i]))) {
                return false;
            }
        }
        return true;
    }
}
