package membound.calibrator.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.vocabulary.ProductShape;

/**
 * What each calibration mode measures, and with which JMH settings. Budgets are for the 2-core development
 * machine, whose DRAM arrays are 2 GiB each (4× a 508 MiB last-level cache); a pass there takes ~0.2 s.
 *
 * <ul>
 *   <li><b>quick</b> (≤ 60 s): the DRAM plateau of Triad, Copy, Sum and Fill (the triad, copy, read and write
 *       ceilings) with every cpu and Sum with half of them (Fill against Sum, with whether the team saturated
 *       memory, says whether stores allocate: {@code WriteAllocationRule}), Triad at L1 and L2, the FMA peak in double and float, the float GEMM (so that the model
 *       times matrix products at a measured rate, not at the FMA peak) and the largest training products of each
 *       layout ({@link #QUICK_PRODUCTS}). 1 warm-up and 3 measured iterations of 1 s, one fork.</li>
 *   <li><b>standard</b> (≤ 7 min): all nine kernels at DRAM with every cpu and Sum with half of them, Triad at
 *       every cache level, the DRAM Triad thread-scaling curve, load latency from L1 to DRAM, FMA peak (double and float, one
 *       thread and all), GEMM (double and float, all threads), the training products at {@link #PRODUCTS},
 *       interleaved in one run, and the elementwise operations ({@link #ROW_OPERATIONS} on rows of 256 and
 *       4096, GELU and its gradient) (all threads).
 *       2 warm-up and 5 measured iterations.</li>
 *   <li><b>full</b>: standard, plus float kernels, the bandwidth-against-working-set sweep of Triad and
 *       Copy, the latency sweep and the scalar twins at DRAM; 3 warm-up and 10 measured iterations, two
 *       forks.</li>
 *   <li><b>smoke</b> (seconds): every benchmark once at tiny sizes (64 MiB arrays, L1, n=128, 64×64×64
 *       products, rows of 64; Triad, Copy, Sum and Fill, and Sum with half the team), one 200 ms
 *       iteration without warm-up. It proves the machinery works end to end (CI, a new cluster); its
 *       figures are not the machine's ceilings, and the profile says so in a quality flag.</li>
 * </ul>
 */
public enum CalibrationMode {
    SMOKE(0, 1, 1),
    QUICK(1, 3, 1),
    STANDARD(2, 5, 1),
    FULL(3, 10, 2);

    /**
     * The product shapes ({@code [B]xMxNxK:layout}) of {@code standard}: per layout the square and the shapes
     * where a narrow model's or an attention head's dimension is small (attention's in a batch of 16 heads, as
     * attention runs them), so the model finds a measured shape near each of a step's products (forward nn,
     * input gradient and attention scores nt, weight gradient tn).
     */
    /** The largest of {@link #PRODUCTS} in each layout: what quick measures of the step's products. */
    static final String QUICK_PRODUCTS = "1024x1024x1024:nn+1024x1024x1024:nt+1024x1024x1024:tn";

    static final String PRODUCTS = String.join("+",
            "1024x1024x1024:nn", "1024x1024x256:nn", "16x256x64x256:nn",
            "1024x1024x1024:nt", "1024x256x1024:nt", "16x256x256x64:nt",
            "1024x1024x1024:tn", "256x1024x1024:tn", "1024x1024x256:tn", "16x256x64x256:tn");

    /**
     * The row-wise operations of {@code standard}, on short rows (256: a short sequence's attention, a narrow
     * model's norm) and long ones (4096); GELU, which has no rows, on 4096.
     */
    static final String[] ROW_OPERATIONS = {"softmax", "cross-entropy", "rms-norm", "rms-norm-backward"};

    private final int warmupIterations;
    private final int measurementIterations;
    private final int forks;

    CalibrationMode(int warmupIterations, int measurementIterations, int forks) {
        this.warmupIterations = warmupIterations;
        this.measurementIterations = measurementIterations;
        this.forks = forks;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The benchmarks this mode runs on a host with {@code cpus} logical cpus. */
    public List<SuiteRequest> requests(int cpus) {
        String all = Integer.toString(cpus);
        List<SuiteRequest> requests = new ArrayList<>();
        SuiteRequest stream = SuiteRequest.of(SuiteBenchmark.STREAM).with("elementType", "double")
                .with("implementation", "vector").with("threads", all);
        switch (this) {
            case SMOKE -> {
                requests.add(stream.with("kernel", "TRIAD", "COPY", "SUM", "FILL").with("workingSet", "64MiB", "L1"));
                halfTeam(cpus).ifPresent(half -> requests.add(stream.with("kernel", "SUM").with("workingSet", "64MiB")
                        .with("threads", half)));
                requests.add(SuiteRequest.of(SuiteBenchmark.LATENCY).with("workingSet", "64KiB"));
                requests.add(SuiteRequest.of(SuiteBenchmark.FMA).with("elementType", "double", "float").with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.GEMM).with("elementType", "float").with("n", "128")
                        .with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.PRODUCT).with("products", "64x64x64:nn+64x64x64:tn")
                        .with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.ELEMENTWISE).with("operation", "softmax", "rms-norm")
                        .with("row", "64").with("threads", all));
            }
            case QUICK -> {
                requests.add(stream.with("kernel", "TRIAD", "COPY", "SUM", "FILL").with("workingSet", "DRAM"));
                halfTeam(cpus).ifPresent(half -> requests.add(stream.with("kernel", "SUM").with("workingSet", "DRAM")
                        .with("threads", half)));
                requests.add(stream.with("kernel", "TRIAD").with("workingSet", "L1", "L2"));
                requests.add(SuiteRequest.of(SuiteBenchmark.FMA).with("elementType", "double", "float").with("threads", all));
                // The float GEMM: without it the model has only the FMA peak, which no matrix product reaches.
                requests.add(SuiteRequest.of(SuiteBenchmark.GEMM).with("elementType", "float").with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.PRODUCT).with("products", QUICK_PRODUCTS).with("threads", all));
            }
            case STANDARD, FULL -> {
                requests.add(stream.with("kernel", "COPY", "SCALE", "ADD", "TRIAD", "DOT", "NSTREAM", "SUM", "FILL", "BULK_COPY")
                        .with("workingSet", "DRAM"));
                requests.add(stream.with("kernel", "TRIAD").with("workingSet", "L1", "L2", "L3"));
                List<String> scaling = scalingThreads(cpus);
                if (!scaling.isEmpty()) {
                    requests.add(stream.with("kernel", "TRIAD").with("workingSet", "DRAM")
                            .with("threads", scaling.toArray(String[]::new)));
                }
                halfTeam(cpus).ifPresent(half -> requests.add(stream.with("kernel", "SUM").with("workingSet", "DRAM")
                        .with("threads", half)));
                requests.add(SuiteRequest.of(SuiteBenchmark.LATENCY).with("workingSet", "L1", "L2", "L3", "DRAM"));
                requests.add(SuiteRequest.of(SuiteBenchmark.FMA).with("elementType", "double", "float")
                        .with("threads", cpus == 1 ? new String[] {"1"} : new String[] {"1", all}));
                requests.add(SuiteRequest.of(SuiteBenchmark.GEMM).with("elementType", "double", "float")
                        .with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.PRODUCT).with("products", PRODUCTS).with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.ELEMENTWISE).with("operation", ROW_OPERATIONS)
                        .with("row", "256", "4096").with("threads", all));
                requests.add(SuiteRequest.of(SuiteBenchmark.ELEMENTWISE).with("operation", "gelu", "gelu-backward")
                        .with("row", "4096").with("threads", all));
                if (this == FULL) {
                    requests.add(stream.with("kernel", "COPY", "TRIAD", "SUM").with("elementType", "float")
                            .with("workingSet", "DRAM"));
                    requests.add(stream.with("kernel", "TRIAD", "COPY").with("workingSet", "sweep"));
                    requests.add(SuiteRequest.of(SuiteBenchmark.LATENCY).with("workingSet", "sweep"));
                    requests.add(stream.with("kernel", "COPY", "TRIAD", "SUM").with("implementation", "scalar")
                            .with("workingSet", "DRAM"));
                }
            }
        }
        return requests;
    }

    /**
     * What this mode measures on each core type (and, in {@code full}, each cluster) on its own, where a host has
     * several: the bandwidth its users ask of a DGX Spark (what the X925 cores, the A725 cores and all 20
     * together reach), with all of the placement's cpus. Compute and latency are measured on all cpus only, so the
     * model's compute ceilings are never a subset's.
     */
    public List<SuiteRequest> placementRequests() {
        SuiteRequest stream = SuiteRequest.of(SuiteBenchmark.STREAM).with("elementType", "double")
                .with("implementation", "vector").with("threads", "all");
        return switch (this) {
            case SMOKE -> List.of(stream.with("kernel", "TRIAD").with("workingSet", "64MiB"));
            case QUICK -> List.of(stream.with("kernel", "TRIAD", "COPY", "SUM").with("workingSet", "DRAM"));
            case STANDARD, FULL -> List.of(stream.with("kernel", "TRIAD", "COPY", "SUM").with("workingSet", "DRAM"),
                    stream.with("kernel", "TRIAD").with("workingSet", "L1", "L2", "L3"));
        };
    }

    /** Requests for each cluster where a host has several: {@code full} only, DRAM Triad. */
    public List<SuiteRequest> clusterRequests() {
        return this != FULL ? List.of() : List.of(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD")
                .with("elementType", "double").with("implementation", "vector").with("threads", "all")
                .with("workingSet", "DRAM"));
    }

    /**
     * Half the team, for Sum at DRAM: whether the full team saturated memory, which the write-allocation rule needs
     * before a write-only stream near a read-only one can mean that stores do not allocate; none on one cpu.
     */
    static java.util.Optional<String> halfTeam(int cpus) {
        return cpus < 2 ? java.util.Optional.empty() : java.util.Optional.of(Integer.toString(cpus / 2));
    }

    /** Team sizes below {@code cpus} for the scaling curve: 1, 2, 4, ... (the full team is measured anyway). */
    static List<String> scalingThreads(int cpus) {
        List<String> threads = new ArrayList<>();
        for (int t = 1; t < cpus; t *= 2) {
            threads.add(Integer.toString(t));
        }
        return threads;
    }

    /** True for a run whose figures are not the machine's ceilings. */
    /**
     * What the GPU suite runs in this mode: every device kernel on fp64 and fp32 at the L2 and DRAM working sets
     * (quick 5 measured passes, standard 10, full 20 with a sweep between them); smoke at tiny sizes.
     */
    public membound.benchmarks.gpu.GpuPlan gpuPlan() {
        return switch (this) {
            case SMOKE -> membound.benchmarks.gpu.GpuPlan.smokePlan();
            case QUICK -> membound.benchmarks.gpu.GpuPlan.of(false, 5).withGemm(
                    membound.benchmarks.gpu.GpuGemmPlan.of(ProductShape.parseList(QUICK_PRODUCTS), 5));
            case STANDARD -> membound.benchmarks.gpu.GpuPlan.of(false, 10).withGemm(
                    membound.benchmarks.gpu.GpuGemmPlan.of(ProductShape.parseList(PRODUCTS), 10));
            case FULL -> membound.benchmarks.gpu.GpuPlan.of(true, 20).withGemm(
                    membound.benchmarks.gpu.GpuGemmPlan.of(ProductShape.parseList(PRODUCTS), 20));
        };
    }

    public boolean isSmoke() {
        return this == SMOKE;
    }

    private TimeValue iterationTime() {
        return this == SMOKE ? TimeValue.milliseconds(200) : TimeValue.seconds(1);
    }

    /** JMH settings of this mode. */
    public Options settings() {
        return new OptionsBuilder()
                .warmupIterations(warmupIterations)
                .warmupTime(iterationTime())
                .measurementIterations(measurementIterations)
                .measurementTime(iterationTime())
                .forks(forks)
                .timeout(new TimeValue(10, TimeUnit.MINUTES))
                .shouldFailOnError(true)
                .build();
    }

    /** The settings as they are recorded in a profile, and compared by {@code membound fleet}. */
    public Map<String, String> recordedSettings() {
        Map<String, String> settings = new TreeMap<>();
        settings.put("mode", label());
        settings.put("jmh.forks", Integer.toString(forks));
        settings.put("jmh.warmupIterations", Integer.toString(warmupIterations));
        settings.put("jmh.warmupTime", iterationTime().toString());
        settings.put("jmh.measurementIterations", Integer.toString(measurementIterations));
        settings.put("jmh.measurementTime", iterationTime().toString());
        settings.put("jmh.mode", "SampleTime");
        return settings;
    }
}
