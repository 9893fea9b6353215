package membound.benchmarks.training;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.sizing.Counts;
import membound.benchmarks.sizing.Threads;
import membound.vocabulary.BadInputException;

/**
 * Time of one training step of an MLP ({@link MlpTraining}): forward, backward and AdamW on a fixed batch,
 * FP32. One operation is one step: about 6 × batch × parameters FLOPs in products (the first layer's input
 * needs no gradient: 4 ×), plus the elementwise passes and the optimizer's 36 bytes per parameter.
 *
 * <p><b>Expected shape.</b> Compute-bound: the products take most of the step at about the calibrated GEMM
 * rate (they are the same kernel); the optimizer pass adds its bytes over the DRAM bandwidth.
 *
 * <p><b>Pitfalls guarded against.</b> The loss must be finite after every iteration and, once it has run more
 * than one step, lower at the end of the trial than at its first step (a step that computed the wrong gradients would not train).
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=MlpBenchmark -Djmh.batch=512}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class MlpBenchmark {

    /** Input width, hidden widths, classes. */
    @Param({"1024,2048,2048,1024"})
    public String widths;

    /** Samples per step. */
    @Param({"512"})
    public int batch;

    @Param({"all"})
    public String threads;

    private MlpTraining mlp;
    private final LossTrace losses = new LossTrace("MLP training");

    /** The seed of the weights and of the batch, the same in every run. */
    static final long SEED = 42;

    @Setup(Level.Trial)
    public void setUp() {
        mlp = workload(widths, batch, threads);
    }

    private static MlpTraining workload(String widths, int batch, String threads) {
        return new MlpTraining(parseWidths(widths), batch, Threads.resolve(threads), AdamWSettings.DEFAULTS, SEED, true);
    }

    /** The workload of a trial with these parameters ({@code threads} absent: every cpu), outside JMH. */
    static MlpTraining workload(Function<String, String> param) {
        return workload(param.apply("widths"), Integer.parseInt(param.apply("batch")),
                Objects.requireNonNullElse(param.apply("threads"), "all"));
    }

    @Benchmark
    public double step() {
        return losses.record(mlp.step());
    }

    @TearDown(Level.Iteration)
    public void check() {
        losses.checkFinite();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            losses.checkFell();
        } finally {
            if (mlp != null) {
                mlp.close();
            }
        }
    }

    /**
     * Heap a fork holds for the largest pair of {@code widths} and {@code batches}: see
     * {@link MlpTraining#footprintBytes}.
     *
     * @throws BadInputException for widths {@link #parseWidths} refuses or a batch that is no positive whole number
     */
    public static long footprintBytes(List<String> widths, List<String> batches) {
        long footprint = 0;
        for (String width : widths) {
            for (String batch : batches) {
                footprint = Math.max(footprint, MlpTraining.footprintBytes(parseWidths(width),
                        Counts.positiveInt("batch", batch)));
            }
        }
        return footprint;
    }

    /**
     * {@code 1024,2048,1024} to widths.
     *
     * @throws BadInputException unless the text is two or more positive whole numbers
     */
    public static int[] parseWidths(String text) {
        try {
            int[] values = Arrays.stream(text.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
            if (values.length >= 2 && Arrays.stream(values).allMatch(w -> w > 0)) {
                return values;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("widths must be two or more positive whole numbers: widths=" + text);
    }
}
