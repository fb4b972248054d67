package dev.restbench.runner.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The two HTTP calls the runner makes to a service: the health check and the metrics scrape. */
final class ServiceHttp {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ServiceHttp() {
    }

    /** True when {@code GET baseUrl + healthPath} answers 200 within 2 s; false when it answers otherwise or not. */
    static boolean healthy(String baseUrl, String healthPath) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + healthPath))
                .timeout(Duration.ofSeconds(2)).GET().build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false; // not listening (yet), or too slow
        }
    }

    static PrometheusText scrape(String baseUrl, String metricsPath) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + metricsPath))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long now = System.nanoTime();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + metricsPath + " answered " + response.statusCode());
        }
        return PrometheusText.parse(response.body(), now);
    }
}
