// What counting the planner's runs (pg_stat_statements.track_planning) costs PostgreSQL per statement, on the
// embedded server the runner starts (its settings, pg_stat_statements loaded): one server and one pool's worth of
// connections, each batch of point reads (a category by its key) sent from all connections at once with the setting
// on or off in every session (a superuser may SET it), unprepared (planned on every call: where the setting costs,
// since every plan takes the entry's lock once more) and prepared (a cached generic plan: nothing more to count), the
// four batches of a round in random order. One server and the same backends on both sides: two servers differed by
// 6-7 % in both kinds, with the setting or against it, which was the instance, not the setting. The CPU is the
// backends' own, summed from /proc/<pid>/schedstat (run time in ns, not 10 ms ticks), so the client is not in it.
//
// Run from the repository root, after ./mvnw -q -pl shared/dataset -am install -DskipTests:
//   CP=$(./mvnw -q -pl shared/dataset dependency:build-classpath -Dmdep.outputFile=/dev/stdout):shared/dataset/target/classes
//   java -cp "$CP" docs/results/2026-12-07-track-planning-cost.java [rounds] [statements per connection] [connections]
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public class TrackPlanningCost {

    static final String SQL = "SELECT id, name FROM category WHERE id = ";
    static final String PREPARED = SQL + "?";

    /** A backend's run time on the CPU so far, in ns (the first field of /proc/<pid>/schedstat). */
    static long runNanos(long pid) throws Exception {
        return Long.parseLong(Files.readString(Path.of("/proc/" + pid + "/schedstat")).trim().split(" ")[0]);
    }

    record Backend(Connection connection, long pid, PreparedStatement prepared) {
    }

    /** The one server, with the setting its sessions get. */
    record Server(String setting, PostgresServer server, List<Backend> backends) {
    }

    /** The backends' CPU µs per statement over one batch of n statements per connection, all connections at once. */
    static double batch(Server s, boolean prepared, int n, ExecutorService pool, long seed) throws Exception {
        for (Backend b : s.backends()) {
            try (Statement set = b.connection().createStatement()) {
                set.execute("SET pg_stat_statements.track_planning = " + s.setting());
            }
        }
        long before = 0;
        for (Backend b : s.backends()) {
            before += runNanos(b.pid());
        }
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < s.backends().size(); c++) {
            Backend b = s.backends().get(c);
            SplittableRandom random = new SplittableRandom(seed + c);
            done.add(pool.submit(() -> {
                try (Statement plain = b.connection().createStatement()) {
                    for (int i = 0; i < n; i++) {
                        int id = 1 + random.nextInt(20);
                        if (prepared) {
                            b.prepared().setInt(1, id);
                            drain(b.prepared().executeQuery());
                        } else {
                            drain(plain.executeQuery(SQL + id));
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        long after = 0;
        for (Backend b : s.backends()) {
            after += runNanos(b.pid());
        }
        return (after - before) / 1000.0 / ((double) n * s.backends().size());
    }

    static void drain(ResultSet rs) throws Exception {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2_500;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Random random = new Random(20261207);
        List<Server> servers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            // The runner's server (durable, its statistics settings).
            PostgresServer server = PostgresServer.embedded(0, true);
            server.ensureTemplate("small_template", DatasetSpec.SMALL);
            server.createDatabaseFromTemplate("small_template", "cell");
            try (Connection admin = server.connect(server.adminDatabase()); Statement st = admin.createStatement()) {
                st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            }
            List<Backend> backends = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                Connection connection = server.connect("cell");
                long pid;
                try (Statement st = connection.createStatement();
                     ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
                    rs.next();
                    pid = rs.getLong(1);
                }
                backends.add(new Backend(connection, pid, connection.prepareStatement(PREPARED)));
            }
            servers.add(new Server("off", server, backends));
            servers.add(new Server("on", server, backends));
            for (Server s : servers) { // warm both paths and both plans
                batch(s, false, n / 4, pool, 1);
                batch(s, true, n / 4, pool, 2);
            }
            double[][][] perStatement = new double[2][2][rounds]; // [kind][setting][round]
            for (int r = 0; r < rounds; r++) {
                List<int[]> order = new ArrayList<>();
                for (int kind = 0; kind < 2; kind++) {
                    for (int setting = 0; setting < 2; setting++) {
                        order.add(new int[] {kind, setting});
                    }
                }
                Collections.shuffle(order, random);
                for (int[] o : order) {
                    perStatement[o[0]][o[1]][r] = batch(servers.get(o[1]), o[0] == 1, n, pool, 1000L * r);
                }
            }
            System.out.printf(Locale.ROOT, "%d rounds; a batch: %d connections at once × %d statements; the backends'"
                    + " CPU µs per statement%n", rounds, connections, n);
            System.out.println("| statements | track_planning off | on | on / off, paired (90 % interval) |");
            System.out.println("|---|--:|--:|--:|");
            for (int kind = 0; kind < 2; kind++) {
                double[] off = perStatement[kind][0];
                double[] on = perStatement[kind][1];
                double[] logRatio = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    logRatio[r] = Math.log(on[r] / off[r]);
                }
                double m = mean(logRatio);
                double half = t95(rounds - 1) * sd(logRatio) / Math.sqrt(rounds);
                System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %+.1f %% (%+.1f…%+.1f %%) |%n",
                        kind == 0 ? "unprepared (planned every call)" : "prepared (cached plan)", median(off),
                        median(on), 100 * (Math.exp(m) - 1), 100 * (Math.exp(m - half) - 1),
                        100 * (Math.exp(m + half) - 1));
            }
        } finally {
            pool.shutdownNow();
            if (!servers.isEmpty()) {
                for (Backend b : servers.get(0).backends()) {
                    b.connection().close();
                }
                servers.get(0).server().close();
            }
        }
    }

    /** Student's t at 0.95 (Cornish-Fisher from z = 1.645: within 0.5 % of the table from 5 degrees of freedom). */
    static double t95(int df) {
        double z = 1.6448536;
        return z + (z * z * z + z) / (4.0 * df) + (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / (96.0 * df * df);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    static double sd(double[] v) {
        double m = mean(v);
        return Math.sqrt(Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1));
    }
}
