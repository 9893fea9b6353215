package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import membound.benchmarks.gpu.GpuUnavailableException;

/**
 * cuBLASLt ({@code libcublasLt.so}), the GEMM library PyTorch calls, through the FFM API: a handle, matmul
 * descriptors, matrix layouts, a preference with a workspace limit, the heuristic's best algorithm and
 * {@code cublasLtMatmul} on the default stream. A call that fails throws a {@link CudaException} naming the call and
 * the {@code CUBLAS_STATUS_*} name.
 *
 * <p>The library is the one {@value #LIBRARY_PROPERTY} or {@value #LIBRARY_ENVIRONMENT} names, else the first of
 * {@link #LIBRARY_NAMES} the dynamic loader finds. It is not part of the driver: a machine with the driver and no
 * CUDA toolkit or PyTorch has none, and the GPU suite then measures no GEMM and says why in one line.
 */
final class CublasLt implements AutoCloseable {

    static final String LIBRARY_PROPERTY = "membound.libcublaslt";
    static final String LIBRARY_ENVIRONMENT = "MEMBOUND_LIBCUBLASLT";
    /** The sonames of CUDA 13, 12 and 11 and the unversioned development link, newest first. */
    static final List<String> LIBRARY_NAMES = List.of("libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11",
            "libcublasLt.so");

    // cudaDataType_t (library_types.h)
    static final int CUDA_R_32F = 0;
    static final int CUDA_R_16F = 2;
    static final int CUDA_R_16BF = 14;
    static final int CUDA_R_8F_E4M3 = 28;
    /** NVFP4's block scales: an unsigned alias of E4M3, the same value. */
    static final int CUDA_R_8F_UE4M3 = 28;
    static final int CUDA_R_4F_E2M1 = 33;

    // cublasComputeType_t (cublas_api.h)
    static final int COMPUTE_32F = 68;
    static final int COMPUTE_32F_FAST_TF32 = 77;

    // cublasOperation_t
    static final int OP_N = 0;
    static final int OP_T = 1;

    // cublasLtMatmulDescAttributes_t
    static final int DESC_TRANSA = 3;
    static final int DESC_TRANSB = 4;
    static final int DESC_A_SCALE_POINTER = 17;
    static final int DESC_B_SCALE_POINTER = 18;
    static final int DESC_A_SCALE_MODE = 31;
    static final int DESC_B_SCALE_MODE = 32;
    /** cublasLtMatmulMatrixScale_t: one UE4M3 scale per 16 elements along k (NVFP4). */
    static final int SCALE_VEC16_UE4M3 = 1;

    // cublasLtMatrixLayoutAttribute_t
    static final int LAYOUT_BATCH_COUNT = 5;
    static final int LAYOUT_STRIDED_BATCH_OFFSET = 6;

    // cublasLtMatmulPreferenceAttributes_t
    static final int PREF_MAX_WORKSPACE_BYTES = 1;

    /** cublasLtMatmulHeuristicResult_t: algo (8 x uint64), size_t workspaceSize, status, float waves, int[4]. */
    static final long HEURISTIC_RESULT_BYTES = 64 + 8 + 4 + 4 + 16;
    static final long HEURISTIC_WORKSPACE_OFFSET = 64;
    static final long HEURISTIC_STATE_OFFSET = 72;

    /** cublasStatus_t names (cublas_api.h), for libraries without cublasLtGetStatusName and for the tests. */
    static final Map<Integer, String> STATUS_NAMES = Map.ofEntries(Map.entry(0, "CUBLAS_STATUS_SUCCESS"),
            Map.entry(1, "CUBLAS_STATUS_NOT_INITIALIZED"), Map.entry(3, "CUBLAS_STATUS_ALLOC_FAILED"),
            Map.entry(7, "CUBLAS_STATUS_INVALID_VALUE"), Map.entry(8, "CUBLAS_STATUS_ARCH_MISMATCH"),
            Map.entry(11, "CUBLAS_STATUS_MAPPING_ERROR"), Map.entry(13, "CUBLAS_STATUS_EXECUTION_FAILED"),
            Map.entry(14, "CUBLAS_STATUS_INTERNAL_ERROR"), Map.entry(15, "CUBLAS_STATUS_NOT_SUPPORTED"),
            Map.entry(16, "CUBLAS_STATUS_LICENSE_ERROR"));
    static final int STATUS_NOT_SUPPORTED = 15;

    private static final FunctionDescriptor INT_OF_ADDRESS = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor SET_ATTRIBUTE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
            ADDRESS, JAVA_LONG);

    /**
     * Every symbol the binding calls, with the FFM signature it calls it with (CublasLtHeaderTest holds these to a
     * {@code cublasLt.h}). Device pointers (A, B, C, D and the workspace of {@code cublasLtMatmul}) go as the
     * 64-bit integers the driver hands out, which both ABIs pass as they pass a {@code void*}.
     */
    static final Map<String, FunctionDescriptor> BINDINGS = bindings();

    private static Map<String, FunctionDescriptor> bindings() {
        Map<String, FunctionDescriptor> bindings = new LinkedHashMap<>();
        bindings.put("cublasLtGetVersion", FunctionDescriptor.of(JAVA_LONG));
        bindings.put("cublasLtCreate", INT_OF_ADDRESS);
        bindings.put("cublasLtDestroy", INT_OF_ADDRESS);
        bindings.put("cublasLtMatmulDescCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        bindings.put("cublasLtMatmulDescSetAttribute", SET_ATTRIBUTE);
        bindings.put("cublasLtMatmulDescDestroy", INT_OF_ADDRESS);
        bindings.put("cublasLtMatrixLayoutCreate",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        bindings.put("cublasLtMatrixLayoutSetAttribute", SET_ATTRIBUTE);
        bindings.put("cublasLtMatrixLayoutDestroy", INT_OF_ADDRESS);
        bindings.put("cublasLtMatmulPreferenceCreate", INT_OF_ADDRESS);
        bindings.put("cublasLtMatmulPreferenceSetAttribute", SET_ATTRIBUTE);
        bindings.put("cublasLtMatmulPreferenceDestroy", INT_OF_ADDRESS);
        bindings.put("cublasLtMatmulAlgoGetHeuristic", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        bindings.put("cublasLtMatmul", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG,
                ADDRESS));
        return Collections.unmodifiableMap(bindings);
    }

    private final String library;
    private final MethodHandle getVersion;
    private final MethodHandle create;
    private final MethodHandle destroy;
    private final MethodHandle descCreate;
    private final MethodHandle descSetAttribute;
    private final MethodHandle descDestroy;
    private final MethodHandle layoutCreate;
    private final MethodHandle layoutSetAttribute;
    private final MethodHandle layoutDestroy;
    private final MethodHandle preferenceCreate;
    private final MethodHandle preferenceSetAttribute;
    private final MethodHandle preferenceDestroy;
    private final MethodHandle heuristic;
    private final MethodHandle matmul;
    /** The handle {@link #open()} created; NULL before, and in a binding used for its descriptors alone. */
    private MemorySegment handle = MemorySegment.NULL;

    private CublasLt(String library, SymbolLookup lookup) {
        this.library = library;
        Binder bind = new Binder(Linker.nativeLinker(), lookup, library);
        getVersion = bind.of("cublasLtGetVersion");
        create = bind.of("cublasLtCreate");
        destroy = bind.of("cublasLtDestroy");
        descCreate = bind.of("cublasLtMatmulDescCreate");
        descSetAttribute = bind.of("cublasLtMatmulDescSetAttribute");
        descDestroy = bind.of("cublasLtMatmulDescDestroy");
        layoutCreate = bind.of("cublasLtMatrixLayoutCreate");
        layoutSetAttribute = bind.of("cublasLtMatrixLayoutSetAttribute");
        layoutDestroy = bind.of("cublasLtMatrixLayoutDestroy");
        preferenceCreate = bind.of("cublasLtMatmulPreferenceCreate");
        preferenceSetAttribute = bind.of("cublasLtMatmulPreferenceSetAttribute");
        preferenceDestroy = bind.of("cublasLtMatmulPreferenceDestroy");
        heuristic = bind.of("cublasLtMatmulAlgoGetHeuristic");
        matmul = bind.of("cublasLtMatmul");
    }

    /** Looks each symbol up once; a library without one is not a cuBLASLt the suite can use. */
    private record Binder(Linker linker, SymbolLookup lookup, String library) {
        MethodHandle of(String symbol) {
            MemorySegment address = lookup.find(symbol).orElseThrow(() -> new GpuUnavailableException(
                    "no cuBLASLt: " + library + " has no " + symbol + " (not a cuBLASLt library, or one older "
                            + "than CUDA 11)", null));
            return linker.downcallHandle(address, BINDINGS.get(symbol));
        }
    }

    /** Creates the handle, on the current context. */
    private void open() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check(invoke(() -> (int) create.invokeExact(out)), "cublasLtCreate");
            handle = out.get(ADDRESS, 0);
        }
    }

    /**
     * Loads cuBLASLt and creates a handle on the current context.
     *
     * @throws GpuUnavailableException in one line when no library is found or it is not cuBLASLt
     * @throws CudaException when {@code cublasLtCreate} fails
     */
    static CublasLt load() {
        String given = System.getProperty(LIBRARY_PROPERTY);
        if (given == null || given.isBlank()) {
            given = System.getenv(LIBRARY_ENVIRONMENT);
        }
        return given == null || given.isBlank() ? load(LIBRARY_NAMES) : load(List.of(given));
    }

    /** The first of {@code candidates} that loads, with a handle. */
    static CublasLt load(List<String> candidates) {
        CublasLt lt = bind(candidates);
        lt.open();
        return lt;
    }

    /**
     * The first of {@code candidates} that loads, bound but without a handle: its descriptors, layouts and
     * preferences work (they need no device), its heuristic and matmul do not.
     */
    static CublasLt bind(List<String> candidates) {
        List<String> tried = new ArrayList<>();
        for (String library : candidates) {
            if (library.contains("/") && !Files.isRegularFile(Path.of(library))) {
                tried.add(library + " (not a file)");
                continue;
            }
            SymbolLookup lookup;
            try {
                lookup = SymbolLookup.libraryLookup(library, Arena.global());
            } catch (IllegalArgumentException e) {
                tried.add(library);
                continue;
            }
            return new CublasLt(library, lookup);
        }
        throw new GpuUnavailableException("no cuBLASLt, GEMM not measured: none of " + String.join(", ", tried)
                + " could be loaded (it comes with the CUDA toolkit or PyTorch's nvidia-cublas wheel; "
                + LIBRARY_ENVIRONMENT + " names one)", null);
    }

    String library() {
        return library;
    }

    /** {@code cublasLtGetVersion()}: 120803 for 12.8.3. */
    long version() {
        return invokeLong(() -> (long) getVersion.invokeExact());
    }

    /** The version as people write it: {@code 12.8.3}. */
    static String versionText(long version) {
        return (version / 10000) + "." + (version % 10000 / 100) + "." + (version % 100);
    }

    // ---- errors

    /** The {@code CUBLAS_STATUS_*} name of a status. */
    static String statusName(int status) {
        return STATUS_NAMES.getOrDefault(status, "CUBLAS_STATUS " + status);
    }

    static void check(int status, String call) {
        if (status != 0) {
            throw new CudaException(call, status, statusName(status), "cuBLASLt refused the call");
        }
    }

    @FunctionalInterface
    interface IntCall {
        int invoke() throws Throwable;
    }

    @FunctionalInterface
    private interface LongCall {
        long invoke() throws Throwable;
    }

    /** Calls a downcall that returns an int, rethrowing what it throws unchecked. */
    static int invoke(IntCall call) {
        try {
            return call.invoke();
        } catch (Throwable e) {
            throw CudaDriver.rethrow(e);
        }
    }

    private static long invokeLong(LongCall call) {
        try {
            return call.invoke();
        } catch (Throwable e) {
            throw CudaDriver.rethrow(e);
        }
    }

    // ---- descriptors

    /** A matmul descriptor: compute type, FP32 scale type (alpha and beta), the operations on A and B. */
    MemorySegment matmulDesc(Arena arena, int computeType, int transA, int transB) {
        MemorySegment out = arena.allocate(ADDRESS);
        check(invoke(() -> (int) descCreate.invokeExact(out, computeType, CUDA_R_32F)), "cublasLtMatmulDescCreate");
        MemorySegment desc = out.get(ADDRESS, 0);
        try {
            setDescInt(arena, desc, DESC_TRANSA, transA, "TRANSA");
            setDescInt(arena, desc, DESC_TRANSB, transB, "TRANSB");
        } catch (CudaException e) {
            destroyDesc(desc);
            throw e;
        }
        return desc;
    }

    void setDescInt(Arena arena, MemorySegment desc, int attribute, int value, String name) {
        MemorySegment buffer = arena.allocateFrom(JAVA_INT, value);
        check(invoke(() -> (int) descSetAttribute.invokeExact(desc, attribute, buffer, (long) Integer.BYTES)),
                "cublasLtMatmulDescSetAttribute(" + name + ")");
    }

    void setDescPointer(Arena arena, MemorySegment desc, int attribute, long devicePointer, String name) {
        MemorySegment buffer = arena.allocateFrom(JAVA_LONG, devicePointer);
        check(invoke(() -> (int) descSetAttribute.invokeExact(desc, attribute, buffer, (long) Long.BYTES)),
                "cublasLtMatmulDescSetAttribute(" + name + ")");
    }

    void destroyDesc(MemorySegment desc) {
        check(invoke(() -> (int) descDestroy.invokeExact(desc)), "cublasLtMatmulDescDestroy");
    }

    /**
     * A column-major layout of {@code rows} × {@code columns} of {@code type}, leading dimension {@code rows}, in a
     * batch of {@code batch} matrices {@code rows * columns} elements apart.
     */
    MemorySegment layout(Arena arena, int type, long rows, long columns, int batch) {
        MemorySegment out = arena.allocate(ADDRESS);
        check(invoke(() -> (int) layoutCreate.invokeExact(out, type, rows, columns, rows)),
                "cublasLtMatrixLayoutCreate");
        MemorySegment layout = out.get(ADDRESS, 0);
        if (batch > 1) {
            MemorySegment count = arena.allocateFrom(JAVA_INT, batch);
            MemorySegment stride = arena.allocateFrom(JAVA_LONG, rows * columns);
            try {
                check(invoke(() -> (int) layoutSetAttribute.invokeExact(layout, LAYOUT_BATCH_COUNT, count,
                        (long) Integer.BYTES)), "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)");
                check(invoke(() -> (int) layoutSetAttribute.invokeExact(layout, LAYOUT_STRIDED_BATCH_OFFSET, stride,
                        (long) Long.BYTES)), "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)");
            } catch (CudaException e) {
                destroyLayout(layout);
                throw e;
            }
        }
        return layout;
    }

    void destroyLayout(MemorySegment layout) {
        check(invoke(() -> (int) layoutDestroy.invokeExact(layout)), "cublasLtMatrixLayoutDestroy");
    }

    /**
     * The heuristic's best algorithm for the problem within {@code workspaceBytes}: 96 bytes of
     * {@code cublasLtMatmulHeuristicResult_t}, its {@code algo} first.
     *
     * @throws CudaException with {@code CUBLAS_STATUS_NOT_SUPPORTED} when cuBLASLt has no algorithm for it (a
     *                       precision or layout this device or library does not offer)
     */
    MemorySegment bestAlgorithm(Arena arena, MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment c,
                                long workspaceBytes, String problem) {
        MemorySegment preference = preference(arena, workspaceBytes);
        try {
            MemorySegment result = arena.allocate(HEURISTIC_RESULT_BYTES, 8);
            MemorySegment found = arena.allocate(JAVA_INT);
            check(invoke(() -> (int) heuristic.invokeExact(handle, desc, a, b, c, c, preference, 1, result, found)),
                    "cublasLtMatmulAlgoGetHeuristic(" + problem + ")");
            if (found.get(JAVA_INT, 0) < 1 || result.get(JAVA_INT, HEURISTIC_STATE_OFFSET) != 0) {
                throw new CudaException("cublasLtMatmulAlgoGetHeuristic(" + problem + ")", STATUS_NOT_SUPPORTED,
                        statusName(STATUS_NOT_SUPPORTED), "no algorithm for it on this device and library");
            }
            return result;
        } finally {
            destroyPreference(preference);
        }
    }

    /** A preference that allows the heuristic at most {@code workspaceBytes} of workspace. */
    MemorySegment preference(Arena arena, long workspaceBytes) {
        MemorySegment out = arena.allocate(ADDRESS);
        check(invoke(() -> (int) preferenceCreate.invokeExact(out)), "cublasLtMatmulPreferenceCreate");
        MemorySegment preference = out.get(ADDRESS, 0);
        MemorySegment limit = arena.allocateFrom(JAVA_LONG, workspaceBytes);
        try {
            check(invoke(() -> (int) preferenceSetAttribute.invokeExact(preference, PREF_MAX_WORKSPACE_BYTES, limit,
                    (long) Long.BYTES)), "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
        } catch (CudaException e) {
            destroyPreference(preference);
            throw e;
        }
        return preference;
    }

    void destroyPreference(MemorySegment preference) {
        check(invoke(() -> (int) preferenceDestroy.invokeExact(preference)), "cublasLtMatmulPreferenceDestroy");
    }

    /** {@code D = alpha * op(A) op(B) + beta * C} with D = C, queued on the default stream. */
    void matmul(MemorySegment desc, MemorySegment alpha, long a, MemorySegment aLayout, long b, MemorySegment bLayout,
                MemorySegment beta, long d, MemorySegment dLayout, MemorySegment algorithm, long workspace,
                long workspaceBytes, String problem) {
        check(invoke(() -> (int) matmul.invokeExact(handle, desc, alpha, a, aLayout, b, bLayout, beta, d, dLayout, d,
                dLayout, algorithm, workspace, workspaceBytes, MemorySegment.NULL)), "cublasLtMatmul(" + problem + ")");
    }

    @Override
    public void close() {
        if (!handle.equals(MemorySegment.NULL)) {
            check(invoke(() -> (int) destroy.invokeExact(handle)), "cublasLtDestroy");
            handle = MemorySegment.NULL;
        }
    }
}
