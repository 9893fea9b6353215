package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.benchmarks.gpu.ComputeCapability;
import membound.benchmarks.gpu.GpuGemmPlan;
import membound.benchmarks.gpu.GpuGemmResult;
import membound.benchmarks.gpu.GpuUnavailableException;
import membound.benchmarks.results.PassTimes;
import membound.benchmarks.stream.StreamValidationException;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.Units;

/**
 * GEMM ceilings through cuBLASLt: each precision the device and the library offer, at the plan's square orders and
 * the step's product shapes, every sample timed with CUDA events and checked.
 *
 * <p><b>Known operands.</b> A and B hold integers in {@code [-2, 2]} from a hash of their position (not a constant,
 * so the tensor cores switch bits as they do on real data), which every format holds exactly (FP4's E2M1 too, with
 * block scales of 1). Accumulation is FP32 and D is FP32, so every entry of {@code D} is an exact integer whatever
 * order the kernel sums in (|D| ≤ 4k, far below 2<sup>24</sup>). Before each sample D is poisoned with NaN; after
 * it, {@value #CHECKED_ENTRIES} sampled entries must equal the dot products computed here, or the run fails: a
 * wrong answer is an error, never a figure.
 *
 * <p><b>Layouts.</b> {@link ProductShape} is row-major (as the CPU suite's products). cuBLASLt is column-major, so a
 * row-major {@code C = op(A)·op(B)} is computed as the column-major {@code Cᵀ = op(B)ᵀ·op(A)ᵀ}: B's memory is
 * cuBLASLt's A and A's is its B. Row-major {@code nt} is then cuBLASLt's {@code TN}, the only layout its FP8 and FP4
 * kernels take on Hopper, so 8- and 4-bit products are measured in {@code nt} only and the square ones are
 * {@code nt}; the others are {@code nn}, as {@code torch.matmul} of two row-major matrices.
 *
 * <p>A precision the device's compute capability or the library's version does not offer, and a problem the
 * heuristic has no algorithm for, are one line each in {@link #notMeasured()}, and the rest goes on.
 */
final class CudaGemm {

    /** Sampled entries of D checked after every sample. */
    static final int CHECKED_ENTRIES = 64;
    /** cuBLASLt's recommended workspace on Hopper and Blackwell. */
    static final long WORKSPACE_BYTES = 32 * Units.MIB;
    /** A sample lasts at least this long (calls back to back), far above the events' 0.5 µs resolution. */
    static final long SAMPLE_NANOS = 2_000_000;
    static final int MOST_CALLS_PER_SAMPLE = 200;
    /** NaN in FP32, the poison D is filled with before each sample. */
    static final int NAN_BITS = 0x7FC00000;
    /** 1.0 in UE4M3: every NVFP4 block scale, four to a word. */
    static final int UE4M3_ONES = 0x38383838;

    /** How one precision is asked of cuBLASLt. */
    enum Format {
        FP32(Precision.FP32, CublasLt.CUDA_R_32F, CublasLt.COMPUTE_32F, 32, new ComputeCapability(7, 0), 0),
        TF32(Precision.TF32, CublasLt.CUDA_R_32F, CublasLt.COMPUTE_32F_FAST_TF32, 32, new ComputeCapability(8, 0),
                110000),
        BF16(Precision.BF16, CublasLt.CUDA_R_16BF, CublasLt.COMPUTE_32F, 16, new ComputeCapability(8, 0), 110000),
        FP16(Precision.FP16, CublasLt.CUDA_R_16F, CublasLt.COMPUTE_32F, 16, new ComputeCapability(7, 0), 0),
        FP8(Precision.FP8, CublasLt.CUDA_R_8F_E4M3, CublasLt.COMPUTE_32F, 8, new ComputeCapability(8, 9), 110800),
        FP4(Precision.FP4, CublasLt.CUDA_R_4F_E2M1, CublasLt.COMPUTE_32F, 4, new ComputeCapability(10, 0), 120800);

        final Precision precision;
        final int dataType;
        final int computeType;
        final int bits;
        /** The least compute capability with tensor-core kernels for it. */
        final ComputeCapability minimumCapability;
        /** The least cuBLASLt version ({@code cublasLtGetVersion}) that has it. */
        final long minimumVersion;

        Format(Precision precision, int dataType, int computeType, int bits, ComputeCapability minimumCapability,
               long minimumVersion) {
            this.precision = precision;
            this.dataType = dataType;
            this.computeType = computeType;
            this.bits = bits;
            this.minimumCapability = minimumCapability;
            this.minimumVersion = minimumVersion;
        }

        static Format of(Precision precision) {
            for (Format format : values()) {
                if (format.precision == precision) {
                    return format;
                }
            }
            throw new IllegalArgumentException("no cuBLASLt format for " + precision);
        }

        /** 8- and 4-bit operands: cuBLASLt's TN layout (row-major nt) only. */
        boolean onlyNt() {
            return bits <= 8;
        }

        long bytes(long elements) {
            return (elements * bits + 7) / 8;
        }

        /** Why this device or library cannot run it, or null where it can. */
        String unsupported(ComputeCapability computeCapability, long libraryVersion) {
            if (!computeCapability.atLeast(minimumCapability)) {
                return "compute capability " + computeCapability + " has no " + precision.label() + " tensor-core "
                        + "GEMM (it needs " + minimumCapability + ")";
            }
            if (libraryVersion < minimumVersion) {
                return "cuBLASLt " + CublasLt.versionText(libraryVersion) + " has no " + precision.label()
                        + " GEMM (it needs " + CublasLt.versionText(minimumVersion) + ")";
            }
            return null;
        }
    }

    /** The integer in [-2, 2] at a position of operand {@code seed}; pairs along k agree (FP4 packs two a byte). */
    static int value(int seed, int batch, int outer, int k) {
        long h = seed * 0x9E3779B97F4A7C15L + batch * 0xC2B2AE3D27D4EB4FL + outer * 0x165667B19E3779F9L
                + (k >>> 1) * 0x27D4EB2F165667C5L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, 5L) - 2;
    }

    /** D[i][j] of product {@code p} (row-major): the dot product of A's row i and B's column j. */
    static long expected(ProductShape shape, int p, int i, int j) {
        long sum = 0;
        for (int kk = 0; kk < shape.k(); kk++) {
            sum += (long) value(SEED_A, p, i, kk) * value(SEED_B, p, j, kk);
        }
        return sum;
    }

    static final int SEED_A = 3;
    static final int SEED_B = 5;

    private final CudaCalls cuda;
    private final CublasLt lt;
    private final ComputeCapability computeCapability;
    private final MemorySegment start;
    private final MemorySegment end;
    private final List<String> notMeasured = new ArrayList<>();

    CudaGemm(CudaCalls cuda, CublasLt lt, ComputeCapability computeCapability, MemorySegment start, MemorySegment end) {
        this.cuda = cuda;
        this.lt = lt;
        this.computeCapability = computeCapability;
        this.start = start;
        this.end = end;
    }

    List<String> notMeasured() {
        return List.copyOf(notMeasured);
    }

    List<GpuGemmResult> measure(GpuGemmPlan plan) {
        long version = lt.version();
        List<GpuGemmResult> results = new ArrayList<>();
        for (Precision precision : plan.precisions()) {
            Format format = Format.of(precision);
            String why = format.unsupported(computeCapability, version);
            if (why != null) {
                notMeasured.add("gpu " + precision.label() + " GEMM not measured: " + why);
                continue;
            }
            for (int order : plan.squareOrders()) {
                ProductShape shape = new ProductShape(order, order, order,
                        format.onlyNt() ? ProductShape.Layout.NT : ProductShape.Layout.NN);
                attempt(plan, format, shape, true, results);
            }
            for (ProductShape shape : plan.products()) {
                if (format.onlyNt() && shape.layout() != ProductShape.Layout.NT) {
                    notMeasured.add("gpu " + precision.label() + " product " + shape + " not measured: cuBLASLt's "
                            + "8- and 4-bit GEMMs take the nt layout only");
                    continue;
                }
                attempt(plan, format, shape, false, results);
            }
        }
        return results;
    }

    /**
     * Measures one problem. A problem cuBLASLt refuses (a {@code CUBLAS_STATUS_*}: no algorithm for it, a format or
     * attribute this library does not know) becomes a line and the rest goes on: no figure, and no wrong one. A
     * driver error ({@code CUDA_ERROR_*}) leaves the context unusable and ends the suite.
     */
    private void attempt(GpuGemmPlan plan, Format format, ProductShape shape, boolean square,
                         List<GpuGemmResult> results) {
        try {
            results.add(measure(plan, format, shape, square));
        } catch (CudaException e) {
            if (!e.cudaErrorName().orElse("").startsWith("CUBLAS_STATUS_")) {
                throw e;
            }
            notMeasured.add("gpu " + format.precision.label() + " GEMM " + shape + " not measured: " + e.getMessage());
        }
    }

    private GpuGemmResult measure(GpuGemmPlan plan, Format format, ProductShape shape, boolean square) {
        String problem = format.precision.label() + " " + shape;
        long aElements = (long) shape.batch() * shape.m() * shape.k();
        long bElements = (long) shape.batch() * shape.k() * shape.n();
        long dElements = (long) shape.batch() * shape.m() * shape.n();
        long needed = format.bytes(aElements) + format.bytes(bElements) + dElements * Float.BYTES + WORKSPACE_BYTES
                + (format == Format.FP4 ? scaleBytes(shape.batch(), shape.m(), shape.k())
                        + scaleBytes(shape.batch(), shape.n(), shape.k()) : 0);
        long free = cuda.memoryInfo()[0];
        if (needed > free) {
            throw new GpuUnavailableException("not enough device memory for the " + problem + " GEMM: it needs "
                    + Units.formatBytes(needed) + ", cuMemGetInfo reports " + Units.formatBytes(free) + " free",
                    "CUDA_ERROR_OUT_OF_MEMORY");
        }
        List<Long> allocations = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            long a = allocate(allocations, format.bytes(aElements));
            long b = allocate(allocations, format.bytes(bElements));
            long d = allocate(allocations, dElements * Float.BYTES);
            long workspace = allocate(allocations, WORKSPACE_BYTES);
            upload(format, shape, true, a);
            upload(format, shape, false, b);
            return run(arena, plan, format, shape, square, a, b, d, workspace, allocations, problem);
        } finally {
            for (long pointer : allocations) {
                cuda.free(pointer);
            }
        }
    }

    private GpuGemmResult run(Arena arena, GpuGemmPlan plan, Format format, ProductShape shape, boolean square,
                              long a, long b, long d, long workspace, List<Long> allocations, String problem) {
        long aScale = 0;
        long bScale = 0;
        if (format == Format.FP4) {
            bScale = allocate(allocations, scaleBytes(shape.batch(), shape.n(), shape.k()));
            aScale = allocate(allocations, scaleBytes(shape.batch(), shape.m(), shape.k()));
            cuda.set32(bScale, UE4M3_ONES, scaleBytes(shape.batch(), shape.n(), shape.k()) / Integer.BYTES);
            cuda.set32(aScale, UE4M3_ONES, scaleBytes(shape.batch(), shape.m(), shape.k()) / Integer.BYTES);
        }
        Described described = describe(lt, arena, format, shape, aScale, bScale);
        try {
            MemorySegment desc = described.desc();
            MemorySegment first = described.first();
            MemorySegment second = described.second();
            MemorySegment out = described.out();
            MemorySegment algorithm = lt.bestAlgorithm(arena, desc, first, second, out, WORKSPACE_BYTES, problem);
            long workspaceBytes = algorithm.get(java.lang.foreign.ValueLayout.JAVA_LONG,
                    CublasLt.HEURISTIC_WORKSPACE_OFFSET);
            MemorySegment alpha = arena.allocateFrom(JAVA_FLOAT, 1f);
            MemorySegment beta = arena.allocateFrom(JAVA_FLOAT, 0f);
            Runnable call = () -> lt.matmul(desc, alpha, b, first, a, second, beta, d, out, algorithm, workspace,
                    WORKSPACE_BYTES, problem);
            int calls = 1;
            long[] nanos = new long[plan.passes()];
            for (int sample = -plan.warmupPasses() - 1; sample < plan.passes(); sample++) {
                long took = sample(call, calls, shape, d, problem);
                if (sample == -plan.warmupPasses() - 1) {
                    // The first call sizes the samples: enough calls back to back to last SAMPLE_NANOS.
                    calls = (int) Math.max(1, Math.min(MOST_CALLS_PER_SAMPLE, SAMPLE_NANOS / Math.max(1, took)));
                } else if (sample >= 0) {
                    nanos[sample] = took;
                }
            }
            return new GpuGemmResult(format.precision, shape, square, calls, workspaceBytes, PassTimes.ofNanos(nanos));
        } finally {
            described.destroy(lt);
        }
    }

    /**
     * A problem as cuBLASLt is asked it: the matmul descriptor and the layouts of its A, B and D.
     *
     * <p>cuBLASLt is column-major and ours is row-major, so it is asked for D<sup>T</sup> = op(B)<sup>T</sup>
     * op(A)<sup>T</sup>: its A ({@link #first}) is our B, its B ({@link #second}) is our A, and its D is n × m
     * column-major, which is our m × n row-major D. Each is laid out as it lies in memory, and the transposes turn
     * them into what the product needs.
     */
    record Described(MemorySegment desc, MemorySegment first, MemorySegment second, MemorySegment out) {
        void destroy(CublasLt lt) {
            for (MemorySegment layout : new MemorySegment[] {first, second, out}) {
                if (layout != null) {
                    lt.destroyLayout(layout);
                }
            }
            lt.destroyDesc(desc);
        }
    }

    /**
     * Describes {@code shape} in {@code format} to cuBLASLt; for FP4 with the block scales at the device pointers
     * {@code aScale} (our A's) and {@code bScale}. Needs no device: only the binding's descriptors. What it made is
     * destroyed again when a step fails.
     */
    static Described describe(CublasLt lt, Arena arena, Format format, ProductShape shape, long aScale,
                              long bScale) {
        ProductShape.Layout layout = shape.layout();
        boolean bTransposed = layout == ProductShape.Layout.NT;
        boolean aTransposed = layout == ProductShape.Layout.TN;
        MemorySegment desc = lt.matmulDesc(arena, format.computeType, bTransposed ? CublasLt.OP_T : CublasLt.OP_N,
                aTransposed ? CublasLt.OP_T : CublasLt.OP_N);
        MemorySegment first = null;
        MemorySegment second = null;
        MemorySegment out = null;
        try {
            if (format == Format.FP4) {
                lt.setDescInt(arena, desc, CublasLt.DESC_A_SCALE_MODE, CublasLt.SCALE_VEC16_UE4M3, "A_SCALE_MODE");
                lt.setDescInt(arena, desc, CublasLt.DESC_B_SCALE_MODE, CublasLt.SCALE_VEC16_UE4M3, "B_SCALE_MODE");
                lt.setDescPointer(arena, desc, CublasLt.DESC_A_SCALE_POINTER, bScale, "A_SCALE_POINTER");
                lt.setDescPointer(arena, desc, CublasLt.DESC_B_SCALE_POINTER, aScale, "B_SCALE_POINTER");
            }
            first = lt.layout(arena, format.dataType, bTransposed ? shape.k() : shape.n(),
                    bTransposed ? shape.n() : shape.k(), shape.batch());
            second = lt.layout(arena, format.dataType, aTransposed ? shape.m() : shape.k(),
                    aTransposed ? shape.k() : shape.m(), shape.batch());
            out = lt.layout(arena, CublasLt.CUDA_R_32F, shape.n(), shape.m(), shape.batch());
            return new Described(desc, first, second, out);
        } catch (CudaException e) {
            new Described(desc, first, second, out).destroy(lt);
            throw e;
        }
    }

    /** One checked sample of {@code calls} calls: the time of one, in nanoseconds. */
    private long sample(Runnable call, int calls, ProductShape shape, long d, String problem) {
        cuda.set32(d, NAN_BITS, (long) shape.batch() * shape.m() * shape.n());
        cuda.synchronize();
        cuda.record(start);
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        cuda.record(end);
        cuda.synchronize(end);
        long nanos = Math.max(1, Math.round(cuda.elapsedMillis(start, end) * 1e6 / calls));
        check(shape, d, problem);
        return nanos;
    }

    /** Sampled entries of D (row-major m x n per product, FP32) against the exact dot products. */
    private void check(ProductShape shape, long d, String problem) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entry = arena.allocate(JAVA_FLOAT);
            for (int s = 0; s < CHECKED_ENTRIES; s++) {
                int p = s % shape.batch();
                int i = (int) ((s * 2654435761L) % shape.m());
                int j = (int) ((s * 40503L + 17) % shape.n());
                if (s == 0) {
                    i = 0;
                    j = 0;
                } else if (s == 1) {
                    i = shape.m() - 1;
                    j = shape.n() - 1;
                    p = shape.batch() - 1;
                }
                long offset = ((long) p * shape.m() * shape.n() + (long) i * shape.n() + j) * Float.BYTES;
                cuda.read(entry, d + offset, Float.BYTES);
                float actual = entry.get(JAVA_FLOAT, 0);
                long expected = expected(shape, p, i, j);
                if (actual != expected) {
                    throw new StreamValidationException(String.format(Locale.ROOT, "GPU GEMM %s failed validation: "
                            + "D[%d][%d][%d] is %s, expected %d", problem, p, i, j, actual, expected));
                }
            }
        }
    }

    private long allocate(List<Long> allocations, long bytes) {
        long pointer = cuda.allocate(Math.max(bytes, 16));
        allocations.add(pointer);
        return pointer;
    }

    /**
     * Bytes of one operand's NVFP4 block scales: one per 16 elements along k, in cuBLASLt's tiles of 128 rows by 4
     * scales. Every scale is 1.0, so the tiles' order inside does not matter.
     */
    static long scaleBytes(int batch, int outer, int k) {
        long rows = (outer + 127L) / 128 * 128;
        long columns = ((k / 16) + 3L) / 4 * 4;
        return batch * rows * columns;
    }

    /** Writes operand A or B of {@code shape} in {@code format} and copies it over. */
    private void upload(Format format, ProductShape shape, boolean isA, long device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = encode(arena, format, shape, isA);
            cuda.copyToDevice(device, host, format.bytes(elements(shape, isA)));
            cuda.synchronize();
        }
    }

    static long elements(ProductShape shape, boolean isA) {
        return (long) shape.batch() * (isA ? shape.m() : shape.n()) * shape.k();
    }

    /**
     * Operand A or B of {@code shape} in {@code format}, stored row-major as {@link ProductShape}'s layout says: A is
     * m × k (k × m for {@code tn}), B is k × n (n × k for {@code nt}); the batch's products one after another.
     */
    static MemorySegment encode(Arena arena, Format format, ProductShape shape, boolean isA) {
        int outerSize = isA ? shape.m() : shape.n();
        int k = shape.k();
        long bytes = format.bytes(elements(shape, isA));
        MemorySegment host = arena.allocate(Math.max(bytes, 16), 16);
        boolean kContiguous = isA ? shape.layout() != ProductShape.Layout.TN : shape.layout() == ProductShape.Layout.NT;
        int seed = isA ? SEED_A : SEED_B;
        for (int p = 0; p < shape.batch(); p++) {
            long base = (long) p * outerSize * k;
            for (int outer = 0; outer < outerSize; outer++) {
                for (int kk = 0; kk < k; kk++) {
                    long index = base + (kContiguous ? (long) outer * k + kk : (long) kk * outerSize + outer);
                    put(host, format, index, value(seed, p, outer, kk));
                }
            }
        }
        return host;
    }

    /** Element {@code index} of a packed array of {@code format} set to the integer {@code v} in [-2, 2]. */
    static void put(MemorySegment host, Format format, long index, int v) {
        switch (format) {
            case FP32, TF32 -> host.setAtIndex(JAVA_FLOAT, index, v);
            case BF16 -> host.setAtIndex(JAVA_SHORT, index, (short) (Float.floatToRawIntBits(v) >>> 16));
            case FP16 -> host.setAtIndex(JAVA_SHORT, index, Float.floatToFloat16(v));
            case FP8 -> host.set(JAVA_BYTE, index, E4M3[v + 2]);
            case FP4 -> {
                long at = index >>> 1;
                int nibble = E2M1[v + 2];
                byte old = host.get(JAVA_BYTE, at);
                host.set(JAVA_BYTE, at, (byte) ((index & 1) == 0 ? (old & 0xF0) | nibble : (old & 0x0F) | nibble << 4));
            }
            default -> throw new IllegalArgumentException(format.name());
        }
    }

    /** -2, -1, 0, 1, 2 in FP8 E4M3 (bias 7) and FP4 E2M1 (bias 1). */
    static final byte[] E4M3 = {(byte) 0xC0, (byte) 0xB8, 0x00, 0x38, 0x40};
    static final int[] E2M1 = {0xC, 0xA, 0x0, 0x2, 0x4};

}
