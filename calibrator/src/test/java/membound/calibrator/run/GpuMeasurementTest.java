package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import membound.benchmarks.gpu.ComputeCapability;
import membound.benchmarks.gpu.GpuCopyResult;
import membound.benchmarks.gpu.GpuGemmResult;
import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.gpu.GpuProperties;
import membound.benchmarks.gpu.GpuRun;
import membound.benchmarks.gpu.GpuSharingResult;
import membound.benchmarks.gpu.GpuStreamResult;
import membound.benchmarks.gpu.GpuUnavailableException;
import membound.benchmarks.results.PassTimes;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.calibrator.Fixtures;
import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.SystemFiles;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Quality;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.LinkKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.Units;

/**
 * What calibrate makes of the GPU suite: the one line and the flag where it cannot run, an error with
 * {@code --gpu required}, and the profile's gpu device from a run. The run here is built from the suite's own
 * records with pass times chosen for the test (no GPU in CI); the real suite's error paths are tested against the
 * driver library in the gpu-suite module.
 */
class GpuMeasurementTest {

    private static final String NO_DEVICE =
            "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected";
    private static final GpuMeasurement.Suite NO_GPU = plan -> {
        throw new GpuUnavailableException(NO_DEVICE, "CUDA_ERROR_NO_DEVICE");
    };

    @Test
    void withoutAGpuOneLineSaysWhyAndTheCpuSuiteGoesOn() {
        StringWriter progress = new StringWriter();
        GpuMeasurement.Outcome outcome = GpuMeasurement.attempt(GpuPolicy.AUTO, GpuPlan.smokePlan(),
                new PrintWriter(progress), NO_GPU);
        assertTrue(outcome.run().isEmpty());
        assertEquals(NO_DEVICE, outcome.notMeasuredReason());
        assertEquals("gpu: not measured, the CPU suite runs alone: " + NO_DEVICE + System.lineSeparator(),
                progress.toString());
    }

    @Test
    void aRequiredGpuThatCannotBeMeasuredIsBadInput() {
        BadInputException e = assertThrows(BadInputException.class, () -> GpuMeasurement.attempt(GpuPolicy.REQUIRED,
                GpuPlan.smokePlan(), new PrintWriter(new StringWriter()), NO_GPU));
        assertEquals("--gpu required, but the GPU cannot be measured: " + NO_DEVICE, e.getMessage());
    }

    @Test
    void offDoesNotTouchTheDriver() {
        GpuMeasurement.Outcome outcome = GpuMeasurement.attempt(GpuPolicy.OFF, GpuPlan.smokePlan(),
                new PrintWriter(new StringWriter()), plan -> {
                    throw new AssertionError("the suite must not run with --gpu off");
                });
        assertEquals("not attempted: --gpu off", outcome.notMeasuredReason());
    }

    @Test
    void anUnknownPolicyNamesTheChoices() {
        BadInputException e = assertThrows(BadInputException.class, () -> GpuPolicy.of("maybe"));
        assertEquals("--gpu must be one of auto, required, off: --gpu=maybe", e.getMessage());
    }

    @Test
    void aProfileWithoutTheGpuIsFlaggedWithTheReason() {
        Profile profile = builder().build(List.of(), LoadReport.unmonitored(0), List.of(),
                GpuMeasurement.Outcome.notMeasured(NO_DEVICE));
        Quality.Flag flag = profile.quality().flags().stream()
                .filter(f -> f.code().equals(GpuMeasurement.NOT_MEASURED)).findFirst().orElseThrow();
        assertEquals(NO_DEVICE, flag.message());
        Device gpu = profile.device(ProfileBuilder.GPU).orElseThrow();
        assertTrue(gpu.levels().isEmpty() && gpu.bandwidth().isEmpty(), "the catalog's GPU, with nothing measured");
    }

    @Test
    void aMeasuredGpuBecomesTheGpuDeviceWithCeilingsLinksAndProvenance() {
        GpuRun run = run();
        Profile written = builder().build(List.of(), LoadReport.unmonitored(0), List.of(),
                GpuMeasurement.Outcome.measured(run));
        Profile profile = ProfileJson.read(ProfileJson.toJson(written), "test");
        assertTrue(profile.quality().flags().stream().noneMatch(f -> f.code().equals(GpuMeasurement.NOT_MEASURED)));
        Device gpu = profile.device(ProfileBuilder.GPU).orElseThrow();
        assertEquals(DeviceKind.GPU, gpu.kind());
        assertEquals("NVIDIA GB10", gpu.name());
        assertEquals(List.of(ProfileBuilder.CPU), gpu.unifiedMemoryWith(), "GB10 shares the host's memory");
        assertEquals(List.of(ProfileBuilder.GPU), profile.device(ProfileBuilder.CPU).orElseThrow().unifiedMemoryWith());

        BandwidthEntry triad = gpu.bandwidthEntry("gpu-triad-double-dram").orElseThrow();
        double bytesPerPass = 3.0 * Units.GIB;
        assertEquals(bytesPerPass / 13.5e-3, triad.streamBytesPerSecond().median(), bytesPerPass / 13.5e-3 * 1e-3,
                "STREAM bytes over the median pass");
        assertEquals(3, triad.streamBytesPerSecond().samples(), "every pass kept");
        assertEquals("12.1", triad.provenance().settings().get("gpu.computeCapability"));
        assertEquals("13.0", triad.provenance().settings().get("gpu.driverCudaVersion"));

        LevelCeiling dram = gpu.ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD).orElseThrow();
        assertEquals("gpu-triad-double-dram", dram.bandwidthId(), "doubles, as on the CPU");
        assertTrue(gpu.ceiling(MemoryLevel.L2, AccessPattern.TRIAD).isPresent());

        Link h2d = profile.link("gpu-h2d").orElseThrow();
        assertEquals(ProfileBuilder.CPU, h2d.from());
        assertEquals(ProfileBuilder.GPU, h2d.to());
        assertEquals(LinkKind.C2C, h2d.kind(), "the catalog's link kind for a DGX Spark");
        assertEquals(256.0 * Units.MIB / 5e-3, h2d.bandwidthBytesPerSecond().median(), 256.0 * Units.MIB / 5e-3 * 1e-3);
        assertEquals(ProfileBuilder.CPU, profile.link("gpu-d2h").orElseThrow().to());
    }

    private static GpuRun run() {
        GpuProperties gb10 = new GpuProperties("NVIDIA GB10", new ComputeCapability(12, 1), 48, 1536, 24 * Units.MIB, 128_000_000_000L, 256,
                4_266_000, 2_418_000, true, true, true, true, true, 13000);
        GpuPlan plan = GpuPlan.of(false, 3);
        GpuPlan.WorkingSetSize dram = new GpuPlan.WorkingSetSize("DRAM", Units.GIB, MemoryLevel.DRAM);
        GpuPlan.WorkingSetSize l2 = new GpuPlan.WorkingSetSize("L2", 4 * Units.MIB, MemoryLevel.L2);
        long elements = Units.GIB / Double.BYTES;
        return new GpuRun(gb10, plan, List.of(
                new GpuStreamResult(StreamKernel.TRIAD, ElementType.DOUBLE, dram, elements, 288, 256, 1,
                        PassTimes.ofNanos(13_400_000, 13_500_000, 13_700_000)),
                new GpuStreamResult(StreamKernel.TRIAD, ElementType.FLOAT, dram, 2 * elements, 288, 256, 1,
                        PassTimes.ofNanos(13_300_000, 13_400_000, 13_600_000)),
                new GpuStreamResult(StreamKernel.TRIAD, ElementType.DOUBLE, l2, l2.arrayBytes() / Double.BYTES, 288,
                        256, 64, PassTimes.ofNanos(40_000, 41_000, 42_000)),
                new GpuStreamResult(StreamKernel.TRIAD, ElementType.DOUBLE, new GpuPlan.WorkingSetSize("host-pageable",
                        Units.GIB, MemoryLevel.DRAM), elements, 288, 256, 1, PassTimes.ofNanos(12_000_000))),
                PassTimes.ofNanos(6_000, 6_100, 6_500), PassTimes.ofNanos(2_400, 2_500, 2_600),
                List.of(new GpuCopyResult(true, 256 * Units.MIB, PassTimes.ofNanos(4_900_000, 5_000_000, 5_100_000)),
                        new GpuCopyResult(false, 256 * Units.MIB, PassTimes.ofNanos(5_000_000, 5_100_000, 5_300_000))),
                List.of(new GpuGemmResult(Precision.BF16, new ProductShape(8192, 8192, 8192, ProductShape.Layout.NN),
                                true, 1, 4 * Units.MIB, PassTimes.ofNanos(11_000_000, 11_900_000, 12_500_000)),
                        new GpuGemmResult(Precision.BF16, ProductShape.parse("16x256x64x256:nt"), false, 200, 0,
                                PassTimes.ofNanos(20_000, 21_000, 22_000))),
                "libcublasLt.so.13 13.0.0", SHARING, List.of(NO_FP4));
    }

    /** A GB10-like sharing curve: the GPU's Triad alone, with 10 and 20 CPU threads streaming, and the CPU's. */
    static final List<GpuSharingResult> SHARING = List.of(
            new GpuSharingResult("gpu", 0, false, StreamKernel.TRIAD, 3.0 * Units.GIB, PassTimes.ofNanos(13_500_000)),
            new GpuSharingResult("gpu", 10, false, StreamKernel.TRIAD, 3.0 * Units.GIB, PassTimes.ofNanos(16_000_000)),
            new GpuSharingResult("gpu", 20, false, StreamKernel.TRIAD, 3.0 * Units.GIB, PassTimes.ofNanos(19_000_000)),
            new GpuSharingResult("cpu", 20, true, StreamKernel.TRIAD, 20 * 4 * 3 * 32.0 * Units.MIB,
                    PassTimes.ofNanos(180_000_000, 190_000_000)));

    @Test
    void theSharingCurveIsTheGpuDevicesAndMemoryTheCpuAllocatedIsNoCeiling() {
        Profile profile = ProfileJson.read(ProfileJson.toJson(builder().build(List.of(), LoadReport.unmonitored(0),
                List.of(), GpuMeasurement.Outcome.measured(run()))), "test");
        Device gpu = profile.device(ProfileBuilder.GPU).orElseThrow();
        assertEquals(4, gpu.sharing().size());
        membound.profile.SharingEntry busy = gpu.sharing().get(2);
        assertEquals("gpu", busy.measured());
        assertEquals(20, busy.cpuThreadsStreaming());
        assertEquals(3.0 * Units.GIB / 19e-3, busy.streamBytesPerSecond().median(), 3.0 * Units.GIB / 19e-3 * 1e-3);
        membound.profile.SharingEntry cpu = gpu.sharing().get(3);
        assertTrue(cpu.gpuStreaming() && cpu.measured().equals("cpu"));
        assertTrue(cpu.provenance().kernel().contains("while the GPU streams"), cpu.provenance().kernel());
        BandwidthEntry host = gpu.bandwidthEntry("gpu-triad-double-host-pageable").orElseThrow();
        assertEquals(membound.vocabulary.Implementation.PTX_HOST_MEMORY, host.implementation());
        assertEquals("gpu-triad-double-dram", gpu.ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD).orElseThrow()
                .bandwidthId(), "the device memory's ceiling, though CPU-allocated memory was faster here");
    }

    static final String NO_FP4 = "gpu fp4 GEMM not measured: compute capability 9.0 has no fp4 tensor-core GEMM "
            + "(it needs 10.0)";

    @Test
    void theGemmsBecomeComputeAndProductEntriesWithTheLibraryInTheirProvenance() {
        Profile profile = ProfileJson.read(ProfileJson.toJson(builder().build(List.of(), LoadReport.unmonitored(0),
                List.of(), GpuMeasurement.Outcome.measured(run()))), "test");
        Device gpu = profile.device(ProfileBuilder.GPU).orElseThrow();
        ComputeEntry gemm = gpu.measuredComputeCeiling(Precision.BF16, ComputeEntry.Kind.GEMM).orElseThrow();
        assertEquals("gpu-gemm-bf16-n8192", gemm.id());
        assertEquals(8192L, gemm.matrixSize());
        double flops = 2.0 * 8192 * 8192 * 8192;
        assertEquals(flops / 11.9e-3, gemm.flopsPerSecond().median(), flops / 11.9e-3 * 1e-3, "FLOPs over the median");
        assertEquals("libcublasLt.so.13 13.0.0", gemm.provenance().settings().get("gpu.cublasLt"));
        ComputeEntry product = gpu.compute().stream().filter(c -> c.kind() == ComputeEntry.Kind.PRODUCT)
                .findFirst().orElseThrow();
        assertEquals(ProductShape.parse("16x256x64x256:nt"), product.shape());
        assertEquals("gpu-product-bf16-16x256x64x256-nt", product.id());
        assertEquals("200", product.provenance().settings().get("gpu.gemm.callsPerSample"));
    }

    @Test
    void theLaunchFiguresBelongToTheGpuDevice() {
        Profile profile = ProfileJson.read(ProfileJson.toJson(builder().build(List.of(), LoadReport.unmonitored(0),
                List.of(), GpuMeasurement.Outcome.measured(run()))), "test");
        Device gpu = profile.device(ProfileBuilder.GPU).orElseThrow();
        assertEquals(6_100, gpu.launch().launchSyncNanos().p50(), 6_100 * 1e-3);
        assertEquals(2_500, gpu.launch().launchIntervalNanos().p50(), 2_500 * 1e-3);
        assertEquals(3, gpu.launch().launchIntervalNanos().samples());
        assertEquals("1000", gpu.launch().provenance().settings().get("gpu.launches"));
        assertEquals(null, profile.device(ProfileBuilder.CPU).orElseThrow().launch(), "a CPU launches nothing");
    }

    @Test
    void whatTheSuiteDidNotMeasureIsOneLineEachAndTheGemmIsInTheSummary() {
        StringWriter out = new StringWriter();
        GpuMeasurement.attempt(GpuPolicy.AUTO, GpuPlan.of(false, 3), new PrintWriter(out), plan -> run());
        String printed = out.toString();
        assertTrue(printed.contains("bf16 GEMM 8192^3 " + String.format(java.util.Locale.ROOT, "%.1f",
                2.0 * 8192 * 8192 * 8192 / 11.9e-3 / 1e12) + " TFLOP/s (libcublasLt.so.13 13.0.0)"), printed);
        assertTrue(printed.contains("\n" + NO_FP4 + "\n"), printed);
        assertEquals(1, printed.split(", DRAM triad ", -1).length - 1, "the device memory's Triad only: " + printed);
    }

    private static ProfileBuilder builder() {
        Host host = HostDetector.detect(SystemFiles.fixture(
                Fixtures.repositoryRoot().resolve("hardware/src/test/resources/hosts").resolve("dgx-spark")));
        Optional<PlatformSpec> spark = Catalog.builtIn().find("dgx-spark");
        return new ProfileBuilder(host, CacheSizes.of(host), spark,
                new ProfileBuilder.NominalBandwidth(null, null, "not needed by this test"), Map.of("mode", "quick"),
                "membound calibrate --quick (test)", Instant.parse("2026-12-01T00:00:00Z"), "test");
    }
}
