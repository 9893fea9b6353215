package membound.benchmarks.suite;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.benchmarks.compute.ElementwiseBenchmark;
import membound.benchmarks.compute.ProductBenchmark;
import membound.benchmarks.compute.ProductShape;
import membound.benchmarks.compute.ProductTimes;
import membound.benchmarks.compute.RowOperation;
import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.placement.CpuSetProfiler;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.sizing.WorkingSet;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.training.MlpBenchmark;
import membound.benchmarks.training.MlpTraining;
import membound.benchmarks.training.OptimizerStep;
import membound.benchmarks.training.TransformerShape;
import membound.benchmarks.training.TransformerTraining;
import membound.vocabulary.BadInputException;
import membound.vocabulary.files.ResultNames;
import membound.hardware.host.Host;
import membound.vocabulary.units.Units;

/**
 * What a suite run will do: which benchmarks, with every cache level and thread count resolved to exact
 * sizes on this host, in how many JMH runs, with what heap, and where the results go.
 *
 * <p><b>Default</b> (nothing selected): {@link StreamBenchmark}, all eight kernels, {@code double}, one
 * thread per cpu, at the DRAM working set (each array 4× the last-level cache), 2 warm-up and 5
 * measurement iterations of 1 s, one fork each: the DRAM plateau, in about 2-3 minutes on 2 cores.
 *
 * <p>A cache-level working set depends on the thread count (each thread's arrays must fit its share), so
 * each thread count is its own JMH run ({@link Step}); the results are written together.
 */
public final class SuitePlan {

    /** The parameters of the suite's benchmarks, each settable as {@code -Djmh.<name>=v1,v2}. */
    static final Set<String> BENCHMARK_PARAMETERS = new TreeSet<>(List.of(
            "kernel", "elementType", "workingSet", "threads", "implementation", "n",
            "parameters", "widths", "batch", "shape", "tenants", "products", "operation", "row"));

    /** {@code -Djmh.<key>} to JMH's own option, for the options people set most. */
    private static final Map<String, String> PROPERTY_OPTIONS = new LinkedHashMap<>();

    static {
        for (String[] pair : new String[][] {
                {"exclude", "-e"}, {"forks", "-f"}, {"f", "-f"}, {"warmupIterations", "-wi"}, {"wi", "-wi"},
                {"iterations", "-i"}, {"i", "-i"}, {"warmupTime", "-w"}, {"w", "-w"}, {"time", "-r"}, {"r", "-r"},
                {"prof", "-prof"}, {"jvmArgsAppend", "-jvmArgsAppend"}, {"verbosity", "-v"}, {"v", "-v"},
                {"timeout", "-to"}, {"resultFile", "-rff"}, {"rff", "-rff"}, {"foe", "-foe"}}) {
            PROPERTY_OPTIONS.put(pair[0], pair[1]);
        }
    }

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
    private final Path resultFile;
    private final String description;
    private final boolean transparentHugePages;
    private final boolean pinned;

    private SuitePlan(List<Step> steps, Path resultFile, String description, boolean transparentHugePages,
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

    public Path resultFile() {
        return resultFile;
    }

    /** A few lines saying what will run, for the top of the output. */
    public String describe() {
        return description;
    }

    /**
     * JMH's command line, with the {@code jmh.*} properties ({@code jmh:run}'s way of passing options)
     * turned into the options they stand for.
     *
     * @throws BadInputException for a {@code jmh.*} property that means nothing here
     */
    public static String[] jmhArguments(String[] args, Properties properties) {
        List<String> result = new ArrayList<>(Arrays.asList(args));
        for (String name : new TreeSet<>(properties.stringPropertyNames())) {
            if (!name.startsWith("jmh.")) {
                continue;
            }
            String key = name.substring("jmh.".length());
            String value = properties.getProperty(name).trim();
            if (key.equals("include")) {
                result.addAll(splitList(value));
            } else if (key.equals("params")) {
                for (String assignment : value.split(";")) {
                    if (!assignment.isBlank()) {
                        result.add("-p");
                        result.add(assignment.trim());
                    }
                }
            } else if (key.equals("args")) {
                result.addAll(Arrays.asList(value.split("\\s+")));
            } else if (BENCHMARK_PARAMETERS.contains(key)) {
                result.add("-p");
                result.add(key + "=" + value);
            } else if (PROPERTY_OPTIONS.containsKey(key)) {
                result.add(PROPERTY_OPTIONS.get(key));
                result.add(value);
            } else if (!key.equals("jvm") && !key.equals("mainClass") && !isJmhSystemProperty(key)) {
                throw new BadInputException("jmh property must be one of jmh.include, jmh.params, jmh.args, "
                        + String.join(", ", withPrefix(BENCHMARK_PARAMETERS)) + ", "
                        + String.join(", ", withPrefix(PROPERTY_OPTIONS.keySet())) + ": " + name + "=" + value);
            }
        }
        return result.toArray(String[]::new);
    }

    /**
     * JMH's own system properties ({@code -Djmh.ignoreLock=true}, {@code -Djmh.blackhole.mode=...}): JMH reads
     * them itself, so they pass through untouched.
     */
    static boolean isJmhSystemProperty(String key) {
        return key.equals("ignoreLock") || key.equals("separateClasspathJAR") || key.equals("executor")
                || key.equals("tmpDir") || key.startsWith("blackhole.") || key.startsWith("stack.")
                || key.startsWith("perfasm.") || key.startsWith("perfnorm.") || key.startsWith("link.")
                || key.startsWith("executor.");
    }

    /** Resolves the command line into the runs to make on {@code host}. */
    public static SuitePlan of(CommandLineOptions command, Host host, Properties properties) {
        Path resultFile = command.getResult().hasValue() ? Path.of(command.getResult().get())
                : defaultResultFile(host, properties);
        List<SuiteRequest> requests = new ArrayList<>();
        for (String placement : splitList(properties.getProperty(PLACEMENT_PROPERTY, Placement.ALL))) {
            requests(command).forEach(request -> requests.add(request.on(placement)));
        }
        return of(requests, command, host, resultFile,
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

    /** The benchmarks a command line selects: by include pattern or kernel name, with its {@code -p} values. */
    static List<SuiteRequest> requests(CommandLineOptions command) {
        List<SuiteBenchmark> selected = new ArrayList<>();
        List<String> kernels = new ArrayList<>(upper(parameter(command, "kernel")));
        for (String include : command.getIncludes()) {
            Optional<StreamKernel> kernel = kernelNamed(include);
            if (kernel.isPresent()) {
                kernels.add(kernel.get().name());
                addOnce(selected, SuiteBenchmark.STREAM);
                continue;
            }
            List<SuiteBenchmark> matching = SuiteBenchmark.all().stream().filter(b -> b.matches(include)).toList();
            if (matching.isEmpty()) {
                throw new BadInputException("include must name a benchmark (" + SuiteBenchmark.names()
                        + ") or a kernel (" + kernelLabels() + "): include=" + include);
            }
            matching.forEach(benchmark -> addOnce(selected, benchmark));
        }
        if (selected.isEmpty()) {
            selected.add(SuiteBenchmark.STREAM);
        }
        List<SuiteRequest> requests = new ArrayList<>();
        for (SuiteBenchmark benchmark : selected) {
            SuiteRequest request = SuiteRequest.of(benchmark);
            for (String name : BENCHMARK_PARAMETERS) {
                List<String> values = name.equals("kernel") ? kernels : parameter(command, name);
                if (!values.isEmpty() && benchmark.defaults(name).length > 0) {
                    request = request.with(name, values.toArray(String[]::new));
                }
            }
            requests.add(request);
        }
        return requests;
    }

    /**
     * Resolves {@code requests} on {@code host}: one step per benchmark and team size, every cache level
     * and thread count made explicit, the fork heap sized to the arrays.
     *
     * @param settings iterations, forks, profilers and other JMH options shared by every step
     * @throws BadInputException for a value that means nothing or a working set that does not fit in memory
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, Path resultFile) {
        return of(requests, settings, host, resultFile, true);
    }

    /**
     * As {@link #of(List, Options, Host, Path)}; {@code hugePages} asks for transparent huge pages on the
     * forks' heap where the kernel offers them ({@link #usesHugePages}).
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, Path resultFile,
            boolean hugePages) {
        return of(requests, settings, host, resultFile, hugePages, false);
    }

    /**
     * As {@link #of(List, Options, Host, Path, boolean)}; {@code pin} binds each team thread to one cpu of its
     * request's placement. A placement other than {@code all} confines its forks with {@code taskset}
     * ({@link CpuSetProfiler}); its {@code all} threads are its cpus, and its cache levels are sized by the
     * caches of those cpus.
     *
     * @throws BadInputException also for an unknown placement, more threads than the placement has cpus, or
     *         a placement or pinning without forks (JMH's {@code -f 0} runs in this JVM, which nothing places)
     */
    public static SuitePlan of(List<SuiteRequest> requests, Options settings, Host host, Path resultFile,
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
            List<String> kernels = benchmark == SuiteBenchmark.STREAM ? upper(request.values("kernel")) : List.of();
            for (String kernel : kernels) {
                if (kernelNamed(kernel).isEmpty()) {
                    throw new BadInputException("kernel must be one of " + kernelLabels() + ": kernel=" + kernel);
                }
            }
            List<Integer> threadCounts = benchmark.hasThreads()
                    ? request.values("threads").stream().map(spec -> threads(spec, placement)).distinct().toList()
                    : List.of(1);
            for (int threads : threadCounts) {
                List<WorkingSet> sizes = workingSets(request, threads, caches);
                long heapBytes = heapBytes(request, sizes);
                long footprintBytes = heapBytes - HEAP_HEADROOM_BYTES;
                if (footprintBytes > MAX_MEMORY_SHARE * host.memoryBytes()) {
                    throw new BadInputException("workingSet must leave room in memory: " + benchmark.simpleName()
                            + " needs " + Units.formatBytes(footprintBytes) + " but this host has "
                            + Units.formatBytes(host.memoryBytes()) + ": workingSet="
                            + String.join(",", request.values("workingSet")));
                }
                steps.add(new Step(benchmark, threads, sizes, placement,
                        options(request, settings, threads, sizes, heapBytes, transparentHugePages, placement)));
                text.append("  ").append(benchmark.simpleName());
                if (!kernels.isEmpty()) {
                    text.append(' ').append(String.join(",", kernels));
                }
                if (benchmark.hasThreads()) {
                    text.append(", threads=").append(threads);
                }
                if (!sizes.isEmpty()) {
                    text.append(", working sets ").append(sizes.stream()
                            .map(s -> s.label() + " " + Units.formatBytes(s.arrayBytes()))
                            .reduce((x, y) -> x + ", " + y).orElse(""));
                }
                if (placement.confinesFork() || placement.pinned()) {
                    text.append(", on ").append(placement.describe());
                }
                text.append(", fork heap ").append(heapBytes >> 20).append(" MiB\n");
            }
        }
        text.append("  caches from ").append(cachesSource(wholeMachine)).append("; pages: ").append(transparentHugePages
                ? "transparent huge pages (-XX:+UseTransparentHugePages)" : "the kernel's default (THP "
                        + host.transparentHugePages() + ")");
        return new SuitePlan(steps, resultFile, text.toString(), transparentHugePages, pin);
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

    /** What a fork of the request's benchmark holds on its heap, plus {@link #HEAP_HEADROOM_BYTES}. */
    private static long heapBytes(SuiteRequest request, List<WorkingSet> sizes) {
        long largest = sizes.stream().mapToLong(WorkingSet::arrayBytes).max().orElse(0);
        long data = switch (request.benchmark()) {
            case STREAM -> 3 * largest;
            case LATENCY -> largest + largest / 16;
            case GEMM -> 3L * Double.BYTES * request.values("n").stream()
                    .mapToLong(value -> (long) Math.pow(parseOrder(value), 2)).max().orElse(0);
            case FMA -> 0;
            case ELEMENTWISE -> {
                // Checked here so that a wrong one is a one-line error before any fork runs.
                request.values("operation").forEach(SuitePlan::parseOperation);
                yield request.values("row").stream().mapToLong(row -> ElementwiseBenchmark.bytesPerThread((int) parseRow(row)))
                        .max().orElse(0) * Runtime.getRuntime().availableProcessors();
            }
            case PRODUCT -> request.values("products").stream()
                    .mapToLong(value -> parseProducts(value).stream()
                            .mapToLong(shape -> shape.floatBytes() * ProductBenchmark.sets(shape)).sum())
                    .max().orElse(0);
            case OPTIMIZER -> request.values("parameters").stream()
                    .mapToLong(value -> OptimizerStep.footprintBytes(parseCount("parameters", value))).max().orElse(0);
            case MLP -> {
                long footprint = 0;
                for (String widths : request.values("widths")) {
                    for (String batch : request.values("batch")) {
                        footprint = Math.max(footprint, MlpTraining.footprintBytes(parseWidths(widths),
                                (int) parseCount("batch", batch)));
                    }
                }
                yield footprint;
            }
            case TRANSFORMER -> request.values("shape").stream()
                    .mapToLong(value -> TransformerTraining.footprintBytes(parseShape(value))).max().orElse(0);
            // The tenants' arrays live in their own JVMs; the fork only talks to them.
            case TENANTS -> 0;
        };
        return data + Math.max(HEAP_HEADROOM_BYTES, data / 10);
    }

    private static List<ProductShape> parseProducts(String value) {
        try {
            return ProductShape.parseList(value);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private static RowOperation parseOperation(String value) {
        try {
            return RowOperation.of(value);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private static long parseRow(String value) {
        try {
            long row = Long.parseLong(value.trim());
            if (row >= 1 && row <= ElementwiseBenchmark.MAX_ROW) {
                return row;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("row must be from 1 to " + ElementwiseBenchmark.MAX_ROW + " elements: row=" + value);
    }

    private static long parseCount(String name, String value) {
        try {
            long count = Long.parseLong(value.trim());
            if (count >= 1) {
                return count;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException(name + " must be a positive whole number: " + name + "=" + value);
    }

    private static int[] parseWidths(String value) {
        try {
            return MlpBenchmark.parseWidths(value);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private static TransformerShape parseShape(String value) {
        try {
            return TransformerShape.parse(value);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private static int parseOrder(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= 16384) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("n must be a matrix order from 1 to 16384: n=" + value);
    }

    private static Options options(SuiteRequest request, Options settings, int threads, List<WorkingSet> sizes,
            long heapBytes, boolean transparentHugePages, Placement placement) {
        // These replace the @Fork's jvmArgsAppend, so they repeat its flags.
        List<String> jvmArgs = new ArrayList<>(List.of(ForkFlags.VECTOR_MODULE, "-Xmx" + (heapBytes >> 20) + "m",
                ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT));
        if (transparentHugePages) {
            jvmArgs.add(HUGE_PAGES_OPTION);
        }
        // The placement travels as JVM arguments: the fork binds its threads by them, the CpuSetProfiler confines
        // the fork by them, and JMH records them in every result, so the raw JSON says where it ran.
        jvmArgs.addAll(CpuBinding.jvmArguments(placement));
        if (settings.getJvmArgsAppend().hasValue()) {
            jvmArgs.addAll(settings.getJvmArgsAppend().get());
        }
        SuiteBenchmark benchmark = request.benchmark();
        ChainedOptionsBuilder options = new OptionsBuilder().parent(withoutIncludes(settings))
                .include(benchmark.include())
                .jvmArgsAppend(jvmArgs.toArray(String[]::new));
        if (placement.confinesFork()) {
            options.addProfiler(CpuSetProfiler.class);
        }
        if (benchmark == SuiteBenchmark.PRODUCT) {
            // Each shape's own pass times: the product run's figures.
            options.addProfiler(ProductTimes.class);
        }
        for (String name : BENCHMARK_PARAMETERS) {
            if (benchmark.defaults(name).length == 0) {
                continue;
            }
            String[] values = switch (name) {
                case "threads" -> new String[] {Integer.toString(threads)};
                case "workingSet" -> sizes.stream().map(WorkingSet::parameter).toArray(String[]::new);
                case "kernel" -> upper(request.values(name)).toArray(String[]::new);
                case "elementType", "implementation" -> request.values(name).stream()
                        .map(v -> v.trim().toLowerCase(Locale.ROOT)).toArray(String[]::new);
                default -> request.values(name).toArray(String[]::new);
            };
            options.param(name, values);
        }
        return options.build();
    }

    /**
     * The command line minus its includes and result file: JMH's builder adds a parent's includes to its own,
     * and each step must run exactly its one benchmark; the suite writes one result file for all steps.
     */
    static Options withoutIncludes(Options command) {
        return (Options) java.lang.reflect.Proxy.newProxyInstance(Options.class.getClassLoader(),
                new Class<?>[] {Options.class}, new WithoutIncludes(command));
    }

    /** Serializable, because JMH sends the options to every fork. */
    private static final class WithoutIncludes implements java.lang.reflect.InvocationHandler, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final Options command;

        WithoutIncludes(Options command) {
            this.command = command;
        }

        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) throws Throwable {
            if (method.getParameterCount() == 0) {
                switch (method.getName()) {
                    case "getIncludes":
                        return new ArrayList<String>();
                    case "getResult":
                    case "getResultFormat":
                        return org.openjdk.jmh.util.Optional.none();
                    default:
                        break;
                }
            }
            try {
                return method.invoke(command, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    private static String kernelLabels() {
        return String.join(", ", Arrays.stream(StreamKernel.values()).map(StreamKernel::label).toList());
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

    private static Optional<StreamKernel> kernelNamed(String include) {
        for (StreamKernel kernel : StreamKernel.values()) {
            if (kernel.name().equalsIgnoreCase(include.trim())) {
                return Optional.of(kernel);
            }
        }
        return Optional.empty();
    }

    private static List<String> parameter(CommandLineOptions command, String name) {
        return command.getParameter(name).hasValue() ? List.copyOf(command.getParameter(name).get()) : List.of();
    }

    private static List<String> orDefault(List<String> values, String... fallback) {
        return values.isEmpty() ? List.of(fallback) : values;
    }

    private static List<String> upper(Collection<String> values) {
        return values.stream().map(v -> v.trim().toUpperCase(Locale.ROOT)).toList();
    }

    private static List<String> splitList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static <T> void addOnce(List<T> list, T value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }

    private static List<String> withPrefix(Collection<String> keys) {
        return keys.stream().map(k -> "jmh." + k).toList();
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

    static Set<String> benchmarkParameters() {
        return new LinkedHashSet<>(BENCHMARK_PARAMETERS);
    }
}
