package membound.benchmarks.stream;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The STREAM kernels on {@code double[]} with the Vector API, in the API's canonical form: the preferred
 * species in a constant, {@code loopBound} computed once, a step of {@code SPECIES.length()}, a scalar
 * tail — plus a scalar head of {@link #HEAD} elements where the JVM lets the vector loads start on a cache
 * line (0 elsewhere; see {@link LineAlignment} for why it matters). {@link DoubleScalarKernels} holds the scalar twin of every method; the two must agree.
 *
 * <p>Multiplies and adds stay separate (no {@code fma}) so each lane rounds exactly as the scalar twin
 * does, which is what lets a pass be checked bit for bit against STREAM's closed form. Reductions keep
 * four independent accumulators so that an L1-resident Dot or Sum is not bound by the add latency.
 */
public final class DoubleVectorKernels implements DoubleKernels {

    public static final DoubleVectorKernels INSTANCE = new DoubleVectorKernels();

    static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    /** Elements done one at a time so that the vector loads start on a cache line ({@link LineAlignment}). */
    static final int HEAD = LineAlignment.DOUBLE_HEAD;

    private DoubleVectorKernels() {
    }

    /** Lanes of the preferred species on this host. */
    public static int lanes() {
        return SPECIES.length();
    }

    @Override
    public void copy(double[] a, double[] c, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            c[i] = a[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            DoubleVector.fromArray(SPECIES, a, i).intoArray(c, i);
        }
        for (; i < n; i++) {
            c[i] = a[i];
        }
    }

    @Override
    public void scale(double[] b, double[] c, double s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            b[i] = s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            DoubleVector vc = DoubleVector.fromArray(SPECIES, c, i);
            vc.mul(s).intoArray(b, i);
        }
        for (; i < n; i++) {
            b[i] = s * c[i];
        }
    }

    @Override
    public void add(double[] a, double[] b, double[] c, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            c[i] = a[i] + b[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            DoubleVector va = DoubleVector.fromArray(SPECIES, a, i);
            DoubleVector vb = DoubleVector.fromArray(SPECIES, b, i);
            va.add(vb).intoArray(c, i);
        }
        for (; i < n; i++) {
            c[i] = a[i] + b[i];
        }
    }

    @Override
    public void triad(double[] a, double[] b, double[] c, double s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            a[i] = b[i] + s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            DoubleVector vb = DoubleVector.fromArray(SPECIES, b, i);
            DoubleVector vc = DoubleVector.fromArray(SPECIES, c, i);
            vb.add(vc.mul(s)).intoArray(a, i);
        }
        for (; i < n; i++) {
            a[i] = b[i] + s * c[i];
        }
    }

    @Override
    public void nstream(double[] a, double[] b, double[] c, double s, int n) {
        int i = 0;
        int head = Math.min(HEAD, n);
        for (; i < head; i++) {
            a[i] += b[i] + s * c[i];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        for (; i < upperBound; i += SPECIES.length()) {
            DoubleVector va = DoubleVector.fromArray(SPECIES, a, i);
            DoubleVector vb = DoubleVector.fromArray(SPECIES, b, i);
            DoubleVector vc = DoubleVector.fromArray(SPECIES, c, i);
            va.add(vb.add(vc.mul(s))).intoArray(a, i);
        }
        for (; i < n; i++) {
            a[i] += b[i] + s * c[i];
        }
    }

    @Override
    public void fill(double[] c, double s, int n) {
        DoubleVector vs = DoubleVector.broadcast(SPECIES, s);
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
    public double dot(double[] a, double[] b, int n) {
        int step = SPECIES.length();
        int head = Math.min(HEAD, n);
        double headSum = 0;
        for (int h = 0; h < head; h++) {
            headSum += a[h] * b[h];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        DoubleVector acc0 = DoubleVector.zero(SPECIES);
        DoubleVector acc1 = acc0;
        DoubleVector acc2 = acc0;
        DoubleVector acc3 = acc0;
        int i = head;
        for (; i <= upperBound - 4 * step; i += 4 * step) {
            acc0 = acc0.add(DoubleVector.fromArray(SPECIES, a, i).mul(DoubleVector.fromArray(SPECIES, b, i)));
            acc1 = acc1.add(DoubleVector.fromArray(SPECIES, a, i + step)
                    .mul(DoubleVector.fromArray(SPECIES, b, i + step)));
            acc2 = acc2.add(DoubleVector.fromArray(SPECIES, a, i + 2 * step)
                    .mul(DoubleVector.fromArray(SPECIES, b, i + 2 * step)));
            acc3 = acc3.add(DoubleVector.fromArray(SPECIES, a, i + 3 * step)
                    .mul(DoubleVector.fromArray(SPECIES, b, i + 3 * step)));
        }
        for (; i < upperBound; i += step) {
            acc0 = acc0.add(DoubleVector.fromArray(SPECIES, a, i).mul(DoubleVector.fromArray(SPECIES, b, i)));
        }
        double sum = headSum + acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    @Override
    public double sum(double[] a, int n) {
        int step = SPECIES.length();
        int head = Math.min(HEAD, n);
        double headSum = 0;
        for (int h = 0; h < head; h++) {
            headSum += a[h];
        }
        int upperBound = head + SPECIES.loopBound(n - head);
        DoubleVector acc0 = DoubleVector.zero(SPECIES);
        DoubleVector acc1 = acc0;
        DoubleVector acc2 = acc0;
        DoubleVector acc3 = acc0;
        int i = head;
        for (; i <= upperBound - 4 * step; i += 4 * step) {
            acc0 = acc0.add(DoubleVector.fromArray(SPECIES, a, i));
            acc1 = acc1.add(DoubleVector.fromArray(SPECIES, a, i + step));
            acc2 = acc2.add(DoubleVector.fromArray(SPECIES, a, i + 2 * step));
            acc3 = acc3.add(DoubleVector.fromArray(SPECIES, a, i + 3 * step));
        }
        for (; i < upperBound; i += step) {
            acc0 = acc0.add(DoubleVector.fromArray(SPECIES, a, i));
        }
        double sum = headSum + acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            sum += a[i];
        }
        return sum;
    }
}
