package membound.benchmarks.compute;

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
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.team.ThreadTeam;
import membound.vocabulary.BadInputException;

/**
 * Attainable FLOP/s of a cache-blocked GEMM ({@link Gemm}), {@code C = A · B} with square {@code n × n}
 * matrices; the rows of A and C are split over the team, each thread owning and first-touching its rows,
 * B shared. One operation is one multiplication: 2·n³ FLOPs.
 *
 * <p><b>Expected shape.</b> A good fraction of {@link FmaBenchmark}'s peak (the micro-kernel issues 2 loads
 * and 4 broadcasts per 8 FMAs); this, not the FMA peak, is the compute ceiling a matrix multiply meets.
 *
 * <p><b>Pitfalls guarded against.</b> Matrices hold small integers so C is exact; sampled entries of every
 * thread's rows are checked against the closed form after each iteration.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=GemmBenchmark -Djmh.params=n=512,1024}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class GemmBenchmark {

    /** Entries of C checked per thread after each iteration, spread over its rows and columns. */
    static final int CHECKED_ENTRIES = 64;
    /** Largest matrix order the suite accepts. */
    public static final int MAX_ORDER = 16384;

    @Param({"double", "float"})
    public String elementType;

    @Param({"all"})
    public String threads;

    /** Matrix order. */
    @Param({"1024"})
    public int n;

    private ThreadTeam<Slice> team;

    /** One thread's rows of A and C; B is shared. */
    static final class Slice {
        final int rowFrom;
        final int rows;
        final double[] aDouble;
        final double[] cDouble;
        final float[] aFloat;
        final float[] cFloat;

        Slice(boolean doubles, int n, int rowFrom, int rows) {
            this.rowFrom = rowFrom;
            this.rows = rows;
            this.aDouble = doubles ? Gemm.fillA(n, rowFrom, rowFrom + rows, new double[rows * n]) : null;
            this.cDouble = doubles ? new double[rows * n] : null;
            this.aFloat = doubles ? null : Gemm.fillA(n, rowFrom, rowFrom + rows, new float[rows * n]);
            this.cFloat = doubles ? null : new float[rows * n];
        }

        double c(int row, int column, int n) {
            int index = (row - rowFrom) * n + column;
            return cDouble != null ? cDouble[index] : cFloat[index];
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        if (n < 1 || n > MAX_ORDER) {
            throw new BadInputException("n must be from 1 to " + MAX_ORDER + ": n=" + n);
        }
        boolean doubles = FmaBenchmark.isDouble(elementType);
        int teamSize = Math.min(Threads.resolve(threads), Math.max(1, n / Gemm.ROWS));
        double[] bDouble = doubles ? Gemm.fillB(n, new double[n * n]) : null;
        float[] bFloat = doubles ? null : Gemm.fillB(n, new float[n * n]);
        int order = n;
        team = new ThreadTeam<>(teamSize, CpuBinding.ofFork(), thread -> {
            int from = rowStart(order, teamSize, thread);
            return new Slice(doubles, order, from, rowStart(order, teamSize, thread + 1) - from);
        }, slice -> {
            if (doubles) {
                Gemm.multiply(slice.aDouble, bDouble, slice.cDouble, slice.rows, order);
            } else {
                Gemm.multiply(slice.aFloat, bFloat, slice.cFloat, slice.rows, order);
            }
        });
    }

    /** First row of thread {@code thread}: slices are whole 4-row tiles, the last takes the remainder. */
    static int rowStart(int n, int threads, int thread) {
        int tiles = n / Gemm.ROWS;
        return thread >= threads ? n : (int) ((long) tiles * thread / threads) * Gemm.ROWS;
    }

    @Benchmark
    public void multiply() {
        team.runPass();
    }

    @TearDown(Level.Iteration)
    public void check() {
        for (int t = 0; t < team.threads(); t++) {
            Slice slice = team.state(t);
            for (int e = 0; e < CHECKED_ENTRIES && slice.rows > 0; e++) {
                int row = slice.rowFrom + (int) ((long) e * 7919 % slice.rows);
                int column = (int) ((long) e * 104729 % n);
                double actual = slice.c(row, column, n);
                long expected = Gemm.expected(n, row, column);
                if (actual != expected) {
                    throw new IllegalStateException("GEMM (" + elementType + ", n=" + n + ") failed validation on thread "
                            + t + ": C[" + row + "][" + column + "]=" + actual + " but the closed form gives " + expected);
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

    /** FLOPs in one multiplication of order {@code n}. */
    public static double flopsPerMultiply(int n) {
        return 2.0 * n * n * n;
    }

    /**
     * Heap a fork holds for the largest of {@code orders}: A, B and C, sized for doubles (floats take half).
     *
     * @throws BadInputException for an order that is not a whole number from 1 to {@link #MAX_ORDER}
     */
    public static long footprintBytes(List<String> orders) {
        return 3L * Double.BYTES * orders.stream().mapToLong(value -> {
            long n = order(value);
            return n * n;
        }).max().orElse(0);
    }

    /** The matrix order {@code value} names; a wrong one is a {@link BadInputException}. */
    public static int order(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= MAX_ORDER) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("n must be a matrix order from 1 to " + MAX_ORDER + ": n=" + value);
    }
}
