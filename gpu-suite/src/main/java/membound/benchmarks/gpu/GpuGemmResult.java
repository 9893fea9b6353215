package membound.benchmarks.gpu;

import membound.benchmarks.results.PassTimes;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/**
 * One cuBLASLt GEMM on the device: every kept sample's time from CUDA events (the mean of {@code launchesPerSample}
 * back-to-back calls), each sample's output checked at sampled entries against the exact product of the known
 * integer operands before it was kept.
 *
 * @param precision       the operands' format (FP8 is E4M3; FP4 is NVFP4); accumulation is FP32
 * @param shape           the product, in the row-major terms of {@link ProductShape} (a square GEMM is n×n×n)
 * @param square          a square ceiling GEMM, not one of the step's products
 * @param workspaceBytes  the workspace the heuristic's algorithm asked for
 */
public record GpuGemmResult(Precision precision, ProductShape shape, boolean square, int launchesPerSample,
                            long workspaceBytes, PassTimes passTimes) {

    /** FLOPs of one call: 2·batch·m·n·k. */
    public double flopsPerPass() {
        return shape.flops();
    }
}
