package dev.restbench.quarkus.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The server sets updatedAt: now, truncated to microseconds (what PostgreSQL's timestamptz stores). */
final class UpdatedAt {

    private UpdatedAt() {
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
