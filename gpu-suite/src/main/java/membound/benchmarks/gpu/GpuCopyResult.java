package membound.benchmarks.gpu;

import membound.benchmarks.results.PassTimes;

/**
 * Pinned host memory ({@code cuMemAllocHost}) copied to or from the device, each copy timed with CUDA events and
 * its contents checked.
 *
 * @param toDevice host to device, else device to host
 */
public record GpuCopyResult(boolean toDevice, long bytes, PassTimes passTimes) {

    /** {@code h2d} or {@code d2h}. */
    public String direction() {
        return toDevice ? "h2d" : "d2h";
    }
}
