package membound.benchmarks.suite;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.openjdk.jmh.annotations.Param;

import membound.benchmarks.compute.ElementwiseBenchmark;
import membound.benchmarks.compute.FmaBenchmark;
import membound.benchmarks.compute.GemmBenchmark;
import membound.benchmarks.compute.ProductBenchmark;
import membound.benchmarks.latency.LatencyBenchmark;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.training.MlpBenchmark;
import membound.benchmarks.training.OptimizerBenchmark;
import membound.benchmarks.training.TenantsBenchmark;
import membound.benchmarks.training.TransformerBenchmark;

/**
 * The benchmarks of the suite (the ceilings a calibration measures, and the training workloads validation
 * times) and what the plan must know of each: its JMH name, whether it takes a team
 * size and a working set, how a working set resolves, and how much heap a fork needs.
 */
public enum SuiteBenchmark {
    STREAM(StreamBenchmark.class, "pass", Sizing.STREAM),
    LATENCY(LatencyBenchmark.class, "chase", Sizing.CHASE),
    FMA(FmaBenchmark.class, "pass", Sizing.NONE),
    GEMM(GemmBenchmark.class, "multiply", Sizing.NONE),
    /** The training products ({@code Matmul}) at the shapes and layouts of a training step. */
    PRODUCT(ProductBenchmark.class, "multiply", Sizing.NONE),
    /** The elementwise and row-wise operations whose cost is their transcendentals and reductions. */
    ELEMENTWISE(ElementwiseBenchmark.class, "pass", Sizing.NONE),
    /** Training workloads: real steps that {@code membound validate} holds the model's predictions against. */
    OPTIMIZER(OptimizerBenchmark.class, "step", Sizing.NONE),
    MLP(MlpBenchmark.class, "step", Sizing.NONE),
    TRANSFORMER(TransformerBenchmark.class, "step", Sizing.NONE),
    TENANTS(TenantsBenchmark.class, "step", Sizing.NONE);

    /** How a benchmark's {@code workingSet} parameter turns into bytes. */
    enum Sizing {
        /** Three arrays split over the team ({@code WorkingSet.resolve}). */
        STREAM,
        /** One array chased by one thread ({@code WorkingSet.resolveSingle}). */
        CHASE,
        /** No working set. */
        NONE
    }

    private final Class<?> type;
    private final String method;
    private final Sizing sizing;

    SuiteBenchmark(Class<?> type, String method, Sizing sizing) {
        this.type = type;
        this.method = method;
        this.sizing = sizing;
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
}
