package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The cuBLASLt binding against a {@code cublasLt.h} and its {@code cublas_api.h}: every symbol's FFM signature is its
 * prototype's, every enumerator the suite passes (or reads back in CublasLtLibraryTest) has the header's value, every
 * status the header names is named alike, and the heuristic result's size and the offsets the suite reads lie where
 * C lays the struct out. The layout cannot be seen any other way without a GPU: the heuristic needs a device.
 *
 * <p>The headers are under {@code MEMBOUND_CUBLASLT_INCLUDE} (CI: Debian's nvidia-cuda-dev, CUDA 11.8), else a CUDA
 * toolkit's ({@code MEMBOUND_CUDA_INCLUDE}, {@code /usr/local/cuda/include}) where it has cuBLASLt; the tests skip
 * without one. Enumerators newer than the header (NVFP4's, CUDA 12.8) are listed; CublasLtAbiTest checks them against
 * CUDA 13.1's.
 */
class CublasLtHeaderTest {

    /** What CUDA 12.8 added for NVFP4: absent from older headers, where the version gate keeps the suite off them. */
    static final Set<String> NEWER_THAN_CUDA_12 = Set.of("CUBLASLT_MATMUL_DESC_A_SCALE_MODE",
            "CUBLASLT_MATMUL_DESC_B_SCALE_MODE", "CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3");

    /**
     * Parameters the binding passes as a device pointer (a 64-bit integer, CUdeviceptr) where the header writes
     * {@code void*}: both ABIs pass them alike.
     */
    static final Map<String, Set<String>> DEVICE_POINTERS = Map.of("cublasLtMatmul", Set.of("A", "B", "C", "D",
            "workspace"));

    @Test
    void everySignatureIsTheHeadersPrototype() throws IOException {
        String header = withoutComments(header("cublasLt.h"));
        List<String> wrong = new ArrayList<>();
        CublasLt.BINDINGS.forEach((symbol, bound) -> {
            FunctionDescriptor expected = descriptor(prototype(header, symbol),
                    DEVICE_POINTERS.getOrDefault(symbol, Set.of()));
            if (!expected.equals(bound)) {
                wrong.add(symbol + ": bound as " + bound + ", the header's " + prototype(header, symbol) + " is "
                        + expected);
            }
        });
        assertTrue(wrong.isEmpty(), () -> "the binding differs from " + include() + "/cublasLt.h:\n"
                + String.join("\n", wrong));
    }

    @Test
    void everyEnumeratorHasTheHeadersValue() throws IOException {
        String headers = header("cublasLt.h") + "\n" + header("cublas_api.h");
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("CUBLAS_COMPUTE_32F", CublasLt.COMPUTE_32F);
        expected.put("CUBLAS_COMPUTE_32F_FAST_TF32", CublasLt.COMPUTE_32F_FAST_TF32);
        expected.put("CUBLAS_OP_N", CublasLt.OP_N);
        expected.put("CUBLAS_OP_T", CublasLt.OP_T);
        expected.put("CUBLASLT_MATMUL_DESC_COMPUTE_TYPE", CublasLtLibraryTest.DESC_COMPUTE_TYPE);
        expected.put("CUBLASLT_MATMUL_DESC_SCALE_TYPE", CublasLtLibraryTest.DESC_SCALE_TYPE);
        expected.put("CUBLASLT_MATMUL_DESC_TRANSA", CublasLt.DESC_TRANSA);
        expected.put("CUBLASLT_MATMUL_DESC_TRANSB", CublasLt.DESC_TRANSB);
        expected.put("CUBLASLT_MATMUL_DESC_A_SCALE_POINTER", CublasLt.DESC_A_SCALE_POINTER);
        expected.put("CUBLASLT_MATMUL_DESC_B_SCALE_POINTER", CublasLt.DESC_B_SCALE_POINTER);
        expected.put("CUBLASLT_MATMUL_DESC_A_SCALE_MODE", CublasLt.DESC_A_SCALE_MODE);
        expected.put("CUBLASLT_MATMUL_DESC_B_SCALE_MODE", CublasLt.DESC_B_SCALE_MODE);
        expected.put("CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3", CublasLt.SCALE_VEC16_UE4M3);
        expected.put("CUBLASLT_MATRIX_LAYOUT_TYPE", CublasLtLibraryTest.LAYOUT_TYPE);
        expected.put("CUBLASLT_MATRIX_LAYOUT_ORDER", CublasLtLibraryTest.LAYOUT_ORDER);
        expected.put("CUBLASLT_MATRIX_LAYOUT_ROWS", CublasLtLibraryTest.LAYOUT_ROWS);
        expected.put("CUBLASLT_MATRIX_LAYOUT_COLS", CublasLtLibraryTest.LAYOUT_COLS);
        expected.put("CUBLASLT_MATRIX_LAYOUT_LD", CublasLtLibraryTest.LAYOUT_LD);
        expected.put("CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT", CublasLt.LAYOUT_BATCH_COUNT);
        expected.put("CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET", CublasLt.LAYOUT_STRIDED_BATCH_OFFSET);
        expected.put("CUBLASLT_ORDER_COL", CublasLtLibraryTest.ORDER_COL);
        expected.put("CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES", CublasLt.PREF_MAX_WORKSPACE_BYTES);
        expected.put("CUBLAS_STATUS_NOT_SUPPORTED", CublasLt.STATUS_NOT_SUPPORTED);
        expected.put("CUBLAS_STATUS_INVALID_VALUE", CublasLtLibraryTest.STATUS_INVALID_VALUE);
        List<String> wrong = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        expected.forEach((name, value) -> {
            OptionalInt actual = CudaAbiTest.enumValue(headers, name);
            if (actual.isEmpty()) {
                absent.add(name);
            } else if (actual.getAsInt() != value) {
                wrong.add(name + ": the binding passes " + value + ", the header says " + actual.getAsInt());
            }
        });
        assertTrue(wrong.isEmpty(), () -> String.join("\n", wrong));
        assertTrue(NEWER_THAN_CUDA_12.containsAll(absent), () -> "not in " + include() + " and not known to be "
                + "newer than it: " + absent);
    }

    @Test
    void everyStatusTheHeaderNamesIsNamedAlike() throws IOException {
        Matcher status = Pattern.compile("^\\s*(CUBLAS_STATUS_\\w+)\\s*=\\s*(\\d+)", Pattern.MULTILINE)
                .matcher(header("cublas_api.h"));
        Map<Integer, String> names = new TreeMap<>();
        while (status.find()) {
            names.put(Integer.parseInt(status.group(2)), status.group(1));
        }
        assertTrue(names.size() >= 10, "the header's statuses: " + names);
        assertEquals(names, new TreeMap<>(CublasLt.STATUS_NAMES));
    }

    @Test
    void theHeuristicResultLiesWhereTheSuiteReadsIt() throws IOException {
        String header = withoutComments(header("cublasLt.h"));
        Struct result = Struct.of(header, "cublasLtMatmulHeuristicResult_t");
        assertEquals(CublasLt.HEURISTIC_RESULT_BYTES, result.size(), "sizeof " + result);
        assertEquals(0, result.offset("algo"), "the suite passes the result as its algo: " + result);
        assertEquals(CublasLt.HEURISTIC_WORKSPACE_OFFSET, result.offset("workspaceSize"), result.toString());
        assertEquals(CublasLt.HEURISTIC_STATE_OFFSET, result.offset("state"), result.toString());
    }

    @Test
    void theHeaderReaderSeesWhatItChecks() {
        String header = withoutComments("""
                typedef struct {
                  uint64_t data[8];
                } cublasLtMatmulAlgo_t;
                /** a comment with a ; in it */
                typedef struct {
                  cublasLtMatmulAlgo_t algo;
                  int small;   // 4 bytes, then 4 of padding
                  size_t workspaceSize;
                  float wavesCount;
                } paddedResult_t;
                cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutCreate(  //
                    cublasLtMatrixLayout_t* matLayout,
                    cudaDataType type,
                    uint64_t rows, /* rows */
                    uint64_t cols,
                    int64_t ld);
                size_t CUBLASWINAPI cublasLtGetVersion(void);
                #endif
                cublasStatus_t CUBLASWINAPI cublasLtMatmul(cublasLtHandle_t lightHandle, const void* A, void* D,
                    size_t workspaceSizeInBytes, cudaStream_t stream);
                const char* CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t status);
                cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetHeuristic(int requestedAlgoCount,
                    cublasLtMatmulHeuristicResult_t heuristicResultsArray[], int* returnAlgoCount);
                """);
        Struct padded = Struct.of(header, "paddedResult_t");
        assertEquals(64, padded.offset("small"));
        assertEquals(72, padded.offset("workspaceSize"), "aligned to 8 after an int");
        assertEquals(80, padded.offset("wavesCount"));
        assertEquals(88, padded.size(), "rounded up to the struct's alignment");
        assertEquals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                descriptor(prototype(header, "cublasLtMatrixLayoutCreate"), Set.of()));
        assertEquals(FunctionDescriptor.of(JAVA_LONG), descriptor(prototype(header, "cublasLtGetVersion"), Set.of()));
        assertEquals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS),
                descriptor(prototype(header, "cublasLtMatmul"), Set.of("A")));
        assertEquals(FunctionDescriptor.of(ADDRESS, JAVA_INT), descriptor(prototype(header, "cublasLtGetStatusName"),
                Set.of()));
        assertEquals(FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
                descriptor(prototype(header, "cublasLtMatmulAlgoGetHeuristic"), Set.of()));
    }

    // ---- reading the headers

    static Path include() {
        String given = System.getenv("MEMBOUND_CUBLASLT_INCLUDE");
        return given == null || given.isBlank() ? CudaAbiTest.include() : Path.of(given);
    }

    private static String header(String name) throws IOException {
        Path path = include().resolve(name);
        assumeTrue(Files.isRegularFile(path), "no " + path + " (cuBLASLt's headers: MEMBOUND_CUBLASLT_INCLUDE names "
                + "a directory with them; CI takes Debian's, scripts/ci/cuda-tools.sh)");
        return Files.readString(path);
    }

    static String withoutComments(String header) {
        return header.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }

    /** {@code symbol(parameters)} as the header declares it, on one line. */
    static String prototype(String header, String symbol) {
        Matcher matcher = Pattern.compile("([\\w*\\s]+?)\\s*CUBLASWINAPI\\s+" + symbol + "\\s*\\(([^;]*?)\\)\\s*;")
                .matcher(header);
        if (!matcher.find()) {
            fail("the header declares no " + symbol);
        }
        // What precedes CUBLASWINAPI back to the last punctuation: the return type's last word, or a pointer.
        String returns = matcher.group(1).replaceAll("\\s+", " ").strip();
        String type = returns.endsWith("*") ? "void*" : returns.substring(returns.lastIndexOf(' ') + 1);
        return type + " " + symbol + "(" + matcher.group(2).replaceAll("\\s+", " ").strip() + ")";
    }

    /** The FFM signature of a prototype, with the named parameters taken as device pointers. */
    static FunctionDescriptor descriptor(String prototype, Set<String> devicePointers) {
        int open = prototype.indexOf('(');
        String head = prototype.substring(0, open).strip();
        MemoryLayout returns = layout(head.substring(0, head.lastIndexOf(' ')).strip(), prototype);
        String parameters = prototype.substring(open + 1, prototype.lastIndexOf(')')).strip();
        List<MemoryLayout> layouts = new ArrayList<>();
        if (!parameters.isEmpty() && !parameters.equals("void")) {
            for (String parameter : parameters.split(",")) {
                // An array parameter (heuristicResultsArray[]) is a pointer.
                String declared = parameter.strip().replaceFirst("^(.*?)\\s*(\\w+)\\s*\\[\\s*\\]$", "$1* $2");
                String name = declared.replaceFirst("^.*?(\\w+)$", "$1");
                String type = declared.substring(0, declared.length() - name.length()).strip();
                layouts.add(devicePointers.contains(name) ? JAVA_LONG : layout(type, prototype));
            }
        }
        return FunctionDescriptor.of(returns, layouts.toArray(MemoryLayout[]::new));
    }

    /** A pointer or handle is an address; the integers, enumerations and floats by their width. */
    private static MemoryLayout layout(String type, String prototype) {
        if (type.contains("*")) {
            return ADDRESS;
        }
        return switch (type.replaceFirst("^const\\s+", "")) {
            case "cublasLtHandle_t", "cublasLtMatmulDesc_t", "cublasLtMatrixLayout_t", "cublasLtMatmulPreference_t",
                    "cudaStream_t" -> ADDRESS;
            case "size_t", "uint64_t", "int64_t" -> JAVA_LONG;
            case "int", "cublasStatus_t", "cublasComputeType_t", "cudaDataType", "cudaDataType_t",
                    "cublasLtMatmulDescAttributes_t", "cublasLtMatrixLayoutAttribute_t",
                    "cublasLtMatmulPreferenceAttributes_t" -> JAVA_INT;
            default -> throw new AssertionError("no layout for the C type '" + type + "' in " + prototype
                    + ": add it to CublasLtHeaderTest with its width");
        };
    }

    /** A {@code typedef struct { ... } name;} laid out as C lays it out: each field at its alignment. */
    record Struct(String name, Map<String, Long> offsets, long size, long alignment) {
        static Struct of(String header, String name) {
            Matcher matcher = Pattern.compile("typedef\\s+struct\\s*\\w*\\s*\\{([^}]*)\\}\\s*" + name + "\\s*;")
                    .matcher(header);
            if (!matcher.find()) {
                fail("the header declares no struct " + name);
            }
            Map<String, Long> offsets = new LinkedHashMap<>();
            long offset = 0;
            long alignment = 1;
            for (String field : matcher.group(1).split(";")) {
                Matcher parts = Pattern.compile("^\\s*([\\w\\s]+?)\\s+(\\w+)\\s*(?:\\[(\\d+)\\])?\\s*$").matcher(field);
                if (field.isBlank()) {
                    continue;
                }
                if (!parts.find()) {
                    fail("cannot read the field '" + field.strip() + "' of " + name);
                }
                long[] sizeAndAlignment = sizeAndAlignment(header, parts.group(1).strip(), name);
                long count = parts.group(3) == null ? 1 : Long.parseLong(parts.group(3));
                offset = (offset + sizeAndAlignment[1] - 1) / sizeAndAlignment[1] * sizeAndAlignment[1];
                offsets.put(parts.group(2), offset);
                offset += sizeAndAlignment[0] * count;
                alignment = Math.max(alignment, sizeAndAlignment[1]);
            }
            long size = (offset + alignment - 1) / alignment * alignment;
            return new Struct(name, offsets, size, alignment);
        }

        private static long[] sizeAndAlignment(String header, String type, String struct) {
            return switch (type) {
                case "uint64_t", "int64_t", "size_t" -> new long[] {8, 8};
                case "int", "unsigned int", "float", "uint32_t", "int32_t", "cublasStatus_t" -> new long[] {4, 4};
                default -> {
                    if (!type.endsWith("_t") || type.contains(" ")) {
                        throw new AssertionError("no size for the C type '" + type + "' in " + struct
                                + ": add it to CublasLtHeaderTest");
                    }
                    Struct inner = of(header, type);
                    yield new long[] {inner.size(), inner.alignment()};
                }
            };
        }

        long offset(String field) {
            Long offset = offsets.get(field);
            if (offset == null) {
                fail(name + " has no field " + field + ": " + offsets.keySet());
            }
            return offset;
        }
    }
}
