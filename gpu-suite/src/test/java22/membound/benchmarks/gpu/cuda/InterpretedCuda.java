package membound.benchmarks.gpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;

/**
 * The driver calls on {@link PtxInterpreter}, for the tests: one device with the attributes it is given, whose
 * modules are the suite's PTX run on the host, whose memory is the interpreter's and whose events read the host's
 * clock. Work is done when it is queued, so synchronising waits for nothing. Every attribute the suite asks is one
 * it was given, else the call fails naming it; the interpreter fails where a GPU would fault.
 *
 * <p>It measures nothing real: it lets the whole suite run, so that its own logic (sizes, launches, validation,
 * results) is shown before a GPU is lent.
 */
final class InterpretedCuda implements CudaCalls, AutoCloseable {

    private final String name;
    private final Map<Integer, Integer> attributes;
    private final long totalBytes;
    final PtxInterpreter gpu;
    private final Arena host = Arena.ofShared();
    private final Map<Long, Map<String, PtxInterpreter.Entry>> modules = new HashMap<>();
    private final Map<Long, PtxInterpreter.Entry> functions = new HashMap<>();
    private final Map<Long, Long> events = new HashMap<>();
    private long handles = 1;

    InterpretedCuda(String name, Map<Integer, Integer> attributes, long totalBytes) {
        this.name = name;
        this.attributes = attributes;
        this.totalBytes = totalBytes;
        this.gpu = new PtxInterpreter(totalBytes, attributes.getOrDefault(CudaDriver.PAGEABLE_MEMORY_ACCESS, 0) != 0);
    }

    private MemorySegment handle() {
        return MemorySegment.ofAddress(handles++);
    }

    @Override
    public void init() {
    }

    @Override
    public int driverVersion() {
        return 12080;
    }

    @Override
    public int deviceCount() {
        return 1;
    }

    @Override
    public int device(int ordinal) {
        return ordinal;
    }

    @Override
    public String deviceName(int device) {
        return name;
    }

    @Override
    public int attribute(int device, int attribute) {
        Integer value = attributes.get(attribute);
        if (value == null) {
            throw new IllegalStateException("the suite asked for attribute " + attribute + ", which this device was "
                    + "not given");
        }
        return value;
    }

    @Override
    public long totalMemoryBytes(int device) {
        return totalBytes;
    }

    @Override
    public MemorySegment retainPrimaryContext(int device) {
        return handle();
    }

    @Override
    public void releasePrimaryContext(int device) {
    }

    @Override
    public void synchronize() {
    }

    @Override
    public long[] memoryInfo() {
        return new long[] {gpu.free(), totalBytes};
    }

    @Override
    public long allocate(long bytes) {
        return gpu.allocate(bytes);
    }

    @Override
    public void free(long pointer) {
        gpu.free(pointer);
    }

    @Override
    public MemorySegment allocateHost(long bytes) {
        return host.allocate(bytes, 4096);
    }

    @Override
    public void freeHost(MemorySegment memory) {
    }

    @Override
    public void copyToDevice(long device, MemorySegment memory, long bytes) {
        MemorySegment.copy(memory, 0, gpu.at(device, bytes, "cuMemcpyHtoDAsync"), 0, bytes);
    }

    @Override
    public void copyToHost(MemorySegment memory, long device, long bytes) {
        MemorySegment.copy(gpu.at(device, bytes, "cuMemcpyDtoHAsync"), 0, memory, 0, bytes);
    }

    @Override
    public void read(MemorySegment memory, long device, long bytes) {
        copyToHost(memory, device, bytes);
    }

    @Override
    public void set32(long device, int value, long count) {
        MemorySegment words = gpu.at(device, 4 * count, "cuMemsetD32");
        for (long i = 0; i < count; i++) {
            words.setAtIndex(ValueLayout.JAVA_INT, i, value);
        }
    }

    @Override
    public MemorySegment loadModule(String resource, String ptx) {
        MemorySegment module = handle();
        modules.put(module.address(), PtxInterpreter.parse(ptx));
        return module;
    }

    @Override
    public void unloadModule(MemorySegment module) {
        if (modules.remove(module.address()) == null) {
            throw new IllegalStateException("cuModuleUnload of a module not loaded");
        }
    }

    @Override
    public MemorySegment function(MemorySegment module, String entry) {
        PtxInterpreter.Entry found = modules.get(module.address()).get(entry);
        if (found == null) {
            throw new CudaException("cuModuleGetFunction(" + entry + ")", 500, "CUDA_ERROR_NOT_FOUND",
                    "named symbol not found");
        }
        MemorySegment function = handle();
        functions.put(function.address(), found);
        return function;
    }

    @Override
    public void launch(MemorySegment function, int blocks, int threadsPerBlock, MemorySegment parameters,
                       String label) {
        gpu.launch(functions.get(function.address()), blocks, threadsPerBlock, parameters);
    }

    @Override
    public MemorySegment createEvent() {
        MemorySegment event = handle();
        events.put(event.address(), -1L);
        return event;
    }

    @Override
    public void record(MemorySegment event) {
        events.put(event.address(), System.nanoTime());
    }

    @Override
    public void synchronize(MemorySegment event) {
    }

    @Override
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        long from = events.get(start.address());
        long to = events.get(end.address());
        if (from < 0 || to < 0) {
            throw new CudaException("cuEventElapsedTime", 600, "CUDA_ERROR_NOT_READY", "an event was not recorded");
        }
        return Math.max(0.0005f, (to - from) / 1e6f);
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        events.remove(event.address());
    }

    @Override
    public void close() {
        gpu.close();
        host.close();
    }
}
