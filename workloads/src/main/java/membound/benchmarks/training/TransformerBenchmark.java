package membound.benchmarks.training;

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
import membound.benchmarks.sizing.Threads;
import membound.vocabulary.BadInputException;

/**
 * Time of one training step of a one-layer transformer language model ({@link TransformerTraining}):
 * embedding, attention, MLP, norms and residuals, the output layer and cross-entropy, backward, AdamW; FP32.
 * One operation is one step.
 *
 * <p><b>Expected shape.</b> A mix: the projections and the output layer are compute-bound products; the
 * materialized attention scores, softmax, norms, residual adds, GELU and the optimizer are memory-bound passes
 * whose working sets range from a few hundred KiB to tens of MiB.
 *
 * <p><b>Pitfalls guarded against.</b> The loss must be finite after every iteration and, once it has run more
 * than one step, lower at the end of the trial than at its first step.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=TransformerBenchmark}; {@code shape} is
 * {@code vocabulary,hidden,heads,intermediate,sequence,batch}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class TransformerBenchmark {

    /** vocabulary,hidden,heads,intermediate,sequence,batch. */
    @Param({"2048,256,4,1024,256,4"})
    public String shape;

    @Param({"all"})
    public String threads;

    private TransformerTraining transformer;
    private final LossTrace losses = new LossTrace("transformer training");

    /** The seed of the weights and of the batch, the same in every run. */
    static final long SEED = 42;

    @Setup(Level.Trial)
    public void setUp() {
        transformer = workload(shape, threads);
    }

    private static TransformerTraining workload(String shape, String threads) {
        return new TransformerTraining(TransformerShape.parse(shape), Threads.resolve(threads), AdamWSettings.DEFAULTS,
                SEED, true);
    }

    /** The workload of a trial with these parameters ({@code threads} absent: every cpu), outside JMH. */
    static TransformerTraining workload(Function<String, String> param) {
        return workload(param.apply("shape"), Objects.requireNonNullElse(param.apply("threads"), "all"));
    }

    @Benchmark
    public double step() {
        return losses.record(transformer.step());
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
            if (transformer != null) {
                transformer.close();
            }
        }
    }

    /**
     * Heap a fork holds for the largest of {@code shapes}: see {@link TransformerTraining#footprintBytes}.
     *
     * @throws BadInputException for a shape {@link TransformerShape#parse} refuses
     */
    public static long footprintBytes(List<String> shapes) {
        return shapes.stream().mapToLong(value -> TransformerTraining.footprintBytes(TransformerShape.parse(value)))
                .max().orElse(0);
    }
}
