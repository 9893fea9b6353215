package membound.benchmarks.stream;

import java.util.Arrays;
import java.util.List;
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
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.sizing.WorkingSet;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Implementation;
import membound.vocabulary.units.Units;

/**
 * Memory bandwidth of the STREAM kernels (Copy, Scale, Add, Triad), BabelStream's Dot and Nstream, a
 * read-only Sum and a write-only Fill, per element type, working set and thread count.
 *
 * <p><b>What one operation is.</b> One pass: every thread of the team runs the kernel over its own slice
 * (repeated for cache-sized slices, see {@link StreamWorkload#repsPerPass()}), all starting together; the
 * pass ends when the slowest thread finishes. The score is the time per pass (SampleTime, so the JSON
 * result keeps the distribution); bytes per pass come from {@link StreamWorkload}, under STREAM's
 * convention and in hardware bytes (write-allocate assumed, {@link StreamKernel#ASSUMED_STORES_ALLOCATE}, unless
 * a calibration measured this CPU's stores). The suite's table ({@code BenchmarkMain}) prints both as bytes/s.
 *
 * <p><b>Expected shape.</b> Bandwidth steps down at each cache level and plateaus once every array
 * exceeds ~4× the last-level cache ({@code workingSet=DRAM}). Where stores allocate, Triad and Add land near
 * Copy in hardware bytes; in STREAM bytes they look ~25% lower than the memory really moves, because Java
 * cannot issue non-temporal stores and such a store first reads its line.
 *
 * <p><b>Pitfalls guarded against.</b> Arrays are allocated and first touched by the thread that streams
 * them; every answer is checked against STREAM's closed form (reductions after every pass, arrays after the
 * last: written-only arrays start as NaN and Nstream accumulates, so a wrong or missing pass shows; a wrong
 * answer fails the run); cache-sized passes are repeated so the start/stop cost of the team stays under ~1%; the working set
 * is derived from the detected caches, never hard-coded.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=Triad -Djmh.threads=1,2}, or
 * {@code java -jar benchmarks/target/benchmarks.jar StreamBenchmark -p workingSet=L1,L2,DRAM}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class StreamBenchmark {

    /** Every kernel unless told: a bare {@code @Param} on an enum takes its constants, in their order. */
    @Param
    public StreamKernel kernel;

    /** {@code double} or {@code float}. */
    @Param({"double"})
    public String elementType;

    /** A cache level (L1, L2, L3), DRAM, or the bytes of each array (64MiB); see {@link WorkingSet}. */
    @Param({"DRAM"})
    public String workingSet;

    /** Threads in the team: a number, or {@code all} for every cpu this JVM may use. */
    @Param({"all"})
    public String threads;

    /** {@code vector} (Vector API) or {@code scalar} (the plain loop, as the JIT vectorises it). */
    @Param({"vector"})
    public String implementation;

    private StreamRun run;

    @Setup(Level.Trial)
    public void setUp() {
        int teamSize = Threads.resolve(threads);
        WorkingSet size = WorkingSet.resolve(workingSet, teamSize, CacheSizes::detect);
        StreamWorkload workload = StreamWorkload.of(kernel, ElementType.of(elementType), size.arrayBytes(), teamSize);
        try {
            run = StreamRun.start(workload, Implementation.kernelTwin(implementation), CpuBinding.ofFork());
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("working set " + size.parameter() + " needs about "
                    + Units.formatBytes(workload.footprintBytes()) + " of heap: run through the suite's main "
                    + "(it sizes -Xmx) or pass -jvmArgsAppend -Xmx...", e);
        }
    }

    @Benchmark
    public void pass() {
        run.pass();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (run != null) {
            try {
                run.check();
            } finally {
                run.close();
            }
        }
    }

    /**
     * Heap a fork holds for {@code kernels} with arrays of {@code arrayBytes}: the arrays of the kernel that
     * touches most (each fork runs one kernel, with only the arrays it touches).
     *
     * @throws BadInputException for a name that is no kernel
     */
    public static long footprintBytes(List<String> kernels, long arrayBytes) {
        return arrayBytes * kernels.stream().mapToInt(name -> kernel(name).arrays()).max().orElse(0);
    }

    /**
     * The kernel a user named ({@code Triad}, {@code triad}, {@code TRIAD}).
     *
     * @throws BadInputException naming the kernels there are
     */
    public static StreamKernel kernel(String name) {
        return StreamKernel.of(name);
    }

    /** The kernels as STREAM prints them: {@code Copy, Scale, ...}. */
    public static String kernelLabels() {
        return String.join(", ", Arrays.stream(StreamKernel.values()).map(StreamKernel::label).toList());
    }
}
