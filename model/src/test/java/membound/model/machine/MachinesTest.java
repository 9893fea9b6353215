package membound.model.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

class MachinesTest {

    static final Path EXAMPLE_PROFILE = Path.of("..", "results", "profiles", "examples", "dgx-spark-example.json");

    @Test
    void shouldSeeTheDgxSparkAsOneUnifiedMemoryWithMeasuredCeilingsBesideTheDatasheet() {
        Machine spark = Machines.datasheet("spark");
        Device gpu = spark.device();
        assertTrue(gpu.unifiedMemory());
        assertEquals(119_700_000_000L, gpu.capacityBytes(), "what CUDA reports, not the 128 GB on the box");
        Ceiling read = gpu.mainMemory().ceiling(AccessPattern.READ);
        assertEquals(273e9, read.value(Basis.DATASHEET));
        assertEquals(232.5e9, read.value(Basis.MEASURED));
        ComputeCeiling bf16 = gpu.compute().get(Precision.BF16);
        assertEquals(92.3e12, bf16.attainableGemm().value(Basis.MEASURED));
        assertEquals(125e12, bf16.peakDense().value(Basis.DATASHEET));
        assertTrue(bf16.peakDense().source(Basis.DATASHEET).contains("derived"));
        assertNotNull(spark.link(Link.Kind.NETWORK), "ConnectX-7 to a second Spark");
    }

    @Test
    void shouldGiveAnH100ItsNvlinkAsPeerLinkAndTheMeasuredMatmulRate() {
        Machine h100 = Machines.datasheet("h100");
        assertEquals(450e9, h100.link(Link.Kind.PEER).bandwidth().value(Basis.DATASHEET));
        assertEquals(794.5e12, h100.device().compute().get(Precision.BF16).attainableGemm().value(Basis.MEASURED));
        assertEquals(989.5e12 * 0.78, h100.device().compute().get(Precision.BF16).attainableGemm().value(Basis.DATASHEET), 1e3);
        assertFalse(h100.device().unifiedMemory());
        assertNull(h100.host(), "the catalog describes no host CPU for a GPU board");
    }

    @Test
    void shouldGiveTheGh200ItsGraceMemoryAsHost() {
        Machine gh200 = Machines.datasheet("gh200");
        assertNotNull(gh200.host());
        assertEquals(512e9, gh200.host().mainMemory().ceiling(AccessPattern.TRIAD).value(Basis.DATASHEET));
        assertEquals(450e9, gh200.link(Link.Kind.HOST).bandwidth().value(Basis.DATASHEET));
    }

    @Test
    void shouldAskForAPeakWhereTheCatalogHasNone() {
        BadInputException e = assertThrows(BadInputException.class, () -> Machines.datasheet("rtx-5090"));
        assertTrue(e.getMessage().contains("--peak-flops rtx-5090:bf16="), e.getMessage());
        Machine given = Machines.datasheet("rtx-5090", Overrides.parse(List.of(), List.of("rtx-5090:bf16=209T")));
        assertEquals(209e12, given.device().compute().get(Precision.BF16).attainableGemm().value(Basis.MEASURED));
    }

    @Test
    void shouldApplyWhatIfBandwidthKeepingThePatternRatios() {
        Machine profile = Machines.profile(EXAMPLE_PROFILE, "cpu", Overrides.NONE);
        Machine faster = Machines.profile(EXAMPLE_PROFILE, "cpu", Overrides.parse(List.of("200GB/s"), List.of()));
        MemoryTier before = profile.device().mainMemory();
        MemoryTier after = faster.device().mainMemory();
        assertEquals(200e9, after.ceiling(AccessPattern.READ).value(Basis.MEASURED), 1);
        assertEquals(before.ceiling(AccessPattern.TRIAD).value(Basis.MEASURED) / before.ceiling(AccessPattern.READ).value(Basis.MEASURED),
                after.ceiling(AccessPattern.TRIAD).value(Basis.MEASURED) / 200e9, 1e-12);
    }

    @Test
    void shouldSuggestCloseCatalogNames() {
        BadInputException e = assertThrows(BadInputException.class, () -> Machines.datasheet("h1000"));
        assertTrue(e.getMessage().contains("h100"), e.getMessage());
    }

    @Test
    void shouldTrainOnTheProfilesGpuWithItsCpuAsHost() {
        Machine m = Machines.profile(EXAMPLE_PROFILE, null, Overrides.NONE);
        assertEquals(DeviceKind.GPU, m.device().kind());
        assertEquals(232e9, m.device().mainMemory().ceiling(AccessPattern.READ).value(Basis.MEASURED));
        assertEquals(273e9, m.device().mainMemory().ceiling(AccessPattern.READ).value(Basis.DATASHEET));
        assertEquals(92.3e12, m.device().compute().get(Precision.BF16).attainableGemm().value(Basis.MEASURED));
        assertEquals(DeviceKind.CPU, m.host().kind());
        assertEquals(22.5e9, m.link(Link.Kind.NETWORK).bandwidth().value(Basis.MEASURED), "the imported spark-pair link");
    }

    @Test
    void shouldReadCacheTiersAndTheTenantsCurveOfTheProfilesCpu() {
        Machine cpu = Machines.profile(EXAMPLE_PROFILE, "cpu", Overrides.NONE);
        List<String> tiers = cpu.device().tiers().stream().map(MemoryTier::name).toList();
        assertEquals(List.of("L1", "L2", "L3", "DRAM"), tiers);
        assertNotNull(cpu.tenants());
        assertEquals(57.0 / 108.0, cpu.tenants().share(2), 1e-12);
        assertEquals(1.608e12, cpu.device().compute().get(Precision.FP32).peakDense().value(Basis.MEASURED));
        assertEquals(1.076e12, cpu.device().compute().get(Precision.FP32).attainableGemm().value(Basis.MEASURED));
    }

    @Test
    void shouldRejectAnUnknownProfileDevice() {
        BadInputException e = assertThrows(BadInputException.class, () -> Machines.profile(EXAMPLE_PROFILE, "npu", Overrides.NONE));
        assertTrue(e.getMessage().startsWith("device must be one of the profile's devices (cpu, gpu): device=npu"), e.getMessage());
    }

    private static void assertFalse(boolean condition) {
        assertTrue(!condition);
    }

    @Test
    void shouldDerateTheFmaPeakAndSaySoWhereTheProfileMeasuredNoGemm() {
        membound.profile.Profile example = membound.profile.ProfileJson.read(EXAMPLE_PROFILE);
        Machine measured = Machines.fromProfile(example, "example", "cpu", Overrides.NONE);
        ComputeCeiling withGemm = measured.device().computeFor(Precision.FP32);
        assertTrue(withGemm.attainableGemm().measuredSource().contains("GEMM n="), withGemm.attainableGemm().measuredSource());

        // The calibrator's rule stores a GEMM ceiling at a fraction of the FMA peak where no GEMM was measured; the
        // model reads it as it is, and says so.
        membound.profile.Device cpu = example.device("cpu").orElseThrow();
        List<membound.profile.ComputeEntry> noGemms = cpu.compute().stream()
                .filter(c -> c.kind() != membound.profile.ComputeEntry.Kind.GEMM).toList();
        membound.profile.ComputeEntry fma = noGemms.stream().filter(c -> c.kind()
                == membound.profile.ComputeEntry.Kind.FMA_PEAK && c.precision() == Precision.FP32).findFirst().orElseThrow();
        List<membound.profile.FlopCeiling> stored = List.of(membound.profile.FlopCeiling.of(fma),
                membound.profile.FlopCeiling.fractionOf(fma, membound.profile.ComputeEntry.Kind.GEMM, 0.514,
                        "no GEMM measured: 0.514 x the measured FMA peak, the median GEMM/FMA ratio of 29 fit rows"));
        Machine noGemm = Machines.fromProfile(example.withDevice(cpu.withComputeCeilings(stored).withCompute(noGemms)),
                "example", "cpu", Overrides.NONE);
        ComputeCeiling derated = noGemm.device().computeFor(Precision.FP32);
        assertEquals(0.514 * derated.peakDense().measured(), derated.attainableGemm().measured(), 1e-3,
                "a GEMM at the fitted fraction of the FMA peak, never at the peak itself");
        assertTrue(derated.attainableGemm().measuredSource().startsWith("no GEMM measured: 0.514 x the measured FMA peak"),
                derated.attainableGemm().measuredSource());
        assertTrue(noGemm.notes().stream().anyMatch(n -> n.contains("no GEMM measured") && n.contains("calibrate --quick")),
                noGemm.notes().toString());
    }

    @Test
    void shouldSayTheDatasheetIsUnknownWhereAMachineHasNoDatasheetFigures() {
        membound.profile.Profile example = membound.profile.ProfileJson.read(EXAMPLE_PROFILE);
        Machine spark = Machines.fromProfile(example, "example", null, Overrides.NONE);
        assertEquals(java.util.Optional.empty(), spark.datasheetUnknown(Precision.BF16));
        membound.profile.Profile noDatasheet = new membound.profile.Profile(example.host(),
                membound.profile.Nominal.unknown("no platform recognised", "cpu", "gpu"), example.devices(),
                example.links(), example.efficiency(), example.quality(), example.provenance());
        Machine bare = Machines.fromProfile(noDatasheet, "example", "cpu", Overrides.NONE);
        assertEquals("no datasheet main-memory bandwidth or fp32 peak for " + bare.device().name() + " (" + bare.id()
                + "): the datasheet column is unknown", bare.datasheetUnknown(Precision.BF16).orElseThrow());
    }

    @Test
    void shouldWriteAtTheFillKernelsRateAndFallBackToCopyWithoutOne() {
        membound.profile.Profile example = membound.profile.ProfileJson.read(EXAMPLE_PROFILE);
        Machine withoutFill = Machines.fromProfile(example, "example", "cpu", Overrides.NONE);
        assertEquals(104.5e9, withoutFill.device().mainMemory().ceiling(AccessPattern.WRITE).value(Basis.MEASURED),
                "no fill measured: the copy figure stands in");

        membound.profile.Device cpu = example.device("cpu").orElseThrow();
        // A measured Fill in place of the write ceiling the copy's figure stood in for.
        List<membound.profile.LevelCeiling> levels = new java.util.ArrayList<>(cpu.levels().stream()
                .filter(l -> !(l.level() == membound.vocabulary.MemoryLevel.DRAM && l.access() == AccessPattern.WRITE))
                .toList());
        membound.profile.LevelCeiling triad = cpu.ceiling(membound.vocabulary.MemoryLevel.DRAM, AccessPattern.TRIAD)
                .orElseThrow();
        levels.add(new membound.profile.LevelCeiling(membound.vocabulary.MemoryLevel.DRAM, membound.vocabulary.AccessPattern.WRITE,
                81e9, triad.statistic(), null, triad.provenance()));
        Machine withFill = Machines.fromProfile(example.withDevice(cpu.withLevels(levels)), "example", "cpu",
                Overrides.NONE);
        assertEquals(81e9, withFill.device().mainMemory().ceiling(AccessPattern.WRITE).value(Basis.MEASURED));
        assertEquals(112e9, withFill.device().mainMemory().ceiling(AccessPattern.TRIAD).value(Basis.MEASURED));
    }

    @Test
    void shouldLeaveOutACacheLevelThatMeasuredNoFasterThanMainMemory() {
        membound.profile.Profile example = membound.profile.ProfileJson.read(EXAMPLE_PROFILE);
        membound.profile.Device cpu = example.device("cpu").orElseThrow();
        // As on a VM whose CPUID reports a socket's L3: the "L3" working set ran from DRAM (112 GB/s triad there).
        List<membound.profile.LevelCeiling> levels = cpu.levels().stream()
                .filter(l -> l.level() != membound.vocabulary.MemoryLevel.L3 || !l.standsIn())
                .map(l -> l.level() == membound.vocabulary.MemoryLevel.L3 ? new membound.profile.LevelCeiling(l.level(),
                        l.access(), 118e9, l.statistic(), l.bandwidthId(), l.provenance()) : l)
                .toList();
        Machine machine = Machines.fromProfile(example.withDevice(cpu.withLevels(levels)), "example", "cpu",
                Overrides.NONE);
        assertEquals(List.of("L1", "L2", "DRAM"), machine.device().tiers().stream().map(MemoryTier::name).toList());
        assertTrue(machine.notes().stream().anyMatch(n -> n.startsWith("L3 left out: its measured triad 118.0 GB/s is "
                + "not above DRAM's 112.0 GB/s")), machine.notes().toString());

        // 10% faster than DRAM is still within what noise makes of the same memory; 25% faster is a cache.
        List<membound.profile.LevelCeiling> faster = cpu.levels().stream()
                .filter(l -> l.level() != membound.vocabulary.MemoryLevel.L3 || !l.standsIn())
                .map(l -> l.level() == membound.vocabulary.MemoryLevel.L3 ? new membound.profile.LevelCeiling(l.level(),
                        l.access(), 140e9, l.statistic(), l.bandwidthId(), l.provenance()) : l)
                .toList();
        Machine kept = Machines.fromProfile(example.withDevice(cpu.withLevels(faster)), "example", "cpu",
                Overrides.NONE);
        assertEquals(List.of("L1", "L2", "L3", "DRAM"), kept.device().tiers().stream().map(MemoryTier::name).toList());
    }

    @Test
    void shouldUpdateInPlaceAtTheCopyKernelsRateInHardwareBytesWhereTheProfileHasIt() {
        Machine cpu = Machines.profile(EXAMPLE_PROFILE, "cpu", Overrides.NONE);
        MemoryTier dram = cpu.device().mainMemory();
        // The example's CPU copy: 104.5 GB/s in STREAM bytes, 156.75 GB/s with the write-allocate read.
        assertEquals(104.5e9, dram.ceiling(AccessPattern.COPY).value(Basis.MEASURED));
        assertEquals(156.75e9, dram.ceiling(AccessPattern.UPDATE).value(Basis.MEASURED));
        assertTrue(dram.ceiling(AccessPattern.UPDATE).source(Basis.MEASURED).contains("hardware bytes"));
        assertEquals(273e9, dram.ceiling(AccessPattern.UPDATE).value(Basis.DATASHEET), "the nominal figure for every pattern");

        // Imported GPU figures have no hardware bytes (a GPU does not allocate on write): copy as it is.
        Machine gpu = Machines.profile(EXAMPLE_PROFILE, "gpu", Overrides.NONE);
        assertEquals(226e9, gpu.device().mainMemory().ceiling(AccessPattern.UPDATE).value(Basis.MEASURED));
    }
}
