package dev.restbench.runner;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Test helper: `./bench args…` in this JVM, with its exit code and what it printed. */
public final class Bench {

    public record Result(int exit, String out, String err) {
    }

    private Bench() {
    }

    public static Result run(String... args) {
        return capture(() -> Main.execute(List.of(args)));
    }

    /** Runs the call with System.out and System.err captured: its result as the exit, and what it printed. */
    public static Result capture(java.util.function.IntSupplier call) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int exit = call.getAsInt();
            return new Result(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
