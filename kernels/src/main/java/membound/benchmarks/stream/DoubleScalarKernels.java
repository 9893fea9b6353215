package membound.benchmarks.stream;

/**
 * Scalar twins of {@link DoubleVectorKernels}: the same kernels as plain loops, as STREAM writes them.
 * They define what the vector kernels must compute, and let a run compare the Vector API against what
 * the JIT makes of a plain loop.
 */
public final class DoubleScalarKernels implements DoubleKernels {

    public static final DoubleScalarKernels INSTANCE = new DoubleScalarKernels();

    private DoubleScalarKernels() {
    }

    @Override
    public void copy(double[] a, double[] c, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = a[i];
        }
    }

    @Override
    public void scale(double[] b, double[] c, double s, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = s * c[i];
        }
    }

    @Override
    public void add(double[] a, double[] b, double[] c, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = a[i] + b[i];
        }
    }

    @Override
    public void triad(double[] a, double[] b, double[] c, double s, int n) {
        for (int i = 0; i < n; i++) {
            a[i] = b[i] + s * c[i];
        }
    }

    @Override
    public void nstream(double[] a, double[] b, double[] c, double s, int n) {
        for (int i = 0; i < n; i++) {
            a[i] += b[i] + s * c[i];
        }
    }

    @Override
    public void fill(double[] c, double s, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = s;
        }
    }

    @Override
    public double dot(double[] a, double[] b, int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    @Override
    public double sum(double[] a, int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += a[i];
        }
        return sum;
    }
}
