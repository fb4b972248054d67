package dev.restbench.contract;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.util.List;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The manifest-driven contract suites in a JVM of their own, for {@link ThrowawayVariantTest}: the suites keep
 * their services and PostgreSQL in static state for a whole run, so another repository copy's variants need another
 * JVM (system properties restbench.root and restbench.variants say which). Prints JUnit's summary; exit 0 only when
 * tests ran and none failed.
 */
public final class ContractSuiteMain {

    static final List<Class<?>> SUITES = List.of(PlainApiContractTest.class, HalApiContractTest.class,
            HostileRequestsTest.class, SqlStatementCountTest.class, OperationsEndpointsTest.class);

    private ContractSuiteMain() {
    }

    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(SUITES.stream().map(c -> selectClass(c)).toList())
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printTo(out);
        summary.printFailuresTo(out, 20);
        out.printf("contract suites: %d succeeded, %d failed, %d aborted%n", summary.getTestsSucceededCount(),
                summary.getTotalFailureCount(), summary.getTestsAbortedCount());
        System.exit(summary.getTestsSucceededCount() > 0 && summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
