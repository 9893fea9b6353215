package membound.hardware.catalog;

import static membound.hardware.catalog.Figure.bytes;
import static membound.hardware.catalog.Figure.bytesPerSecond;
import static membound.hardware.catalog.Figure.flopsPerSecond;
import static membound.hardware.catalog.Figure.opsPerSecond;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import membound.vocabulary.DeviceKind;
import membound.vocabulary.LinkKind;
import membound.vocabulary.Precision;

/**
 * Every entry of the built-in catalog, in one place (as JMH keeps its defaults in {@code Defaults}).
 *
 * <p>Rules for a figure here: it comes from the vendor's datasheet or product page and its source says which;
 * where the vendor prints only the sparse (2:4) tensor figure, the dense one is half of it and the source says
 * "dense = sparse / 2"; a figure taken from a third party's report, or not checked against the vendor's own
 * page, says so in its source. Nothing is estimated from die size or clocks. Values are in base units:
 * GB = 10^9 bytes, TB/s = 10^12 bytes per second, TFLOPS = 10^12 FLOP per second.
 */
final class Datasheets {

    private static final double G = 1e9;
    private static final double T = 1e12;
    private static final double P = 1e15;

    // ---- sources -----------------------------------------------------------------------------------

    static final String SPARK = "NVIDIA DGX Spark product page and datasheet, "
            + "https://www.nvidia.com/en-us/products/workstations/dgx-spark/ (2025; as recorded in "
            + "docs/reference/hardware.md)";
    static final String SPARK_PORTING_GUIDE = "NVIDIA DGX Spark Porting Guide, System Overview, "
            + "https://docs.nvidia.com/dgx/dgx-spark-porting-guide/overview.html (undated web page)";
    static final String SPARK_DENSE_FP4 = SPARK + "; NVIDIA's \"1 PFLOP FP4\" is with 2:4 sparsity, dense = sparse / 2";
    static final String GB10_HOT_CHIPS = "third-party report: NVIDIA's GB10 talk at Hot Chips 2025 as reported by "
            + "ferra.ru (2025-08-28) and meterpreter.org; not an NVIDIA datasheet figure";
    static final String CNC_GB10 = "Chips and Cheese, \"Inside Nvidia GB10's Memory Subsystem, from the CPU Side\", "
            + "https://chipsandcheese.com/ (2025-12-31)";

    static final String H100 = "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/ "
            + "(H100 SXM column)";
    static final String H200 = "NVIDIA H200 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h200/ "
            + "(H200 SXM column)";
    static final String A100 = "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/a100/ "
            + "(A100 80GB SXM column)";
    static final String GH200 = "NVIDIA GH200 Grace Hopper Superchip datasheet, "
            + "https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/ (HBM3e version)";
    static final String HGX_B200 = "NVIDIA HGX platform specifications, https://www.nvidia.com/en-us/data-center/hgx/ "
            + "(HGX B200, per-GPU figures; read from a third-party copy of NVIDIA's table, "
            + "zdszero.github.io, not the vendor page itself)";
    static final String GB200 = "NVIDIA GB200 NVL72 specifications, https://www.nvidia.com/en-us/data-center/gb200-nvl72/ "
            + "(GB200 Grace Blackwell Superchip column: one Grace CPU and two Blackwell GPUs, per-GPU figure = superchip "
            + "figure / 2; read from third-party copies of NVIDIA's table, not the vendor page itself: the per-GPU tensor "
            + "and FP32 figures as S. Bekman's ml-engineering TFLOPS table prints them (compute/accelerator/README.md, "
            + "its note 23 citing that page), memory and links from encyclopedia copies of the superchip column "
            + "(aiwiki.ai, grokipedia.com))";
    static final String GRACE = "NVIDIA Grace CPU Superchip datasheet, "
            + "https://www.nvidia.com/en-us/data-center/grace-cpu-superchip/ (as recorded in docs/reference/hardware.md)";
    static final String RTX_5090 = "unverified against the vendor page: NVIDIA GeForce RTX 5090 specifications, "
            + "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/, checked only against "
            + "third-party reports (huggingface.co/blog/exolabs/the-dgx-spark-handbook: 1,792 GB/s; "
            + "huggingface.co/hardware/rtx-5090-d: 32 GB)";
    static final String M4_MAX = "Apple Newsroom, M4 Pro and M4 Max announcement (2024-10-30): \"up to 546GB/s\" "
            + "(16-core CPU, 40-core GPU M4 Max) and up to 128GB unified memory; checked against third-party "
            + "reports of the announcement (notebookcheck.net, macmegasite.com 2024-10-30), not Apple's page itself";
    static final String M3_ULTRA = "Apple Newsroom, Mac Studio with M3 Ultra announcement (2025-03-05): 819GB/s and "
            + "up to 512GB unified memory; checked against third-party reports (techpowerup.com; arstechnica.com "
            + "table: 819.2 GB/s), not Apple's page itself";
    static final String RYZEN_AI_MAX = "unverified against the vendor page: AMD Ryzen AI Max+ 395, 256-bit "
            + "LPDDR5X-8000 (8000 MT/s x 32 bytes = 256 GB/s) and up to 128 GB, from third-party reports "
            + "(svethardware.cz, computerbase.de 2024-09) of AMD's specifications";
    static final String PCIE5_X16 = "PCI Express 5.0 x16: 32 GT/s x 16 lanes = 64 GB/s per direction before "
            + "encoding and protocol overhead (derived from the PCIe 5.0 signalling rate)";

    /**
     * Marks a datasheet figure that is neither in docs/reference/hardware.md nor was found again in a copy
     * of the vendor's table during this catalog's review: entered as the datasheet prints it, to be re-checked.
     */
    static final String NOT_RECHECKED = " (not re-checked against the vendor page)";

    private Datasheets() {
    }

    static List<PlatformSpec> all() {
        return List.of(dgxSpark(), gh200(), h100Sxm(), h200Sxm(), a100Sxm80(), b200(), gb200(), rtx5090(), appleM4Max(),
                appleM3Ultra(), ryzenAiMax395(), graceSuperchip());
    }

    // ---- entries -----------------------------------------------------------------------------------

    static PlatformSpec dgxSpark() {
        Figure memory = bytes(128 * G, SPARK + "; LPDDR5x shared by CPU and GPU (CUDA reports about 119.7 GB)");
        Figure bandwidth = bytesPerSecond(273 * G, SPARK + "; 256-bit LPDDR5x-8533 per " + CNC_GB10);
        DeviceSpec gpu = new DeviceSpec("gpu", "GB10 Blackwell GPU (48 SMs, 6,144 CUDA cores)", DeviceKind.GPU,
                memory, bandwidth,
                peaks(Precision.FP4, flopsPerSecond(500 * T, SPARK_DENSE_FP4),
                        Precision.FP32, flopsPerSecond(31 * T, GB10_HOT_CHIPS + "; FP32 without tensor cores")),
                peaks(Precision.FP4, flopsPerSecond(1 * P, SPARK + "; \"1 PFLOP of FP4\" with sparsity")),
                true,
                List.of("NVIDIA publishes no BF16, FP16 or FP8 peak for GB10; give one with --peak-flops.",
                        "Third-party measurements (not peaks), from docs/reference/hardware.md: BF16 GEMM 92.3 TFLOPS, "
                                + "FP8 188 TFLOPS and NVFP4 356 TFLOPS with tuned CUTLASS kernels; a GPU read kernel "
                                + "231-234 GB/s."));
        DeviceSpec cpu = new DeviceSpec("cpu", "GB10 CPU: 10 Cortex-X925 + 10 Cortex-A725 in two clusters",
                DeviceKind.CPU, memory, bandwidth, Map.of(), Map.of(), true,
                List.of("Caches: L2 2 MB per X925 and 512 KB per A725; L3 8 MB (cluster 0) and 16 MB (cluster 1); "
                                + "16 MB system-level cache (" + CNC_GB10 + "; per-core L2 and the L3 split also in "
                                + SPARK_PORTING_GUIDE + ").",
                        "DRAM load latency about 113 ns (" + CNC_GB10 + ")."));
        return new PlatformSpec("dgx-spark", "NVIDIA DGX Spark (GB10 Grace Blackwell)",
                List.of("spark", "gb10", "dgx spark", "nvidia dgx spark", "project digits", "digits"),
                List.of(gpu, cpu),
                List.of(new LinkSpec("cx7", LinkKind.NETWORK, "gpu", "network",
                                bytesPerSecond(25 * G, SPARK + "; ConnectX-7 at 200 Gb/s = 25 GB/s each way")),
                        new LinkSpec("c2c", LinkKind.C2C, "cpu", "gpu",
                                bytesPerSecond(300 * G, GB10_HOT_CHIPS + "; 600 GB/s both directions together"))));
    }

    static PlatformSpec gh200() {
        DeviceSpec gpu = new DeviceSpec("gpu", "H100-class Hopper GPU with 144 GB HBM3e", DeviceKind.GPU,
                bytes(144 * G, GH200 + "; the 2023 HBM3e announcement said 141 GB, the first SKU had 96 GB HBM3 "
                        + "at 4 TB/s"),
                bytesPerSecond(4.9 * T, GH200),
                hopperDense(GH200, 67, 67, 494, 990, 990, 1979, 1979),
                hopperSparse(GH200, 989, 1979, 1979, 3958, 3958),
                false,
                List.of("CPU and GPU memories are separate pools joined coherently over NVLink-C2C: offloading to the "
                        + "LPDDR5X adds capacity."));
        DeviceSpec cpu = new DeviceSpec("cpu", "Grace CPU, 72 Neoverse-V2 cores", DeviceKind.CPU,
                bytes(480 * G, GH200 + "; up to 480 GB LPDDR5X"),
                bytesPerSecond(512 * G, GH200 + "; up to 512 GB/s (as recorded in docs/reference/hardware.md)"),
                Map.of(), Map.of(), false, List.of());
        return new PlatformSpec("gh200", "NVIDIA GH200 Grace Hopper Superchip (144 GB HBM3e)",
                List.of("grace hopper", "gh200-hbm3e", "grace-hopper"),
                List.of(gpu, cpu),
                List.of(new LinkSpec("c2c", LinkKind.C2C, "cpu", "gpu",
                        bytesPerSecond(450 * G, GH200 + "; NVLink-C2C 900 GB/s both directions together"))));
    }

    static PlatformSpec h100Sxm() {
        DeviceSpec gpu = new DeviceSpec("gpu", "H100 SXM5 80GB", DeviceKind.GPU,
                bytes(80 * G, H100 + "; HBM3"), bytesPerSecond(3.35 * T, H100),
                hopperDense(H100, 67, 67, 494.5, 989.5, 989.5, 1979, 1979),
                hopperSparse(H100, 989, 1979, 1979, 3958, 3958),
                false, List.of());
        return new PlatformSpec("h100-sxm", "NVIDIA H100 SXM5 80GB", List.of("h100", "h100-sxm5", "h100 sxm"),
                List.of(gpu), hopperLinks(H100));
    }

    static PlatformSpec h200Sxm() {
        DeviceSpec gpu = new DeviceSpec("gpu", "H200 SXM 141GB", DeviceKind.GPU,
                bytes(141 * G, H200 + "; HBM3e"), bytesPerSecond(4.8 * T, H200),
                hopperDense(H200, 67, 67, 494.5, 989.5, 989.5, 1979, 1979),
                hopperSparse(H200, 989, 1979, 1979, 3958, 3958),
                false, List.of());
        return new PlatformSpec("h200-sxm", "NVIDIA H200 SXM 141GB", List.of("h200", "h200 sxm"),
                List.of(gpu), hopperLinks(H200));
    }

    static PlatformSpec a100Sxm80() {
        String dense = A100 + "; tensor figures printed with sparsity, dense = sparse / 2";
        Map<Precision, Figure> densePeaks = peaks(
                Precision.FP64, flopsPerSecond(19.5 * T, A100 + "; FP64 Tensor Core" + NOT_RECHECKED),
                Precision.FP32, flopsPerSecond(19.5 * T, A100 + NOT_RECHECKED),
                Precision.TF32, flopsPerSecond(156 * T, dense + NOT_RECHECKED),
                Precision.BF16, flopsPerSecond(312 * T, dense),
                Precision.FP16, flopsPerSecond(312 * T, dense),
                Precision.INT8, opsPerSecond(624 * T, dense));
        Map<Precision, Figure> sparsePeaks = peaks(
                Precision.TF32, flopsPerSecond(312 * T, A100 + NOT_RECHECKED),
                Precision.BF16, flopsPerSecond(624 * T, A100),
                Precision.FP16, flopsPerSecond(624 * T, A100),
                Precision.INT8, opsPerSecond(1248 * T, A100));
        DeviceSpec gpu = new DeviceSpec("gpu", "A100 SXM 80GB", DeviceKind.GPU,
                bytes(80 * G, A100 + "; HBM2e"), bytesPerSecond(2039 * G, A100),
                densePeaks, sparsePeaks, false, List.of("No FP8 or FP4 tensor cores."));
        return new PlatformSpec("a100-sxm-80gb", "NVIDIA A100 SXM 80GB", List.of("a100", "a100-80gb", "a100 sxm"),
                List.of(gpu),
                List.of(new LinkSpec("nvlink", LinkKind.NVLINK, "gpu", "gpu",
                                bytesPerSecond(300 * G, A100 + "; NVLink 600 GB/s both directions together" + NOT_RECHECKED)),
                        new LinkSpec("pcie", LinkKind.PCIE, "gpu", "host",
                                bytesPerSecond(32 * G, A100 + "; PCIe Gen4 64 GB/s both directions together" + NOT_RECHECKED))));
    }

    static PlatformSpec b200() {
        String dense = HGX_B200 + "; tensor figures printed with sparsity, dense = sparse / 2";
        Map<Precision, Figure> densePeaks = peaks(
                Precision.FP64, flopsPerSecond(37 * T, HGX_B200 + "; FP64/FP64 Tensor Core"),
                Precision.FP32, flopsPerSecond(75 * T, HGX_B200),
                Precision.TF32, flopsPerSecond(1.1 * P, dense),
                Precision.BF16, flopsPerSecond(2.25 * P, dense),
                Precision.FP16, flopsPerSecond(2.25 * P, dense),
                Precision.FP8, flopsPerSecond(4.5 * P, dense),
                Precision.FP4, flopsPerSecond(9 * P, dense),
                Precision.INT8, opsPerSecond(4.5 * P, dense));
        Map<Precision, Figure> sparsePeaks = peaks(
                Precision.TF32, flopsPerSecond(2.2 * P, HGX_B200),
                Precision.BF16, flopsPerSecond(4.5 * P, HGX_B200),
                Precision.FP16, flopsPerSecond(4.5 * P, HGX_B200),
                Precision.FP8, flopsPerSecond(9 * P, HGX_B200),
                Precision.FP4, flopsPerSecond(18 * P, HGX_B200),
                Precision.INT8, opsPerSecond(9 * P, HGX_B200));
        DeviceSpec gpu = new DeviceSpec("gpu", "B200 (HGX B200, 180 GB HBM3e)", DeviceKind.GPU,
                bytes(180 * G, HGX_B200 + "; early announcements said 192 GB"),
                bytesPerSecond(7.7 * T, HGX_B200 + "; early announcements said 8 TB/s"),
                densePeaks, sparsePeaks, false, List.of());
        return new PlatformSpec("b200", "NVIDIA B200 (HGX B200)", List.of("hgx-b200", "b200-sxm", "blackwell b200"),
                List.of(gpu),
                List.of(new LinkSpec("nvlink", LinkKind.NVLINK, "gpu", "gpu",
                                bytesPerSecond(900 * G, HGX_B200 + "; NVLink 5 1.8 TB/s both directions together")),
                        new LinkSpec("pcie", LinkKind.PCIE, "gpu", "host",
                                bytesPerSecond(64 * G, HGX_B200 + "; PCIe Gen5 128 GB/s both directions together"))));
    }

    /**
     * One Blackwell GPU of a GB200 Grace Blackwell Superchip, as NVL72 racks and DGX GB200 systems hold them: 72 GPUs
     * in one NVLink domain, four per compute tray with one ConnectX-7 each, two per Grace CPU over NVLink-C2C.
     */
    static PlatformSpec gb200() {
        String dense = GB200 + "; tensor figures printed with sparsity, dense = sparse / 2";
        Map<Precision, Figure> densePeaks = peaks(
                Precision.FP32, flopsPerSecond(80 * T, GB200),
                Precision.TF32, flopsPerSecond(1.25 * P, dense),
                Precision.BF16, flopsPerSecond(2.5 * P, dense),
                Precision.FP16, flopsPerSecond(2.5 * P, dense),
                Precision.FP8, flopsPerSecond(5 * P, dense),
                Precision.FP4, flopsPerSecond(10 * P, dense),
                Precision.INT8, opsPerSecond(5 * P, dense));
        Map<Precision, Figure> sparsePeaks = peaks(
                Precision.TF32, flopsPerSecond(2.5 * P, GB200),
                Precision.BF16, flopsPerSecond(5 * P, GB200),
                Precision.FP16, flopsPerSecond(5 * P, GB200),
                Precision.FP8, flopsPerSecond(10 * P, GB200),
                Precision.FP4, flopsPerSecond(20 * P, GB200),
                Precision.INT8, opsPerSecond(10 * P, GB200));
        DeviceSpec gpu = new DeviceSpec("gpu", "GB200 Blackwell GPU (186 GB HBM3e)", DeviceKind.GPU,
                bytes(186 * G, GB200 + "; up to 372 GB HBM3e per superchip (NVL72: 13.4 TB over 72 GPUs); MLPerf "
                        + "Training system descriptions list 189,471 MiB per GPU as the driver reports it"),
                bytesPerSecond(8 * T, GB200 + "; 16 TB/s per superchip (NVL72: 576 TB/s over 72 GPUs)"),
                densePeaks, sparsePeaks, false,
                List.of("72 GPUs share one NVLink domain in an NVL72 rack: give the GPUs a rack holds as "
                        + "--gpus-per-node (72, or fewer where a job fills racks partly)."));
        DeviceSpec cpu = new DeviceSpec("cpu", "Grace CPU, 72 Neoverse-V2 cores (one per two GB200 GPUs)", DeviceKind.CPU,
                bytes(480 * G, GB200 + "; up to 480 GB LPDDR5X per superchip, shared by its two GPUs"),
                bytesPerSecond(512 * G, GB200 + "; up to 512 GB/s per superchip, shared by its two GPUs"),
                Map.of(), Map.of(), false, List.of());
        return new PlatformSpec("gb200", "NVIDIA GB200 (one Blackwell GPU of a Grace Blackwell Superchip)",
                List.of("gb200-nvl72", "nvl72", "grace blackwell", "dgx-gb200", "gb200 nvl72"),
                List.of(gpu, cpu),
                List.of(new LinkSpec("nvlink", LinkKind.NVLINK, "gpu", "gpu",
                                bytesPerSecond(900 * G, GB200 + "; NVLink 5 1.8 TB/s per GPU both directions together, "
                                        + "to every GPU of the NVL72 domain through the NVLink switches")),
                        new LinkSpec("c2c", LinkKind.C2C, "cpu", "gpu",
                                bytesPerSecond(450 * G, GB200 + "; NVLink-C2C 900 GB/s both directions together, "
                                        + "per superchip: shared by its two GPUs"))));
    }

    static PlatformSpec rtx5090() {
        DeviceSpec gpu = new DeviceSpec("gpu", "GeForce RTX 5090 (32 GB GDDR7)", DeviceKind.GPU,
                bytes(32 * G, RTX_5090), bytesPerSecond(1792 * G, RTX_5090),
                Map.of(), Map.of(), false,
                List.of("No tensor peak is recorded: NVIDIA's GeForce figures (\"AI TOPS\") were not checked here; "
                        + "give one with --peak-flops."));
        return new PlatformSpec("rtx-5090", "NVIDIA GeForce RTX 5090", List.of("5090", "rtx5090", "geforce rtx 5090"),
                List.of(gpu),
                List.of(new LinkSpec("pcie", LinkKind.PCIE, "gpu", "host", bytesPerSecond(64 * G, PCIE5_X16))));
    }

    static PlatformSpec appleM4Max() {
        return unifiedSoc("apple-m4-max", "Apple M4 Max (16-core CPU, 40-core GPU)", List.of("m4 max", "m4-max"),
                bytes(128 * G, M4_MAX), bytesPerSecond(546 * G, M4_MAX), "Apple M4 Max GPU (40 cores)",
                "Apple M4 Max CPU (12 performance + 4 efficiency cores)");
    }

    static PlatformSpec appleM3Ultra() {
        return unifiedSoc("apple-m3-ultra", "Apple M3 Ultra", List.of("m3 ultra", "m3-ultra"),
                bytes(512 * G, M3_ULTRA), bytesPerSecond(819 * G, M3_ULTRA), "Apple M3 Ultra GPU (up to 80 cores)",
                "Apple M3 Ultra CPU (up to 24 performance + 8 efficiency cores)");
    }

    static PlatformSpec ryzenAiMax395() {
        return unifiedSoc("ryzen-ai-max-395", "AMD Ryzen AI Max+ 395 (Strix Halo)",
                List.of("strix halo", "ryzen ai max+ 395", "ai-max-395", "ryzen-ai-max+-395"),
                bytes(128 * G, RYZEN_AI_MAX), bytesPerSecond(256 * G, RYZEN_AI_MAX), "Radeon 8060S (40 CUs, RDNA 3.5)",
                "16 Zen 5 cores");
    }

    static PlatformSpec graceSuperchip() {
        DeviceSpec cpu = new DeviceSpec("cpu", "Grace CPU Superchip, 2 x 72 Neoverse-V2 cores", DeviceKind.CPU,
                bytes(960 * G, GRACE + "; up to 960 GB LPDDR5X"),
                bytesPerSecond(1 * T, GRACE + "; up to 1 TB/s"),
                Map.of(), Map.of(), false,
                List.of("Measured STREAM triad 820-972 GB/s with 144 threads (NVIDIA Grace CPU Benchmarking Guide, "
                        + "as recorded in docs/reference/hardware.md)."));
        return new PlatformSpec("grace-superchip", "NVIDIA Grace CPU Superchip",
                List.of("grace", "grace cpu superchip", "grace-cpu"),
                List.of(cpu),
                List.of(new LinkSpec("c2c", LinkKind.C2C, "cpu", "cpu",
                        bytesPerSecond(450 * G, GRACE + "; NVLink-C2C 900 GB/s both directions together, "
                                + "unverified here"))));
    }

    // ---- helpers -----------------------------------------------------------------------------------

    /** An Apple or AMD system-on-chip: one memory for CPU and GPU, no published tensor peaks checked here. */
    private static PlatformSpec unifiedSoc(String id, String name, List<String> aliases, Figure memory,
                                           Figure bandwidth, String gpuName, String cpuName) {
        List<String> note = List.of("Maximum memory configuration; smaller configurations exist. No peak FLOP/s "
                + "recorded: give one with --peak-flops.");
        return new PlatformSpec(id, name, aliases,
                List.of(new DeviceSpec("gpu", gpuName, DeviceKind.GPU, memory, bandwidth, Map.of(), Map.of(), true,
                                note),
                        new DeviceSpec("cpu", cpuName, DeviceKind.CPU, memory, bandwidth, Map.of(), Map.of(), true,
                                note)),
                List.of());
    }

    /** Hopper-class dense peaks in TFLOPS; tensor figures are the datasheet's sparse ones halved. */
    private static Map<Precision, Figure> hopperDense(String source, double fp64Tensor, double fp32, double tf32,
                                                      double bf16, double fp16, double fp8, double int8) {
        String dense = source + "; tensor figures printed with sparsity, dense = sparse / 2";
        return peaks(
                Precision.FP64, flopsPerSecond(fp64Tensor * T, source + "; FP64 Tensor Core" + NOT_RECHECKED),
                Precision.FP32, flopsPerSecond(fp32 * T, source + NOT_RECHECKED),
                Precision.TF32, flopsPerSecond(tf32 * T, dense + NOT_RECHECKED),
                Precision.BF16, flopsPerSecond(bf16 * T, dense),
                Precision.FP16, flopsPerSecond(fp16 * T, dense),
                Precision.FP8, flopsPerSecond(fp8 * T, dense),
                Precision.INT8, opsPerSecond(int8 * T, dense));
    }

    private static Map<Precision, Figure> hopperSparse(String source, double tf32, double bf16, double fp16,
                                                       double fp8, double int8) {
        String sparse = source + "; with sparsity";
        return peaks(
                Precision.TF32, flopsPerSecond(tf32 * T, sparse + NOT_RECHECKED),
                Precision.BF16, flopsPerSecond(bf16 * T, sparse),
                Precision.FP16, flopsPerSecond(fp16 * T, sparse),
                Precision.FP8, flopsPerSecond(fp8 * T, sparse),
                Precision.INT8, opsPerSecond(int8 * T, sparse));
    }

    private static List<LinkSpec> hopperLinks(String source) {
        return List.of(
                new LinkSpec("nvlink", LinkKind.NVLINK, "gpu", "gpu",
                        bytesPerSecond(450 * G, source + "; NVLink 900 GB/s both directions together")),
                new LinkSpec("pcie", LinkKind.PCIE, "gpu", "host",
                        bytesPerSecond(64 * G, source + "; PCIe Gen5 128 GB/s both directions together")));
    }

    private static Map<Precision, Figure> peaks(Object... precisionAndFigure) {
        Map<Precision, Figure> peaks = new EnumMap<>(Precision.class);
        for (int i = 0; i < precisionAndFigure.length; i += 2) {
            peaks.put((Precision) precisionAndFigure[i], (Figure) precisionAndFigure[i + 1]);
        }
        return peaks;
    }
}
