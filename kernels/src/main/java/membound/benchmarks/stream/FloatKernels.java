package membound.benchmarks.stream;

import membound.vocabulary.Implementation;

/**
 * The STREAM kernels on {@code float[]}, over the first {@code n} elements. Two implementations:
 * {@link FloatVectorKernels} (Vector API) and its scalar twin {@link FloatScalarKernels}; both pass the
 * same contract test and agree with {@link StreamValues}.
 */
public interface FloatKernels {

    /** {@code c[i] = a[i]}. */
    void copy(float[] a, float[] c, int n);

    /** {@code b[i] = s * c[i]}. */
    void scale(float[] b, float[] c, float s, int n);

    /** {@code c[i] = a[i] + b[i]}. */
    void add(float[] a, float[] b, float[] c, int n);

    /** {@code a[i] = b[i] + s * c[i]}. */
    void triad(float[] a, float[] b, float[] c, float s, int n);

    /** {@code a[i] += b[i] + s * c[i]}. */
    void nstream(float[] a, float[] b, float[] c, float s, int n);

    /** {@code c[i] = s}. */
    void fill(float[] c, float s, int n);

    /** {@code sum(a[i] * b[i])}. */
    double dot(float[] a, float[] b, int n);

    /** {@code sum(a[i])}. */
    double sum(float[] a, int n);

    static FloatKernels of(Implementation implementation) {
        return implementation == Implementation.VECTOR ? FloatVectorKernels.INSTANCE : FloatScalarKernels.INSTANCE;
    }
}
