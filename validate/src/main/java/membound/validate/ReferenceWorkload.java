package membound.validate;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.benchmarks.training.MlpBenchmark;
import membound.benchmarks.training.TenantsBenchmark;
import membound.benchmarks.training.TransformerShape;
import membound.model.machine.Machine;
import membound.model.roofline.Operation;
import membound.vocabulary.BadInputException;

/**
 * The four reference workloads of {@code membound validate}: what the suite runs for each (a benchmark of the
 * {@code training} package at its default sizes) and how the model describes the run it measured, read from
 * the run's own parameters so the prediction is of exactly what ran.
 */
public enum ReferenceWorkload {
    /** Workload 1: an AdamW step over tens of millions of FP32 parameters; pure bandwidth. */
    OPTIMIZER("adamw", "AdamW step", SuiteBenchmark.OPTIMIZER),
    /** Workload 2: an MLP training step whose products are compute-bound. */
    MLP("mlp", "MLP training step", SuiteBenchmark.MLP),
    /** Workload 3: a one-layer transformer training step: products and memory-bound passes mixed. */
    TRANSFORMER("transformer", "transformer training step", SuiteBenchmark.TRANSFORMER),
    /** Workload 4: workload 1 in two processes at once, sharing the memory bandwidth. */
    TENANTS("adamw-2-tenants", "AdamW step, 2 tenants", SuiteBenchmark.TENANTS);

    /** How the model sees one run: its operations, the processes sharing the machine, and the sizes in words. */
    public record Description(List<Operation> operations, int tenants, String sizes) {

        public Description {
            operations = List.copyOf(operations);
        }
    }

    private final String id;
    private final String label;
    private final SuiteBenchmark benchmark;

    ReferenceWorkload(String id, String label, SuiteBenchmark benchmark) {
        this.id = id;
        this.label = label;
        this.benchmark = benchmark;
    }

    /** Short name, as {@code --workloads} takes it and JSON reports it. */
    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    public SuiteBenchmark benchmark() {
        return benchmark;
    }

    /**
     * What the model needs measured to predict this workload and {@code cpu} lacks: main memory's ceilings for
     * every workload, and the float GEMM for those whose products dominate (without it the model can only derate
     * the FMA peak, and a validation of that is a validation of the derating).
     */
    public List<String> missingFrom(membound.profile.Device cpu) {
        List<String> missing = new java.util.ArrayList<>();
        if (cpu.levels().stream().noneMatch(l -> l.level() == membound.vocabulary.MemoryLevel.DRAM)) {
            missing.add(id + " needs a measured DRAM ceiling");
        }
        if ((this == MLP || this == TRANSFORMER) && cpu.measuredComputeCeiling(membound.vocabulary.Precision.FP32,
                membound.profile.ComputeEntry.Kind.GEMM).isEmpty()) {
            missing.add(id + " needs a measured fp32 GEMM");
        }
        return missing;
    }

    /** What the suite runs: the benchmark at its default sizes, on every cpu. */
    public SuiteRequest request() {
        return SuiteRequest.of(benchmark);
    }

    /** The workload whose benchmark JMH ran as {@code benchmarkName}. */
    public static ReferenceWorkload ofBenchmark(String benchmarkName) {
        for (ReferenceWorkload workload : values()) {
            if (workload.benchmark.benchmarkName().equals(benchmarkName)) {
                return workload;
            }
        }
        throw new BadInputException("benchmark must be one of the reference workloads': benchmark=" + benchmarkName);
    }

    /** Workloads by id, in the order given; close matches on a miss. */
    public static List<ReferenceWorkload> parse(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(ReferenceWorkload::byId)
                .distinct().toList();
    }

    private static ReferenceWorkload byId(String id) {
        for (ReferenceWorkload workload : values()) {
            if (workload.id.equalsIgnoreCase(id)) {
                return workload;
            }
        }
        throw new BadInputException("--workloads must list " + String.join(", ", Arrays.stream(values())
                .map(ReferenceWorkload::id).toList()) + ": --workloads=" + id);
    }

    /**
     * The model's operations for the run with these benchmark parameters ({@code parameters=33554432},
     * {@code widths=...}), on {@code machine} (consulted only for what changes the plan, never for ceilings).
     */
    public Description describe(Map<String, String> parameters, Machine machine) {
        return switch (this) {
            case OPTIMIZER -> {
                long count = Long.parseLong(parameters.get("parameters"));
                yield new Description(ModelWorkloads.optimizer(count), 1,
                        String.format(Locale.ROOT, "%s FP32 parameters, %s", count(count),
                                threadCount(threads(parameters, 1))));
            }
            case MLP -> {
                int[] widths = MlpBenchmark.parseWidths(parameters.get("widths"));
                int batch = Integer.parseInt(parameters.get("batch"));
                yield new Description(ModelWorkloads.mlpStep(widths, batch, machine), 1,
                        String.format(Locale.ROOT, "widths %s, batch %d, %s parameters, %s",
                                parameters.get("widths").replace(',', 'x'), batch,
                                count(ModelWorkloads.mlp(widths).parameters().total()), threadCount(threads(parameters, 1))));
            }
            case TRANSFORMER -> {
                TransformerShape shape = TransformerShape.parse(parameters.get("shape"));
                yield new Description(ModelWorkloads.transformerStep(shape, machine), 1,
                        String.format(Locale.ROOT, "vocabulary %d, hidden %d, %d heads, MLP %d, %d x %d tokens, %s "
                                        + "parameters, %s", shape.vocabulary(), shape.hidden(), shape.heads(),
                                shape.intermediate(), shape.batch(), shape.sequence(), count(shape.parameters()),
                                threadCount(threads(parameters, 1))));
            }
            case TENANTS -> {
                int tenants = Integer.parseInt(parameters.get("tenants"));
                long count = Long.parseLong(parameters.get("parameters"));
                yield new Description(ModelWorkloads.optimizer(count), tenants,
                        String.format(Locale.ROOT, "%d processes x %s FP32 parameters, %s each", tenants,
                                count(count), threadCount(TenantsBenchmark.threadsPerTenant(
                                        Runtime.getRuntime().availableProcessors(), tenants))));
            }
        };
    }

    private static int threads(Map<String, String> parameters, int fallback) {
        String threads = parameters.get("threads");
        if (threads == null) {
            return fallback;
        }
        return threads.equals("all") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(threads);
    }

    private static String threadCount(int threads) {
        return threads == 1 ? "1 thread" : threads + " threads";
    }

    /** 33554432 as "32 Mi", 8388608 as "8 Mi", 1.93e6 as "1.93 M". */
    static String count(long n) {
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return (n >> 20) + " Mi";
        }
        if (n >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2f M", n / 1e6);
        }
        return Long.toString(n);
    }
}
