package dev.restbench.gatling.results;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every request of one Gatling run, read from its binary {@code simulation.log}: name, start and end (epoch ms, Gatling's
 * own clock) and status. The runner slices one long Gatling session into measured windows with it, so a window's
 * edges are times, not Gatling starts, and its figures are exact (Gatling's report uses a t-digest).
 *
 * <p>The format is Gatling 3.15's (written by {@code io.gatling.core.stats.writer.LogFileDataWriter}, read by
 * {@code io.gatling.charts.stats.LogFileReader}): big-endian; a run record (header 0: version, simulation class,
 * start ms, description, scenarios, pickled assertions) then request (1), user (2), group (3) and error (4) records
 * whose times are int offsets from the run start. Strings are a length, the String's internal bytes and its coder
 * (0 Latin-1, 1 UTF-16 in native order); repeated strings are an index into a cache (negative = already seen).
 * Gatling refuses a log written by another version; this reader does the same, because the format changes between
 * versions without a format number. {@code SimulationLogTest} checks it against Gatling's own report of recorded runs.
 */
public final class SimulationLog {

    /** The Gatling version whose format this reader implements (the project pins it in the root pom). */
    public static final String FORMAT_VERSION = "3.15.1";

    private static final byte RUN = 0;
    private static final byte REQUEST = 1;
    private static final byte USER = 2;
    private static final byte GROUP = 3;
    private static final byte ERROR = 4;

    private final String gatlingVersion;
    private final String simulation;
    private final long runStartMillis;
    private final List<String> names;
    private final int[] nameIndex;
    private final long[] startMillis;
    private final long[] endMillis;
    private final boolean[] ok;
    private final List<String> messages;
    /** Per request, its error message's index in {@link #messages}; -1 for none. */
    private final int[] messageIndex;
    /** Epoch ms at which a virtual user started, and at which one ended (users still running at the stop never do). */
    private final long[] userStartMillis;
    private final long[] userEndMillis;
    private final boolean truncated;

    private SimulationLog(String gatlingVersion, String simulation, long runStartMillis, List<String> names,
                          int[] nameIndex, long[] startMillis, long[] endMillis, boolean[] ok, List<String> messages,
                          int[] messageIndex, long[] userStartMillis, long[] userEndMillis, boolean truncated) {
        this.gatlingVersion = gatlingVersion;
        this.simulation = simulation;
        this.runStartMillis = runStartMillis;
        this.names = names;
        this.nameIndex = nameIndex;
        this.startMillis = startMillis;
        this.endMillis = endMillis;
        this.ok = ok;
        this.messages = messages;
        this.messageIndex = messageIndex;
        this.userStartMillis = userStartMillis;
        this.userEndMillis = userEndMillis;
        this.truncated = truncated;
    }

    /** Reads {@code simulation.log} in a run directory, or the file itself. */
    public static SimulationLog read(Path runDirectoryOrFile) throws IOException {
        Path file = Files.isDirectory(runDirectoryOrFile) ? runDirectoryOrFile.resolve("simulation.log") : runDirectoryOrFile;
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    public static SimulationLog read(InputStream raw, String source) throws IOException {
        Decoder in = new Decoder(new DataInputStream(new BufferedInputStream(raw, 1 << 16)));
        int header = in.data.read();
        if (header != RUN) {
            throw new IOException(source + ": not a Gatling simulation.log (no run record at the start)");
        }
        String version = in.string();
        if (!FORMAT_VERSION.equals(version)) {
            throw new IOException(source + ": written by Gatling " + version + ", this reader reads the format of "
                    + FORMAT_VERSION + " only");
        }
        String simulation = in.string();
        long start = in.data.readLong();
        in.string(); // run description
        int scenarios = in.data.readInt();
        for (int i = 0; i < scenarios; i++) {
            in.string();
        }
        int assertions = in.data.readInt();
        for (int i = 0; i < assertions; i++) {
            in.data.skipNBytes(in.data.readInt()); // boopickle'd assertion: not needed
        }
        Map<String, Integer> nameIds = new LinkedHashMap<>();
        IntList nameIndex = new IntList();
        LongList starts = new LongList();
        LongList ends = new LongList();
        List<Boolean> statuses = new ArrayList<>();
        Map<String, Integer> messageIds = new LinkedHashMap<>();
        IntList messageIndex = new IntList();
        LongList userStarts = new LongList();
        LongList userEnds = new LongList();
        boolean truncated = false;
        try {
            while (true) {
                int record = in.data.read();
                if (record < 0) {
                    break;
                }
                switch ((byte) record) {
                    case REQUEST -> {
                        in.skipGroups();
                        String name = in.cachedString();
                        int requestStart = in.data.readInt();
                        int requestEnd = in.data.readInt();
                        boolean status = in.data.readBoolean();
                        String message = in.cachedString();
                        messageIndex.add(message == null || message.isEmpty() ? -1
                                : messageIds.computeIfAbsent(message, k -> messageIds.size()));
                        nameIndex.add(nameIds.computeIfAbsent(name, k -> nameIds.size()));
                        starts.add(start + requestStart);
                        ends.add(start + requestEnd);
                        statuses.add(status);
                    }
                    case USER -> {
                        in.data.readInt(); // scenario
                        boolean userStart = in.data.readBoolean();
                        long at = start + in.data.readInt();
                        (userStart ? userStarts : userEnds).add(at);
                    }
                    case GROUP -> {
                        in.skipGroups();
                        in.data.skipNBytes(3L * Integer.BYTES + 1);
                    }
                    case ERROR -> {
                        in.cachedString();
                        in.data.skipNBytes(Integer.BYTES);
                    }
                    default -> throw new IOException(source + ": unknown record header " + record + " after "
                            + starts.size() + " requests");
                }
            }
        } catch (EOFException e) {
            // Gatling flushes in 8 KB blocks: a run that was killed leaves a cut record at the end. Keep what is whole.
            truncated = true;
        }
        boolean[] ok = new boolean[statuses.size()];
        for (int i = 0; i < ok.length; i++) {
            ok[i] = statuses.get(i);
        }
        return new SimulationLog(version, simulation, start, List.copyOf(nameIds.keySet()), nameIndex.toArray(),
                starts.toArray(), ends.toArray(), ok, List.copyOf(messageIds.keySet()), messageIndex.toArray(),
                userStarts.toArray(), userEnds.toArray(), truncated);
    }

    public String gatlingVersion() {
        return gatlingVersion;
    }

    public String simulation() {
        return simulation;
    }

    /** When Gatling started the run (epoch ms); request times count from here. */
    public long runStartMillis() {
        return runStartMillis;
    }

    /** Whether the file ended inside a record (a run that did not stop cleanly). */
    public boolean truncated() {
        return truncated;
    }

    public int requestCount() {
        return ok.length;
    }

    /** End time of the last request (epoch ms), or the run start when there is none. */
    public long lastEndMillis() {
        long last = runStartMillis;
        for (long end : endMillis) {
            last = Math.max(last, end);
        }
        return last;
    }

    /** How many requests STARTED in [fromMillis, toMillis) (epoch ms): what a pause of the load must keep near 0. */
    public long startedBetween(long fromMillis, long toMillis) {
        long count = 0;
        for (long start : startMillis) {
            if (start >= fromMillis && start < toMillis) {
                count++;
            }
        }
        return count;
    }

    /**
     * How many virtual users (iterations: each user runs one and leaves) STARTED in [fromMillis, toMillis) (epoch ms).
     * Gatling writes a user's start when it starts, so this counts every arrival of an open model, even those whose
     * requests were still waiting when the run stopped, which the log never records.
     */
    public long usersStartedBetween(long fromMillis, long toMillis) {
        return countBetween(userStartMillis, fromMillis, toMillis);
    }

    /** How many virtual users ENDED (finished or exited their iteration) in [fromMillis, toMillis) (epoch ms). */
    public long usersEndedBetween(long fromMillis, long toMillis) {
        return countBetween(userEndMillis, fromMillis, toMillis);
    }

    private static long countBetween(long[] millis, long fromMillis, long toMillis) {
        long count = 0;
        for (long at : millis) {
            if (at >= fromMillis && at < toMillis) {
                count++;
            }
        }
        return count;
    }

    /** Every request of the run. */
    public Slice all() {
        return slice(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * The requests that ENDED in [fromMillis, toMillis) (epoch ms): a window counts what it completed, like a
     * throughput meter, so back-to-back windows share no request and lose none.
     */
    public Slice slice(long fromMillis, long toMillis) {
        IntList picked = new IntList();
        for (int i = 0; i < endMillis.length; i++) {
            if (endMillis[i] >= fromMillis && endMillis[i] < toMillis) {
                picked.add(i);
            }
        }
        return new Slice(picked.toArray());
    }

    /** Requests of one window: counts, exact response-time percentiles, and the same per request name. */
    public final class Slice {
        private final int[] indexes;
        private final long[] sortedMillis;
        private final long okCount;

        private Slice(int[] indexes) {
            this.indexes = indexes;
            this.sortedMillis = new long[indexes.length];
            long okSoFar = 0;
            for (int i = 0; i < indexes.length; i++) {
                sortedMillis[i] = endMillis[indexes[i]] - startMillis[indexes[i]];
                if (ok[indexes[i]]) {
                    okSoFar++;
                }
            }
            Arrays.sort(sortedMillis);
            this.okCount = okSoFar;
        }

        public long total() {
            return indexes.length;
        }

        public long ok() {
            return okCount;
        }

        public long ko() {
            return indexes.length - okCount;
        }

        /** Failed requests in % of all, 0 for an empty slice. */
        public double errorPct() {
            return indexes.length == 0 ? 0 : 100.0 * ko() / indexes.length;
        }

        /**
         * The nearest-rank percentile of the response times (OK and KO, like Gatling's report): the smallest time
         * such that at least {@code percent} % of the requests took no longer. Whole ms, Gatling's resolution.
         */
        public long percentileMillis(double percent) {
            if (sortedMillis.length == 0) {
                throw new IllegalStateException("no requests in this slice");
            }
            int rank = (int) Math.ceil(percent / 100.0 * sortedMillis.length);
            return sortedMillis[Math.min(sortedMillis.length, Math.max(1, rank)) - 1];
        }

        public long maxMillis() {
            return percentileMillis(100);
        }

        public long minMillis() {
            return percentileMillis(0);
        }

        /**
         * The error message the most failed requests carry, with how many carry it ("Request timeout to … after
         * 10000 ms (43,214 of 43,874 failed)"), so a failed cell says why; null when none failed or none carried one.
         */
        public String commonestError() {
            Map<Integer, Integer> counts = new LinkedHashMap<>();
            for (int index : indexes) {
                if (!ok[index] && messageIndex[index] >= 0) {
                    counts.merge(messageIndex[index], 1, Integer::sum);
                }
            }
            return counts.entrySet().stream().max(Map.Entry.comparingByValue())
                    .map(e -> String.format(java.util.Locale.ROOT, "%s (%,d of %,d failed)", messages.get(e.getKey()),
                            e.getValue(), ko()))
                    .orElse(null);
        }

        /** Requests per request name (Gatling's request names are the operations), in first-seen order. */
        public Map<String, Slice> byName() {
            Map<Integer, IntList> groups = new LinkedHashMap<>();
            for (int index : indexes) {
                groups.computeIfAbsent(nameIndex[index], k -> new IntList()).add(index);
            }
            Map<String, Slice> out = new LinkedHashMap<>();
            groups.forEach((id, list) -> out.put(names.get(id), new Slice(list.toArray())));
            return out;
        }
    }

    /** The primitive decoding of the log's values. */
    private static final class Decoder {
        private static final Charset UTF16_NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_16BE;
        final DataInputStream data;
        private final Map<Integer, String> cache = new HashMap<>();

        Decoder(DataInputStream data) {
            this.data = data;
        }

        String string() throws IOException {
            int length = data.readInt();
            if (length == 0) {
                return "";
            }
            byte[] bytes = data.readNBytes(length);
            if (bytes.length < length) {
                throw new EOFException();
            }
            byte coder = data.readByte();
            return new String(bytes, coder == 0 ? StandardCharsets.ISO_8859_1 : UTF16_NATIVE);
        }

        String cachedString() throws IOException {
            int index = data.readInt();
            if (index >= 0) {
                String value = string();
                cache.put(index, value);
                return value;
            }
            String value = cache.get(-index);
            if (value == null) {
                throw new IOException("cached string " + (-index) + " referenced before it was written");
            }
            return value;
        }

        void skipGroups() throws IOException {
            int groups = data.readInt();
            for (int i = 0; i < groups; i++) {
                cachedString();
            }
        }
    }

    private static final class IntList {
        private int[] values = new int[1024];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }

    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int size() {
            return size;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
