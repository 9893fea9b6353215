package membound.benchmarks.suite;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;

import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;

import membound.benchmarks.placement.CpuSetProfiler;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.sizing.WorkingSet;
import membound.benchmarks.stream.StreamBenchmark;
import membound.hardware.host.Host;
import membound.vocabulary.BadInputException;
import membound.vocabulary.files.ResultNames;
import membound.vocabulary.units.Units;

/**
 * What a suite run will do: which benchmarks, with every cache level and thread count resolved to exact
 * sizes on this host, in how many JMH runs, with what heap, and (from a command line) where the results go.
 *
 * <p><b>Default</b> (nothing selected): {@link StreamBenchmark}, all eight kernels, {@code double}, one
 * thread per cpu, at the DRAM working set (each array 4× the last-level cache), 2 warm-up and 5
 * measurement iterations of 1 s, one fork each: the DRAM plateau, in about 2-3 minutes on 2 cores.
 *
 * <p>A cache-level working set depends on the thread count (each thread's arrays must fit its share), so
 * each thread count is its own JMH run ({@link Step}); the results are written together. What a benchmark
 * needs of its fork is its own ({@link SuiteBenchmark}); a step's JMH options are {@link StepOptions}'.
 */
public final class SuitePlan {

    /** Heap beyond the arrays: JMH, the JIT and the garbage collector's own needs. */
    static final long HEAP_HEADROOM_BYTES = 512L << 20;
    /** Arrays may take at most this share of physical memory: beyond it the run would page or be killed. */
    static final double MAX_MEMORY_SHARE = 0.8;

    /**
     * Where the kernel offers transparent huge pages ({@code always} or {@code madvise}), the forks ask for
     * them: streaming GiB-sized arrays through 4 KiB pages spends time on TLB misses and page faults that
     * are the page size's cost, not the memory's (on the development VM a DRAM Triad trial took 19 s with
     * them and 46 s without). {@code -Dmembound.hugePages=false} turns this off.
     */
    public static final String HUGE_PAGES_OPTION = "-XX:+UseTransparentHugePages";

    /**
     * {@code -Dmembound.placement=all,Cortex-X925} runs every selected benchmark on each placement in turn
     * (core types, {@code clusterN}, {@code all}); {@code -Dmembound.pin=true} binds each team thread to one cpu.
     */
    public static final String PLACEMENT_PROPERTY = "membound.placement";
    public static final String PIN_PROPERTY = "membound.pin";

    private final List<Step> steps;
    private final Optional<Path> resultFile;
    private final String description;
    private final boolean transparentHugePages;
    private final boolean pinned;

    private SuitePlan(List<Step> steps, Optional<Path> resultFile, String description, boolean transparentHugePages,
            boolean pinned) {
        this.steps = List.copyOf(steps);
        this.resultFile = resultFile;
        this.description = description;
        this.transparentHugePages = transparentHugePages;
        this.pinned = pinned;
    }

    /** True if every team thread is bound to one cpu. */
    public boolean pinned() {
        return pinned;
    }

    /** The distinct placements of the steps, in the order they run. */
    public List<Placement> placements() {
        return steps.stream().map(Step::placement).distinct().toList();
    }

    /** True if the forks run with transparent huge pages. */
    public boolean transparentHugePages() {
        return transparentHugePages;
    }

    /** True if the host's kernel gives huge pages to a JVM that asks ({@code always} or {@code madvise}). */
    public static boolean usesHugePages(Host host) {
        String mode = host.transparentHugePages();
        return mode.equals("always") || mode.equals("madvise");
    }

    /** One JMH run: one benchmark at one team size on one placement, its options with every parameter explicit. */
    public record Step(SuiteBenchmark benchmark, int threads, List<WorkingSet> workingSets, Placement placement,
            Options options) {
    }

    public List<Step> steps() {
        return steps;
    }

    /** Where a command line's run writes its JMH results; none for a plan whose caller keeps them itself. */
    public Optional<Path> resultFile() {
        return resultFile;
    }

    /** A few lines saying what will run, for the top of the output. */
    public String describe() {
        return description;
    }

    /**
     * Resolves a command line (after {@link JmhProperties#arguments}) into the runs to make on {@code host}, on
     * each placement of {@code -Dmembound.placement}; its results go to {@code -rff} or {@link #defaultResultFile}.
     */
    public static SuitePlan of(CommandLineOptions command, Host host, Properties properties) {
        Path resultFile = command.getResult().hasValue() ? Path.of(command.getResult().get())
                : defaultResultFile(host, properties);
        List<SuiteRequest> requests = new ArrayList<>();
        for (String placement : splitList(properties.getProperty(PLACEMENT_PROPERTY, Placement.ALL))) {
            SuiteRequest.selectedBy(command).forEach(request -> requests.add(request.on(placement)));
        }
        return of(requests, command, host, Optional.of(resultFile),
                Boolean.parseBoolean(properties.getProperty("membound.hugePages", "true")),
                parsePin(properties.getProperty(PIN_PROPERTY, "false")));
    }

    private static boolean parsePin(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (!text.equals("true") && !text.equals("false")) {
            throw new BadInputException(PIN_PROPERTY + " must be true or false: " + PIN_PROPERTY + "=" + value);
        }
        return text.equals("true");
    }

    /**
     * Resolves {@code requests} on {@code host}: one step per benchmark and team size, every cache level
     * and thread count made explicit, the fork heap sized to what the benchmark holds; no result file.
     *
     * @param settings iterations, forks, profilers and other JMH options shared by every step
     * @throws BadInputException for a value that means nothing or a working set that does not fit in memory
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host) {
        return of(requests, settings, host, true);
    }

    /**
     * As {@link #of(List, Options, Host)}; {@code hugePages} asks for transparent huge pages on the forks' heap
     * where the kernel offers them ({@link #usesHugePages}).
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, boolean hugePages) {
        return of(requests, settings, host, hugePages, false);
    }

    /**
     * As {@link #of(List, Options, Host, boolean)}; {@code pin} binds each team thread to one cpu of its
     * request's placement. A placement other than {@code all} confines its forks with {@code taskset}
     * ({@link CpuSetProfiler}); its {@code all} threads are its cpus, and its cache levels are sized by the
     * caches of those cpus.
     *
     * @throws BadInputException also for an unknown placement, more threads than the placement has cpus, or
     *         a placement or pinning without forks (JMH's {@code -f 0} runs in this JVM, which nothing places)
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, boolean hugePages,
            boolean pin) {
        return of(requests, settings, host, Optional.empty(), hugePages, pin);
    }

    private static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, Optional<Path> resultFile,
            boolean hugePages, boolean pin) {
        boolean transparentHugePages = hugePages && usesHugePages(host);
        Supplier<CacheSizes> wholeMachine = memoized(() -> CacheSizes.of(host));
        Map<String, Supplier<CacheSizes>> cachesByPlacement = new LinkedHashMap<>();
        List<Step> steps = new ArrayList<>();
        StringBuilder text = new StringBuilder("membound suite on ").append(host.hostname()).append(" (")
                .append(host.cpu().modelName()).append(", ").append(host.logicalCpus()).append(" cpus)\n");
        for (SuiteRequest request : requests) {
            SuiteBenchmark benchmark = request.benchmark();
            Placement placement = Placement.resolve(request.placement(), host, pin);
            if ((placement.confinesFork() || placement.pinned()) && settings.getForkCount().orElse(1) == 0) {
                throw new BadInputException("placement must run in a forked JVM (forks at least 1): placement="
                        + placement.name() + (placement.pinned() ? " pinned" : "") + ", forks=0");
            }
            Supplier<CacheSizes> caches = !placement.confinesFork() ? wholeMachine
                    : cachesByPlacement.computeIfAbsent(placement.name(),
                            name -> memoized(() -> CacheSizes.of(host, placement.cpus())));
            List<Integer> threadCounts = benchmark.hasThreads()
                    ? request.values("threads").stream().map(spec -> threads(spec, placement)).distinct().toList()
                    : List.of(1);
            for (int threads : threadCounts) {
                List<WorkingSet> sizes = workingSets(request, threads, caches);
                long largest = sizes.stream().mapToLong(WorkingSet::arrayBytes).max().orElse(0);
                long heapBytes = heapBytes(benchmark.footprintBytes(request, threads, largest));
                long footprintBytes = heapBytes - HEAP_HEADROOM_BYTES;
                if (footprintBytes > MAX_MEMORY_SHARE * host.memoryBytes()) {
                    throw new BadInputException("workingSet must leave room in memory: " + benchmark.simpleName()
                            + " needs " + Units.formatBytes(footprintBytes) + " but this host has "
                            + Units.formatBytes(host.memoryBytes()) + ": workingSet="
                            + String.join(",", request.values("workingSet")));
                }
                steps.add(new Step(benchmark, threads, sizes, placement,
                        StepOptions.of(request, settings, threads, sizes, heapBytes, transparentHugePages, placement)));
                describe(text, request, threads, sizes, placement, heapBytes);
            }
        }
        text.append("  caches from ").append(cachesSource(wholeMachine)).append("; pages: ").append(transparentHugePages
                ? "transparent huge pages (" + HUGE_PAGES_OPTION + ")" : "the kernel's default (THP "
                        + host.transparentHugePages() + ")");
        return new SuitePlan(steps, resultFile, text.toString(), transparentHugePages, pin);
    }

    /** The fork's heap: what the benchmark holds, and room for JMH, the JIT and the collector. */
    private static long heapBytes(long footprintBytes) {
        return footprintBytes + Math.max(HEAP_HEADROOM_BYTES, footprintBytes / 10);
    }

    /** One line of {@link #describe()}: a step's benchmark, kernels, team, working sets, placement and heap. */
    private static void describe(StringBuilder text, SuiteRequest request, int threads, List<WorkingSet> sizes,
            Placement placement, long heapBytes) {
        SuiteBenchmark benchmark = request.benchmark();
        text.append("  ").append(benchmark.simpleName());
        if (benchmark.defaults("kernel").length > 0) {
            text.append(' ').append(String.join(",", request.values("kernel").stream()
                    .map(v -> v.trim().toUpperCase(Locale.ROOT)).toList()));
        }
        if (benchmark.hasThreads()) {
            text.append(", threads=").append(threads);
        }
        if (!sizes.isEmpty()) {
            text.append(", working sets ").append(String.join(", ", sizes.stream()
                    .map(s -> s.label() + " " + Units.formatBytes(s.arrayBytes())).toList()));
        }
        if (placement.confinesFork() || placement.pinned()) {
            text.append(", on ").append(placement.describe());
        }
        text.append(", fork heap ").append(heapBytes >> 20).append(" MiB\n");
    }

    /** A team size on {@code placement}: {@code all} is its cpus (or this JVM's, on the whole machine). */
    private static int threads(String spec, Placement placement) {
        if (!placement.confinesFork()) {
            return Threads.resolve(spec);
        }
        if (spec.trim().equalsIgnoreCase("all")) {
            return placement.cpus().size();
        }
        int threads = Threads.resolve(spec);
        if (threads > placement.cpus().size()) {
            throw new BadInputException("threads must not exceed the cpus of placement " + placement.name() + " ("
                    + placement.cpus().size() + "): threads=" + spec);
        }
        return threads;
    }

    private static List<WorkingSet> workingSets(SuiteRequest request, int threads, Supplier<CacheSizes> caches) {
        SuiteBenchmark benchmark = request.benchmark();
        if (benchmark.sizing() == SuiteBenchmark.Sizing.NONE) {
            return List.of();
        }
        List<WorkingSet> sizes = new ArrayList<>();
        for (String spec : request.values("workingSet")) {
            boolean chase = benchmark.sizing() == SuiteBenchmark.Sizing.CHASE;
            if (spec.trim().equalsIgnoreCase("sweep")) {
                sizes.addAll(chase ? WorkingSet.sweepSingle(caches.get()) : WorkingSet.sweep(threads, caches.get()));
            } else {
                sizes.add(chase ? WorkingSet.resolveSingle(spec, caches) : WorkingSet.resolve(spec, threads, caches));
            }
        }
        return sizes;
    }

    /** {@code results/jmh/<host>-<UTC>.json} under the repository root (given by the launcher), else the cwd. */
    static Path defaultResultFile(Host host, Properties properties) {
        String root = properties.getProperty(ResultNames.REPOSITORY_ROOT_PROPERTY, ".");
        return Path.of(root, "results", "jmh").resolve(ResultNames.base(host.hostname(), Instant.now()) + ".json");
    }

    private static String cachesSource(Supplier<CacheSizes> caches) {
        try {
            CacheSizes sizes = caches.get();
            return sizes.source() + " (last level " + Units.formatBytes(sizes.lastLevelTotalBytes()) + " in total)";
        } catch (BadInputException e) {
            return "unknown";
        }
    }

    private static List<String> splitList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static <T> Supplier<T> memoized(Supplier<T> supplier) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = supplier.get();
                }
                return value;
            }
        };
    }
}
