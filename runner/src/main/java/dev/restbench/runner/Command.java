package dev.restbench.runner;

import java.util.List;

/** One `./bench <name>` subcommand. */
public interface Command {

    /** One line for `./bench --help`. */
    String summary();

    /** Full help for `./bench <name> --help`: usage line and every option. */
    String help();

    /**
     * Runs the command.
     *
     * @param args the arguments after the command name
     * @return the process exit code (0 = success)
     */
    int run(List<String> args) throws Exception;
}
