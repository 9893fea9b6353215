package membound.benchmarks.compute;

import java.util.List;
import java.util.SplittableRandom;
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
import membound.vocabulary.RowOperation;

/**
 * Elements per second of one {@link RowOperation} of a training step ({@link Elementwise}'s Vector API
 * kernels, the reference workloads' own), on rows of {@code row} elements, every thread on its own rows.
 *
 * <p><b>What it measures.</b> The operation's compute: each thread's arrays (about
 * {@link #ELEMENTS_PER_THREAD} elements each) stay in its L2 cache, so the rate is what the operation's
 * transcendentals and reductions allow, not what memory allows; the model takes the slower of this and the
 * operation's bytes at the memory's rate. One pass processes {@code threads × rows × row} elements (a causal
 * softmax counts every score of its rows, the masked ones too, as the model counts them).
 *
 * <p><b>Pitfalls guarded against.</b> Inputs are fixed and outputs go elsewhere (the softmax, which works in
 * place, stays a softmax of a softmax: finite, and never denormal), and after each iteration the first and
 * last rows of every thread are checked: softmax and cross-entropy rows sum to 1, norm rows have a mean
 * square of 1 (less ε's share), GELU agrees with its scalar twin.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=ElementwiseBenchmark -Djmh.operation=softmax,gelu}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class ElementwiseBenchmark {

    /** Elements per array per thread: 64 KiB of floats, so a thread's few arrays fit its L2 cache. */
    static final int ELEMENTS_PER_THREAD = 16384;
    static final float EPSILON = 1e-5f;
    /** Longest row accepted. */
    public static final int MAX_ROW = 1 << 20;

    /** See {@link RowOperation#label()}. */
    @Param({"softmax", "cross-entropy", "gelu", "gelu-backward", "rms-norm", "rms-norm-backward"})
    public String operation;

    /** Elements per row: keys of a softmax row, the vocabulary of cross-entropy, the hidden size of a norm. */
    @Param({"1024"})
    public int row;

    @Param({"all"})
    public String threads;

    private RowOperation kind;
    private int rowsPerThread;
    private ThreadTeam<Rows> team;

    /** One thread's rows: inputs, outputs and what the backward passes need. */
    static final class Rows {
        final float[] in;
        final float[] other;
        final float[] out;
        final float[] gamma;
        final float[] dGamma;
        final int[] valid;
        final int[] targets;

        Rows(int rows, int row, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            in = gaussian(random, rows * row);
            other = gaussian(random, rows * row);
            out = new float[rows * row];
            gamma = new float[row];
            java.util.Arrays.fill(gamma, 1f);
            dGamma = new float[row];
            valid = new int[rows];
            targets = new int[rows];
            for (int r = 0; r < rows; r++) {
                // Causal rows spread over the block: on average (row + 1) / 2 keys, as a row x row block has.
                valid[r] = 1 + (int) ((2L * r + 1) * (row - 1) / (2L * rows));
                targets[r] = random.nextInt(row);
            }
        }

        static float[] gaussian(SplittableRandom random, int n) {
            float[] values = new float[n];
            for (int i = 0; i < n; i++) {
                values[i] = (float) (random.nextGaussian());
            }
            return values;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        kind = RowOperation.of(operation);
        if (row < 1 || row > MAX_ROW) {
            throw new BadInputException("row must be from 1 to " + MAX_ROW + " elements: row=" + row);
        }
        rowsPerThread = Math.max(1, ELEMENTS_PER_THREAD / row);
        int teamSize = Threads.resolve(threads);
        int rows = rowsPerThread;
        int width = row;
        team = new ThreadTeam<>(teamSize, CpuBinding.ofFork(), thread -> new Rows(rows, width, 17L * thread + 1),
                this::run);
    }

    private void run(Rows r) {
        int n = row;
        switch (kind) {
            case SOFTMAX -> {
                for (int i = 0; i < rowsPerThread; i++) {
                    Elementwise.causalSoftmax(r.in, i * n, n, r.valid[i], 0.125f);
                }
            }
            case CROSS_ENTROPY -> {
                for (int i = 0; i < rowsPerThread; i++) {
                    Elementwise.softmaxCrossEntropy(r.in, i * n, r.out, i * n, n, r.targets[i]);
                }
            }
            case GELU -> Elementwise.gelu(r.in, 0, r.out, 0, rowsPerThread * n);
            case GELU_BACKWARD -> Elementwise.geluBackward(r.other, 0, r.in, 0, r.out, 0, rowsPerThread * n);
            case RMS_NORM -> {
                for (int i = 0; i < rowsPerThread; i++) {
                    Elementwise.rmsNorm(r.in, i * n, r.gamma, 0, r.out, i * n, n, EPSILON);
                }
            }
            case RMS_NORM_BACKWARD -> {
                for (int i = 0; i < rowsPerThread; i++) {
                    Elementwise.rmsNormBackward(r.other, i * n, r.in, i * n, r.gamma, 0, 1f, r.out, i * n, r.dGamma, 0,
                            n);
                }
            }
        }
    }

    @Benchmark
    public void pass() {
        team.runPass();
    }

    /** What one thread's rows hold: three arrays of its elements, γ and its gradient. */
    public static long bytesPerThread(int row) {
        long elements = (long) Math.max(1, ELEMENTS_PER_THREAD / row) * row;
        return Float.BYTES * (3 * elements + 2L * row);
    }

    /** Elements one pass processes on {@code threads} threads. */
    public static long elementsPerPass(int threads, int row) {
        return (long) threads * Math.max(1, ELEMENTS_PER_THREAD / row) * row;
    }

    @TearDown(Level.Iteration)
    public void check() {
        for (int t = 0; t < team.threads(); t++) {
            Rows r = team.state(t);
            for (int i : new int[] {0, rowsPerThread - 1}) {
                checkRow(r, i, t);
            }
        }
    }

    private void checkRow(Rows r, int i, int thread) {
        int n = row;
        int from = i * n;
        switch (kind) {
            case SOFTMAX -> expectNear(sum(r.in, from, n), 1, "row " + i + " of its softmax sums to", thread);
            case CROSS_ENTROPY -> expectNear(sum(r.out, from, n), 1, "row " + i + " of its probabilities sums to",
                    thread);
            case RMS_NORM -> {
                double squares = 0;
                double inputSquares = 0;
                for (int j = 0; j < n; j++) {
                    squares += (double) r.out[from + j] * r.out[from + j];
                    inputSquares += (double) r.in[from + j] * r.in[from + j];
                }
                // y = x / sqrt(mean(x²) + ε): mean(y²) = mean(x²) / (mean(x²) + ε), 1 but for tiny rows.
                double meanSquare = inputSquares / n;
                expectNear(squares / n, meanSquare / (meanSquare + EPSILON),
                        "row " + i + " of its norm has a mean square of", thread);
            }
            case GELU, GELU_BACKWARD -> {
                float[] scalar = new float[n];
                if (kind == RowOperation.GELU) {
                    Elementwise.geluScalar(r.in, from, scalar, 0, n);
                } else {
                    Elementwise.geluBackwardScalar(r.other, from, r.in, from, scalar, 0, n);
                }
                for (int j = 0; j < n; j++) {
                    if (!(Math.abs(scalar[j] - r.out[from + j]) <= 1e-4 * Math.max(1, Math.abs(scalar[j])))) {
                        fail(thread, "element " + (from + j) + " is " + r.out[from + j] + " but the scalar twin gives "
                                + scalar[j]);
                    }
                }
            }
            case RMS_NORM_BACKWARD -> {
                for (int j = 0; j < n; j++) {
                    if (!Float.isFinite(r.out[from + j])) {
                        fail(thread, "element " + (from + j) + " of its gradient is " + r.out[from + j]);
                    }
                }
            }
        }
    }

    private static double sum(float[] values, int from, int n) {
        double total = 0;
        for (int j = 0; j < n; j++) {
            total += values[from + j];
        }
        return total;
    }

    private void expectNear(double actual, double expected, String what, int thread) {
        if (!(Math.abs(actual - expected) <= 1e-3)) {
            fail(thread, what + " " + actual + ", not " + expected);
        }
    }

    private void fail(int thread, String what) {
        throw new IllegalStateException(kind.label() + " (row " + row + ") failed validation on thread " + thread + ": "
                + what);
    }

    /** Thread {@code thread}'s rows (tests). */
    Rows rows(int thread) {
        return team.state(thread);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (team != null) {
            team.close();
        }
    }

    /**
     * Heap a fork holds on {@code threads} threads for the longest of {@code rows}; every one of
     * {@code operations} is checked too, so that a wrong one is a one-line error before any fork runs.
     *
     * @throws BadInputException for an operation that is none, or a row that is not from 1 to {@link #MAX_ROW}
     */
    public static long footprintBytes(List<String> operations, List<String> rows, int threads) {
        operations.forEach(ElementwiseBenchmark::operation);
        return rows.stream().mapToLong(row -> bytesPerThread(row(row))).max().orElse(0) * threads;
    }

    private static RowOperation operation(String label) {
        return RowOperation.of(label);
    }

    private static int row(String value) {
        try {
            int row = Integer.parseInt(value.trim());
            if (row >= 1 && row <= MAX_ROW) {
                return row;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("row must be from 1 to " + MAX_ROW + " elements: row=" + value);
    }
}
