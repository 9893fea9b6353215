package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import membound.benchmarks.gpu.GpuUnavailableException;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through the FFM API: the calls the GPU suite makes, each checked. A
 * call that returns an error throws a {@link CudaException} whose one-line message names the call and the driver's
 * name for the error ({@code cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected}).
 *
 * <p>Handles ({@code CUdevice} is an int; contexts, modules, functions, events and streams are pointers;
 * {@code CUdeviceptr} is a 64-bit integer) are passed as Java values. The library is found as the dynamic loader
 * finds it, or at the path in the system property {@value #LIBRARY_PROPERTY} or the environment variable
 * {@value #LIBRARY_ENVIRONMENT}.
 */
public final class CudaDriver implements CudaCalls {

    public static final String LIBRARY_PROPERTY = "membound.libcuda";
    public static final String LIBRARY_ENVIRONMENT = "MEMBOUND_LIBCUDA";
    static final String LIBRARY = "libcuda.so.1";

    // CUdevice_attribute (cuda.h): fixed by the driver's ABI.
    static final int MAX_THREADS_PER_BLOCK = 1;
    static final int CLOCK_RATE = 13;
    static final int MULTIPROCESSOR_COUNT = 16;
    static final int INTEGRATED = 18;
    static final int MEMORY_CLOCK_RATE = 36;
    static final int GLOBAL_MEMORY_BUS_WIDTH = 37;
    static final int L2_CACHE_SIZE = 38;
    static final int MAX_THREADS_PER_MULTIPROCESSOR = 39;
    static final int UNIFIED_ADDRESSING = 41;
    static final int COMPUTE_CAPABILITY_MAJOR = 75;
    static final int COMPUTE_CAPABILITY_MINOR = 76;
    static final int PAGEABLE_MEMORY_ACCESS = 88;
    static final int CONCURRENT_MANAGED_ACCESS = 89;
    static final int PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100;

    // CUjit_option: where the JIT writes why it refused the PTX.
    static final int JIT_ERROR_LOG_BUFFER = 5;
    static final int JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
    private static final int JIT_LOG_BYTES = 4096;

    private static final FunctionDescriptor INT_OF_INT = FunctionDescriptor.of(JAVA_INT, JAVA_INT);
    private static final FunctionDescriptor INT_OF_ADDRESS = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor INT_OF_LONG = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);

    private final String library;
    /** Each symbol bound and the C signature it is called with, in binding order (CudaAbiTest reads it). */
    private final Map<String, FunctionDescriptor> bindings = new LinkedHashMap<>();
    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuGetErrorString;
    private final MethodHandle cuInit;
    private final MethodHandle cuDriverGetVersion;
    private final MethodHandle cuDeviceGetCount;
    private final MethodHandle cuDeviceGet;
    private final MethodHandle cuDeviceGetName;
    private final MethodHandle cuDeviceGetAttribute;
    private final MethodHandle cuDeviceTotalMem;
    private final MethodHandle cuDevicePrimaryCtxRetain;
    private final MethodHandle cuDevicePrimaryCtxRelease;
    private final MethodHandle cuCtxSetCurrent;
    private final MethodHandle cuCtxSynchronize;
    private final MethodHandle cuMemGetInfo;
    private final MethodHandle cuMemAlloc;
    private final MethodHandle cuMemFree;
    private final MethodHandle cuMemAllocHost;
    private final MethodHandle cuMemFreeHost;
    private final MethodHandle cuMemcpyHtoDAsync;
    private final MethodHandle cuMemcpyDtoHAsync;
    private final MethodHandle cuMemcpyDtoH;
    private final MethodHandle cuMemsetD32;
    private final MethodHandle cuModuleLoadDataEx;
    private final MethodHandle cuModuleUnload;
    private final MethodHandle cuModuleGetFunction;
    private final MethodHandle cuLaunchKernel;
    private final MethodHandle cuEventCreate;
    private final MethodHandle cuEventRecord;
    private final MethodHandle cuEventSynchronize;
    private final MethodHandle cuEventElapsedTime;
    private final MethodHandle cuEventDestroy;

    private CudaDriver(String library, SymbolLookup lookup) {
        this.library = library;
        Linker linker = Linker.nativeLinker();
        Binder bind = new Binder(linker, lookup, library, bindings);
        cuGetErrorName = bind.of("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        cuGetErrorString = bind.of("cuGetErrorString", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        cuInit = bind.of("cuInit", INT_OF_INT);
        cuDriverGetVersion = bind.of("cuDriverGetVersion", INT_OF_ADDRESS);
        cuDeviceGetCount = bind.of("cuDeviceGetCount", INT_OF_ADDRESS);
        cuDeviceGet = bind.of("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDeviceGetName = bind.of("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuDeviceGetAttribute = bind.of("cuDeviceGetAttribute",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuDeviceTotalMem = bind.of("cuDeviceTotalMem_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDevicePrimaryCtxRetain = bind.of("cuDevicePrimaryCtxRetain",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDevicePrimaryCtxRelease = bind.of("cuDevicePrimaryCtxRelease_v2", INT_OF_INT);
        cuCtxSetCurrent = bind.of("cuCtxSetCurrent", INT_OF_ADDRESS);
        cuCtxSynchronize = bind.of("cuCtxSynchronize", FunctionDescriptor.of(JAVA_INT));
        cuMemGetInfo = bind.of("cuMemGetInfo_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuMemAlloc = bind.of("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        cuMemFree = bind.of("cuMemFree_v2", INT_OF_LONG);
        cuMemAllocHost = bind.of("cuMemAllocHost_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        cuMemFreeHost = bind.of("cuMemFreeHost", INT_OF_ADDRESS);
        cuMemcpyHtoDAsync = bind.of("cuMemcpyHtoDAsync_v2",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        cuMemcpyDtoHAsync = bind.of("cuMemcpyDtoHAsync_v2",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        cuMemcpyDtoH = bind.of("cuMemcpyDtoH_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        cuMemsetD32 = bind.of("cuMemsetD32_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
        cuModuleLoadDataEx = bind.of("cuModuleLoadDataEx",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        cuModuleUnload = bind.of("cuModuleUnload", INT_OF_ADDRESS);
        cuModuleGetFunction = bind.of("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cuLaunchKernel = bind.of("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cuEventCreate = bind.of("cuEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuEventRecord = bind.of("cuEventRecord", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuEventSynchronize = bind.of("cuEventSynchronize", INT_OF_ADDRESS);
        cuEventElapsedTime = bind.of("cuEventElapsedTime", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cuEventDestroy = bind.of("cuEventDestroy_v2", INT_OF_ADDRESS);
    }

    /** Looks each symbol up once; a driver without one is too old for the suite. */
    private record Binder(Linker linker, SymbolLookup lookup, String library,
                          Map<String, FunctionDescriptor> bindings) {
        MethodHandle of(String symbol, FunctionDescriptor descriptor) {
            MemorySegment address = lookup.find(symbol).orElseThrow(() -> new GpuUnavailableException(
                    "the CUDA driver " + library + " has no " + symbol + ": it is older than the GPU suite needs "
                            + "(CUDA 11.8 or newer)", null));
            bindings.put(symbol, descriptor);
            return linker.downcallHandle(address, descriptor);
        }
    }

    /**
     * Loads the driver library: the path given by {@value #LIBRARY_PROPERTY} or {@value #LIBRARY_ENVIRONMENT}, else
     * {@value #LIBRARY} as the dynamic loader finds it.
     *
     * @throws GpuUnavailableException in one line when there is no such library (no NVIDIA driver installed)
     */
    public static CudaDriver load() {
        return load(configuredLibrary());
    }

    /** The library a configuration names, else the loader's {@value #LIBRARY}. */
    static String configuredLibrary() {
        String given = System.getProperty(LIBRARY_PROPERTY);
        if (given == null || given.isBlank()) {
            given = System.getenv(LIBRARY_ENVIRONMENT);
        }
        return given == null || given.isBlank() ? LIBRARY : given;
    }

    static CudaDriver load(String library) {
        if (library.contains("/") && !Files.isRegularFile(Path.of(library))) {
            throw new GpuUnavailableException("no CUDA driver: " + library + " (from " + LIBRARY_PROPERTY + " or "
                    + LIBRARY_ENVIRONMENT + ") is not a file", null);
        }
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new GpuUnavailableException("no CUDA driver: " + library + " could not be loaded (no NVIDIA "
                    + "driver installed, or not on the loader's path; " + LIBRARY_ENVIRONMENT + " names one)", null, e);
        }
        return new CudaDriver(library, lookup);
    }

    /** Each driver symbol this binding calls, with the signature it calls it with. */
    Map<String, FunctionDescriptor> bindings() {
        return Collections.unmodifiableMap(bindings);
    }

    /** The library this driver was loaded from. */
    public String library() {
        return library;
    }

    // ---- errors

    /** Throws a one-line {@link CudaException} naming {@code call} if {@code result} is an error. */
    void check(int result, String call) {
        if (result != 0) {
            throw new CudaException(call, result, errorName(result).orElse("CUDA error " + result),
                    errorString(result).orElse("no description"));
        }
    }

    Optional<String> errorName(int result) {
        return errorText(cuGetErrorName, result);
    }

    Optional<String> errorString(int result) {
        return errorText(cuGetErrorString, result);
    }

    private static Optional<String> errorText(MethodHandle handle, int result) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(ADDRESS);
            int status = (int) handle.invokeExact(result, text);
            MemorySegment address = text.get(ADDRESS, 0);
            if (status != 0 || address.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            return Optional.of(address.reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8));
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException runtime) {
            return runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(e);
    }

    /** A driver call: the {@code CUresult} it returns. */
    @FunctionalInterface
    private interface Call {
        int invoke() throws Throwable;
    }

    /** A driver call that writes its answer through the pointer it is given. */
    @FunctionalInterface
    private interface OutCall {
        int invoke(MemorySegment out) throws Throwable;
    }

    private void call(String name, Call call) {
        try {
            check(call.invoke(), name);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** Calls with a fresh out-parameter of {@code layout} and reads it back as {@code read} says. */
    private <T> T out(String name, MemoryLayout layout, java.util.function.Function<MemorySegment, T> read,
                      OutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(layout);
            check(call.invoke(out), name);
            return read.apply(out);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private int intOut(String name, OutCall call) {
        return out(name, JAVA_INT, out -> out.get(JAVA_INT, 0), call);
    }

    private long longOut(String name, OutCall call) {
        return out(name, JAVA_LONG, out -> out.get(JAVA_LONG, 0), call);
    }

    private MemorySegment addressOut(String name, OutCall call) {
        return out(name, ADDRESS, out -> out.get(ADDRESS, 0), call);
    }

    // ---- initialisation and devices

    public void init() {
        call("cuInit(0)", () -> (int) cuInit.invokeExact(0));
    }

    /** The CUDA version the driver supports: 12080 for 12.8. */
    public int driverVersion() {
        return intOut("cuDriverGetVersion", out -> (int) cuDriverGetVersion.invokeExact(out));
    }

    public int deviceCount() {
        return intOut("cuDeviceGetCount", out -> (int) cuDeviceGetCount.invokeExact(out));
    }

    /** The {@code CUdevice} of ordinal {@code ordinal}. */
    public int device(int ordinal) {
        return intOut("cuDeviceGet(" + ordinal + ")", out -> (int) cuDeviceGet.invokeExact(out, ordinal));
    }

    public String deviceName(int device) {
        return out("cuDeviceGetName", MemoryLayout.sequenceLayout(256, JAVA_BYTE),
                name -> name.getString(0, StandardCharsets.UTF_8),
                name -> (int) cuDeviceGetName.invokeExact(name, 256, device));
    }

    public int attribute(int device, int attribute) {
        return intOut("cuDeviceGetAttribute(" + attribute + ")",
                out -> (int) cuDeviceGetAttribute.invokeExact(out, attribute, device));
    }

    public long totalMemoryBytes(int device) {
        return longOut("cuDeviceTotalMem", out -> (int) cuDeviceTotalMem.invokeExact(out, device));
    }

    // ---- contexts

    /** Retains the device's primary context and makes it current on this thread. */
    public MemorySegment retainPrimaryContext(int device) {
        MemorySegment context = addressOut("cuDevicePrimaryCtxRetain",
                out -> (int) cuDevicePrimaryCtxRetain.invokeExact(out, device));
        call("cuCtxSetCurrent", () -> (int) cuCtxSetCurrent.invokeExact(context));
        return context;
    }

    public void releasePrimaryContext(int device) {
        call("cuDevicePrimaryCtxRelease", () -> (int) cuDevicePrimaryCtxRelease.invokeExact(device));
    }

    public void synchronize() {
        call("cuCtxSynchronize", () -> (int) cuCtxSynchronize.invokeExact());
    }

    // ---- memory

    /** Free and total device memory, in bytes. */
    public long[] memoryInfo() {
        return out("cuMemGetInfo", MemoryLayout.sequenceLayout(2, JAVA_LONG),
                both -> new long[] {both.getAtIndex(JAVA_LONG, 0), both.getAtIndex(JAVA_LONG, 1)},
                both -> (int) cuMemGetInfo.invokeExact(both, both.asSlice(Long.BYTES)));
    }

    /** A {@code CUdeviceptr} to {@code bytes} of device memory. */
    public long allocate(long bytes) {
        return longOut("cuMemAlloc(" + bytes + " bytes)", out -> (int) cuMemAlloc.invokeExact(out, bytes));
    }

    public void free(long pointer) {
        call("cuMemFree", () -> (int) cuMemFree.invokeExact(pointer));
    }

    /** {@code bytes} of page-locked host memory the device copies to and from by DMA. */
    public MemorySegment allocateHost(long bytes) {
        return addressOut("cuMemAllocHost(" + bytes + " bytes)", out -> (int) cuMemAllocHost.invokeExact(out, bytes))
                .reinterpret(bytes);
    }

    public void freeHost(MemorySegment host) {
        call("cuMemFreeHost", () -> (int) cuMemFreeHost.invokeExact(host));
    }

    /** Queues a copy of {@code bytes} from host to device on the default stream. */
    public void copyToDevice(long device, MemorySegment host, long bytes) {
        call("cuMemcpyHtoDAsync", () -> (int) cuMemcpyHtoDAsync.invokeExact(device, host, bytes, MemorySegment.NULL));
    }

    /** Queues a copy of {@code bytes} from device to host on the default stream. */
    public void copyToHost(MemorySegment host, long device, long bytes) {
        call("cuMemcpyDtoHAsync", () -> (int) cuMemcpyDtoHAsync.invokeExact(host, device, bytes, MemorySegment.NULL));
    }

    /** Reads {@code bytes} of device memory into {@code host} and waits for it. */
    public void read(MemorySegment host, long device, long bytes) {
        call("cuMemcpyDtoH", () -> (int) cuMemcpyDtoH.invokeExact(host, device, bytes));
    }

    /** Sets {@code count} 32-bit words at {@code device} to {@code value}. */
    public void set32(long device, int value, long count) {
        call("cuMemsetD32", () -> (int) cuMemsetD32.invokeExact(device, value, count));
    }

    // ---- modules and launches

    /**
     * Loads PTX text, which the driver JIT-compiles for the device. A driver too old for the PTX ISA says
     * {@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}; the JIT's first error line is added to the message.
     *
     * @param name the resource the PTX came from, for the message
     */
    public MemorySegment loadModule(String name, String ptx) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = arena.allocateFrom(ptx, StandardCharsets.UTF_8);
            MemorySegment log = arena.allocate(JIT_LOG_BYTES);
            MemorySegment options = arena.allocate(MemoryLayout.sequenceLayout(2, JAVA_INT));
            options.setAtIndex(JAVA_INT, 0, JIT_ERROR_LOG_BUFFER);
            options.setAtIndex(JAVA_INT, 1, JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
            MemorySegment values = arena.allocate(MemoryLayout.sequenceLayout(2, ADDRESS));
            values.setAtIndex(ADDRESS, 0, log);
            values.setAtIndex(ADDRESS, 1, MemorySegment.ofAddress(JIT_LOG_BYTES));
            MemorySegment out = arena.allocate(ADDRESS);
            int result = (int) cuModuleLoadDataEx.invokeExact(out, image, 2, options, values);
            if (result != 0) {
                String jit = log.getString(0, StandardCharsets.UTF_8).strip().lines().findFirst().orElse("");
                throw new CudaException("cuModuleLoadDataEx(" + name + ")", result,
                        errorName(result).orElse("CUDA error " + result),
                        errorString(result).orElse("no description") + (jit.isEmpty() ? "" : "; JIT: " + jit));
            }
            return out.get(ADDRESS, 0);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    public void unloadModule(MemorySegment module) {
        call("cuModuleUnload", () -> (int) cuModuleUnload.invokeExact(module));
    }

    public MemorySegment function(MemorySegment module, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocateFrom(name);
            return addressOut("cuModuleGetFunction(" + name + ")",
                    out -> (int) cuModuleGetFunction.invokeExact(out, module, text));
        }
    }

    /**
     * Launches {@code function} on a one-dimensional grid on the default stream.
     *
     * @param parameters {@code void* kernelParams[]}: one pointer per kernel parameter, to its value
     */
    public void launch(MemorySegment function, int blocks, int threadsPerBlock, MemorySegment parameters,
                       String name) {
        call("cuLaunchKernel(" + name + ")", () -> (int) cuLaunchKernel.invokeExact(function, blocks, 1, 1,
                threadsPerBlock, 1, 1, 0, MemorySegment.NULL, parameters, MemorySegment.NULL));
    }

    // ---- events

    public MemorySegment createEvent() {
        return addressOut("cuEventCreate", out -> (int) cuEventCreate.invokeExact(out, 0));
    }

    /** Records {@code event} on the default stream. */
    public void record(MemorySegment event) {
        call("cuEventRecord", () -> (int) cuEventRecord.invokeExact(event, MemorySegment.NULL));
    }

    public void synchronize(MemorySegment event) {
        call("cuEventSynchronize", () -> (int) cuEventSynchronize.invokeExact(event));
    }

    /** Milliseconds between two recorded, completed events (about 0.5 µs resolution). */
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        return out("cuEventElapsedTime", JAVA_FLOAT, out -> out.get(JAVA_FLOAT, 0),
                out -> (int) cuEventElapsedTime.invokeExact(out, start, end));
    }

    public void destroyEvent(MemorySegment event) {
        call("cuEventDestroy", () -> (int) cuEventDestroy.invokeExact(event));
    }
}
