package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The windows are cut on the clock Gatling stamps its requests with: the monotonic clock from a wall-clock reference,
 * which a step of the host's wall clock does not move (one start of the 2026-12-03 drill lost its last window to a
 * 7.6 s step when the edges were read off the wall clock).
 */
class GatlingClockTest {

    /** A reference read 7.6 s before a step of the wall clock: what a cell's clock is after such a step. */
    private static final GatlingClock BEFORE_A_STEP = new GatlingClock(GatlingClock.now().offsetMillis() - 7_600);

    @Test
    void anEdgeIsReadOnTheMonotonicClockFromTheReferenceNotOnTheWallClock() {
        // A service at a URL: no /proc readings, and an edge read without a scrape makes no request.
        Reading.Sources sources = new Reading.Sources(
                new ServiceEndpoint("http://127.0.0.1:1", "/health", "/metrics"), null, null, null, null, BEFORE_A_STEP);

        long wall = System.currentTimeMillis();
        Reading edge = sources.readStart(false);

        assertThat(edge.epochMillis()).isEqualTo(BEFORE_A_STEP.millis(edge.nanoTime()));
        assertThat(wall - edge.epochMillis()).as("the step is not in the edge").isBetween(7_500L, 7_700L);
        assertThat(BEFORE_A_STEP.wallStepMillis()).isBetween(7_500L, 7_700L);
    }

    @Test
    void gatlingsStartOutsideTheSpanItStartedInIsAMismatch() {
        assertThat(GatlingClock.mismatch(10_800, 10_000, 11_500)).isNull();
        assertThat(GatlingClock.mismatch(9_800, 10_000, 11_500)).as("within the tolerance").isNull();
        assertThat(GatlingClock.mismatch(19_100, 10_000, 11_500))
                .isEqualTo("Gatling's clock is +7600 ms off the runner's (the host's wall clock was stepped while"
                        + " Gatling started): its requests cannot be cut into the windows");
        assertThat(GatlingClock.mismatch(8_000, 10_000, 11_500)).startsWith("Gatling's clock is -2000 ms off");
        assertThat(GatlingClock.mismatch(10_800, 10_000, Long.MAX_VALUE)).as("never seen running: no upper bound")
                .isNull();
    }

    /** A step while Gatling starts leaves its reference on either side of it: the start fails before its warmup. */
    @Test
    void aStepWhileGatlingStartsIsRefused() {
        assertThat(GatlingClock.steppedWhileStarting(0)).isNull();
        assertThat(GatlingClock.steppedWhileStarting(-250)).isNull();
        assertThat(GatlingClock.steppedWhileStarting(6_200)).isEqualTo("the host's wall clock was stepped +6200 ms"
                + " while Gatling started, so Gatling's clock is not known to the runner: its requests cannot be cut"
                + " into the windows");
        assertThat(GatlingClock.steppedWhileStarting(-400)).startsWith("the host's wall clock was stepped -400 ms");
    }

    @Test
    void theClockCountsTheMonotonicClockFromItsOffset() {
        GatlingClock clock = new GatlingClock(1_000);
        assertThat(clock.millis(5_000_000_000L)).isEqualTo(6_000);
        assertThat(clock.millis(-1L)).as("floored, as a negative nanoTime may be").isEqualTo(999);
    }
}
