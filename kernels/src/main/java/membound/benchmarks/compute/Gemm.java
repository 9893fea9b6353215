package membound.benchmarks.compute;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A cache-blocked GEMM, {@code C = A · B} on square row-major matrices, for the attainable FLOP/s ceiling:
 * what a real kernel with loads and stores reaches, as opposed to {@link FmaPeak}'s register-only peak.
 *
 * <p>Blocking: the k loop runs in blocks of {@value #K_BLOCK}, and the panel of B that a block of C rows
 * reuses ({@value #K_BLOCK} × 2 vectors) is copied contiguous so it stays in L1; the micro-kernel keeps a 4-row × 2-vector tile of C
 * in eight registers and per k does 2 loads of B, 4 broadcasts of A and 8 FMAs. Rows and columns that do
 * not fill a tile go through the scalar twin ({@link #multiplyScalar}).
 *
 * <p>FLOPs: 2·n³ per multiplication. Matrices are filled with small integers ({@link #a}, {@link #b}) so
 * every entry of C is an exact integer in float and double, and a result is checked exactly.
 */
public final class Gemm {

    static final int K_BLOCK = 256;
    static final int ROWS = 4;

    static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;

    private Gemm() {
    }

    /** A[i][k]: small integers, so C is exact. */
    public static int a(int i, int k) {
        return (i + k) % 7 - 3;
    }

    /** B[k][j]: small integers, so C is exact. */
    public static int b(int k, int j) {
        return (3 * k + j) % 5 - 2;
    }

    /** C[i][j] = sum over k of A[i][k]·B[k][j], computed directly. */
    public static long expected(int n, int i, int j) {
        long sum = 0;
        for (int k = 0; k < n; k++) {
            sum += (long) a(i, k) * b(k, j);
        }
        return sum;
    }

    public static double[] fillA(int n, int rowFrom, int rowTo, double[] into) {
        for (int i = rowFrom; i < rowTo; i++) {
            for (int k = 0; k < n; k++) {
                into[(i - rowFrom) * n + k] = a(i, k);
            }
        }
        return into;
    }

    public static double[] fillB(int n, double[] into) {
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < n; j++) {
                into[k * n + j] = b(k, j);
            }
        }
        return into;
    }

    public static float[] fillA(int n, int rowFrom, int rowTo, float[] into) {
        for (int i = rowFrom; i < rowTo; i++) {
            for (int k = 0; k < n; k++) {
                into[(i - rowFrom) * n + k] = a(i, k);
            }
        }
        return into;
    }

    public static float[] fillB(int n, float[] into) {
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < n; j++) {
                into[k * n + j] = b(k, j);
            }
        }
        return into;
    }

    /**
     * {@code c = a · b} for the {@code rows} rows held in {@code a} and {@code c} (row-major, {@code n} columns),
     * against the full {@code n × n} matrix {@code b}.
     */
    public static void multiply(double[] a, double[] b, double[] c, int rows, int n) {
        int step = DOUBLES.length();
        int tileColumns = 2 * step;
        int vectorColumns = n - n % tileColumns;
        int vectorRows = rows - rows % ROWS;
        java.util.Arrays.fill(c, 0, rows * n, 0.0);
        double[] panel = new double[K_BLOCK * tileColumns];
        for (int kk = 0; kk < n; kk += K_BLOCK) {
            int kEnd = Math.min(kk + K_BLOCK, n);
            for (int j = 0; j < vectorColumns; j += tileColumns) {
                // B's panel is copied contiguous: read in place, rows n apart, a power-of-two n maps every row
                // of the panel to the same L1 sets (at n=1024 the unpacked kernel ran at half the rate).
                for (int k = kk; k < kEnd; k++) {
                    System.arraycopy(b, k * n + j, panel, (k - kk) * tileColumns, tileColumns);
                }
                for (int i = 0; i < vectorRows; i += ROWS) {
                    int r0 = i * n;
                    int r1 = r0 + n;
                    int r2 = r1 + n;
                    int r3 = r2 + n;
                    DoubleVector c00 = DoubleVector.fromArray(DOUBLES, c, r0 + j);
                    DoubleVector c01 = DoubleVector.fromArray(DOUBLES, c, r0 + j + step);
                    DoubleVector c10 = DoubleVector.fromArray(DOUBLES, c, r1 + j);
                    DoubleVector c11 = DoubleVector.fromArray(DOUBLES, c, r1 + j + step);
                    DoubleVector c20 = DoubleVector.fromArray(DOUBLES, c, r2 + j);
                    DoubleVector c21 = DoubleVector.fromArray(DOUBLES, c, r2 + j + step);
                    DoubleVector c30 = DoubleVector.fromArray(DOUBLES, c, r3 + j);
                    DoubleVector c31 = DoubleVector.fromArray(DOUBLES, c, r3 + j + step);
                    for (int k = kk; k < kEnd; k++) {
                        DoubleVector vb0 = DoubleVector.fromArray(DOUBLES, panel, (k - kk) * tileColumns);
                        DoubleVector vb1 = DoubleVector.fromArray(DOUBLES, panel, (k - kk) * tileColumns + step);
                        DoubleVector va0 = DoubleVector.broadcast(DOUBLES, a[r0 + k]);
                        DoubleVector va1 = DoubleVector.broadcast(DOUBLES, a[r1 + k]);
                        DoubleVector va2 = DoubleVector.broadcast(DOUBLES, a[r2 + k]);
                        DoubleVector va3 = DoubleVector.broadcast(DOUBLES, a[r3 + k]);
                        c00 = va0.fma(vb0, c00);
                        c01 = va0.fma(vb1, c01);
                        c10 = va1.fma(vb0, c10);
                        c11 = va1.fma(vb1, c11);
                        c20 = va2.fma(vb0, c20);
                        c21 = va2.fma(vb1, c21);
                        c30 = va3.fma(vb0, c30);
                        c31 = va3.fma(vb1, c31);
                    }
                    c00.intoArray(c, r0 + j);
                    c01.intoArray(c, r0 + j + step);
                    c10.intoArray(c, r1 + j);
                    c11.intoArray(c, r1 + j + step);
                    c20.intoArray(c, r2 + j);
                    c21.intoArray(c, r2 + j + step);
                    c30.intoArray(c, r3 + j);
                    c31.intoArray(c, r3 + j + step);
                }
            }
        }
        scalarEdges(a, b, c, rows, n, vectorRows, vectorColumns);
    }

    /**
     * Float twin of {@link #multiply(double[], double[], double[], int, int)}: the same blocking, through
     * {@link Matmul#multiply}, the kernel the training workloads' products use, so this benchmark's ceiling is
     * theirs.
     */
    public static void multiply(float[] a, float[] b, float[] c, int rows, int n) {
        Matmul.multiply(Matmul.View.of(a, n), Matmul.View.of(b, n), Matmul.View.of(c, n), 0, rows, n, n, false);
    }

    /** The scalar twin: {@code c = a · b}, plain triple loop (i, k, j order). */
    public static void multiplyScalar(double[] a, double[] b, double[] c, int rows, int n) {
        java.util.Arrays.fill(c, 0, rows * n, 0.0);
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < n; k++) {
                double aik = a[i * n + k];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += aik * b[k * n + j];
                }
            }
        }
    }

    /** The scalar twin for float. */
    public static void multiplyScalar(float[] a, float[] b, float[] c, int rows, int n) {
        java.util.Arrays.fill(c, 0, rows * n, 0f);
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < n; k++) {
                float aik = a[i * n + k];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += aik * b[k * n + j];
                }
            }
        }
    }

    private static void scalarEdges(double[] a, double[] b, double[] c, int rows, int n, int vectorRows,
            int vectorColumns) {
        for (int i = 0; i < rows; i++) {
            int jFrom = i < vectorRows ? vectorColumns : 0;
            for (int j = jFrom; j < n; j++) {
                double sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = sum;
            }
        }
    }
}
