package membound.benchmarks.training;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import membound.benchmarks.team.ThreadTeam;
import membound.vocabulary.BadInputException;

/**
 * Workload 1: one AdamW optimizer step over {@code parameters} FP32 parameters, as a training loop runs it
 * after the backward pass: the global gradient norm (for clipping), the update, and zeroing the gradients.
 * Plain Java; {@link OptimizerBenchmark} times it with JMH.
 *
 * <p>Each thread of a {@link ThreadTeam} owns a slice (its own parameter, gradient and moment arrays, which
 * it allocates and touches first); a step is three team passes (norm, update, zero) with the partial sums
 * of squares combined between the first two, so the step's time is the wall time of the slowest thread in
 * each pass. 36 bytes per parameter: see {@link AdamW}.
 *
 * <p>Values come from a hash of the index (no random generator to pay for on tens of millions of values).
 * The gradients are zero after the first step, as a loop without a backward pass leaves them; {@link #reset}
 * restores the starting values, so the moments never decay towards subnormal floats (whose arithmetic is
 * much slower on x86) over the few hundred steps of a measurement.
 */
public final class OptimizerStep implements TrainingWorkload {

    /** Leading elements of thread 0's slice that {@link #check} replays with the scalar twins. */
    static final int CHECKED_ELEMENTS = 4099;

    private final long parameters;
    private final AdamWSettings settings;
    private final ThreadTeam<Slice> team;
    private final List<AdamW.Update> updatesSinceReset = new ArrayList<>();
    private float[][] shadow;
    private long step;
    private double lastGradientNorm;
    private long lastStepNanos;
    private java.util.Map<String, Long> phaseNanos;

    /** One thread's parameters and their optimizer state. */
    static final class Slice {
        final long first;
        final float[] p;
        final float[] g;
        final float[] m;
        final float[] v;
        double sumOfSquares;

        Slice(long first, int length) {
            this.first = first;
            this.p = new float[length];
            this.g = new float[length];
            this.m = new float[length];
            this.v = new float[length];
            fill();
        }

        void fill() {
            for (int i = 0; i < p.length; i++) {
                long index = first + i;
                p[i] = 0.1f * unit(index, 1);
                g[i] = 0.01f * unit(index, 2);
                m[i] = 0.001f * unit(index, 3);
                v[i] = 1e-5f * (unit(index, 4) + 0.5f);
            }
        }
    }

    /**
     * @param parameters FP32 parameters in all
     * @param threads team size; each thread owns {@code parameters / threads} of them
     */
    public OptimizerStep(long parameters, int threads, AdamWSettings settings) {
        if (parameters < 1 || threads < 1 || parameters / threads > Integer.MAX_VALUE - 16) {
            throw new BadInputException("parameters must be from 1 to threads × 2^31 and threads >= 1: parameters="
                    + parameters + ", threads=" + threads);
        }
        this.parameters = parameters;
        this.settings = settings;
        this.team = new ThreadTeam<>(threads, t -> {
            long from = parameters * t / threads;
            long to = parameters * (t + 1) / threads;
            return new Slice(from, (int) (to - from));
        }, slice -> { });
        keepShadow();
    }

    /** Heap the arrays take: four FP32 values (parameter, gradient, two moments) per parameter. */
    public static long footprintBytes(long parameters) {
        return 4L * Float.BYTES * parameters;
    }

    public long parameters() {
        return parameters;
    }

    public int threads() {
        return team.threads();
    }

    /** Steps since construction or the last {@link #reset}. */
    public long steps() {
        return step;
    }

    /** The global gradient norm the last step clipped with. */
    public double lastGradientNorm() {
        return lastGradientNorm;
    }

    /** Wall time of the last step in nanoseconds (its three passes). */
    public long lastStepNanos() {
        return lastStepNanos;
    }

    /** One optimizer step; returns the global gradient norm it clipped with ({@link #lastStepNanos} its time). */
    @Override
    public double step() {
        long start = System.nanoTime();
        team.run(slice -> slice.sumOfSquares = AdamW.sumOfSquares(slice.g, 0, slice.g.length));
        double sum = 0;
        for (Slice slice : team.states()) {
            sum += slice.sumOfSquares;
        }
        lastGradientNorm = Math.sqrt(sum);
        AdamW.Update update = AdamW.Update.of(settings, ++step, lastGradientNorm);
        updatesSinceReset.add(update);
        long normed = System.nanoTime();
        team.run(slice -> AdamW.update(slice.p, slice.g, slice.m, slice.v, 0, slice.p.length, update));
        long updated = System.nanoTime();
        team.run(slice -> AdamW.zero(slice.g, 0, slice.g.length));
        long end = System.nanoTime();
        if (phaseNanos != null) {
            phaseNanos.merge(NORM, normed - start, Long::sum);
            phaseNanos.merge(UPDATE, updated - normed, Long::sum);
            phaseNanos.merge(ZERO, end - updated, Long::sum);
        }
        lastStepNanos = end - start;
        return lastGradientNorm;
    }

    /** The model's names for the three passes. */
    static final String NORM = "gradient norm (clipping)";
    static final String UPDATE = "optimizer update (adamw)";
    static final String ZERO = "zero gradients";

    /** Records the time of each pass under the model's operation names from now on (off: stops). */
    @Override
    public void timePhases(boolean on) {
        phaseNanos = on ? new java.util.LinkedHashMap<>() : null;
    }

    /** Nanoseconds per pass since {@link #timePhases} started, summed over the steps. */
    @Override
    public java.util.Map<String, Long> phaseNanos() {
        return phaseNanos == null ? java.util.Map.of() : new java.util.LinkedHashMap<>(phaseNanos);
    }

    /** {@link #reset}. */
    @Override
    public void restart() {
        reset();
    }

    /** Back to the starting values and step 0 (each thread refills its own slice). */
    public void reset() {
        team.run(Slice::fill);
        step = 0;
        updatesSinceReset.clear();
        keepShadow();
    }

    /**
     * Replays the steps since the last reset on a copy of the first {@value #CHECKED_ELEMENTS} elements of
     * thread 0's slice with the scalar twins and the same updates (clip scale included).
     *
     * @throws IllegalStateException naming the first element where the step computed something else
     */
    public void check() {
        float[] p = shadow[0].clone();
        float[] g = shadow[1].clone();
        float[] m = shadow[2].clone();
        float[] v = shadow[3].clone();
        for (AdamW.Update update : updatesSinceReset) {
            AdamW.updateScalar(p, g, m, v, 0, p.length, update);
            AdamW.zeroScalar(g, 0, g.length);
        }
        Slice slice = team.state(0);
        float[][] expected = {p, g, m, v};
        float[][] actual = {slice.p, slice.g, slice.m, slice.v};
        String[] names = {"parameter", "gradient", "first moment", "second moment"};
        for (int a = 0; a < expected.length; a++) {
            for (int i = 0; i < expected[a].length; i++) {
                if (Float.floatToIntBits(expected[a][i]) != Float.floatToIntBits(actual[a][i])) {
                    throw new IllegalStateException("AdamW step failed validation after " + step + " steps: " + names[a]
                            + "[" + i + "]=" + actual[a][i] + " but the scalar twin gives " + expected[a][i]);
                }
            }
        }
    }

    /** Changes thread 0's first parameter behind the step's back: for the test that {@link #check} notices. */
    void corruptForTest() {
        team.state(0).p[0] += 1f;
    }

    private void keepShadow() {
        Slice slice = team.state(0);
        int n = Math.min(CHECKED_ELEMENTS, slice.p.length);
        shadow = new float[][] {Arrays.copyOf(slice.p, n), Arrays.copyOf(slice.g, n), Arrays.copyOf(slice.m, n),
                Arrays.copyOf(slice.v, n)};
    }

    @Override
    public void close() {
        team.close();
    }

    /** A deterministic value in [-0.5, 0.5) from an index and a stream number (a multiplicative hash). */
    static float unit(long index, int stream) {
        long h = (index + 0x632BE59BD9B4E019L * stream) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return ((h >>> 40) / (float) (1 << 24)) - 0.5f;
    }
}
