package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionBytesTest {

    /** As iproute2 6.1's ss -tinpH state established prints it (counters shortened), two clients on one port. */
    private static final String SS = """
            0      0              127.0.0.1:52270          127.0.0.1:8081 users:(("java",pid=4242,fd=231))
            \t bbr wscale:10,10 rto:204 rtt:0.06/0.02 mss:65483 bytes_sent:1500 bytes_retrans:20 bytes_acked:1480 bytes_received:98765 segs_out:40 segs_in:41
            0      0              127.0.0.1:52272          127.0.0.1:8081 users:(("java",pid=777,fd=12))
            \t bbr wscale:10,10 rto:204 rtt:0.06/0.02 mss:65483 bytes_sent:300 bytes_acked:300 bytes_received:4000 segs_out:4 segs_in:5
            0      0              127.0.0.1:52274          127.0.0.1:8081 users:(("java",pid=4242,fd=232))
            \t bbr wscale:10,10 rto:204 rtt:0.06/0.02 mss:65483 bytes_sent:10 bytes_acked:10 segs_out:1 segs_in:1
            """;

    @Test
    void keepsOnlyTheClientsOwnConnectionsWithTheirCounters() {
        assertThat(ConnectionBytes.parse(SS, 4242)).containsExactly(
                Map.entry("127.0.0.1:52270", new ConnectionBytes.Counts(1480, 98765)),
                Map.entry("127.0.0.1:52274", new ConnectionBytes.Counts(10, 0)));
        assertThat(ConnectionBytes.parse(SS, 1)).isEmpty();
        assertThat(ConnectionBytes.parse("", 4242)).isEmpty();
    }

    @Test
    void aConnectionCountsFromZeroWhenItIsNewOrItsCounterWentBack() {
        Map<String, ConnectionBytes.Counts> before = Map.of(
                "a", new ConnectionBytes.Counts(0, 100), "b", new ConnectionBytes.Counts(0, 500));
        Map<String, ConnectionBytes.Counts> after = Map.of(
                "a", new ConnectionBytes.Counts(0, 160), "b", new ConnectionBytes.Counts(0, 40),
                "c", new ConnectionBytes.Counts(0, 7));
        assertThat(ConnectionBytes.receivedBetween(before, after)).hasValue(60 + 40 + 7);
        assertThat(ConnectionBytes.receivedBetween(Map.of(), Map.of())).as("no connection seen: unknown").isEmpty();
    }

    /** The real ss against a real connection of this JVM: what it received since it opened, at least the answer. */
    @Test
    void readsARealConnectionOfThisProcess() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onPath("ss"), "iproute2's ss is not installed here");
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             java.net.Socket client = new java.net.Socket(server.getInetAddress(), server.getLocalPort());
             java.net.Socket accepted = server.accept()) {
            accepted.getOutputStream().write(new byte[12_345]);
            accepted.getOutputStream().flush();
            client.getInputStream().readNBytes(12_345);
            Map<String, ConnectionBytes.Counts> read = ConnectionBytes.read(server.getLocalPort(),
                    ProcessHandle.current().pid());
            assertThat(read).as("ss on this machine").isNotNull();
            assertThat(read.values()).extracting(ConnectionBytes.Counts::received).containsExactly(12_345L);
        }
    }

    private static boolean onPath(String program) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program)));
    }
}
