package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The driver binding against a CUDA toolkit's headers: every constant the suite passes to the driver has the value
 * {@code cuda.h} and {@code library_types.h} give it, every symbol it binds is the one the header maps its API to
 * (the {@code _v2} ABI), and every signature it calls a symbol with has the C prototype's argument and return
 * layouts. A wrong one would not fail here without a GPU: it would crash or mis-measure on one.
 *
 * <p>The headers are those under {@code MEMBOUND_CUDA_INCLUDE}, else {@code /usr/local/cuda/include}; the
 * signatures are read off the driver binding as loaded from the real library ({@code MEMBOUND_LIBCUDA}, Debian's
 * libcuda1 in CI). Each test skips, saying why, where one is absent. cuBLASLt's binding is checked against its own
 * headers in CublasLtHeaderTest.
 */
class CudaAbiTest {

    /**
     * Symbols bound at an older ABI than the header's on purpose, each with why. cuEventElapsedTime_v2 exists from
     * CUDA 12.8 on only; the first version has the same prototype and every driver from 11.8 on has it.
     */
    static final Map<String, String> OLDER_ABI = Map.of("cuEventElapsedTime",
            "the _v2 symbol exists from CUDA 12.8 only; the same prototype, in every driver from 11.8 on");

    @Test
    void everyAttributeAndOptionHasTheHeadersValue() throws IOException {
        String cuda = header("cuda.h");
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", CudaDriver.MAX_THREADS_PER_BLOCK);
        expected.put("CU_DEVICE_ATTRIBUTE_CLOCK_RATE", CudaDriver.CLOCK_RATE);
        expected.put("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", CudaDriver.MULTIPROCESSOR_COUNT);
        expected.put("CU_DEVICE_ATTRIBUTE_INTEGRATED", CudaDriver.INTEGRATED);
        expected.put("CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE", CudaDriver.MEMORY_CLOCK_RATE);
        expected.put("CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH", CudaDriver.GLOBAL_MEMORY_BUS_WIDTH);
        expected.put("CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE", CudaDriver.L2_CACHE_SIZE);
        expected.put("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR", CudaDriver.MAX_THREADS_PER_MULTIPROCESSOR);
        expected.put("CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING", CudaDriver.UNIFIED_ADDRESSING);
        expected.put("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR", CudaDriver.COMPUTE_CAPABILITY_MAJOR);
        expected.put("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR", CudaDriver.COMPUTE_CAPABILITY_MINOR);
        expected.put("CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS", CudaDriver.PAGEABLE_MEMORY_ACCESS);
        expected.put("CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS", CudaDriver.CONCURRENT_MANAGED_ACCESS);
        expected.put("CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES",
                CudaDriver.PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
        expected.put("CU_JIT_ERROR_LOG_BUFFER", CudaDriver.JIT_ERROR_LOG_BUFFER);
        expected.put("CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES", CudaDriver.JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
        assertValues(cuda, "cuda.h", expected);
    }

    @Test
    void everyDataTypeHasTheHeadersValue() throws IOException {
        String types = header("library_types.h");
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("CUDA_R_32F", CublasLt.CUDA_R_32F);
        expected.put("CUDA_R_16F", CublasLt.CUDA_R_16F);
        expected.put("CUDA_R_16BF", CublasLt.CUDA_R_16BF);
        expected.put("CUDA_R_8F_E4M3", CublasLt.CUDA_R_8F_E4M3);
        expected.put("CUDA_R_4F_E2M1", CublasLt.CUDA_R_4F_E2M1);
        assertValues(types, "library_types.h", expected);
        // CUDA_R_8F_UE4M3 is written as an alias of E4M3 (CUDA 12.8 on); older headers lack it and NVFP4 with it.
        Matcher alias = Pattern.compile("\\bCUDA_R_8F_UE4M3\\s*=\\s*(\\w+)").matcher(types);
        if (alias.find()) {
            assertEquals(CublasLt.CUDA_R_8F_UE4M3, enumValue(types, alias.group(1)).orElseThrow());
        }
    }

    @Test
    void everySymbolIsTheCurrentAbiAndEverySignatureTheHeadersPrototype() throws IOException {
        String cuda = header("cuda.h");
        String library = CudaDriver.configuredLibrary();
        assumeTrue(!library.contains("/") || Files.isRegularFile(Path.of(library)), "no driver library at "
                + library + " (" + CudaDriver.LIBRARY_ENVIRONMENT + "): the binding's signatures cannot be read");
        CudaDriver driver;
        try {
            driver = CudaDriver.load(library);
        } catch (membound.benchmarks.gpu.GpuUnavailableException e) {
            assumeTrue(false, "the driver library does not load here: " + e.getMessage());
            return;
        }
        Map<String, FunctionDescriptor> bindings = driver.bindings();
        assertTrue(bindings.size() >= 30, "the binding binds every call it makes: " + bindings.keySet());
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, FunctionDescriptor> binding : bindings.entrySet()) {
            String symbol = binding.getKey();
            String api = api(cuda, symbol);
            String current = currentSymbol(cuda, api);
            boolean older = !current.equals(symbol);
            if (older && !OLDER_ABI.containsKey(symbol)) {
                wrong.add(symbol + ": the header maps " + api + " to " + current);
                continue;
            }
            String prototype = prototype(cuda, api, older);
            FunctionDescriptor expected = descriptor(prototype);
            if (!expected.equals(binding.getValue())) {
                wrong.add(symbol + ": bound as " + binding.getValue() + ", the header's " + prototype + " is "
                        + expected);
            }
        }
        assertTrue(wrong.isEmpty(), () -> "the binding differs from " + include() + "/cuda.h:\n"
                + String.join("\n", wrong));
        for (String symbol : OLDER_ABI.keySet()) {
            assertTrue(bindings.containsKey(symbol), symbol + " is listed as bound at an older ABI but not bound");
        }
    }

    @Test
    void theHeaderReaderSeesWhatItChecks() {
        String header = """
                #define cuMemAlloc                          cuMemAlloc_v2
                    #define cuLaunchKernel                      __CUDA_API_PTSZ(cuLaunchKernel)
                #define cuEventElapsedTime                  cuEventElapsedTime_v2
                typedef enum CUdevice_attribute_enum {
                    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,             /**< Size of L2 cache in bytes */
                } CUdevice_attribute;
                CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
                CUresult CUDAAPI cuLaunchKernel(CUfunction f,
                                                unsigned int gridDimX,
                                                CUstream hStream,
                                                void **kernelParams);
                CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
                CUresult CUDAAPI cuCtxSynchronize(void);
                #if defined(__CUDA_API_VERSION_INTERNAL)
                    CUresult CUDAAPI cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize);
                #endif
                """;
        assertEquals(38, enumValue(header, "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE").orElseThrow());
        assertEquals("cuMemAlloc", api(header, "cuMemAlloc_v2"));
        assertEquals("cuMemAlloc_v2", currentSymbol(header, "cuMemAlloc"));
        assertEquals("cuLaunchKernel", currentSymbol(header, "cuLaunchKernel"));
        assertEquals("cuEventElapsedTime_v2", currentSymbol(header, "cuEventElapsedTime"));
        assertEquals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG),
                descriptor(prototype(header, "cuMemAlloc", false)));
        assertEquals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                descriptor(prototype(header, "cuMemAlloc", true)));
        assertEquals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
                descriptor(prototype(header, "cuLaunchKernel", false)));
        assertEquals(FunctionDescriptor.of(JAVA_INT), descriptor(prototype(header, "cuCtxSynchronize", false)));
        assertFalse(descriptor(prototype(header, "cuMemAlloc", false))
                .equals(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)), "a 32-bit size is not size_t");
    }

    // ---- reading the headers

    static Path include() {
        String given = System.getenv("MEMBOUND_CUDA_INCLUDE");
        return Path.of(given == null || given.isBlank() ? "/usr/local/cuda/include" : given);
    }

    static String header(String name) throws IOException {
        Path path = include().resolve(name);
        assumeTrue(Files.isRegularFile(path), "no " + path + " (a CUDA toolkit's headers; MEMBOUND_CUDA_INCLUDE "
                + "names a directory with them)");
        return Files.readString(path);
    }

    private static void assertValues(String header, String name, Map<String, Integer> expected) {
        List<String> wrong = new ArrayList<>();
        expected.forEach((constant, value) -> {
            OptionalInt actual = enumValue(header, constant);
            if (actual.isEmpty() || actual.getAsInt() != value) {
                wrong.add(constant + ": the binding passes " + value + ", " + name + " says "
                        + (actual.isEmpty() ? "nothing" : String.valueOf(actual.getAsInt())));
            }
        });
        assertTrue(wrong.isEmpty(), () -> String.join("\n", wrong));
    }

    /** An enumerator's value written as a decimal or hexadecimal literal, or as another enumerator. */
    static OptionalInt enumValue(String header, String name) {
        Matcher matcher = Pattern.compile("^\\s*" + name + "\\s*=\\s*(0x[0-9a-fA-F]+|\\d+|\\w+)\\s*,?",
                Pattern.MULTILINE).matcher(header);
        if (!matcher.find()) {
            return OptionalInt.empty();
        }
        String value = matcher.group(1);
        if (value.startsWith("0x")) {
            return OptionalInt.of(Integer.parseInt(value.substring(2), 16));
        }
        if (Character.isDigit(value.charAt(0))) {
            return OptionalInt.of(Integer.parseInt(value));
        }
        return value.equals(name) ? OptionalInt.empty() : enumValue(header, value);
    }

    private static final Pattern DEFINE = Pattern.compile(
            "^\\s*#define\\s+(cu\\w+)\\s+(?:__CUDA_API_PT(?:DS|SZ)\\((\\w+)\\)|(cu\\w+))\\s*$", Pattern.MULTILINE);

    /** The first {@code #define api symbol} of the header, in its default (legacy stream) mode. */
    private static Optional<String[]> define(String header, java.util.function.Predicate<String[]> which) {
        Matcher matcher = DEFINE.matcher(header);
        while (matcher.find()) {
            String[] pair = {matcher.group(1), matcher.group(2) != null ? matcher.group(2) : matcher.group(3)};
            if (which.test(pair)) {
                return Optional.of(pair);
            }
        }
        return Optional.empty();
    }

    /** The API name a bound symbol implements: {@code cuMemAlloc} for {@code cuMemAlloc_v2}. */
    static String api(String header, String symbol) {
        return define(header, pair -> pair[1].equals(symbol) && !pair[0].equals(symbol)).map(pair -> pair[0])
                .orElse(symbol);
    }

    /** The symbol a program built with the header calls for {@code api}. */
    static String currentSymbol(String header, String api) {
        return define(header, pair -> pair[0].equals(api)).map(pair -> pair[1]).orElse(api);
    }

    /**
     * The prototype of {@code api}: the header's first (its current ABI), or for a symbol bound at an older ABI the
     * last (the header declares the older ones after the current ones, for the driver's own build).
     */
    static String prototype(String header, String api, boolean older) {
        Matcher matcher = Pattern.compile("CUresult\\s+CUDAAPI\\s+" + api + "\\s*\\(([^;]*?)\\)\\s*;").matcher(header);
        String found = null;
        while (matcher.find()) {
            found = matcher.group(1).replaceAll("\\s+", " ").strip();
            if (!older) {
                break;
            }
        }
        if (found == null) {
            fail("the header declares no " + api);
        }
        return api + "(" + found + ")";
    }

    /** The FFM signature of a CUresult-returning prototype. */
    static FunctionDescriptor descriptor(String prototype) {
        String parameters = prototype.substring(prototype.indexOf('(') + 1, prototype.lastIndexOf(')')).strip();
        List<MemoryLayout> layouts = new ArrayList<>();
        if (!parameters.isEmpty() && !parameters.equals("void")) {
            for (String parameter : parameters.split(",")) {
                layouts.add(layout(parameter.strip(), prototype));
            }
        }
        return FunctionDescriptor.of(JAVA_INT, layouts.toArray(MemoryLayout[]::new));
    }

    /** The layout of one C parameter: a pointer or handle is an address; the integer types by their width. */
    private static MemoryLayout layout(String parameter, String prototype) {
        if (parameter.contains("*")) {
            return ADDRESS;
        }
        String type = parameter.replaceFirst("^const\\s+", "").replaceFirst("\\s+\\w+$", "").strip();
        return switch (type) {
            case "CUcontext", "CUmodule", "CUfunction", "CUevent", "CUstream" -> ADDRESS;
            case "CUdeviceptr", "size_t", "unsigned long long", "cuuint64_t" -> JAVA_LONG;
            case "int", "unsigned int", "CUdevice", "CUresult", "CUjit_option", "CUdevice_attribute", "cuuint32_t"
                    -> JAVA_INT;
            case "float" -> JAVA_FLOAT;
            default -> throw new AssertionError("no layout for the C type '" + type + "' in " + prototype
                    + ": add it to CudaAbiTest with its width");
        };
    }
}
