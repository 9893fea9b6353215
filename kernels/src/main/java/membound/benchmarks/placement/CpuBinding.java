package membound.benchmarks.placement;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import membound.hardware.host.CpuList;

/**
 * How a benchmark fork places its team: it reads the placement the suite gave it as system properties,
 * checks that the operating system really confined the fork to those cpus, and, when pinned, binds each
 * team thread to its own cpu before the thread allocates and first-touches its arrays.
 *
 * <p>Binding uses the operating system's own tool, {@code taskset -p -c CPU TID} on the thread's Linux id
 * (read from {@code /proc/thread-self}), and checks the result in {@code /proc/thread-self/status}: no
 * native code, and a binding that did not happen is an error rather than an unpinned figure.
 */
public final class CpuBinding {

    /** The fork's placement name ({@code all}, {@code Cortex-X925}, {@code cluster1}). */
    public static final String PLACEMENT_PROPERTY = "membound.placement";
    /** The fork's cpus, as a kernel cpu list. */
    public static final String CPUS_PROPERTY = "membound.cpus";
    /** {@code true} to bind each team thread to one cpu. */
    public static final String PIN_PROPERTY = "membound.pin";

    private static final CpuBinding NONE = new CpuBinding(null);

    private final Placement placement;

    private CpuBinding(Placement placement) {
        this.placement = placement;
    }

    /** Binds nothing: threads go where the scheduler puts them. */
    public static CpuBinding none() {
        return NONE;
    }

    /** Binds thread {@code i} to {@code placement.cpuOfThread(i)} when the placement is pinned. */
    public static CpuBinding of(Placement placement) {
        return placement.pinned() ? new CpuBinding(placement) : NONE;
    }

    /**
     * The JVM arguments that give a fork {@code placement}: what {@link #ofFork()} reads there, and what
     * {@link CpuSetProfiler} turns into {@code taskset}.
     */
    public static List<String> jvmArguments(Placement placement) {
        List<String> args = new ArrayList<>();
        args.add("-D" + PLACEMENT_PROPERTY + "=" + placement.name());
        args.add("-D" + CPUS_PROPERTY + "=" + placement.cpuList());
        args.add("-D" + PIN_PROPERTY + "=" + placement.pinned());
        return args;
    }

    /** The value of {@code -Dname=value} among {@code jvmArgs}, or null. */
    public static String jvmArgument(java.util.Collection<String> jvmArgs, String name) {
        String prefix = "-D" + name + "=";
        String value = null;
        for (String arg : jvmArgs) {
            if (arg.startsWith(prefix)) {
                value = arg.substring(prefix.length());
            }
        }
        return value;
    }

    /**
     * The binding this JVM was started with, from its system properties; {@link #none()} outside a fork the
     * suite placed.
     *
     * @throws IllegalStateException if the fork should be confined to some cpus and the operating system lets it
     *         use a different number: the figures would not be what the placement claims
     */
    public static CpuBinding ofFork() {
        return ofFork(System.getProperties(), Runtime.getRuntime().availableProcessors());
    }

    static CpuBinding ofFork(Properties properties, int availableProcessors) {
        String name = properties.getProperty(PLACEMENT_PROPERTY);
        if (name == null) {
            return NONE;
        }
        String cpuList = properties.getProperty(CPUS_PROPERTY, "");
        List<Integer> cpus;
        try {
            cpus = CpuList.parse(cpuList);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(CPUS_PROPERTY + " must be a cpu list such as 0-4,10: "
                    + CPUS_PROPERTY + "=" + cpuList, e);
        }
        Placement.Kind kind = name.equals(Placement.ALL) ? Placement.Kind.ALL
                : name.matches("cluster[0-9]+") ? Placement.Kind.CLUSTER : Placement.Kind.CORE_TYPE;
        Placement placement = new Placement(name, kind, cpus,
                Boolean.parseBoolean(properties.getProperty(PIN_PROPERTY, "false")));
        if (placement.confinesFork() && availableProcessors != cpus.size()) {
            throw new IllegalStateException("the fork must run on the " + cpus.size() + " cpus of placement "
                    + name + " (" + cpuList + ") but may use " + availableProcessors
                    + ": was it started without taskset (forks=0?)");
        }
        return of(placement);
    }

    /** True if team threads are bound to cpus. */
    public boolean pins() {
        return placement != null;
    }

    /** Binds the calling thread, team thread {@code thread}, to its cpu; nothing if this binding does not pin. */
    public void bind(int thread) {
        if (placement != null) {
            bindCurrentThread(placement.cpuOfThread(thread));
        }
    }

    /**
     * Binds the calling thread to {@code cpu} with {@code taskset} and checks that the kernel now allows it only
     * that cpu.
     *
     * @throws IllegalStateException if {@code taskset} is missing or fails, or the binding did not take
     */
    public static void bindCurrentThread(int cpu) {
        String threadId;
        try {
            // "<pid>/task/<tid>": the Linux id of this very thread, which Java does not otherwise expose.
            threadId = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalStateException("pinning needs Linux's /proc/thread-self: " + e.getMessage(), e);
        }
        String output;
        int status;
        try {
            Process taskset = new ProcessBuilder("taskset", "-p", "-c", Integer.toString(cpu), threadId)
                    .redirectErrorStream(true).start();
            output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            status = taskset.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("pinning needs taskset (util-linux) on the PATH: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding thread " + threadId + " to cpu " + cpu, e);
        }
        if (status != 0) {
            throw new IllegalStateException("taskset must bind thread " + threadId + " to cpu " + cpu + ": exit "
                    + status + ", " + output);
        }
        List<Integer> allowed = allowedCpus();
        if (!allowed.equals(List.of(cpu))) {
            throw new IllegalStateException("thread " + threadId + " must be bound to cpu " + cpu
                    + " but may run on " + CpuList.format(allowed));
        }
    }

    /** The cpus the calling thread may run on, from {@code /proc/thread-self/status}. */
    public static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuList.parse(line.substring("Cpus_allowed_list:".length()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/thread-self/status", e);
        }
        throw new IllegalStateException("/proc/thread-self/status must have a Cpus_allowed_list line");
    }

    @Override
    public String toString() {
        return placement == null ? "unpinned" : "pinned to " + placement.describe();
    }
}
