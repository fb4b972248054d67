package dev.restbench.runner.run;

import java.io.IOException;
import java.nio.file.Path;

/** Reads {@link GatlingStats} from one simulation's results directory (the one holding simulation.log). */
interface GatlingStatsReader {
    GatlingStats read(Path simulationDir) throws IOException;
}
