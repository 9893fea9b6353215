package membound.benchmarks.gpu;

/**
 * The GPU suite: STREAM kernels on the device, kernel launch latency and pinned host-device copies, through the
 * CUDA driver. {@link GpuSuites#measure(GpuPlan)} finds the implementation, which needs JDK 22 or newer.
 */
public interface GpuSuite {

    /**
     * Measures GPU 0.
     *
     * @throws GpuUnavailableException when the GPU cannot be measured (no driver or device, a failed CUDA call)
     * @throws membound.benchmarks.stream.StreamValidationException when a pass gives a wrong answer
     */
    GpuRun measure(GpuPlan plan);
}
