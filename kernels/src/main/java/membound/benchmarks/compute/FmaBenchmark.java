package membound.benchmarks.compute;

import java.util.concurrent.TimeUnit;

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
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.team.ThreadTeam;
import membound.vocabulary.BadInputException;

/**
 * Peak FLOP/s: every thread of the team runs {@link FmaPeak}'s register-resident FMA chains for
 * {@value #STEPS_PER_PASS} steps; one operation is one pass (first start to last finish).
 * FLOPs per pass: 2 × lanes × {@value FmaPeak#ACCUMULATORS} × steps × threads.
 *
 * <p><b>Expected shape.</b> Near cores × FMA units × lanes × 2 × clock: e.g. one AVX-512 core with two FMA
 * pipes at 4 GHz gives 128 GFLOP/s in double, twice that in float; scaling with threads up to the core count.
 * Java's Vector API has no half-precision or bf16 arithmetic, so the CPU ceilings stop at float.
 *
 * <p><b>Pitfalls guarded against.</b> No memory traffic in the loop; independent chains hide the FMA latency;
 * each pass's result is checked exactly against scalar {@link Math#fma}, so a loop the JIT folded away fails.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=FmaBenchmark -Djmh.threads=1,all}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class FmaBenchmark {

    /** Steps per thread per pass: ~1-10 ms of work, long against the team's start and stop. */
    public static final int STEPS_PER_PASS = 1 << 20;

    @Param({"double", "float"})
    public String elementType;

    @Param({"all"})
    public String threads;

    private ThreadTeam<double[]> team;
    private double[] expected;

    @Setup(Level.Trial)
    public void setUp() {
        boolean doubles = isDouble(elementType);
        expected = new double[FmaPeak.ACCUMULATORS];
        for (int k = 0; k < expected.length; k++) {
            expected[k] = doubles ? FmaPeak.expectedDouble(k, STEPS_PER_PASS) : FmaPeak.expectedFloat(k, STEPS_PER_PASS);
        }
        team = new ThreadTeam<>(Threads.resolve(threads), CpuBinding.ofFork(), thread -> new double[FmaPeak.ACCUMULATORS], out -> {
            if (doubles) {
                FmaPeak.runDouble(STEPS_PER_PASS, out);
            } else {
                float[] result = new float[FmaPeak.ACCUMULATORS];
                FmaPeak.runFloat(STEPS_PER_PASS, result);
                for (int k = 0; k < result.length; k++) {
                    out[k] = result[k];
                }
            }
        });
    }

    @Benchmark
    public void pass() {
        team.runPass();
    }

    @TearDown(Level.Iteration)
    public void check() {
        for (int t = 0; t < team.threads(); t++) {
            double[] out = team.state(t);
            for (int k = 0; k < out.length; k++) {
                if (out[k] != expected[k]) {
                    throw new IllegalStateException("FMA peak (" + elementType + ") failed validation on thread " + t
                            + ": accumulator " + k + "=" + out[k] + " but scalar Math.fma gives " + expected[k]);
                }
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (team != null) {
            team.close();
        }
    }

    static boolean isDouble(String elementType) {
        return switch (elementType.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "double" -> true;
            case "float" -> false;
            default -> throw new BadInputException("elementType must be double or float: elementType="
                    + elementType);
        };
    }

    /** FLOPs in one pass of {@code threads} threads. */
    public static long flopsPerPass(boolean doubles, int threads) {
        return FmaPeak.flops(doubles, STEPS_PER_PASS) * threads;
    }

    /** Heap a fork holds: none to speak of, the chains live in registers. */
    public static long footprintBytes() {
        return 0;
    }
}
