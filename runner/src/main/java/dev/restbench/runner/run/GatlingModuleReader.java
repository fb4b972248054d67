package dev.restbench.runner.run;

import java.io.IOException;
import java.nio.file.Path;

/** {@link GatlingStatsReader} backed by the gatling module's results reader (Gatling's own numbers). */
final class GatlingModuleReader implements GatlingStatsReader {
    @Override
    public GatlingStats read(Path simulationDir) throws IOException {
        throw new IOException("the gatling module's results reader is not available yet");
    }
}
