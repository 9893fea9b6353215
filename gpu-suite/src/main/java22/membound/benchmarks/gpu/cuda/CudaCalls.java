package membound.benchmarks.gpu.cuda;

import java.lang.foreign.MemorySegment;

/**
 * The CUDA driver calls the GPU suite makes, each failing with a {@link CudaException} that names the call and the
 * {@code CUDA_ERROR_*}. {@link CudaDriver} makes them on the real driver; the tests also run the whole suite on PTX
 * interpreted on the host (InterpretedCuda), which has no GPU to measure but shows the suite's own logic.
 */
interface CudaCalls {

    void init();

    /** The CUDA version the driver supports: 12080 for 12.8. */
    int driverVersion();

    int deviceCount();

    /** The {@code CUdevice} of ordinal {@code ordinal}. */
    int device(int ordinal);

    String deviceName(int device);

    /** A {@code CU_DEVICE_ATTRIBUTE_*} of the device (CudaDriver's constants). */
    int attribute(int device, int attribute);

    long totalMemoryBytes(int device);

    /** Retains the device's primary context and makes it current on this thread. */
    MemorySegment retainPrimaryContext(int device);

    void releasePrimaryContext(int device);

    /** Waits for everything queued on the current context. */
    void synchronize();

    /** Free and total device memory, in bytes. */
    long[] memoryInfo();

    /** A {@code CUdeviceptr} to {@code bytes} of device memory. */
    long allocate(long bytes);

    void free(long pointer);

    /** {@code bytes} of page-locked host memory the device copies to and from by DMA. */
    MemorySegment allocateHost(long bytes);

    void freeHost(MemorySegment host);

    /** Queues a copy of {@code bytes} from host to device on the default stream. */
    void copyToDevice(long device, MemorySegment host, long bytes);

    /** Queues a copy of {@code bytes} from device to host on the default stream. */
    void copyToHost(MemorySegment host, long device, long bytes);

    /** Reads {@code bytes} of device memory into {@code host} and waits for it. */
    void read(MemorySegment host, long device, long bytes);

    /** Sets {@code count} 32-bit words at {@code device} to {@code value}. */
    void set32(long device, int value, long count);

    /**
     * Loads PTX text, which the driver JIT-compiles for the device.
     *
     * @param name the resource the PTX came from, for the message
     */
    MemorySegment loadModule(String name, String ptx);

    void unloadModule(MemorySegment module);

    MemorySegment function(MemorySegment module, String name);

    /**
     * Launches {@code function} on a one-dimensional grid on the default stream.
     *
     * @param parameters {@code void* kernelParams[]}: one pointer per kernel parameter, to its value
     */
    void launch(MemorySegment function, int blocks, int threadsPerBlock, MemorySegment parameters, String name);

    MemorySegment createEvent();

    /** Records {@code event} on the default stream. */
    void record(MemorySegment event);

    void synchronize(MemorySegment event);

    /** Milliseconds between two recorded, completed events. */
    float elapsedMillis(MemorySegment start, MemorySegment end);

    void destroyEvent(MemorySegment event);
}
