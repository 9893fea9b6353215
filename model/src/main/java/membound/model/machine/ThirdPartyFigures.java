package membound.model.machine;

import java.util.EnumMap;
import java.util.Map;

import membound.vocabulary.Precision;

/**
 * Published measurements of catalog platforms that are not datasheet figures, kept by the model
 * (the catalog keeps datasheets): the "measured" basis of a catalog entry. Each carries its
 * source; a platform without any has no measured basis and the output says so.
 */
final class ThirdPartyFigures {

    static final String MAMF = "third-party measurement: Maximum Achievable Matmul FLOPS (mean of 100 runs, best "
            + "shape), S. Bekman, Machine Learning Engineering, compute/accelerator/README.md, "
            + "github.com/stas00/ml-engineering";
    static final String GB10 = "third-party measurement as recorded in docs/reference/hardware.md "
            + "(\"Published measurements on GB10\")";

    /** What is known about one platform beyond its datasheet. */
    record Known(Map<Precision, Double> gemmFlopsPerSecond, String gemmSource, double readBytesPerSecond,
                 String readSource, long usableCapacityBytes, String capacitySource,
                 Map<Precision, Double> derivedPeakFlopsPerSecond, String derivedSource) {

        /** Published memory and GEMM rates both: enough to train on a GPU the profile did not measure. */
        boolean hasMemoryAndGemm() {
            return Double.isFinite(readBytesPerSecond) && !gemmFlopsPerSecond.isEmpty();
        }
    }

    private static final Map<String, Known> BY_PLATFORM = Map.of(
            "dgx-spark", new Known(
                    gemm(Precision.BF16, 92.3e12, Precision.FP16, 92.3e12, Precision.FP8, 188e12, Precision.FP4, 356e12),
                    GB10 + ": BF16 GEMM 92.3 TFLOPS; FP8 188 and NVFP4 356 TFLOPS with tuned CUTLASS kernels "
                            + "(FP16 taken as BF16)",
                    232.5e9, GB10 + ": a GPU read kernel reached 231-234 GB/s (midpoint)",
                    119_700_000_000L, "NVIDIA DGX Spark user guide: CUDA reports about 119.7 GB of the 128 GB "
                            + "(docs/reference/hardware.md)",
                    gemm(Precision.BF16, 125e12, Precision.FP16, 125e12, Precision.FP8, 250e12),
                    "derived, not published: NVIDIA's dense FP4 500 TFLOPS halved per doubling of width "
                            + "(FP8 = FP4 / 2, BF16 = FP16 = FP4 / 4), the ratio Blackwell datasheets print "
                            + "(HGX B200: FP4 9 PF, FP8 4.5 PF, BF16 2.25 PF dense)"),
            "h100-sxm", gemmOnly(gemm(Precision.BF16, 794.5e12, Precision.FP8, 1402.6e12), MAMF + ", H100 SXM rows"),
            "h200-sxm", gemmOnly(gemm(Precision.BF16, 794.5e12, Precision.FP8, 1453.4e12),
                    MAMF + ", H200 SXM FP8 row; BF16 from the H100 SXM row, noted there as the same for H200"),
            "a100-sxm-80gb", gemmOnly(gemm(Precision.BF16, 271.2e12), MAMF + ", A100 SXM row"),
            "gh200", gemmOnly(gemm(Precision.BF16, 828.6e12, Precision.FP8, 1535.0e12),
                    MAMF + ", GH200 SXM rows (900 W, 141 GiB HBM3e version)"),
            "b200", gemmOnly(gemm(Precision.BF16, 1745.0e12, Precision.FP8, 3432.5e12), MAMF + ", B200 SXM rows"),
            "gb200", gemmOnly(gemm(Precision.BF16, 1822.0e12, Precision.FP8, 3615.6e12),
                    MAMF + ", GB200 SXM rows (torch 2.10.0.dev20250916+cu130, per GPU)"));

    /**
     * Published launch cost of one kernel in a CUDA graph (the GPU idle between two graph nodes), per catalog platform:
     * the least a kernel boundary of a graphed decode costs where no profile measured the device's launch interval.
     */
    private static final Map<String, Ceiling> GRAPH_LAUNCH = Map.of(
            "h100-sxm", Ceiling.measured(1.3e-6, "third-party measurement: Hazy Research, \"Look Ma, No Bubbles!\" "
                    + "(2025-05-27), https://hazyresearch.stanford.edu/blog/2025-05-27-no-bubbles: on an H100 \"with CUDA "
                    + "graphs the launch cost only decreases to around 1.3 microseconds\" (2.1 on a stream)"));

    private ThirdPartyFigures() {
    }

    /** The platform's published graph-node launch cost, or null where none is published (the GB10's is not). */
    static Ceiling graphLaunch(String platformId) {
        return GRAPH_LAUNCH.get(platformId);
    }

    static Known of(String platformId) {
        return BY_PLATFORM.get(platformId);
    }

    private static Known gemmOnly(Map<Precision, Double> gemm, String source) {
        return new Known(gemm, source, Double.NaN, null, 0, null, Map.of(), null);
    }

    private static Map<Precision, Double> gemm(Object... precisionAndValue) {
        Map<Precision, Double> map = new EnumMap<>(Precision.class);
        for (int i = 0; i < precisionAndValue.length; i += 2) {
            map.put((Precision) precisionAndValue[i], (Double) precisionAndValue[i + 1]);
        }
        return map;
    }
}
