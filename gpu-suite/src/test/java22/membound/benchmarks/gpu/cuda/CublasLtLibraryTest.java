package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import membound.benchmarks.gpu.ComputeCapability;
import membound.vocabulary.ProductShape;

/**
 * The cuBLASLt binding against the real library, without a GPU: cuBLASLt's descriptors, layouts and preferences are
 * host objects, so every one the GEMMs build is built here by the suite's own code ({@link CudaGemm#describe}) and
 * read back through the library's {@code *GetAttribute} calls. cuBLASLt checks the width of every attribute it is
 * given, and reports what it stored, so this shows that each value reaches it as the type it expects.
 *
 * <p>The product check then does, on the host, what cuBLASLt's column-major definition of {@code cublasLtMatmul}
 * does with those read-back layouts and transposes, on the operands the suite uploads, and compares every sampled
 * entry of D with the closed form the suite validates a GPU's result against. A wrong transpose, leading dimension
 * or batch stride fails here instead of failing validation (or worse, measuring another product) on a lent GPU.
 *
 * <p>The library is {@code MEMBOUND_LIBCUBLASLT} (CI: Debian's libcublaslt11, CUDA 11.8); the tests skip without one.
 */
class CublasLtLibraryTest {

    // Attributes read back here and not set by the suite (cublasLt.h; CublasLtHeaderTest checks them too).
    static final int DESC_COMPUTE_TYPE = 0;
    static final int DESC_SCALE_TYPE = 1;
    static final int LAYOUT_TYPE = 0;
    static final int LAYOUT_ORDER = 1;
    static final int LAYOUT_ROWS = 2;
    static final int LAYOUT_COLS = 3;
    static final int LAYOUT_LD = 4;
    static final int ORDER_COL = 0;
    static final int STATUS_INVALID_VALUE = 7;

    private static final FunctionDescriptor GET_ATTRIBUTE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
            ADDRESS, JAVA_LONG, ADDRESS);

    private static String library;
    private static CublasLt lt;
    private static MethodHandle descGet;
    private static MethodHandle layoutGet;
    private static MethodHandle preferenceGet;
    private static MethodHandle descSet;

    @BeforeAll
    static void bind() {
        String given = System.getenv(CublasLt.LIBRARY_ENVIRONMENT);
        assumeTrue(given != null && Files.isRegularFile(Path.of(given)), "no cuBLASLt library at "
                + CublasLt.LIBRARY_ENVIRONMENT + " (" + given + "); CI fetches Debian's libcublaslt11 "
                + "(scripts/ci/cuda-tools.sh)");
        library = given;
        lt = CublasLt.bind(List.of(library));
        SymbolLookup lookup = SymbolLookup.libraryLookup(Path.of(library), Arena.global());
        Linker linker = Linker.nativeLinker();
        descGet = linker.downcallHandle(lookup.find("cublasLtMatmulDescGetAttribute").orElseThrow(), GET_ATTRIBUTE);
        layoutGet = linker.downcallHandle(lookup.find("cublasLtMatrixLayoutGetAttribute").orElseThrow(),
                GET_ATTRIBUTE);
        preferenceGet = linker.downcallHandle(lookup.find("cublasLtMatmulPreferenceGetAttribute").orElseThrow(),
                GET_ATTRIBUTE);
        descSet = linker.downcallHandle(lookup.find("cublasLtMatmulDescSetAttribute").orElseThrow(),
                CublasLt.BINDINGS.get("cublasLtMatmulDescSetAttribute"));
    }

    @Test
    void everySymbolBindsAndTheVersionIsTheSonamesRelease() {
        long version = lt.version();
        assertTrue(version >= 110000, "cublasLtGetVersion: " + version);
        Matcher soname = Pattern.compile("libcublasLt\\.so\\.(\\d+)").matcher(library);
        if (soname.find()) {
            assertTrue(CublasLt.versionText(version).startsWith(soname.group(1) + "."),
                    CublasLt.versionText(version) + " from " + library);
        }
    }

    @Test
    void withoutADeviceTheHandleIsRefusedInOneLineThatTheSuiteReportsAsGemmNotMeasured() {
        CudaException e = null;
        try {
            CublasLt.load(List.of(library)).close();
        } catch (CudaException thrown) {
            e = thrown;
        }
        assumeTrue(e != null, "cublasLtCreate succeeded: this machine has a GPU");
        // CudaGpuSuite turns a refused cublasLtCreate, and only that, into "gpu GEMM not measured: ...".
        assertTrue(e.getMessage().startsWith("cublasLtCreate failed: CUBLAS_STATUS_"), e.getMessage());
        assertTrue(e.getMessage().indexOf('\n') < 0, e.getMessage());
        assertTrue(e.cudaErrorName().orElseThrow().startsWith("CUBLAS_STATUS_"));
    }

    @Test
    void cuBlasLtRefusesAnAttributeOfTheWrongWidth() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = lt.matmulDesc(arena, CublasLt.COMPUTE_32F, CublasLt.OP_N, CublasLt.OP_N);
            try {
                MemorySegment wide = arena.allocateFrom(JAVA_LONG, CublasLt.OP_T);
                assertEquals(STATUS_INVALID_VALUE, CublasLt.invoke(() -> (int) descSet.invokeExact(desc, CublasLt.DESC_TRANSA,
                        wide, (long) Long.BYTES)), "TRANSA is an int32_t: 8 bytes are refused, so the widths read "
                        + "back below are the ones cuBLASLt checked");
                assertEquals(CublasLt.OP_N, get(descGet, desc, CublasLt.DESC_TRANSA, Integer.BYTES));
            } finally {
                lt.destroyDesc(desc);
            }
        }
    }

    @Test
    void thePreferenceHoldsTheWorkspaceLimitAsUint64() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment preference = lt.preference(arena, CudaGemm.WORKSPACE_BYTES);
            try {
                assertEquals(CudaGemm.WORKSPACE_BYTES, get(preferenceGet, preference,
                        CublasLt.PREF_MAX_WORKSPACE_BYTES, Long.BYTES));
            } finally {
                lt.destroyPreference(preference);
            }
        }
    }

    /** Every format this library offers, in every layout the suite asks it in, batched and not. */
    @ParameterizedTest
    @EnumSource(CudaGemm.Format.class)
    void eachGemmIsDescribedAsTheProductItMeasures(CudaGemm.Format format) {
        String why = format.unsupported(new ComputeCapability(12, 1), lt.version());
        if (why != null) {
            // The version gate keeps the suite from asking: this library would refuse the attribute.
            assertEquals(CudaGemm.Format.FP4, format, why);
            assertTrue(why.startsWith("cuBLASLt " + CublasLt.versionText(lt.version()) + " has no fp4"), why);
            try (Arena arena = Arena.ofConfined()) {
                CudaException e = assertThrows(CudaException.class, () -> CudaGemm.describe(lt, arena, format,
                        ProductShape.parse("64x64x64:nt"), 0x1000, 0x2000));
                assertEquals("cublasLtMatmulDescSetAttribute(A_SCALE_MODE) failed: CUBLAS_STATUS_INVALID_VALUE "
                        + "(7): cuBLASLt refused the call", e.getMessage());
            }
            return;
        }
        // Square ones too: there every transpose conforms, and only the product shows a wrong one.
        List<String> shapes = format.onlyNt() ? List.of("2x48x32x64:nt", "40x24x56:nt", "32x32x32:nt")
                : List.of("2x48x32x64:nn", "2x48x32x64:nt", "2x48x32x64:tn", "40x24x56:nn", "40x24x56:tn",
                        "32x32x32:nn", "2x32x32x32:nt", "32x32x32:tn");
        for (String text : shapes) {
            ProductShape shape = ProductShape.parse(text);
            try (Arena arena = Arena.ofConfined()) {
                CudaGemm.Described described = CudaGemm.describe(lt, arena, format, shape, 0x1000, 0x2000);
                try {
                    checkDescribed(format, shape, described, arena);
                } finally {
                    described.destroy(lt);
                }
            }
        }
    }

    private static void checkDescribed(CudaGemm.Format format, ProductShape shape, CudaGemm.Described described,
                                       Arena arena) {
        String what = format + " " + shape;
        MemorySegment desc = described.desc();
        assertEquals(format.computeType, get(descGet, desc, DESC_COMPUTE_TYPE, Integer.BYTES), what);
        assertEquals(CublasLt.CUDA_R_32F, get(descGet, desc, DESC_SCALE_TYPE, Integer.BYTES), what);
        if (format == CudaGemm.Format.FP4) {
            assertEquals(CublasLt.SCALE_VEC16_UE4M3, get(descGet, desc, CublasLt.DESC_A_SCALE_MODE, Integer.BYTES));
            assertEquals(CublasLt.SCALE_VEC16_UE4M3, get(descGet, desc, CublasLt.DESC_B_SCALE_MODE, Integer.BYTES));
            assertEquals(0x2000, get(descGet, desc, CublasLt.DESC_A_SCALE_POINTER, Long.BYTES),
                    "cuBLASLt's A is our B: its scales are B's");
            assertEquals(0x1000, get(descGet, desc, CublasLt.DESC_B_SCALE_POINTER, Long.BYTES));
        }
        Operand a = Operand.read(described.first(), get(descGet, desc, CublasLt.DESC_TRANSA, Integer.BYTES));
        Operand b = Operand.read(described.second(), get(descGet, desc, CublasLt.DESC_TRANSB, Integer.BYTES));
        Operand d = Operand.read(described.out(), CublasLt.OP_N);
        assertEquals(format.dataType, a.type, what);
        assertEquals(format.dataType, b.type, what);
        assertEquals(CublasLt.CUDA_R_32F, d.type, what + ": D is FP32");
        // cublasLtMatmul: D (rows x cols) = op(A) (rows x k) op(B) (k x cols), each column-major.
        assertEquals(d.rows, a.opRows(), what + ": op(A) has D's rows");
        assertEquals(d.columns, b.opColumns(), what + ": op(B) has D's columns");
        assertEquals(a.opColumns(), b.opRows(), what + ": op(A) and op(B) agree on k");
        assertEquals(shape.k(), a.opColumns(), what + ": k");
        assertEquals(shape.n(), d.rows, what + ": D is n x m column-major, our m x n row-major");
        assertEquals(shape.m(), d.columns, what);
        assertEquals(shape.n(), d.ld, what + ": D's columns (our rows) lie n apart");
        for (Operand operand : List.of(a, b, d)) {
            assertEquals(shape.batch(), operand.batch, what);
            if (shape.batch() > 1) {
                assertEquals(operand.rows * operand.columns, operand.stride, what + ": the products lie back to back");
            }
        }
        // The suite passes our B as cuBLASLt's A and our A as its B (CudaGemm.run).
        MemorySegment ourA = CudaGemm.encode(arena, format, shape, true);
        MemorySegment ourB = CudaGemm.encode(arena, format, shape, false);
        for (int p = 0; p < shape.batch(); p++) {
            for (int i = 0; i < shape.m(); i += 5) {
                for (int j = 0; j < shape.n(); j += 3) {
                    // D(row j, column i) of cuBLASLt's column-major D is our D[i][j].
                    long sum = 0;
                    for (int kk = 0; kk < shape.k(); kk++) {
                        sum += Math.round(a.op(ourB, format, p, j, kk) * b.op(ourA, format, p, kk, i));
                    }
                    assertEquals(CudaGemm.expected(shape, p, i, j), sum, what + " D[" + p + "][" + i + "][" + j + "]");
                }
            }
        }
    }

    /** A matrix as its layout, read back from cuBLASLt, and the operation applied to it say it is. */
    private record Operand(int type, long rows, long columns, long ld, int batch, long stride, int operation) {
        static Operand read(MemorySegment layout, long operation) {
            assertEquals(ORDER_COL, get(layoutGet, layout, LAYOUT_ORDER, Integer.BYTES), "column-major");
            int batch = (int) get(layoutGet, layout, CublasLt.LAYOUT_BATCH_COUNT, Integer.BYTES);
            return new Operand((int) get(layoutGet, layout, LAYOUT_TYPE, Integer.BYTES),
                    get(layoutGet, layout, LAYOUT_ROWS, Long.BYTES), get(layoutGet, layout, LAYOUT_COLS, Long.BYTES),
                    get(layoutGet, layout, LAYOUT_LD, Long.BYTES), batch,
                    get(layoutGet, layout, CublasLt.LAYOUT_STRIDED_BATCH_OFFSET, Long.BYTES), (int) operation);
        }

        long opRows() {
            return operation == CublasLt.OP_N ? rows : columns;
        }

        long opColumns() {
            return operation == CublasLt.OP_N ? columns : rows;
        }

        /** op(this)[row][column] of product {@code p}, read from {@code host} where this layout says it lies. */
        double op(MemorySegment host, CudaGemm.Format format, int p, long row, long column) {
            long r = operation == CublasLt.OP_N ? row : column;
            long c = operation == CublasLt.OP_N ? column : row;
            return CublasLtTest.decode(host, format, p * stride + c * ld + r);
        }
    }

    /**
     * An attribute's value, after asking cuBLASLt how wide it is: it must be {@code width} bytes (what the suite
     * sets it with).
     */
    private static long get(MethodHandle getter, MemorySegment object, int attribute, int width) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment written = arena.allocate(JAVA_LONG);
            assertEquals(0, CublasLt.invoke(() -> (int) getter.invokeExact(object, attribute, MemorySegment.NULL, 0L, written)),
                    "the width of attribute " + attribute);
            assertEquals(width, written.get(JAVA_LONG, 0), "attribute " + attribute + " is " + width + " bytes wide");
            MemorySegment value = arena.allocate(8, 8);
            assertEquals(0, CublasLt.invoke(() -> (int) getter.invokeExact(object, attribute, value, (long) width, written)),
                    "attribute " + attribute);
            return width == Integer.BYTES ? value.get(JAVA_INT, 0) : value.get(JAVA_LONG, 0);
        }
    }
}
