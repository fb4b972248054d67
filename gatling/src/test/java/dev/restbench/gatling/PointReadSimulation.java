package dev.restbench.gatling;

/**
 * POINT-read: one request, GET one dataset item with its category. Not one of the reference scenarios: it is the
 * calibration scenario, the single endpoint whose capacity can be checked against an independent load generator
 * (wrk, see gatling/wrk-check.sh) under the same pinning.
 */
public class PointReadSimulation extends BenchSimulation {

    public PointReadSimulation() {
        super("point-read", (ops, drafts) -> ops.getItem());
    }
}
