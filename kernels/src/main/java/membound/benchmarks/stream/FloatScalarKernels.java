package membound.benchmarks.stream;

/**
 * Scalar twins of {@link FloatVectorKernels}: the same kernels as plain loops, as STREAM writes them.
 * They define what the vector kernels must compute, and let a run compare the Vector API against what
 * the JIT makes of a plain loop. Reductions sum {@link FloatVectorKernels#REDUCTION_BLOCK} elements in
 * float, then carry each block's total in a double, as the vector kernels do.
 */
public final class FloatScalarKernels implements FloatKernels {

    public static final FloatScalarKernels INSTANCE = new FloatScalarKernels();

    private FloatScalarKernels() {
    }

    @Override
    public void copy(float[] a, float[] c, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = a[i];
        }
    }

    @Override
    public void scale(float[] b, float[] c, float s, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = s * c[i];
        }
    }

    @Override
    public void add(float[] a, float[] b, float[] c, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = a[i] + b[i];
        }
    }

    @Override
    public void triad(float[] a, float[] b, float[] c, float s, int n) {
        for (int i = 0; i < n; i++) {
            a[i] = b[i] + s * c[i];
        }
    }

    @Override
    public void nstream(float[] a, float[] b, float[] c, float s, int n) {
        for (int i = 0; i < n; i++) {
            a[i] += b[i] + s * c[i];
        }
    }

    @Override
    public void fill(float[] c, float s, int n) {
        for (int i = 0; i < n; i++) {
            c[i] = s;
        }
    }

    @Override
    public double dot(float[] a, float[] b, int n) {
        double total = 0;
        for (int start = 0; start < n; start += FloatVectorKernels.REDUCTION_BLOCK) {
            int end = Math.min(start + FloatVectorKernels.REDUCTION_BLOCK, n);
            float block = 0;
            for (int i = start; i < end; i++) {
                block += a[i] * b[i];
            }
            total += block;
        }
        return total;
    }

    @Override
    public double sum(float[] a, int n) {
        double total = 0;
        for (int start = 0; start < n; start += FloatVectorKernels.REDUCTION_BLOCK) {
            int end = Math.min(start + FloatVectorKernels.REDUCTION_BLOCK, n);
            float block = 0;
            for (int i = start; i < end; i++) {
                block += a[i];
            }
            total += block;
        }
        return total;
    }
}
