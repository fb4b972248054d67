package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What every scenario shares: configuration, dialect, feeders, the injection profile of each regime and the
 * assertions. A subclass only says what one iteration does, in terms of {@link Operations}.
 *
 * <p>One virtual user runs one iteration and leaves. In the capacity regime the closed model replaces it at once
 * (a fixed number of iterations always in flight, no think time); in the latency and warm-up regimes iterations
 * arrive at a fixed rate whatever the response times (open model, no coordinated omission). Connections are shared
 * by all virtual users, like the keep-alive pool of a service calling another one.
 */
public abstract class BenchSimulation extends Simulation {

    /** Time allowed after the injection ends for in-flight iterations (requests time out after 10 s anyway). */
    private static final Duration DRAIN = Duration.ofSeconds(15);

    /** What one iteration of the scenario does. */
    protected interface Iteration {
        ChainBuilder build(Operations ops, Drafts drafts);
    }

    protected BenchSimulation(String scenarioName, Iteration iteration) {
        BenchConfig config = BenchConfig.fromSystemProperties();
        Operations ops = Operations.of(config.dialect());
        ScenarioBuilder scenario = scenario(scenarioName)
                .feed(Feeders.datasetReads(config))
                .exec(iteration.build(ops, new Drafts(config)));
        Duration duration = Duration.ofSeconds(config.durationSeconds());
        setUp(inject(scenario, config, duration))
                .protocols(ops.protocol(config.baseUrl()).shareConnections().disableWarmUp())
                .assertions(assertions(config))
                .maxDuration(duration.plus(DRAIN));
    }

    private static PopulationBuilder inject(ScenarioBuilder scenario, BenchConfig config, Duration duration) {
        return switch (config.regime()) {
            case CAPACITY -> scenario.injectClosed(constantConcurrentUsers(config.users()).during(duration));
            case LATENCY -> scenario.injectOpen(constantUsersPerSec(config.rate()).during(duration));
            // The JIT compiles what runs hot: warm up at the capacity regime's concurrency (a closed model, so a
            // cold JVM is never buried under a queue), ramping in over the first third.
            case WARMUP -> scenario.injectClosed(
                    rampConcurrentUsers(1).to(Math.max(1, config.users())).during(duration.dividedBy(3)),
                    constantConcurrentUsers(Math.max(1, config.users()))
                            .during(duration.minus(duration.dividedBy(3))));
        };
    }

    private static List<Assertion> assertions(BenchConfig config) {
        List<Assertion> assertions = new ArrayList<>();
        assertions.add(global().failedRequests().percent().lte(config.maxErrorPct()));
        if (config.regime() == BenchConfig.Regime.CAPACITY) {
            assertions.add(global().responseTime().percentile(99.0).lte(config.maxP99Ms()));
        }
        return assertions;
    }
}
