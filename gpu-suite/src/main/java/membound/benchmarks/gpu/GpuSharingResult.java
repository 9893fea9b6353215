package membound.benchmarks.gpu;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.stream.StreamKernel;

/**
 * One point of the sharing curve of a unified-memory device (GB10, GH200), where the CPU and the GPU stream from one
 * memory: Triad on doubles measured on one side while the other side streams Triad too. Every GPU pass is validated
 * on the device and every CPU thread's arrays against STREAM's closed form.
 *
 * @param measured           {@code gpu}: the GPU's Triad while {@code cpuThreadsStreaming} CPU threads stream
 *                           (0, half and all of them); {@code cpu}: the CPU's Triad on {@code cpuThreadsStreaming}
 *                           threads while the GPU streams
 * @param cpuThreadsStreaming CPU threads streaming during the measurement (the measured ones, for {@code cpu})
 * @param gpuStreaming       whether the GPU streamed during it (always for {@code cpu}, never for {@code gpu})
 * @param bytesPerSample     STREAM bytes of one sample (a GPU pass; for the CPU, every thread's passes)
 * @param passTimes          each sample's time (CUDA events on the GPU; the slowest thread on the CPU)
 */
public record GpuSharingResult(String measured, int cpuThreadsStreaming, boolean gpuStreaming, StreamKernel kernel,
                               double bytesPerSample, PassTimes passTimes) {

    public GpuSharingResult {
        if (!measured.equals("gpu") && !measured.equals("cpu")) {
            throw new IllegalArgumentException("measured must be gpu or cpu: measured=" + measured);
        }
    }
}
