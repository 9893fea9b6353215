package membound.benchmarks.stream;

import membound.vocabulary.Implementation;

/**
 * The STREAM kernels on {@code double[]}, over the first {@code n} elements. Two implementations:
 * {@link DoubleVectorKernels} (Vector API) and its scalar twin {@link DoubleScalarKernels}; both pass the
 * same contract test and agree with {@link StreamValues}.
 */
public interface DoubleKernels {

    /** {@code c[i] = a[i]}. */
    void copy(double[] a, double[] c, int n);

    /** {@code b[i] = s * c[i]}. */
    void scale(double[] b, double[] c, double s, int n);

    /** {@code c[i] = a[i] + b[i]}. */
    void add(double[] a, double[] b, double[] c, int n);

    /** {@code a[i] = b[i] + s * c[i]}. */
    void triad(double[] a, double[] b, double[] c, double s, int n);

    /** {@code a[i] += b[i] + s * c[i]}. */
    void nstream(double[] a, double[] b, double[] c, double s, int n);

    /** {@code c[i] = s}. */
    void fill(double[] c, double s, int n);

    /** {@code sum(a[i] * b[i])}. */
    double dot(double[] a, double[] b, int n);

    /** {@code sum(a[i])}. */
    double sum(double[] a, int n);

    static DoubleKernels of(Implementation implementation) {
        return implementation == Implementation.VECTOR ? DoubleVectorKernels.INSTANCE : DoubleScalarKernels.INSTANCE;
    }
}
