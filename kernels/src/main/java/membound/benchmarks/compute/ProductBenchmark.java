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

import membound.benchmarks.compute.Matmul.View;
import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.team.ThreadTeam;
import membound.vocabulary.BadInputException;
import membound.vocabulary.ProductShape;

/**
 * Attainable FLOP/s of the float products a training step runs ({@link Matmul}, the kernel of the reference
 * workloads), at several shapes and layouts ({@link ProductShape}): {@code C = A·B}, {@code A·Bᵀ} or
 * {@code Aᵀ·B}. As the workloads split them, the rows of C are split over the team in whole 4-row tiles, and
 * a batch of products (attention's, one per sequence and head) in whole products when it has one per thread.
 *
 * <p><b>Why shapes.</b> A training step's products are rarely square: a weight gradient of a 256-wide layer
 * over 1024 tokens is 256 × n × 1024 in the {@code tn} layout; attention over 64-wide heads multiplies
 * 256 × 256 × 64. How fast each runs is what the model needs to time it; it looks up the nearest measured
 * shape of the same layout.
 *
 * <p><b>Interleaved.</b> One operation runs every shape once, one after another, and {@link ProductTimes}
 * reports each shape's own pass times as secondary results (JMH's primary score is the whole round). On a
 * shared machine whose speed drifts over seconds, shapes measured one trial after another would differ by
 * the drift; interleaved, every shape sees the same machine, and their ratios hold.
 *
 * <p><b>Operands from memory.</b> Consecutive passes of a shape use different operands, from enough sets that
 * together they exceed {@link #ROTATED_BYTES}: in a training step, a product meets operands that other
 * operations have pushed out of the caches since they were written, not the ones it used a moment ago.
 *
 * <p><b>Pitfalls guarded against.</b> Operands hold small integers, so every entry of C is exact in float;
 * sampled entries of every set a pass wrote are checked against a dot product after each iteration.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=ProductBenchmark
 * -Djmh.products=1024x1024x1024:nn+256x1024x1024:tn} (the suite adds the {@link ProductTimes} profiler).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class ProductBenchmark {

    /** Largest dimension accepted: a 16384 × 16384 float matrix is 1 GiB. */
    public static final int MAX_DIMENSION = 16384;
    /** Largest batch accepted. */
    public static final int MAX_BATCH = 4096;

    /** Operand sets of a shape rotate until together they hold at least this much (at most {@link #MAX_SETS}). */
    static final long ROTATED_BYTES = 64L << 20;
    static final int MAX_SETS = 64;
    /** Entries of C checked per set after each iteration. */
    static final int CHECKED_ENTRIES = 32;

    /** Shapes {@code MxNxK:layout} joined by {@code +}, see {@link ProductShape#parseList}. */
    @Param({"1024x1024x1024:nn+256x1024x1024:tn"})
    public String products;

    @Param({"all"})
    public String threads;

    private List<ProductShape> shapes;
    private Operands[] operands;
    private int teamSize;
    private ThreadTeam<Integer> team;
    /** The shape the next pass runs; published to the workers by the team's start of a pass. */
    private int current;

    /** A shape's operand sets, the set its next pass uses, and which sets a pass has written. */
    static final class Operands {
        final ProductShape shape;
        final float[][] a;
        final float[][] b;
        /** Package-private so that a test can corrupt a result and see the check fail. */
        final float[][] c;
        final boolean[] used;
        int set;

        Operands(ProductShape shape, int seed) {
            this.shape = shape;
            int sets = sets(shape);
            a = new float[sets][];
            b = new float[sets][];
            c = new float[sets][];
            used = new boolean[sets];
            for (int s = 0; s < sets; s++) {
                a[s] = fill(new float[shape.batch() * shape.m() * shape.k()], seed + 3 + s);
                b[s] = fill(new float[shape.batch() * shape.k() * shape.n()], seed + 5 + s);
                c[s] = new float[shape.batch() * shape.m() * shape.n()];
            }
        }

        /** C[row][column] of product {@code p} of set {@code s}, by the definition of the layout. */
        float expected(int s, int p, int row, int column) {
            int m = shape.m();
            int n = shape.n();
            int k = shape.k();
            int aOffset = p * m * k;
            int bOffset = p * k * n;
            float sum = 0;
            for (int kk = 0; kk < k; kk++) {
                float left = shape.layout() == ProductShape.Layout.TN ? a[s][aOffset + kk * m + row]
                        : a[s][aOffset + row * k + kk];
                float right = shape.layout() == ProductShape.Layout.NT ? b[s][bOffset + column * k + kk]
                        : b[s][bOffset + kk * n + column];
                sum += left * right;
            }
            return sum;
        }

        /** C[row][column] of product {@code p} of set {@code s} as computed. */
        float actual(int s, int p, int row, int column) {
            return c[s][p * shape.m() * shape.n() + row * shape.n() + column];
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        shapes = shapes(products);
        operands = new Operands[shapes.size()];
        for (int i = 0; i < operands.length; i++) {
            operands[i] = new Operands(shapes.get(i), 7 * i);
        }
        teamSize = Threads.resolve(threads);
        team = new ThreadTeam<>(teamSize, CpuBinding.ofFork(), thread -> thread, this::rows);
        ProductTimes.start(shapes);
    }

    /** Operand sets of a product: enough to hold {@link #ROTATED_BYTES} together, at most {@link #MAX_SETS}. */
    public static int sets(ProductShape shape) {
        return (int) Math.max(1, Math.min(MAX_SETS, (ROTATED_BYTES + shape.floatBytes() - 1) / shape.floatBytes()));
    }

    /** Small integers in [-2, 2]: sums of up to 16384 products of them are exact in float. */
    static float[] fill(float[] data, int seed) {
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) ((i * 7L + seed * 13L + i / 97) % 5 - 2);
        }
        return data;
    }

    /**
     * Thread {@code thread}'s share of the current shape, in its current set: whole products of a batch with
     * at least one per thread, else its rows of every product.
     */
    private void rows(int thread) {
        Operands o = operands[current];
        ProductShape shape = o.shape;
        int batch = shape.batch();
        if (batch >= teamSize) {
            int first = (int) ((long) batch * thread / teamSize);
            int last = (int) ((long) batch * (thread + 1) / teamSize);
            for (int p = first; p < last; p++) {
                product(o, p, 0, shape.m());
            }
        } else {
            for (int p = 0; p < batch; p++) {
                product(o, p, rowStart(shape.m(), teamSize, thread), rowStart(shape.m(), teamSize, thread + 1));
            }
        }
    }

    /** Rows {@code [from, to)} of product {@code p} of the shape's current set. */
    private static void product(Operands o, int p, int from, int to) {
        ProductShape shape = o.shape;
        int m = shape.m();
        int n = shape.n();
        int k = shape.k();
        int s = o.set;
        View a = new View(o.a[s], p * m * k, shape.layout() == ProductShape.Layout.TN ? m : k);
        View b = new View(o.b[s], p * k * n, shape.layout() == ProductShape.Layout.NT ? k : n);
        View c = new View(o.c[s], p * m * n, n);
        switch (shape.layout()) {
            case NN -> Matmul.multiply(a, b, c, from, to, n, k, false);
            case NT -> Matmul.multiplyTransposedB(a, b, c, from, to, n, k, false);
            case TN -> Matmul.multiplyTransposedA(a, b, c, from, to, n, k, false);
        }
    }

    /** First row of thread {@code thread}: whole 4-row tiles, the last thread takes the remainder. */
    static int rowStart(int m, int threads, int thread) {
        int tiles = m / Matmul.ROWS_PER_TILE;
        return thread >= threads ? m : (int) ((long) tiles * thread / threads) * Matmul.ROWS_PER_TILE;
    }

    /** Every shape once, each on its next operand set; each shape's pass time goes to {@link ProductTimes}. */
    @Benchmark
    public void multiply() {
        for (int i = 0; i < operands.length; i++) {
            Operands o = operands[i];
            o.set = o.set + 1 == o.a.length ? 0 : o.set + 1;
            o.used[o.set] = true;
            current = i;
            ProductTimes.record(i, team.runPass());
        }
    }

    @TearDown(Level.Iteration)
    public void check() {
        for (Operands o : operands) {
            for (int s = 0; s < o.a.length; s++) {
                if (!o.used[s]) {
                    continue;
                }
                for (int e = 0; e < CHECKED_ENTRIES; e++) {
                    int p = e % o.shape.batch();
                    int row = (int) ((long) e * 7919 % o.shape.m());
                    int column = (int) ((long) e * 104729 % o.shape.n());
                    float expected = o.expected(s, p, row, column);
                    float actual = o.actual(s, p, row, column);
                    if (actual != expected) {
                        throw new IllegalStateException("product " + o.shape + " failed validation: C[" + row + "]["
                                + column + "] of product " + p + "=" + actual + " in operand set " + s
                                + " but the dot product gives " + expected);
                    }
                }
            }
        }
    }

    /** The operands of shape {@code i} (tests). */
    Operands operands(int i) {
        return operands[i];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (team != null) {
            team.close();
        }
    }

    /**
     * Heap a fork holds for the largest of {@code products} (each a list of shapes): every operand set of
     * every shape.
     *
     * @throws BadInputException for a list that {@link ProductShape#parseList} refuses
     */
    public static long footprintBytes(List<String> products) {
        long largest = 0;
        for (String value : products) {
            long bytes = 0;
            for (ProductShape shape : shapes(value)) {
                bytes += shape.floatBytes() * sets(shape);
            }
            largest = Math.max(largest, bytes);
        }
        return largest;
    }

    /** The shapes of a {@code products} parameter, each within what one fork can hold. */
    static List<ProductShape> shapes(String products) {
        List<ProductShape> shapes = ProductShape.parseList(products);
        for (ProductShape shape : shapes) {
            if (shape.m() > MAX_DIMENSION || shape.n() > MAX_DIMENSION || shape.k() > MAX_DIMENSION
                    || shape.batch() > MAX_BATCH) {
                throw new BadInputException("product dimensions must be from 1 to " + MAX_DIMENSION
                        + " and the batch from 1 to " + MAX_BATCH + ": batch=" + shape.batch() + ", m=" + shape.m()
                        + ", n=" + shape.n() + ", k=" + shape.k());
            }
        }
        return shapes;
    }
}
