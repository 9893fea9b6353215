package membound.benchmarks.compute;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import membound.vocabulary.BadInputException;

/**
 * The float matrix products a training step needs, on rectangular row-major matrices (or blocks of wider
 * ones): {@code C = A·B} (a forward pass), {@code C = A·Bᵀ} (an input gradient, {@code dX = dY·Wᵀ}; attention
 * scores {@code Q·Kᵀ}) and {@code C = Aᵀ·B} (a weight gradient, {@code dW = Xᵀ·dY}), each either overwriting C
 * or adding to it (gradients accumulate).
 *
 * <p>Blocked as {@link Gemm} is: the k loop runs in blocks of {@link Gemm#K_BLOCK}, and a 4-row × 2-vector
 * tile of C lives in eight registers while the micro-kernel does, per k, 2 loads of B, 4 broadcasts of A and
 * 8 FMAs. The three orientations share that micro-kernel: {@code Aᵀ} only changes where the broadcasts come
 * from; {@code Bᵀ} is packed, one {@link Gemm#K_BLOCK} × 2-vector panel at a time, into the layout the
 * micro-kernel reads (as BLAS implementations pack), so no orientation reduces across lanes. Rows and columns
 * that do not fill a tile go through scalar loops; every product has a plain triple-loop scalar twin.
 *
 * <p>Threads split C by rows ({@code rowFrom}, {@code rowTo}); a call touches only those rows of C.
 */
public final class Matmul {

    static final VectorSpecies<Float> FLOATS = Gemm.FLOATS;
    static final int ROWS = Gemm.ROWS;
    /** Rows of C in a register tile: threads that split C's rows in multiples of it keep every tile whole. */
    public static final int ROWS_PER_TILE = ROWS;
    static final int K_BLOCK = Gemm.K_BLOCK;

    /**
     * A row-major matrix or a block of one: element (i, j) is {@code data[offset + i·rowStride + j]}. A block
     * of columns of a wider matrix (one attention head of a fused QKV activation) is a view with the wider
     * matrix's row stride.
     */
    public record View(float[] data, int offset, int rowStride) {

        public View {
            if (data == null) {
                throw new BadInputException("data must be an array: data=null");
            }
            if (offset < 0 || rowStride < 1) {
                throw new BadInputException("offset must be >= 0 and rowStride >= 1: offset=" + offset
                        + ", rowStride=" + rowStride);
            }
        }

        /** A whole {@code rows × columns} matrix held from index 0. */
        public static View of(float[] data, int columns) {
            return new View(data, 0, columns);
        }

        public float get(int row, int column) {
            return data[offset + row * rowStride + column];
        }
    }

    private Matmul() {
    }

    /** {@code C[rowFrom..rowTo) (+)= A·B}: A is m × k, B is k × n, C is m × n. */
    public static void multiply(View a, View b, View c, int rowFrom, int rowTo, int n, int k, boolean accumulate) {
        blocked(a, a.rowStride(), 1, b, false, c, rowFrom, rowTo, n, k, accumulate);
    }

    /** {@code C[rowFrom..rowTo) (+)= Aᵀ·B}: A is k × m (so C's row i is A's column i), B is k × n, C is m × n. */
    public static void multiplyTransposedA(View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate) {
        blocked(a, 1, a.rowStride(), b, false, c, rowFrom, rowTo, n, k, accumulate);
    }

    /** {@code C[rowFrom..rowTo) (+)= A·Bᵀ}: A is m × k, B is n × k (so C's column j is B's row j), C is m × n. */
    public static void multiplyTransposedB(View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate) {
        blocked(a, a.rowStride(), 1, b, true, c, rowFrom, rowTo, n, k, accumulate);
    }

    /**
     * The three products in one: A's element (i, kk) is {@code a[offset + i·aRow + kk·aColumn]}; B is read
     * directly (k × n) or, if {@code transposedB}, packed from its n × k rows panel by panel.
     */
    private static void blocked(View a, int aRow, int aColumn, View b, boolean transposedB, View c, int rowFrom,
            int rowTo, int n, int k, boolean accumulate) {
        if (rowFrom < 0 || rowTo < rowFrom || n < 0 || k < 0) {
            throw new BadInputException("rows must be 0 <= rowFrom <= rowTo and n, k >= 0: rowFrom=" + rowFrom
                    + ", rowTo=" + rowTo + ", n=" + n + ", k=" + k);
        }
        float[] cData = c.data();
        int ldc = c.rowStride();
        if (!accumulate) {
            for (int i = rowFrom; i < rowTo; i++) {
                java.util.Arrays.fill(cData, c.offset() + i * ldc, c.offset() + i * ldc + n, 0f);
            }
        }
        int step = FLOATS.length();
        int tileColumns = 2 * step;
        int vectorColumns = n - n % tileColumns;
        int vectorRowEnd = rowTo - (rowTo - rowFrom) % ROWS;
        if (vectorRowEnd == rowFrom) {
            // Not one whole tile of rows: the scalar loops below take every column.
            vectorColumns = 0;
        }
        float[] packed = vectorColumns > 0 ? scratch(0, K_BLOCK * tileColumns) : null;
        // Aᵀ's rows are columns of A, far apart per k: packed tile by tile, a k block at a time, where enough
        // column panels reuse the packing (with few, reading A in place costs less than copying it).
        boolean packA = aColumn != 1 && vectorColumns >= MIN_PANELS_TO_PACK_A * tileColumns;
        float[] packedA = packA ? scratch(1, (vectorRowEnd - rowFrom) * K_BLOCK) : null;
        for (int kk = 0; kk < k; kk += K_BLOCK) {
            int kEnd = Math.min(kk + K_BLOCK, k);
            if (packA) {
                packColumns(a, aColumn, rowFrom, vectorRowEnd, kk, kEnd, packedA);
            }
            for (int j = 0; j < vectorColumns; j += tileColumns) {
                if (transposedB) {
                    packTransposed(b, j, tileColumns, kk, kEnd, packed);
                } else {
                    packRows(b, j, tileColumns, kk, kEnd, packed);
                }
                for (int i = rowFrom; i < vectorRowEnd; i += ROWS) {
                    if (packA) {
                        tile(packedA, (i - rowFrom) * K_BLOCK - kk * ROWS, 1, ROWS, packed, -kk * tileColumns,
                                tileColumns, cData, c.offset() + i * ldc + j, ldc, kk, kEnd, step);
                    } else {
                        tile(a.data(), a.offset() + i * aRow, aRow, aColumn, packed, -kk * tileColumns, tileColumns,
                                cData, c.offset() + i * ldc + j, ldc, kk, kEnd, step);
                    }
                }
            }
        }
        // Columns right of the last whole tile (every row), then rows below the last whole tile.
        for (int i = rowFrom; i < rowTo; i++) {
            int jFrom = i < vectorRowEnd ? vectorColumns : 0;
            for (int j = jFrom; j < n; j++) {
                float sum = 0;
                for (int kk = 0; kk < k; kk++) {
                    sum += a.data()[a.offset() + i * aRow + kk * aColumn] * bElement(b, transposedB, kk, j);
                }
                cData[c.offset() + i * ldc + j] += sum;
            }
        }
    }

    /**
     * Copies Aᵀ's rows {@code rowFrom..rowTo} (A's columns) over {@code kk..kEnd} tile by tile: the 4 rows of a
     * tile side by side per k, {@code (tile, k, r)}, so the micro-kernel's broadcasts read consecutive floats.
     */
    private static void packColumns(View a, int aColumn, int rowFrom, int rowTo, int kk, int kEnd, float[] packed) {
        float[] data = a.data();
        for (int i = rowFrom; i < rowTo; i += ROWS) {
            int tile = (i - rowFrom) * K_BLOCK;
            for (int k = kk; k < kEnd; k++) {
                int from = a.offset() + k * aColumn + i;
                int to = tile + (k - kk) * ROWS;
                for (int r = 0; r < ROWS; r++) {
                    packed[to + r] = data[from + r];
                }
            }
        }
    }

    /** Copies B's columns {@code j..j+width} of rows {@code kk..kEnd} into a contiguous panel: {@code (k, col)}. */
    private static void packRows(View b, int j, int width, int kk, int kEnd, float[] packed) {
        for (int k = kk; k < kEnd; k++) {
            System.arraycopy(b.data(), b.offset() + k * b.rowStride() + j, packed, (k - kk) * width, width);
        }
    }

    /** Copies Bᵀ's panel (B's rows {@code j..j+width} over columns {@code kk..kEnd}) into the same layout. */
    private static void packTransposed(View b, int j, int width, int kk, int kEnd, float[] packed) {
        float[] data = b.data();
        for (int col = 0; col < width; col++) {
            int row = b.offset() + (j + col) * b.rowStride();
            for (int kk2 = kk; kk2 < kEnd; kk2++) {
                packed[(kk2 - kk) * width + col] = data[row + kk2];
            }
        }
    }

    /**
     * One 4 × 2-vector tile of C over k in {@code [kk, kEnd)}: C's tile starts at {@code c[cIndex]}; A's row r
     * of the tile at {@code a[aIndex + r·aRow + k·aColumn]}; B's panel row k at {@code b[bOffset + k·ldb]}.
     */
    private static void tile(float[] a, int aIndex, int aRow, int aColumn, float[] b, int bOffset, int ldb,
            float[] c, int cIndex, int ldc, int kk, int kEnd, int step) {
        int r0 = cIndex;
        int r1 = r0 + ldc;
        int r2 = r1 + ldc;
        int r3 = r2 + ldc;
        FloatVector c00 = FloatVector.fromArray(FLOATS, c, r0);
        FloatVector c01 = FloatVector.fromArray(FLOATS, c, r0 + step);
        FloatVector c10 = FloatVector.fromArray(FLOATS, c, r1);
        FloatVector c11 = FloatVector.fromArray(FLOATS, c, r1 + step);
        FloatVector c20 = FloatVector.fromArray(FLOATS, c, r2);
        FloatVector c21 = FloatVector.fromArray(FLOATS, c, r2 + step);
        FloatVector c30 = FloatVector.fromArray(FLOATS, c, r3);
        FloatVector c31 = FloatVector.fromArray(FLOATS, c, r3 + step);
        int a0 = aIndex;
        int a1 = a0 + aRow;
        int a2 = a1 + aRow;
        int a3 = a2 + aRow;
        for (int k = kk; k < kEnd; k++) {
            int bk = bOffset + k * ldb;
            int ak = k * aColumn;
            FloatVector vb0 = FloatVector.fromArray(FLOATS, b, bk);
            FloatVector vb1 = FloatVector.fromArray(FLOATS, b, bk + step);
            FloatVector va0 = FloatVector.broadcast(FLOATS, a[a0 + ak]);
            FloatVector va1 = FloatVector.broadcast(FLOATS, a[a1 + ak]);
            FloatVector va2 = FloatVector.broadcast(FLOATS, a[a2 + ak]);
            FloatVector va3 = FloatVector.broadcast(FLOATS, a[a3 + ak]);
            c00 = va0.fma(vb0, c00);
            c01 = va0.fma(vb1, c01);
            c10 = va1.fma(vb0, c10);
            c11 = va1.fma(vb1, c11);
            c20 = va2.fma(vb0, c20);
            c21 = va2.fma(vb1, c21);
            c30 = va3.fma(vb0, c30);
            c31 = va3.fma(vb1, c31);
        }
        c00.intoArray(c, r0);
        c01.intoArray(c, r0 + step);
        c10.intoArray(c, r1);
        c11.intoArray(c, r1 + step);
        c20.intoArray(c, r2);
        c21.intoArray(c, r2 + step);
        c30.intoArray(c, r3);
        c31.intoArray(c, r3 + step);
    }

    private static float bElement(View b, boolean transposed, int k, int j) {
        return transposed ? b.get(j, k) : b.get(k, j);
    }

    // ---- scalar twins: plain triple loops, the definition the vector products must agree with ----

    /** Scalar twin of {@link #multiply}. */
    public static void multiplyScalar(View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate) {
        for (int i = rowFrom; i < rowTo; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int kk = 0; kk < k; kk++) {
                    sum += a.get(i, kk) * b.get(kk, j);
                }
                store(c, i, j, sum, accumulate);
            }
        }
    }

    /** Scalar twin of {@link #multiplyTransposedA}. */
    public static void multiplyTransposedAScalar(View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate) {
        for (int i = rowFrom; i < rowTo; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int kk = 0; kk < k; kk++) {
                    sum += a.get(kk, i) * b.get(kk, j);
                }
                store(c, i, j, sum, accumulate);
            }
        }
    }

    /** Scalar twin of {@link #multiplyTransposedB}. */
    public static void multiplyTransposedBScalar(View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate) {
        for (int i = rowFrom; i < rowTo; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int kk = 0; kk < k; kk++) {
                    sum += a.get(i, kk) * b.get(j, kk);
                }
                store(c, i, j, sum, accumulate);
            }
        }
    }

    private static void store(View c, int i, int j, float sum, boolean accumulate) {
        int index = c.offset() + i * c.rowStride() + j;
        c.data()[index] = accumulate ? c.data()[index] + sum : sum;
    }

    /** Column panels of C that must reuse a packed block of Aᵀ for packing it to pay. */
    static final int MIN_PANELS_TO_PACK_A = 4;

    /** Per-thread packing buffers, kept between calls (a step makes hundreds of small products). */
    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(() -> new float[2][]);

    private static float[] scratch(int which, int length) {
        float[][] buffers = SCRATCH.get();
        if (buffers[which] == null || buffers[which].length < length) {
            buffers[which] = new float[length];
        }
        return buffers[which];
    }

    /** FLOPs of one product of an m × k by a k × n matrix, whatever the orientation: 2·m·n·k. */
    public static double flops(long m, long n, long k) {
        return 2.0 * m * n * k;
    }
}
