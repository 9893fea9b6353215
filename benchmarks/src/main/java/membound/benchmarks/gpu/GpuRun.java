package membound.benchmarks.gpu;

import java.util.List;

import membound.benchmarks.results.PassTimes;

/**
 * What the GPU suite measured on one device.
 *
 * @param device      the device's attributes and the driver's version
 * @param plan        what was run
 * @param stream      every kernel, element type and working set
 * @param launchSync  an empty kernel's launch followed by a context synchronise, each timed on the host clock
 * @param copies      pinned host-to-device and device-to-host copies
 */
public record GpuRun(GpuProperties device, GpuPlan plan, List<GpuStreamResult> stream, PassTimes launchSync,
                     List<GpuCopyResult> copies) {

    public GpuRun {
        stream = List.copyOf(stream);
        copies = List.copyOf(copies);
    }
}
