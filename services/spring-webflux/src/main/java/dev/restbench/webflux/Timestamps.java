package dev.restbench.webflux;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The server sets updatedAt; truncated to microseconds, the precision of PostgreSQL's timestamptz. */
public final class Timestamps {

    private Timestamps() {
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
