package membound.benchmarks.stream;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The STREAM kernels on {@code float[]} with the Vector API, in the API's canonical form: the preferred
 * species in a constant, {@code loopBound} computed once, a step of {@code SPECIES.length()}, a scalar
 * tail — plus a scalar head of {@link #HEAD} elements where the JVM lets the vector loads start on a cache
 * line (0 elsewhere; see {@link LineAlignment} for why it matters). {@link FloatScalarKernels} holds the scalar twin of every method; the two must agree.
 *
 * <p>Multiplies and adds stay separate (no {@code fma}) so each lane rounds exactly as the scalar twin
 * does, which is what lets a pass be checked bit for bit against STREAM's closed form. Reductions keep
 * four independent accumulators so that an L1-resident Dot or Sum is not bound by the add latency.
 *
 * <p>Float reductions add up {@link #REDUCTION_BLOCK} elements in float lanes, then carry the block's
 * total in a double: a float running sum over a DRAM-sized array would lose most of its digits.
 */
public final class FloatVectorKernels implements FloatKernels {

    public static final FloatVectorKernels INSTANCE = new FloatVectorKernels();

    static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    /** Elements done one at a time so that the vector loads start on a cache line ({@link LineAlignment}). */
    static final int HEAD = LineAlignment.FLOAT_HEAD;

    /** Elements summed in float lanes before the partial sum moves into a double. */
    public static final int REDUCTION_BLOCK = 4096;

    private FloatVectorKernels() {
    }

    /** Lanes of the preferred species on this host. */
    public static int lanes() {
        return SPECIES.length();
    }

    @Override
    public void copy(float[] a, float[] c, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            c[i] = a[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, a, i).intoArray(c, i);
        }
        for (; i < n; i++) {
            c[i] = a[i];
        }
    }

    @Override
    public void scale(float[] b, float[] c, float s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            b[i] = s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vc = FloatVector.fromArray(SPECIES, c, i);
            vc.mul(s).intoArray(b, i);
        }
        for (; i < n; i++) {
            b[i] = s * c[i];
        }
    }

    @Override
    public void add(float[] a, float[] b, float[] c, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            c[i] = a[i] + b[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector va = FloatVector.fromArray(SPECIES, a, i);
            FloatVector vb = FloatVector.fromArray(SPECIES, b, i);
            va.add(vb).intoArray(c, i);
        }
        for (; i < n; i++) {
            c[i] = a[i] + b[i];
        }
    }

    @Override
    public void triad(float[] a, float[] b, float[] c, float s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            a[i] = b[i] + s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vb = FloatVector.fromArray(SPECIES, b, i);
            FloatVector vc = FloatVector.fromArray(SPECIES, c, i);
            vb.add(vc.mul(s)).intoArray(a, i);
        }
        for (; i < n; i++) {
            a[i] = b[i] + s * c[i];
        }
    }

    @Override
    public void nstream(float[] a, float[] b, float[] c, float s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            a[i] += b[i] + s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector va = FloatVector.fromArray(SPECIES, a, i);
            FloatVector vb = FloatVector.fromArray(SPECIES, b, i);
            FloatVector vc = FloatVector.fromArray(SPECIES, c, i);
            va.add(vb.add(vc.mul(s))).intoArray(a, i);
        }
        for (; i < n; i++) {
            a[i] += b[i] + s * c[i];
        }
    }

    @Override
    public void fill(float[] c, float s, int n) {
        FloatVector vs = FloatVector.broadcast(SPECIES, s);
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            c[i] = s;
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            vs.intoArray(c, i);
        }
        for (; i < n; i++) {
            c[i] = s;
        }
    }

    @Override
    public double dot(float[] a, float[] b, int n) {
        int step = SPECIES.length();
        int head = Math.min(HEAD, n);
        float headSum = 0;
        for (int h = 0; h < head; h++) {
            headSum += a[h] * b[h];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        double total = headSum;
        int i = head;
        while (i < upperBound) {
            int blockEnd = Math.min(i + REDUCTION_BLOCK, upperBound);
            FloatVector acc0 = FloatVector.zero(SPECIES);
            FloatVector acc1 = acc0;
            FloatVector acc2 = acc0;
            FloatVector acc3 = acc0;
            for (; i <= blockEnd - 4 * step; i += 4 * step) {
                acc0 = acc0.add(FloatVector.fromArray(SPECIES, a, i).mul(FloatVector.fromArray(SPECIES, b, i)));
                acc1 = acc1.add(FloatVector.fromArray(SPECIES, a, i + step)
                        .mul(FloatVector.fromArray(SPECIES, b, i + step)));
                acc2 = acc2.add(FloatVector.fromArray(SPECIES, a, i + 2 * step)
                        .mul(FloatVector.fromArray(SPECIES, b, i + 2 * step)));
                acc3 = acc3.add(FloatVector.fromArray(SPECIES, a, i + 3 * step)
                        .mul(FloatVector.fromArray(SPECIES, b, i + 3 * step)));
            }
            for (; i < blockEnd; i += step) {
                acc0 = acc0.add(FloatVector.fromArray(SPECIES, a, i).mul(FloatVector.fromArray(SPECIES, b, i)));
            }
            total += acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        }
        float tail = 0;
        for (; i < n; i++) {
            tail += a[i] * b[i];
        }
        return total + tail;
    }

    @Override
    public double sum(float[] a, int n) {
        int step = SPECIES.length();
        int head = Math.min(HEAD, n);
        float headSum = 0;
        for (int h = 0; h < head; h++) {
            headSum += a[h];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        double total = headSum;
        int i = head;
        while (i < upperBound) {
            int blockEnd = Math.min(i + REDUCTION_BLOCK, upperBound);
            FloatVector acc0 = FloatVector.zero(SPECIES);
            FloatVector acc1 = acc0;
            FloatVector acc2 = acc0;
            FloatVector acc3 = acc0;
            for (; i <= blockEnd - 4 * step; i += 4 * step) {
                acc0 = acc0.add(FloatVector.fromArray(SPECIES, a, i));
                acc1 = acc1.add(FloatVector.fromArray(SPECIES, a, i + step));
                acc2 = acc2.add(FloatVector.fromArray(SPECIES, a, i + 2 * step));
                acc3 = acc3.add(FloatVector.fromArray(SPECIES, a, i + 3 * step));
            }
            for (; i < blockEnd; i += step) {
                acc0 = acc0.add(FloatVector.fromArray(SPECIES, a, i));
            }
            total += acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        }
        float tail = 0;
        for (; i < n; i++) {
            tail += a[i];
        }
        return total + tail;
    }
}
