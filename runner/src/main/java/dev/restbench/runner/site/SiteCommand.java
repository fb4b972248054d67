package dev.restbench.runner.site;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.restbench.runner.Converters;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.io.Trees;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./bench site}: puts the static site (site/index.html, css/, js/, vendor/) at the root of a history
 * directory, next to dev/bench/, exactly as the workflow publishes it on gh-pages; {@code --serve} then serves it
 * on 127.0.0.1, because browsers refuse to fetch the JSON files from file:// URLs.
 *
 * <p>Plain Java on purpose: `./bench` needs only a JDK. (The workflow additionally runs site/publish.mjs, which
 * also packs data.js per chart for faster first loads; the site works without the pack.)
 */
@Command(name = "site",
        header = "put the trend site next to a history (history/ by default) and optionally serve it on 127.0.0.1",
        description = "Copies the site (site/index.html, css/, js/, vendor/) into <dir> (default: the history"
                + " directory, which `./bench run` fills with dev/bench/…), then with --serve serves <dir> on"
                + " http://127.0.0.1:<port>/ until Ctrl-C (port 0 = a free port, printed).")
public final class SiteCommand implements Callable<Integer> {

    /** What the browser loads; kept in step with PUBLISHED in site/publish.mjs. */
    static final List<String> PUBLISHED = List.of("index.html", "css", "js", "vendor");

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "mjs", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8",
            "json", "application/json; charset=utf-8", "png", "image/png", "svg", "image/svg+xml");

    @Option(names = "--history", paramLabel = "<dir>", description = "the history directory (default history)")
    private Path history;

    @Option(names = "--out", paramLabel = "<dir>", description = "where the site goes (default: the history directory)")
    private Path outDir;

    @Option(names = "--serve", arity = "0", description = "then serve it on 127.0.0.1 until Ctrl-C")
    private boolean serve;

    @Option(names = "--port", paramLabel = "<n>", converter = Converters.ListenPort.class,
            description = "port to serve on (default 0: a free port, printed)")
    private int port;

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        Path root = rootOption.path();
        Path out = outDir != null ? outDir : history != null ? history : Path.of("history");
        publish(root.resolve("site"), out);
        System.out.println("site: " + out.toAbsolutePath() + (Files.exists(out.resolve("dev/bench/data.js"))
                ? "" : " (no dev/bench/data.js yet: run ./bench first; the page will say the history is empty)"));
        if (serve) {
            serve(out, port);
        } else {
            System.out.println("open it with: ./bench site --serve" + (outDir != null ? " --out " + out
                    : history != null ? " --history " + history : ""));
        }
        return 0;
    }

    /** Copies the published site files into {@code out}, replacing earlier copies; the history is untouched. */
    public static void publish(Path siteDir, Path out) throws IOException {
        if (!Files.isRegularFile(siteDir.resolve("index.html"))) {
            throw new IOException("no site at " + siteDir.toAbsolutePath() + " (expected site/index.html)");
        }
        Files.createDirectories(out);
        for (String name : PUBLISHED) {
            Path source = siteDir.resolve(name);
            Path target = out.resolve(name);
            Trees.delete(target);
            Trees.copy(source, target);
        }
    }

    /** Serves {@code dir} read-only on 127.0.0.1 (port 0 = a free one); the caller stops the server. */
    static HttpServer start(Path dir, int port) throws IOException {
        Path base = dir.toAbsolutePath().normalize();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", exchange -> handle(base, exchange));
        server.start();
        return server;
    }

    static void serve(Path dir, int port) throws IOException, InterruptedException {
        Path base = dir.toAbsolutePath().normalize();
        HttpServer server = start(base, port);
        System.out.printf("serving %s on http://127.0.0.1:%d/ (Ctrl-C to stop)%n", base,
                server.getAddress().getPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            stopped.countDown();
        }));
        stopped.await();
    }

    private static void handle(Path base, HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = URI.create(exchange.getRequestURI().getRawPath()).getPath();
            Path file = base.resolve(path.substring(1)).normalize();
            if (Files.isDirectory(file)) {
                file = file.resolve("index.html");
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!file.startsWith(base) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            String name = file.getFileName().toString();
            String type = TYPES.getOrDefault(name.substring(name.lastIndexOf('.') + 1), "application/octet-stream");
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            long size = Files.size(file);
            exchange.sendResponseHeaders(200, exchange.getRequestMethod().equals("HEAD") ? -1 : size);
            if (exchange.getRequestMethod().equals("GET")) {
                try (OutputStream body = exchange.getResponseBody()) {
                    Files.copy(file, body);
                }
            }
        }
    }
}
