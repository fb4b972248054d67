package dev.restbench.runner.run;

import dev.restbench.gatling.results.SimulationLog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Synthetic Gatling 3.15.1 simulation.log files (the format SimulationLog reads) for tests. */
final class SimulationLogs {

    private SimulationLogs() {
    }

    /** n OK requests named "get item", each taking {@code millis}, one per millisecond from the run start. */
    static SimulationLog of(int n, int millis) {
        return of(n, i -> millis);
    }

    /** n OK requests named "get item", the i-th starting at ms i from the run start and taking {@code millis(i)}. */
    static SimulationLog of(int n, java.util.function.IntUnaryOperator millis) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = header(bytes);
            for (int i = 0; i < n; i++) {
                out.writeByte(1);
                out.writeInt(0); // no groups
                if (i == 0) {
                    out.writeInt(1);
                    string(out, "get item");
                } else {
                    out.writeInt(-1);
                }
                out.writeInt(i);
                out.writeInt(i + millis.applyAsInt(i));
                out.writeBoolean(true);
                out.writeInt(i == 0 ? 2 : -2);
                if (i == 0) {
                    out.writeInt(0); // empty message
                }
            }
            return SimulationLog.read(new ByteArrayInputStream(bytes.toByteArray()), "synthetic");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ok} OK requests, then {@code ko} failed ones carrying {@code message}, one per ms, each taking 1 ms. */
    static SimulationLog failing(int ok, int ko, String message) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = header(bytes);
            for (int i = 0; i < ok + ko; i++) {
                out.writeByte(1);
                out.writeInt(0);
                if (i == 0) {
                    out.writeInt(1);
                    string(out, "get item");
                } else {
                    out.writeInt(-1);
                }
                out.writeInt(i);
                out.writeInt(i + 1);
                out.writeBoolean(i < ok);
                // The message's cached-string index: 2 is "", 3 the message; written in full the first time each.
                if (i == 0 || i == ok) {
                    out.writeInt(i < ok ? 2 : 3);
                    string(out, i < ok ? "" : message);
                } else {
                    out.writeInt(i < ok ? -2 : -3);
                }
            }
            return SimulationLog.read(new ByteArrayInputStream(bytes.toByteArray()), "synthetic");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An open model as Gatling logs it in session mode: user i arrives at ms i (a USER start record) and sends one
     * request taking {@code millis(i)}; the run stops at {@code stopMillis}, so the requests and user ends after it are
     * in no record, as Gatling drops what is still in flight when the load generator stops.
     */
    static SimulationLog openModel(int n, java.util.function.IntUnaryOperator millis, int stopMillis) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = header(bytes);
            boolean named = false;
            for (int i = 0; i < n && i < stopMillis; i++) {
                out.writeByte(2);
                out.writeInt(0);
                out.writeBoolean(true);
                out.writeInt(i);
                int end = i + millis.applyAsInt(i);
                if (end > stopMillis) {
                    continue;
                }
                out.writeByte(1);
                out.writeInt(0);
                if (!named) {
                    out.writeInt(1);
                    string(out, "get item");
                } else {
                    out.writeInt(-1);
                }
                out.writeInt(i);
                out.writeInt(end);
                out.writeBoolean(true);
                out.writeInt(!named ? 2 : -2);
                if (!named) {
                    out.writeInt(0);
                }
                named = true;
                out.writeByte(2);
                out.writeInt(0);
                out.writeBoolean(false);
                out.writeInt(end);
            }
            return SimulationLog.read(new ByteArrayInputStream(bytes.toByteArray()), "synthetic");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run record of a synthetic log: this format, one scenario, no assertions. */
    private static DataOutputStream header(ByteArrayOutputStream bytes) throws IOException {
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(0);
        string(out, SimulationLog.FORMAT_VERSION);
        string(out, "dev.restbench.gatling.TestSimulation");
        out.writeLong(0);
        string(out, "");
        out.writeInt(1);
        string(out, "scenario");
        out.writeInt(0);
        return out;
    }

    private static void string(DataOutputStream out, String value) throws IOException {
        byte[] latin1 = value.getBytes(StandardCharsets.ISO_8859_1);
        out.writeInt(latin1.length);
        if (latin1.length > 0) {
            out.write(latin1);
            out.writeByte(0);
        }
    }
}
