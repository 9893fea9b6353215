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
import membound.benchmarks.sizing.Counts;
import membound.benchmarks.sizing.Threads;
import membound.vocabulary.BadInputException;

/**
 * Time of one AdamW optimizer step ({@link OptimizerStep}) over tens of millions of FP32 parameters: the
 * gradient norm, the update and zeroing the gradients, every thread on its own slice. One operation is one
 * step; it moves 36 bytes per parameter (4 + 28 + 4) for about 15 FLOPs.
 *
 * <p><b>Expected shape.</b> Bandwidth-bound: the step takes the bytes over the DRAM bandwidth of the three
 * passes' access patterns (a read, a several-in-several-out update, a write), so 32 Mi parameters take
 * about a tenth of a second at 10 GB/s.
 *
 * <p><b>Pitfalls guarded against.</b> Each thread allocates and first touches its slice; the starting values
 * are restored before every iteration (outside the measurement) so the moments never decay into subnormal
 * floats; after every iteration the steps are replayed with the scalar twins on the first elements, which
 * must agree bit for bit.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=OptimizerBenchmark -Djmh.parameters=33554432}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class OptimizerBenchmark {

    /** FP32 parameters updated per step (32 Mi: 512 MiB of parameters, gradients and moments). */
    @Param({"33554432"})
    public long parameters;

    /** Threads in the team: a number, or {@code all} for every cpu this JVM may use. */
    @Param({"all"})
    public String threads;

    private OptimizerStep optimizer;

    @Setup(Level.Trial)
    public void setUp() {
        optimizer = workload(parameters, threads);
    }

    private static OptimizerStep workload(long parameters, String threads) {
        return new OptimizerStep(parameters, Threads.resolve(threads), AdamWSettings.DEFAULTS);
    }

    /** The workload of a trial with these parameters ({@code threads} absent: every cpu), outside JMH. */
    static OptimizerStep workload(Function<String, String> param) {
        return workload(Long.parseLong(param.apply("parameters")),
                Objects.requireNonNullElse(param.apply("threads"), "all"));
    }

    @Setup(Level.Iteration)
    public void reset() {
        optimizer.reset();
    }

    @Benchmark
    public double step() {
        return optimizer.step();
    }

    @TearDown(Level.Iteration)
    public void check() {
        optimizer.check();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (optimizer != null) {
            optimizer.close();
        }
    }

    /** Bytes one step moves per parameter, as the code reads and writes them. */
    public static final int BYTES_PER_PARAMETER = 36;

    /**
     * Heap a fork holds for the largest of {@code parameters}: see {@link OptimizerStep#footprintBytes}.
     *
     * @throws BadInputException for a count that is not a positive whole number
     */
    public static long footprintBytes(List<String> parameters) {
        return parameters.stream().mapToLong(value -> OptimizerStep.footprintBytes(Counts.positive("parameters", value)))
                .max().orElse(0);
    }
}
