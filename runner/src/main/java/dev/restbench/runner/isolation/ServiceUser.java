package dev.restbench.runner.isolation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code BENCH_SERVICE_USER}: the OS user every process that runs variant code is started as — the variant builds
 * (Maven with the variant's pom and plugins, {@code npm ci}), the services under test, the AOT training starts and
 * {@code jcmd} on them — so that code cannot write the results, the harness checkout or the runner's processes
 * (another uid cannot read {@code /proc/<runner>/environ} either). Unset: everything runs as the runner's user, as
 * it always did. Read here and nowhere else ({@link #configured()}).
 *
 * <p>A process is started as the user through a prefix: {@code setpriv --reuid --regid --init-groups} when the runner
 * is root, {@code sudo -n -u <user> --} otherwise (which needs the sudoers rule of docs/runner-host.md). Then
 * {@code setpriv --no-new-privs} (no set-uid program the code starts gains anything) and {@code env -i} with only the
 * variables named here: nothing of the runner's environment reaches the variant's code.
 *
 * <p>The runner's user owns a private directory of the service user only through the prefix: everything that crosses
 * ({@link #copyOut}, the build's source copy in {@link BuildSandbox}) is read with the rights of the side it comes
 * from, so neither side reads through the other's.
 */
public final class ServiceUser {
    public static final String ENV = "BENCH_SERVICE_USER";
    /**
     * The runner's variables a build or service may get (besides HOME, USER, LOGNAME and its own): the host's locale,
     * proxies and certificate authorities (a TLS-inspecting proxy's CA for npm), nothing about the job.
     */
    private static final List<String> PASSED_ENV = List.of("PATH", "LANG", "LC_ALL", "TZ", "http_proxy", "https_proxy",
            "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR");
    private static final String FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";
    private static Optional<ServiceUser> configured;

    private final String name;
    private final int uid;
    private final List<Integer> groups;
    private final List<String> prefix;
    private Path session;
    private int sessionDirs;

    private ServiceUser(String name, int uid, List<Integer> groups, List<String> prefix) {
        this.name = name;
        this.uid = uid;
        this.groups = groups;
        this.prefix = prefix;
    }

    /** The setting of this process: {@code BENCH_SERVICE_USER}, resolved and checked once; empty when unset. */
    public static synchronized Optional<ServiceUser> configured() {
        if (configured == null) {
            String value = System.getenv(ENV);
            configured = value == null || value.isBlank() ? Optional.empty() : Optional.of(of(value.strip()));
        }
        return configured;
    }

    /**
     * The user by name, checked: it exists, is neither root nor the runner's own user, and the prefix works (for a
     * runner that is not root: the sudoers rule is there).
     *
     * @throws Unusable with what to fix
     */
    public static ServiceUser of(String name) {
        if (!name.matches("[a-z_][a-z0-9_.-]{0,31}")) {
            throw new Unusable(ENV + "='" + name + "' is not a user name");
        }
        long self = ProcfsIds.uid(ProcessHandle.current().pid()).orElseThrow(() ->
                new Unusable(ENV + " needs Linux (/proc/self/status)"));
        Exec.Result id = Exec.run(List.of("id", "-u", name), null);
        Exec.Result ids = Exec.run(List.of("id", "-G", name), null);
        if (id.exit() != 0 || ids.exit() != 0) {
            throw new Unusable(ENV + "=" + name + ": no such user (" + id.output().strip() + ")");
        }
        int uid = Integer.parseInt(id.output().strip());
        if (uid == 0 || uid == self) {
            throw new Unusable(ENV + "=" + name + " is uid " + uid + ", " + (uid == 0 ? "root" : "this runner's own user")
                    + ": the services would be as privileged as the runner");
        }
        String[] entry = Exec.run(List.of("getent", "passwd", name), null).output().strip().split(":");
        String shell = entry.length >= 7 ? entry[6] : "";
        if (!shell.endsWith("/nologin") && !shell.endsWith("/false")) {
            // session() empties its home and kills its processes: never a person's account.
            throw new Unusable(ENV + "=" + name + " has the login shell '" + shell + "': it must be a user of its own"
                    + " for the services, without a login (./bench kills its processes and empties its home)");
        }
        List<Integer> groups = Stream.of(ids.output().strip().split("\\s+")).map(Integer::parseInt).toList();
        List<String> prefix = self == 0
                ? List.of("setpriv", "--reuid=" + uid, "--regid=" + groups.get(0), "--init-groups", "--")
                : List.of("sudo", "-n", "-u", name, "--");
        ServiceUser user = new ServiceUser(name, uid, groups, prefix);
        Exec.Result probe = Exec.run(user.helper(List.of("id", "-u")), null);
        if (probe.exit() != 0 || !probe.output().strip().equals(Integer.toString(uid))) {
            throw new Unusable(ENV + "=" + name + ": cannot run a process as " + name + " with '"
                    + String.join(" ", prefix) + "': " + probe.output().strip()
                    + (self == 0 ? "" : " (the runner's user needs the sudoers rule of docs/runner-host.md)"));
        }
        return user;
    }

    public String name() {
        return name;
    }

    public int uid() {
        return uid;
    }

    /** "restbench-svc (uid 998, via sudo)": for the run's log. */
    public String describe() {
        return name + " (uid " + uid + ", via " + prefix.get(0) + ")";
    }

    /**
     * The argv that runs {@code argv} as this user: the prefix, no new privileges, a clean environment (the passed
     * variables of the runner's, then HOME and {@code env}) and {@code dir} as the working directory (changed into
     * by the user itself: the runner may not be able to enter it).
     */
    public List<String> command(List<String> argv, Map<String, String> env, Path home, Path dir) {
        Map<String, String> vars = new LinkedHashMap<>();
        for (String passed : PASSED_ENV) {
            String value = System.getenv(passed);
            if (value != null) {
                vars.put(passed, value);
            }
        }
        vars.putIfAbsent("PATH", FALLBACK_PATH);
        vars.put("HOME", home.toString());
        vars.put("USER", name);
        vars.put("LOGNAME", name);
        vars.putAll(env);
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("setpriv", "--no-new-privs", "env", "-i", "-C", dir.toString()));
        vars.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(argv);
        return command;
    }

    /** A small tool (kill, cat, tar, mkdir) as this user, with a minimal environment. */
    List<String> helper(List<String> argv) {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("env", "-i", "PATH=" + FALLBACK_PATH + ":/usr/sbin:/sbin", "LC_ALL=C"));
        command.addAll(argv);
        return command;
    }

    /** True when the process runs as this user (its effective uid). */
    public boolean owns(long pid) {
        return ProcfsIds.uid(pid).orElse(-1L) == uid;
    }

    /**
     * The first process of this user in the tree under {@code started} (itself included), breadth first: the service
     * behind the prefix (for setpriv the started process itself once it switched; for sudo its child).
     */
    public Optional<Long> firstOwned(ProcessHandle started) {
        if (owns(started.pid())) {
            return Optional.of(started.pid());
        }
        List<ProcessHandle> level = started.children().toList();
        while (!level.isEmpty()) {
            for (ProcessHandle p : level) {
                if (owns(p.pid())) {
                    return Optional.of(p.pid());
                }
            }
            level = level.stream().flatMap(ProcessHandle::children).toList();
        }
        return Optional.empty();
    }

    /** Sends a signal (TERM, KILL) to a process of this user, as this user (a runner that is not root could not). */
    public void signal(long pid, String signal) {
        Exec.run(helper(List.of("kill", "-" + signal, Long.toString(pid))), null);
    }

    /**
     * Kills every process of this user (SIGKILL to all it may signal, as itself) until none is left: after a build, a
     * stop, at exit. Nothing a build or a service started, detached or not, outlives it or competes with the next
     * start. So the user must serve one runner only.
     *
     * @throws IllegalStateException when processes survive
     */
    public void stopAll() {
        for (int attempt = 0; attempt < 100; attempt++) {
            List<Long> left = processes();
            if (left.isEmpty()) {
                return;
            }
            Exec.run(helper(List.of("kill", "-KILL", "-1")), null);
            try {
                Thread.sleep(attempt < 10 ? 20 : 100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<Long> left = processes();
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of " + name + " survived SIGKILL: " + left);
        }
    }

    /** The live (not zombie) processes whose effective uid is this user's. */
    public List<Long> processes() {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit) && ProcfsIds.uid(Long.parseLong(name)).orElse(-1L) == uid
                        && !ProcfsIds.zombie(Long.parseLong(name))) {
                    pids.add(Long.parseLong(name));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        return pids;
    }

    /**
     * This process's private directory of the user (mode 0700, its own; in its home, else in /tmp), made on first use
     * and removed at exit: the builds' home (their Maven repository and npm cache) and copies, the services' homes,
     * AOT caches and recordings before the runner copies them out.
     *
     * <p>First everything the user left before goes: its processes, every entry of its home (Java's
     * {@code user.home} is the home of the passwd entry, whatever HOME says) and its files in /tmp, /var/tmp and
     * /dev/shm. So nothing one pull request's build or service left there reaches a later build or start, and the user
     * must serve this runner alone.
     */
    public synchronized Path session() {
        if (session == null) {
            stopAll();
            // In the user's home when it has a writable one (the Maven repository is large for a tmpfs), else /tmp.
            Exec.Result made = Exec.run(helper(List.of("sh", "-c", "h=$(getent passwd \"$1\" | cut -d: -f6);"
                    + " for d in /tmp /var/tmp /dev/shm; do find \"$d\" -mindepth 1 -maxdepth 1 -user \"$1\""
                    + " ! -path \"$h\" -exec rm -rf -- {} + 2>/dev/null; done;"
                    + " if [ -n \"$h\" ] && [ -d \"$h\" ] && [ -w \"$h\" ]; then b=$h;"
                    + " find \"$h\" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +; else b=/tmp; fi;"
                    + " mktemp -d \"$b/restbench-session-XXXXXXXX\"", "sh", name)), null);
            if (made.exit() != 0) {
                throw new IllegalStateException("cannot make a directory as " + name + ": " + made.output().strip());
            }
            Path dir = Path.of(made.output().strip());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    stopAll();
                } catch (RuntimeException e) {
                    System.err.println("bench: " + e.getMessage());
                }
                Exec.run(helper(List.of("rm", "-rf", "--", dir.toString())), null);
            }, "bench-service-user-cleanup"));
            session = dir;
        }
        return session;
    }

    /** A new, empty directory in the session, made by the user: {@code <session>/<prefix>-<n>}. */
    public synchronized Path newDirectory(String prefix) {
        Path dir = session().resolve(prefix + "-" + (++sessionDirs));
        mkdirs(dir);
        return dir;
    }

    /** Makes a directory (and its parents) as the user. */
    public void mkdirs(Path dir) {
        Exec.Result made = Exec.run(helper(List.of("mkdir", "-p", "--", dir.toString())), null);
        if (made.exit() != 0) {
            throw new IllegalStateException("cannot make " + dir + " as " + name + ": " + made.output().strip());
        }
    }

    /** Removes a file or tree as the user. */
    public void remove(Path path) {
        Exec.run(helper(List.of("rm", "-rf", "--", path.toString())), null);
    }

    /**
     * Copies a regular file of the user's to {@code target} (the runner's, mode by the runner's umask): read as the
     * user ({@code cat}), so a link in the user's files reaches nothing the user could not read itself.
     *
     * @throws IOException when it is not a regular file, or cannot be read
     */
    public void copyOut(Path source, Path target) throws IOException {
        String kind = kind(source);
        if (!kind.equals("regular file") && !kind.equals("regular empty file")) {
            throw new IOException(source + " is not a regular file (" + kind + ")");
        }
        Files.createDirectories(target.toAbsolutePath().getParent());
        Path partial = target.resolveSibling("." + target.getFileName() + ".part");
        Exec.Result copied = Exec.toFile(helper(List.of("cat", "--", source.toString())), partial);
        if (copied.exit() != 0) {
            Files.deleteIfExists(partial);
            throw new IOException("cannot read " + source + " as " + name + ": " + copied.output().strip());
        }
        Files.move(partial, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** What {@code stat} calls the file, as the user sees it (no link followed at the end): "directory", … */
    String kind(Path path) {
        Exec.Result stat = Exec.run(helper(List.of("stat", "-c", "%F", "--", path.toString())), null);
        return stat.exit() == 0 ? stat.output().strip() : "missing (" + stat.output().strip() + ")";
    }

    /**
     * Refuses a results directory this user could change: the directory itself writable by it, an ancestor it may
     * write without the sticky bit (it could move the directory away and put its own in its place), a path component
     * it owns, or a umask that makes the runner's new files writable by others.
     *
     * @throws Unusable naming the path
     */
    public void requireUnwritable(Path dir) {
        Path path = dir.toAbsolutePath().normalize();
        long umask = ProcfsIds.umask(ProcessHandle.current().pid()).orElse(0L);
        if ((umask & 0002) == 0 || (umask & 0020) == 0 && groupsShareRunners()) {
            throw new Unusable(String.format("the runner's umask %04o lets %s write the files it creates: set umask 022",
                    umask, name));
        }
        List<String> argv = new ArrayList<>(List.of("sh", "-c",
                "for p; do if [ -w \"$p\" ]; then echo \"$p\"; fi; done", "sh"));
        List<Path> chain = new ArrayList<>();
        for (Path p = path; p != null; p = p.getParent()) {
            chain.add(p);
            argv.add(p.toString());
        }
        Exec.Result writable = Exec.run(helper(argv), null);
        List<String> lines = writable.output().lines().toList();
        for (int i = 0; i < chain.size(); i++) {
            Path p = chain.get(i);
            try {
                if (Files.getAttribute(p, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS).equals(uid)) {
                    throw new Unusable(p + " belongs to " + name + ": it could change the results in " + path);
                }
                if (!lines.contains(p.toString())) {
                    continue;
                }
                int mode = (Integer) Files.getAttribute(p, "unix:mode");
                if (i == 0 || (mode & 01000) == 0) {
                    throw new Unusable(name + " may write " + p + (i == 0 ? "" : " (not sticky): it could replace "
                            + path) + "; give the results a directory only the runner's user writes");
                }
            } catch (IOException e) {
                throw new Unusable("cannot check " + p + ": " + e.getMessage());
            }
        }
    }

    /** Whether the runner's own primary group is one of this user's (then group-writable files are its too). */
    private boolean groupsShareRunners() {
        return ProcfsIds.gid(ProcessHandle.current().pid()).map(g -> groups.contains(g.intValue())).orElse(true);
    }

    /** A setting that cannot work: exit code 2 with this message. */
    public static final class Unusable extends RuntimeException {
        public Unusable(String message) {
            super(message);
        }
    }

    /** The ids of /proc/&lt;pid&gt;/status (readable for every user's processes). */
    static final class ProcfsIds {
        private ProcfsIds() {
        }

        /** The effective uid. */
        static Optional<Long> uid(long pid) {
            return field(pid, "Uid:", 2);
        }

        static Optional<Long> gid(long pid) {
            return field(pid, "Gid:", 2);
        }

        static Optional<Long> umask(long pid) {
            return field(pid, "Umask:", 1).map(v -> Long.parseLong(Long.toString(v), 8));
        }

        static boolean zombie(long pid) {
            try {
                return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                        .anyMatch(l -> l.startsWith("State:") && l.contains("Z"));
            } catch (IOException | RuntimeException e) {
                return true;
            }
        }

        private static Optional<Long> field(long pid, String key, int index) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith(key)) {
                        return Optional.of(Long.parseLong(line.substring(key.length()).trim().split("\\s+")[index - 1]));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone
            }
            return Optional.empty();
        }
    }

    /** Short-lived helper processes: output captured, a time limit. */
    static final class Exec {
        record Result(int exit, String output) {
        }

        private Exec() {
        }

        static Result run(List<String> argv, byte[] input) {
            try {
                Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
                if (input != null) {
                    process.getOutputStream().write(input);
                }
                process.getOutputStream().close();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    return new Result(-1, argv.get(0) + " did not finish in 60 s");
                }
                return new Result(process.exitValue(), output);
            } catch (IOException e) {
                return new Result(-1, "cannot run " + argv.get(0) + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(-1, "interrupted");
            }
        }

        /** Standard output into a file, standard error returned. */
        static Result toFile(List<String> argv, Path file) {
            try {
                Path errors = Files.createTempFile("restbench-copy-", ".err");
                try {
                    Process process = new ProcessBuilder(argv).redirectOutput(file.toFile())
                            .redirectError(errors.toFile()).start();
                    process.getOutputStream().close();
                    int exit = process.waitFor();
                    return new Result(exit, Files.readString(errors));
                } finally {
                    Files.deleteIfExists(errors);
                }
            } catch (IOException e) {
                return new Result(-1, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(-1, "interrupted");
            }
        }
    }
}
