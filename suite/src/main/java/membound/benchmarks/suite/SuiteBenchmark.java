package membound.benchmarks.suite;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.profile.Profiler;

import membound.benchmarks.compute.ElementwiseBenchmark;
import membound.benchmarks.compute.FmaBenchmark;
import membound.benchmarks.compute.GemmBenchmark;
import membound.benchmarks.compute.ProductBenchmark;
import membound.benchmarks.compute.ProductTimes;
import membound.benchmarks.latency.LatencyBenchmark;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.training.MlpBenchmark;
import membound.benchmarks.training.OptimizerBenchmark;
import membound.benchmarks.training.TenantsBenchmark;
import membound.benchmarks.training.TransformerBenchmark;
import membound.vocabulary.BadInputException;

/**
 * The benchmarks of the suite (the ceilings a calibration measures, and the training workloads validation
 * times), each with what is its own: its JMH name, how its working set resolves, the heap a fork needs for a
 * request (which checks the request's values on the way), and the profilers its results need. Its parameters
 * and their defaults are its {@code @Param} fields.
 *
 * <p>Adding a benchmark is one constant here and its class: the class's {@code footprintBytes} parses every
 * value a fork would parse, throwing {@link BadInputException}, so a wrong one is a one-line error before
 * any fork runs; the plan, the {@code -Djmh.*} properties and the step options read the rest from here.
 */
public enum SuiteBenchmark {
    STREAM(StreamBenchmark.class, "pass", Sizing.STREAM,
            (request, threads, arrayBytes) -> StreamBenchmark.footprintBytes(request.values("kernel"), arrayBytes)),
    LATENCY(LatencyBenchmark.class, "chase", Sizing.CHASE,
            (request, threads, arrayBytes) -> LatencyBenchmark.footprintBytes(arrayBytes)),
    FMA(FmaBenchmark.class, "pass", Sizing.NONE, (request, threads, arrayBytes) -> FmaBenchmark.footprintBytes()),
    GEMM(GemmBenchmark.class, "multiply", Sizing.NONE,
            (request, threads, arrayBytes) -> GemmBenchmark.footprintBytes(request.values("n"))),
    /** The training products ({@code Matmul}) at the shapes and layouts of a training step. */
    PRODUCT(ProductBenchmark.class, "multiply", Sizing.NONE,
            (request, threads, arrayBytes) -> ProductBenchmark.footprintBytes(request.values("products")),
            // Each shape's own pass times: the product run's figures.
            ProductTimes.class),
    /** The elementwise and row-wise operations whose cost is their transcendentals and reductions. */
    ELEMENTWISE(ElementwiseBenchmark.class, "pass", Sizing.NONE,
            (request, threads, arrayBytes) -> ElementwiseBenchmark.footprintBytes(request.values("operation"),
                    request.values("row"), threads)),
    /** Training workloads: real steps that {@code membound validate} holds the model's predictions against. */
    OPTIMIZER(OptimizerBenchmark.class, "step", Sizing.NONE,
            (request, threads, arrayBytes) -> OptimizerBenchmark.footprintBytes(request.values("parameters"))),
    MLP(MlpBenchmark.class, "step", Sizing.NONE,
            (request, threads, arrayBytes) -> MlpBenchmark.footprintBytes(request.values("widths"),
                    request.values("batch"))),
    TRANSFORMER(TransformerBenchmark.class, "step", Sizing.NONE,
            (request, threads, arrayBytes) -> TransformerBenchmark.footprintBytes(request.values("shape"))),
    TENANTS(TenantsBenchmark.class, "step", Sizing.NONE,
            (request, threads, arrayBytes) -> TenantsBenchmark.footprintBytes());

    /** How a benchmark's {@code workingSet} parameter turns into bytes. */
    enum Sizing {
        /** Three arrays split over the team ({@code WorkingSet.resolve}). */
        STREAM,
        /** One array chased by one thread ({@code WorkingSet.resolveSingle}). */
        CHASE,
        /** No working set. */
        NONE
    }

    /** What a fork of a benchmark holds on its heap, beyond JMH's and the JVM's own. */
    @FunctionalInterface
    interface Footprint {
        /**
         * @param threads the fork's team size (1 for a benchmark without one)
         * @param arrayBytes the largest working set of the fork's ({@code 0} without one)
         * @throws BadInputException for a value of the request that the benchmark would refuse
         */
        long bytes(SuiteRequest request, int threads, long arrayBytes);
    }

    private final Class<?> type;
    private final String method;
    private final Sizing sizing;
    private final Footprint footprint;
    private final List<Class<? extends Profiler>> profilers;

    @SafeVarargs
    SuiteBenchmark(Class<?> type, String method, Sizing sizing, Footprint footprint,
            Class<? extends Profiler>... profilers) {
        this.type = type;
        this.method = method;
        this.sizing = sizing;
        this.footprint = footprint;
        this.profilers = List.of(profilers);
    }

    /** JMH's name for the benchmark method. */
    public String benchmarkName() {
        return type.getName() + "." + method;
    }

    /** The include pattern that selects exactly this benchmark. */
    public String include() {
        return "^" + Pattern.quote(benchmarkName()) + "$";
    }

    public String simpleName() {
        return type.getSimpleName();
    }

    Sizing sizing() {
        return sizing;
    }

    /**
     * Bytes a fork holds for {@code request} on a team of {@code threads} with arrays of at most
     * {@code arrayBytes}.
     *
     * @throws BadInputException for a value of the request that the benchmark would refuse
     */
    long footprintBytes(SuiteRequest request, int threads, long arrayBytes) {
        return footprint.bytes(request, threads, arrayBytes);
    }

    /** Profilers every run of the benchmark needs, beyond those the command line asks for. */
    List<Class<? extends Profiler>> profilers() {
        return profilers;
    }

    /** True if the benchmark runs on a team whose size is its {@code threads} parameter. */
    public boolean hasThreads() {
        return defaults("threads").length > 0;
    }

    /**
     * The default values of a parameter, read from its {@code @Param}: the benchmark is the one source. A bare
     * {@code @Param} on an enum field means every constant, in their order, as JMH reads it.
     */
    public String[] defaults(String parameter) {
        Field field;
        try {
            field = type.getField(parameter);
        } catch (NoSuchFieldException e) {
            return new String[0];
        }
        Param param = field.getAnnotation(Param.class);
        if (param == null) {
            return new String[0];
        }
        boolean bare = param.value().length == 1 && param.value()[0].equals(Param.BLANK_ARGS);
        if (bare && field.getType().isEnum()) {
            return Arrays.stream(field.getType().getEnumConstants()).map(constant -> ((Enum<?>) constant).name())
                    .toArray(String[]::new);
        }
        return bare ? new String[0] : param.value();
    }

    /** The names of the benchmark's parameters ({@code @Param} fields). */
    public List<String> parameterNames() {
        return Arrays.stream(type.getFields()).filter(field -> field.isAnnotationPresent(Param.class))
                .map(Field::getName).toList();
    }

    /** True if {@code pattern} (a JMH include regex) selects this benchmark. */
    public boolean matches(String pattern) {
        return Pattern.compile(pattern).matcher(benchmarkName()).find();
    }

    public static List<SuiteBenchmark> all() {
        return Arrays.asList(values());
    }

    public static String names() {
        return String.join(", ", all().stream().map(SuiteBenchmark::simpleName).toList());
    }

    /** Every benchmark's parameters, in name order: each settable as {@code -Djmh.<name>=v1,v2}. */
    public static Set<String> allParameterNames() {
        Set<String> names = new TreeSet<>();
        all().forEach(benchmark -> names.addAll(benchmark.parameterNames()));
        return names;
    }
}
