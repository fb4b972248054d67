package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What every scenario shares: configuration, dialect, feeders, the injection profile of each regime and the
 * assertions. A subclass only says what one iteration does, in terms of {@link Operations}.
 *
 * <p>One virtual user runs one iteration and leaves. In the capacity regime the closed model replaces it at once
 * (a fixed number of iterations always in flight, no think time); in the latency regime iterations arrive at a fixed
 * rate whatever the response times (open model, no coordinated omission). Connections are shared by all virtual
 * users, like the keep-alive pool of a service calling another one.
 *
 * <p><b>Session mode</b> ({@code -DstopFile=…}, how the runner uses it): ONE Gatling JVM loads the service for the
 * whole cell — the warmup until the service is steady, then every measured window back to back. {@code duration} is
 * only an upper bound; the runner decides when the warmup ends and the windows close, reads the windows out of
 * {@code simulation.log} by time, and ends the run by creating the stop file, which a one-user controller scenario
 * polls. Without it (a run by hand) the simulation lasts {@code duration} seconds and asserts the error budget.
 */
public abstract class BenchSimulation extends Simulation {

    /** Time allowed after the injection ends for in-flight iterations (requests time out after 10 s anyway). */
    private static final Duration DRAIN = Duration.ofSeconds(15);
    /** How often the controller looks for the stop file: the stop lands at most this late after the last window. */
    private static final Duration STOP_POLL = Duration.ofMillis(100);

    /** What one iteration of the scenario does. */
    protected interface Iteration {
        ChainBuilder build(Operations ops, Drafts drafts);
    }

    protected BenchSimulation(String scenarioName, Iteration iteration) {
        BenchConfig config = BenchConfig.fromSystemProperties();
        // Only a runner's session can pause; by hand the operations are the dialect's own.
        Operations ops = config.pauseFile().isPresent() ? LoadPause.around(Operations.of(config.dialect()))
                : Operations.of(config.dialect());
        ChainBuilder work = feed(Feeders.datasetReads(config)).exec(iteration.build(ops, new Drafts(config)));
        // A pause (warmup cycles of load and idle, docs/method.md): each operation waits while it lasts (LoadPause),
        // so closed-model users stay in flight and resume; open-model arrivals during it do nothing, so no backlog
        // bursts out after it.
        ScenarioBuilder scenario = scenario(scenarioName).exec(switch (config.regime()) {
            case CAPACITY -> work;
            case LATENCY -> doIf(session -> !LoadPause.paused).then(work);
        });
        Duration duration = Duration.ofSeconds(config.durationSeconds());
        List<PopulationBuilder> populations = new ArrayList<>();
        populations.add(inject(scenario, config, duration));
        config.stopFile().ifPresent(stop -> populations.add(controller(stop, config.pauseFile())));
        SetUp setUp = setUp(populations)
                .protocols(ops.protocol(config.baseUrl()).shareConnections().disableWarmUp())
                .maxDuration(duration.plus(DRAIN));
        if (!config.session()) {
            setUp.assertions(assertions(config));
        }
    }

    private static PopulationBuilder inject(ScenarioBuilder scenario, BenchConfig config, Duration duration) {
        return switch (config.regime()) {
            case CAPACITY -> scenario.injectClosed(constantConcurrentUsers(config.users()).during(duration));
            case LATENCY -> scenario.injectOpen(constantUsersPerSec(config.rate()).during(duration));
        };
    }

    /**
     * One user that sends nothing: it pauses the load while the runner's pause file exists, and stops the load
     * generator (gracefully: the run counts as a success) when the stop file does.
     */
    private static PopulationBuilder controller(Path stopFile, java.util.Optional<Path> pauseFile) {
        return scenario("controller")
                .forever().on(ChainBuilder.EMPTY.pause(STOP_POLL)
                        .exec(session -> {
                            LoadPause.paused = pauseFile.map(Files::exists).orElse(false);
                            return session;
                        })
                        .stopLoadGeneratorIf("the runner closed the last window", session -> Files.exists(stopFile)))
                .injectOpen(atOnceUsers(1));
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
