package dev.restbench.runner.run;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Progress of a run: a redrawn bar with ETA on a terminal, one plain line per event otherwise (CI logs).
 * The ETA comes from the planned durations of the remaining steps, corrected by how long the finished ones took.
 */
final class Progress {
    private final PrintStream out;
    private final boolean tty;
    private final int totalSteps;
    private final double plannedSecondsTotal;
    private final long startNanos = System.nanoTime();
    private double plannedSecondsDone;
    private int stepsDone;
    private String current = "";

    Progress(PrintStream out, boolean tty, int totalSteps, double plannedSecondsTotal) {
        this.out = out;
        this.tty = tty;
        this.totalSteps = totalSteps;
        this.plannedSecondsTotal = plannedSecondsTotal;
    }

    static boolean isTerminal() {
        return System.console() != null && System.getenv("CI") == null;
    }

    /** A step (one service start) begins. */
    synchronized void step(String description) {
        current = description;
        if (tty) {
            redraw();
        } else {
            out.printf("[%d/%d] %s%n", stepsDone + 1, totalSteps, description);
        }
    }

    /** An event worth a line (a measured window's headline figures, a failure). */
    synchronized void event(String line) {
        if (tty) {
            out.print("\r\033[K");
            out.println("  " + line);
            redraw();
        } else {
            out.println("  " + line);
        }
    }

    synchronized void stepDone(double plannedSeconds) {
        stepsDone++;
        plannedSecondsDone += plannedSeconds;
        if (tty) {
            redraw();
        }
    }

    synchronized void finish() {
        if (tty) {
            out.print("\r\033[K");
        }
        out.printf("done in %s%n", format(elapsedSeconds()));
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void redraw() {
        int width = 30;
        double fraction = plannedSecondsTotal == 0 ? 1 : Math.min(1, plannedSecondsDone / plannedSecondsTotal);
        int filled = (int) Math.round(fraction * width);
        String eta;
        if (plannedSecondsDone == 0) {
            eta = "~" + format(plannedSecondsTotal);
        } else {
            double rate = elapsedSeconds() / plannedSecondsDone; // actual seconds per planned second so far
            eta = format((plannedSecondsTotal - plannedSecondsDone) * rate);
        }
        out.printf("\r\033[K[%s%s] %d/%d ETA %s  %s", "#".repeat(filled), ".".repeat(width - filled),
                stepsDone, totalSteps, eta, current);
        out.flush();
    }

    static String format(double seconds) {
        Duration d = Duration.ofSeconds(Math.round(seconds));
        return d.toHours() > 0 ? String.format("%dh%02dm", d.toHours(), d.toMinutesPart())
                : String.format("%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }
}
