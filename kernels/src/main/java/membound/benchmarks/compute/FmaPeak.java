package membound.benchmarks.compute;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register-resident FMA kernel behind the peak FLOP/s ceiling: {@value #ACCUMULATORS} independent
 * vector accumulators, each updated {@code acc = acc * b + c} per step, so the FMA units never wait on a
 * result (an FMA has a latency of ~4 cycles and most cores issue two per cycle: 8 chains keep them busy;
 * 12 leave margin) and no load or store is in the loop.
 *
 * <p>FLOPs per step: 2 × lanes × accumulators. The result is checked exactly: each lane starts from a known
 * value and {@link Math#fma} in the same precision gives what it must hold after the steps.
 */
public final class FmaPeak {

    public static final int ACCUMULATORS = 12;
    /** Per step, a value slightly below 1 so values neither blow up nor settle at once. */
    static final double MULTIPLIER = 0.999;
    static final double ADDEND = 0.001;

    static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;

    private FmaPeak() {
    }

    public static int lanes(boolean doubles) {
        return doubles ? DOUBLES.length() : FLOATS.length();
    }

    /** Floating-point operations in {@code steps} steps of one thread. */
    public static long flops(boolean doubles, long steps) {
        return 2L * lanes(doubles) * ACCUMULATORS * steps;
    }

    /** Start value of accumulator {@code k}: distinct, so a mixed-up register shows. */
    public static double startValue(int k) {
        return 1.0 + k;
    }

    /** What accumulator {@code k} holds after {@code steps} steps, by scalar FMA in double. */
    public static double expectedDouble(int k, long steps) {
        double x = startValue(k);
        for (long s = 0; s < steps; s++) {
            x = Math.fma(x, MULTIPLIER, ADDEND);
        }
        return x;
    }

    /** What accumulator {@code k} holds after {@code steps} steps, by scalar FMA in float. */
    public static float expectedFloat(int k, long steps) {
        float x = (float) startValue(k);
        float b = (float) MULTIPLIER;
        float c = (float) ADDEND;
        for (long s = 0; s < steps; s++) {
            x = Math.fma(x, b, c);
        }
        return x;
    }

    /** Runs {@code steps} steps on twelve double accumulators; writes each one's value into {@code out}. */
    public static void runDouble(int steps, double[] out) {
        DoubleVector vb = DoubleVector.broadcast(DOUBLES, MULTIPLIER);
        DoubleVector vc = DoubleVector.broadcast(DOUBLES, ADDEND);
        DoubleVector a0 = DoubleVector.broadcast(DOUBLES, startValue(0));
        DoubleVector a1 = DoubleVector.broadcast(DOUBLES, startValue(1));
        DoubleVector a2 = DoubleVector.broadcast(DOUBLES, startValue(2));
        DoubleVector a3 = DoubleVector.broadcast(DOUBLES, startValue(3));
        DoubleVector a4 = DoubleVector.broadcast(DOUBLES, startValue(4));
        DoubleVector a5 = DoubleVector.broadcast(DOUBLES, startValue(5));
        DoubleVector a6 = DoubleVector.broadcast(DOUBLES, startValue(6));
        DoubleVector a7 = DoubleVector.broadcast(DOUBLES, startValue(7));
        DoubleVector a8 = DoubleVector.broadcast(DOUBLES, startValue(8));
        DoubleVector a9 = DoubleVector.broadcast(DOUBLES, startValue(9));
        DoubleVector a10 = DoubleVector.broadcast(DOUBLES, startValue(10));
        DoubleVector a11 = DoubleVector.broadcast(DOUBLES, startValue(11));
        for (int s = 0; s < steps; s++) {
            a0 = a0.fma(vb, vc);
            a1 = a1.fma(vb, vc);
            a2 = a2.fma(vb, vc);
            a3 = a3.fma(vb, vc);
            a4 = a4.fma(vb, vc);
            a5 = a5.fma(vb, vc);
            a6 = a6.fma(vb, vc);
            a7 = a7.fma(vb, vc);
            a8 = a8.fma(vb, vc);
            a9 = a9.fma(vb, vc);
            a10 = a10.fma(vb, vc);
            a11 = a11.fma(vb, vc);
        }
        // Vectors must not escape into an array here: C2 would then box them on every step of the loop.
        out[0] = uniform(a0);
        out[1] = uniform(a1);
        out[2] = uniform(a2);
        out[3] = uniform(a3);
        out[4] = uniform(a4);
        out[5] = uniform(a5);
        out[6] = uniform(a6);
        out[7] = uniform(a7);
        out[8] = uniform(a8);
        out[9] = uniform(a9);
        out[10] = uniform(a10);
        out[11] = uniform(a11);
    }

    /** Every lane ran the same chain: their common value, or NaN if any lane differs. */
    private static double uniform(DoubleVector v) {
        double min = v.reduceLanes(VectorOperators.MIN);
        return min == v.reduceLanes(VectorOperators.MAX) ? min : Double.NaN;
    }

    private static float uniform(FloatVector v) {
        float min = v.reduceLanes(VectorOperators.MIN);
        return min == v.reduceLanes(VectorOperators.MAX) ? min : Float.NaN;
    }

    /** Runs {@code steps} steps on twelve float accumulators; writes each one's value into {@code out}. */
    public static void runFloat(int steps, float[] out) {
        FloatVector vb = FloatVector.broadcast(FLOATS, (float) MULTIPLIER);
        FloatVector vc = FloatVector.broadcast(FLOATS, (float) ADDEND);
        FloatVector a0 = FloatVector.broadcast(FLOATS, (float) startValue(0));
        FloatVector a1 = FloatVector.broadcast(FLOATS, (float) startValue(1));
        FloatVector a2 = FloatVector.broadcast(FLOATS, (float) startValue(2));
        FloatVector a3 = FloatVector.broadcast(FLOATS, (float) startValue(3));
        FloatVector a4 = FloatVector.broadcast(FLOATS, (float) startValue(4));
        FloatVector a5 = FloatVector.broadcast(FLOATS, (float) startValue(5));
        FloatVector a6 = FloatVector.broadcast(FLOATS, (float) startValue(6));
        FloatVector a7 = FloatVector.broadcast(FLOATS, (float) startValue(7));
        FloatVector a8 = FloatVector.broadcast(FLOATS, (float) startValue(8));
        FloatVector a9 = FloatVector.broadcast(FLOATS, (float) startValue(9));
        FloatVector a10 = FloatVector.broadcast(FLOATS, (float) startValue(10));
        FloatVector a11 = FloatVector.broadcast(FLOATS, (float) startValue(11));
        for (int s = 0; s < steps; s++) {
            a0 = a0.fma(vb, vc);
            a1 = a1.fma(vb, vc);
            a2 = a2.fma(vb, vc);
            a3 = a3.fma(vb, vc);
            a4 = a4.fma(vb, vc);
            a5 = a5.fma(vb, vc);
            a6 = a6.fma(vb, vc);
            a7 = a7.fma(vb, vc);
            a8 = a8.fma(vb, vc);
            a9 = a9.fma(vb, vc);
            a10 = a10.fma(vb, vc);
            a11 = a11.fma(vb, vc);
        }
        out[0] = uniform(a0);
        out[1] = uniform(a1);
        out[2] = uniform(a2);
        out[3] = uniform(a3);
        out[4] = uniform(a4);
        out[5] = uniform(a5);
        out[6] = uniform(a6);
        out[7] = uniform(a7);
        out[8] = uniform(a8);
        out[9] = uniform(a9);
        out[10] = uniform(a10);
        out[11] = uniform(a11);
    }
}
