package dev.restbench.plain.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The server sets updatedAt: now, truncated to microseconds (what PostgreSQL's timestamptz stores). */
public final class UpdatedAt {

    private UpdatedAt() {
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
