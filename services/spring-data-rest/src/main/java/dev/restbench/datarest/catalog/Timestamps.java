package dev.restbench.datarest.catalog;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

final class Timestamps {

    private Timestamps() {
    }

    /** PostgreSQL's timestamptz keeps microseconds: truncating here makes the response equal what is stored. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
