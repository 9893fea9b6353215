package membound.benchmarks.latency;

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
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.WorkingSet;

/**
 * Load-to-use latency per working set, from L1 to DRAM: a chase of dependent loads through a random
 * cycle over every cache line of the working set ({@link PointerChase}).
 *
 * <p>One operation is a chase of {@value #STEPS_PER_INVOCATION} dependent loads (JMH's samples are whole
 * nanoseconds, too coarse for a single L1 load); SampleTime keeps their distribution, from which the suite
 * reports p50, p90 and p99 per load.
 *
 * <p><b>Expected shape.</b> A few ns in L1 (4-5 cycles), ~10-15 cycles in L2, 30-50 in L3, and ~80-130 ns in
 * DRAM (Chips and Cheese measured about 113 ns on the DGX Spark's CPU). Steps appear at each cache size.
 *
 * <p><b>Pitfalls guarded against.</b> One slot per 64-byte line and a random single cycle defeat the
 * prefetchers and spatial locality; the seed is fixed so every run chases the same cycle; the position the
 * chase reaches is checked against the visiting order after every iteration.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=LatencyBenchmark -Djmh.workingSet=sweep}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Thread)
public class LatencyBenchmark {

    /** Dependent loads per invocation: enough that the timer's own cost (~20 ns) stays under 1%. */
    public static final int STEPS_PER_INVOCATION = 4096;

    /** Bytes the chase spans: a cache level (L1, L2, L3), DRAM, or a size; see {@link WorkingSet}. */
    @Param({"L1", "L2", "L3", "DRAM"})
    public String workingSet;

    private PointerChase chase;
    private int position;
    private long steps;

    @Setup(Level.Trial)
    public void setUp() {
        // One thread chases: where the fork is pinned, it is bound to its placement's first cpu.
        CpuBinding.ofFork().bind(0);
        WorkingSet size = WorkingSet.resolveSingle(workingSet, CacheSizes::detect);
        chase = PointerChase.build(size.arrayBytes(), 0x5EED);
        position = chase.start();
        steps = 0;
    }

    @Benchmark
    public int chase() {
        position = chase.chase(position, STEPS_PER_INVOCATION);
        steps += STEPS_PER_INVOCATION;
        return position;
    }

    @TearDown(Level.Iteration)
    public void check() {
        int expected = chase.positionAfter(steps);
        if (position != expected) {
            throw new IllegalStateException("pointer chase failed validation after " + steps + " steps: position "
                    + position + " but the visiting order gives " + expected);
        }
    }

    /** Heap a fork holds for a chase of {@code workingSetBytes}: its slots span it, its visiting order one int per line. */
    public static long footprintBytes(long workingSetBytes) {
        return workingSetBytes + workingSetBytes / 16;
    }
}
