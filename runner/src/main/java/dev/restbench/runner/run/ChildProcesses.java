package dev.restbench.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the runner starts (services, Gatling JVMs) and every resource to close (PostgreSQL), so that
 * Ctrl-C or SIGTERM leaves nothing behind: the JVM shutdown hook installed here kills them all, children first.
 */
public final class ChildProcesses {
    private static final Set<Process> PROCESSES = ConcurrentHashMap.newKeySet();
    private static final List<AutoCloseable> RESOURCES = new ArrayList<>();
    private static volatile boolean hookInstalled;
    private static volatile boolean shuttingDown;

    private ChildProcesses() {
    }

    static synchronized void installShutdownHook() {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                shuttingDown = true;
                stopAll();
            }, "bench-cleanup"));
            hookInstalled = true;
        }
    }

    /** True once the JVM is exiting (Ctrl-C, SIGTERM): results must not be completed any more. */
    static boolean shuttingDown() {
        return shuttingDown;
    }

    static void register(Process process) {
        PROCESSES.add(process);
    }

    static void unregister(Process process) {
        PROCESSES.remove(process);
    }

    static synchronized void register(AutoCloseable resource) {
        RESOURCES.add(resource);
    }

    static synchronized void unregister(AutoCloseable resource) {
        RESOURCES.remove(resource);
    }

    /** Kills every registered process (and its descendants), then closes the resources in reverse order. */
    static void stopAll() {
        for (Process process : List.copyOf(PROCESSES)) {
            terminate(process, 5);
        }
        List<AutoCloseable> resources;
        synchronized (ChildProcesses.class) {
            resources = new ArrayList<>(RESOURCES);
            RESOURCES.clear();
        }
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                System.err.println("bench: cleanup: " + e);
            }
        }
    }

    /** SIGTERM to the process and its descendants, SIGKILL after {@code graceSeconds}. */
    static void terminate(Process process, int graceSeconds) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        PROCESSES.remove(process);
    }
}
