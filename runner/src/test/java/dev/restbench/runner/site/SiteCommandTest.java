package dev.restbench.runner.site;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SiteCommandTest {

    private static final Path SITE = Path.of("..", "site");

    @Test
    void publishesTheSiteNextToTheHistoryWithoutTouchingIt(@TempDir Path history) throws Exception {
        Files.createDirectories(history.resolve("dev/bench"));
        Files.writeString(history.resolve("dev/bench/data.js"), "window.BENCHMARK_DATA = {}");
        Files.createDirectories(history.resolve("js"));
        Files.writeString(history.resolve("js/stale.js"), "old");

        SiteCommand.publish(SITE, history);

        assertThat(history.resolve("index.html")).hasSameTextualContentAs(SITE.resolve("index.html"));
        assertThat(history.resolve("js/stale.js")).doesNotExist();
        for (String name : SiteCommand.PUBLISHED) {
            assertThat(history.resolve(name)).exists();
        }
        assertThat(history.resolve("dev/bench/data.js")).hasContent("window.BENCHMARK_DATA = {}");
    }

    @Test
    void servesFilesWithTheirTypesAndNothingOutsideTheDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.html"), "<h1>hi</h1>");
        Files.createDirectories(dir.resolve("dev/bench"));
        Files.writeString(dir.resolve("dev/bench/latest.json"), "{}");
        var server = SiteCommand.start(dir, 0);
        try {
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            HttpResponse<String> index = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.body()).isEqualTo("<h1>hi</h1>");
            assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            HttpResponse<String> json = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/dev/bench/latest.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            HttpResponse<String> escape = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/%2e%2e/%2e%2e/etc/passwd")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(escape.statusCode()).isEqualTo(404);
        } finally {
            server.stop(0);
        }
    }
}
