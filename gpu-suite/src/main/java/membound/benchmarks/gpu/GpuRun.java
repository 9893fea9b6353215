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
 * @param launchInterval empty kernels launched back to back, per launch (samples of 100 launches and one
 *                    synchronise, on the host clock): what each of a step's kernels costs at least
 * @param copies      pinned host-to-device and device-to-host copies
 * @param gemm        the cuBLASLt GEMMs that ran, each checked
 * @param gemmLibrary the cuBLASLt that ran them ({@code libcublasLt.so.12 12.8.3}), or null where none loaded
 * @param sharing     the sharing curve of a unified-memory device (empty on one that does not share the host's memory)
 * @param notMeasured one line per part of the plan that did not run, with the cause (no cuBLASLt, a precision
 *                    the device or library does not offer, no algorithm for a layout)
 */
public record GpuRun(GpuProperties device, GpuPlan plan, List<GpuStreamResult> stream, PassTimes launchSync,
                     PassTimes launchInterval, List<GpuCopyResult> copies, List<GpuGemmResult> gemm, String gemmLibrary,
                     List<GpuSharingResult> sharing, List<String> notMeasured) {

    public GpuRun {
        stream = List.copyOf(stream);
        copies = List.copyOf(copies);
        gemm = List.copyOf(gemm);
        sharing = List.copyOf(sharing);
        notMeasured = List.copyOf(notMeasured);
    }
}
