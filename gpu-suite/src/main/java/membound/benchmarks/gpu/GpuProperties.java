package membound.benchmarks.gpu;

/**
 * What the driver says about the device, read from its attributes: the provenance of every GPU figure.
 *
 * @param name                    the device's name ({@code NVIDIA H200}, {@code NVIDIA GB10})
 * @param capability              the compute capability ({@code 9.0}, {@code 12.1})
 * @param multiprocessors         SMs
 * @param maxThreadsPerMultiprocessor resident threads per SM: with {@link #multiprocessors} the grid that fills it
 * @param l2Bytes                 the L2 cache
 * @param memoryBytes             device memory ({@code cuDeviceTotalMem})
 * @param memoryBusWidthBits      the memory interface's width
 * @param memoryClockKhz          the peak memory clock
 * @param smClockKhz              the peak SM clock
 * @param integrated              an integrated GPU (GB10), sharing the host's memory
 * @param unifiedAddressing       one address space with the host
 * @param pageableMemoryAccess    the device reads and writes pageable host memory (ATS or HMM)
 * @param pageableUsesHostPageTables it does so through the host's page tables (ATS: GH200, GB10)
 * @param concurrentManagedAccess CPU and GPU may touch managed memory at once
 * @param driverCudaVersion       the CUDA version the driver supports ({@code cuDriverGetVersion}: 12080 for 12.8)
 */
public record GpuProperties(String name, ComputeCapability capability, int multiprocessors,
                            int maxThreadsPerMultiprocessor, long l2Bytes, long memoryBytes, int memoryBusWidthBits,
                            long memoryClockKhz, long smClockKhz, boolean integrated, boolean unifiedAddressing,
                            boolean pageableMemoryAccess, boolean pageableUsesHostPageTables,
                            boolean concurrentManagedAccess, int driverCudaVersion) {

    /** The compute capability as NVIDIA writes it, {@code major.minor}. */
    public String computeCapability() {
        return capability.toString();
    }

    /** The driver's CUDA version as people write it: 12080 is {@code 12.8}. */
    public String driverCudaVersionText() {
        return (driverCudaVersion / 1000) + "." + (driverCudaVersion % 1000 / 10);
    }

    /** Whether CPU and GPU share one memory: an integrated device, or one that reaches pageable host memory. */
    public boolean sharesHostMemory() {
        return integrated || pageableUsesHostPageTables;
    }
}
