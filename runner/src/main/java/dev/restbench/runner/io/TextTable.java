package dev.restbench.runner.io;

import java.util.ArrayList;
import java.util.List;

/**
 * The one table writer: a header, rows of text and an alignment per column, rendered as a Markdown table (summary.md,
 * the PR comment, the drill report) or as aligned plain text (the terminal). Cells are text; Markdown rendering escapes
 * the pipe and line breaks, so a value (a failure reason) cannot break the table.
 */
public final class TextTable {

    /** How a column's cells line up: text to the left, figures to the right. */
    public enum Align { LEFT, RIGHT }

    private final List<String> header;
    private final List<Align> align;
    private final List<List<String>> rows = new ArrayList<>();

    private TextTable(List<String> header, List<Align> align) {
        this.header = List.copyOf(header);
        this.align = List.copyOf(align);
    }

    /** The first {@code labelColumns} columns left-aligned, the rest right-aligned (figures). */
    public static TextTable of(List<String> header, int labelColumns) {
        List<Align> align = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            align.add(i < labelColumns ? Align.LEFT : Align.RIGHT);
        }
        return new TextTable(header, align);
    }

    public static TextTable of(List<String> header, List<Align> align) {
        if (header.size() != align.size()) {
            throw new IllegalArgumentException(header.size() + " columns but " + align.size() + " alignments");
        }
        return new TextTable(header, align);
    }

    public TextTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("a row of " + cells.size() + " cells in a table of " + header.size()
                    + " columns: " + cells);
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public TextTable row(String... cells) {
        return row(List.of(cells));
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public int size() {
        return rows.size();
    }

    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(markdownRow(header));
        md.append('|');
        for (Align a : align) {
            md.append(a == Align.RIGHT ? "--:|" : "---|");
        }
        md.append('\n');
        rows.forEach(row -> md.append(markdownRow(row)));
        return md.toString();
    }

    private static String markdownRow(List<String> cells) {
        StringBuilder line = new StringBuilder("|");
        for (String cell : cells) {
            line.append(' ').append(escape(cell)).append(" |");
        }
        return line.append('\n').toString();
    }

    public static String escape(String text) {
        return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }

    /** Aligned columns two spaces apart, a dashed line under the header; no trailing spaces. */
    public String plain() {
        int[] widths = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).codePointCount(0, row.get(i).length()));
            }
        }
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < all.size(); r++) {
            StringBuilder line = new StringBuilder();
            List<String> row = all.get(r);
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i).replace('\n', ' ');
                String fill = " ".repeat(Math.max(0, widths[i] - cell.codePointCount(0, cell.length())));
                line.append(i == 0 ? "" : "  ").append(align.get(i) == Align.RIGHT ? fill + cell : cell + fill);
            }
            text.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                int total = -2;
                for (int w : widths) {
                    total += w + 2;
                }
                text.append("-".repeat(Math.max(0, total))).append('\n');
            }
        }
        return text.toString();
    }

    /** The widest line of {@link #plain()}, in characters. */
    public int plainWidth() {
        return plain().lines().mapToInt(l -> l.codePointCount(0, l.length())).max().orElse(0);
    }
}
