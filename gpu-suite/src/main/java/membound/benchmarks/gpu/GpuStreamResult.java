package membound.benchmarks.gpu;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;

/**
 * One STREAM kernel on the device at one working set: every measured pass's time from CUDA events, each pass
 * validated against STREAM's closed form before it was kept.
 *
 * <p>Bytes follow the kernel table's STREAM convention ({@link StreamKernel#streamArraysMoved()}). No hardware-byte
 * figure is given: a GPU's coalesced 16-byte stores fill whole L2 sectors, which need no read first, but the suite
 * cannot see whether the memory did any.
 *
 * @param grid the blocks launched (every SM filled) and {@code threads} per block
 * @param launchesPerSample passes run back to back between one sample's two events (more than one inside the L2,
 *                          where one pass is near the events' resolution); each sample is their mean
 */
public record GpuStreamResult(StreamKernel kernel, ElementType elementType, GpuPlan.WorkingSetSize workingSet,
                              long elements, int grid, int threads, int launchesPerSample, PassTimes passTimes) {

    /** Bytes a pass moves by STREAM's convention. */
    public double streamBytesPerPass() {
        return (double) kernel.streamArraysMoved() * elements * elementType.bytes();
    }

    /** Bytes of every array the kernel touches. */
    public long footprintBytes() {
        return (long) kernel.arrays() * elements * elementType.bytes();
    }
}
