package dev.restbench.runner.run;

/**
 * The clock Gatling stamps its requests with, on the runner's side. Gatling's clock (3.15, gatling-shared-util's
 * {@code DefaultClock}) reads the wall clock once, when it starts, and then counts the monotonic clock from there; so
 * when the host's wall clock is stepped during a cell (NTP, a VM's clock catching up after a pause), Gatling's request
 * times do not move and the wall clock's do. The runner cut a cell's windows out of simulation.log with wall-clock
 * edges: on 2026-12-03 the wall clock moved 7.6 s ahead of the monotonic clock during one start, its windows were cut
 * 7.6 s late, and the last one held no request at all (docs/results/2026-12-03-jersey-drill-part-3.md). This clock
 * does what Gatling's does, from a reference read just before Gatling is launched: System.nanoTime is the same
 * system-wide monotonic clock in both JVMs (CLOCK_MONOTONIC on Linux), so the two agree to the reads' jitter unless
 * the wall clock is stepped between the two references: a start fails when the wall clock moved between Gatling's
 * launch and its "started" line ({@link #wallStepMillis}, GatlingSession), and again when Gatling's own start time
 * lies outside that span ({@link #mismatch}).
 *
 * @param offsetMillis the wall clock minus the monotonic clock (in ms) when the reference was read
 */
record GatlingClock(long offsetMillis) {

    /** How far Gatling's own start time may lie outside the span in which it started before the windows are refused. */
    static final long TOLERANCE_MILLIS = 250;

    /** A reference read now: the wall clock and the monotonic clock, as Gatling reads its own when it starts. */
    static GatlingClock now() {
        return new GatlingClock(System.currentTimeMillis() - Math.floorDiv(System.nanoTime(), 1_000_000L));
    }

    /** The epoch ms on this clock of an instant read from System.nanoTime. */
    long millis(long nanoTime) {
        return Math.floorDiv(nanoTime, 1_000_000L) + offsetMillis;
    }

    /** Now on this clock. */
    long nowMillis() {
        return millis(System.nanoTime());
    }

    /**
     * How far the wall clock has been stepped since the reference (+: ahead of the monotonic clock), ms. Only a step
     * shows here: NTP's slewing (adjtime, its frequency correction) changes the rate of CLOCK_MONOTONIC with that of
     * CLOCK_REALTIME (clock_gettime(2)), so the two keep their offset; a step (clock_settime, ADJ_SETOFFSET) moves the
     * wall clock alone. So the "stepped" line in a cell's warmup log is never a slow slew.
     */
    long wallStepMillis() {
        return GatlingClock.now().offsetMillis - offsetMillis;
    }

    /**
     * Why Gatling's clock may not be this one, or null: the wall clock was stepped by {@code stepMillis} between the
     * launch and Gatling's start, so Gatling read its own reference on one side of the step or the other.
     */
    static String steppedWhileStarting(long stepMillis) {
        return Math.abs(stepMillis) <= TOLERANCE_MILLIS ? null : String.format(java.util.Locale.ROOT,
                "the host's wall clock was stepped %+d ms while Gatling started, so Gatling's clock is not known to"
                        + " the runner: its requests cannot be cut into the windows", stepMillis);
    }

    /**
     * Why Gatling's clock is not this one, or null: Gatling's run started (its simulation.log's run record, on its
     * own clock) outside the span, on this clock, between the launch of its JVM and the moment the runner saw it
     * running — the wall clock was stepped between the two references, and its requests' times are off by as much.
     */
    static String mismatch(long gatlingRunStartMillis, long launchedMillis, long seenRunningMillis) {
        long early = launchedMillis - TOLERANCE_MILLIS - gatlingRunStartMillis;
        long late = gatlingRunStartMillis - seenRunningMillis - TOLERANCE_MILLIS;
        if (early <= 0 && late <= 0) {
            return null;
        }
        long off = early > 0 ? -(early + TOLERANCE_MILLIS) : late + TOLERANCE_MILLIS;
        return String.format(java.util.Locale.ROOT, "Gatling's clock is %+d ms off the runner's (the host's wall clock"
                + " was stepped while Gatling started): its requests cannot be cut into the windows", off);
    }
}
