package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.calibrator.store.ProfileStore;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.TenantEntry;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * A real calibration, in-process and with tiny working sets: the path from JMH results to a stored profile,
 * not a measurement.
 */
class CalibratorTest {

    @TempDir
    Path profiles;

    private Calibrator.Outcome calibrate(Optional<String> platform, Optional<String> nominal, StringWriter progress) {
        // In-process (forks 0): nothing can confine it to one core type, so all cpus only, whatever this host is.
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.QUICK, new ProfileStore(profiles))
                .platform(platform.orElse(null)).nominalBandwidth(nominal.orElse(null))
                .commandLine("membound calibrate --quick (test)").memboundVersion("test").coreTypes(false).build();
        return Calibrator.run(request, new PrintWriter(progress, true), cpus -> List.of(
                SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD", "COPY", "SUM")
                        .with("workingSet", "256KiB", "L1").with("threads", "1", "2")
                        .with("elementType", "double").with("implementation", "vector"),
                SuiteRequest.of(SuiteBenchmark.LATENCY).with("workingSet", "16KiB"),
                SuiteRequest.of(SuiteBenchmark.FMA).with("elementType", "double", "float").with("threads", "1"),
                SuiteRequest.of(SuiteBenchmark.GEMM).with("elementType", "float").with("n", "64").with("threads", "2"),
                SuiteRequest.of(SuiteBenchmark.PRODUCT).with("products", "32x32x32:nn+2x16x16x16:tn").with("threads", "2"),
                SuiteRequest.of(SuiteBenchmark.ELEMENTWISE).with("operation", "softmax", "gelu").with("row", "128")
                        .with("threads", "2")),
                new OptionsBuilder().forks(0).warmupIterations(0).measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(20)).shouldFailOnError(true).build());
    }

    @Test
    void shouldStoreAProfileWithDistributionsCeilingsAndTheRawJmhResultsBesideIt() throws Exception {
        StringWriter progress = new StringWriter();
        Calibrator.Outcome outcome = calibrate(Optional.empty(), Optional.of("273GB/s"), progress);

        Profile profile = outcome.profile();
        assertEquals(profile, ProfileJson.read(outcome.profileFile()), "what was returned is what was written");
        assertNotNull(profile.provenance().rawResultFile());
        Path raw = outcome.profileFile().resolveSibling(profile.provenance().rawResultFile());
        assertTrue(Files.readString(raw).contains("StreamBenchmark.pass"));

        Device cpu = profile.device("cpu").orElseThrow();
        assertEquals(3 * 2 * 2, cpu.bandwidth().size());
        assertTrue(cpu.bandwidth().stream().allMatch(b -> b.streamBytesPerSecond().median() != null
                && b.hardwareBytesPerSecond() != null && b.provenance().settings().containsKey("param.kernel")));
        Set<String> ceilings = cpu.levels().stream().map(c -> c.level() + "/" + c.access()).collect(Collectors.toSet());
        assertTrue(ceilings.contains(MemoryLevel.L1 + "/" + AccessPattern.TRIAD), ceilings::toString);
        assertTrue(cpu.threadScaling().isEmpty(), "only Triad at DRAM makes a scaling curve");
        assertEquals(1, cpu.latency().size());
        assertEquals(3 + 2, cpu.compute().size(), "FMA peaks, the GEMM and one entry per product shape");
        ComputeEntry batch = cpu.compute().stream().filter(c -> c.kind() == ComputeEntry.Kind.PRODUCT
                && c.shape().batch() > 1).findFirst().orElseThrow();
        assertEquals("2x16x16x16:tn", batch.shape().toString());
        assertEquals("product-float-2t-2x16x16x16-tn", batch.id());
        assertTrue(batch.flopsPerSecond().median() != null && batch.flopsPerSecond().samples() > 0, batch::toString);
        assertEquals(List.of("softmax-2t-row128", "gelu-2t-row128"), cpu.operations().stream().map(o -> o.id()).toList());
        assertTrue(cpu.operations().stream().allMatch(o -> o.rowLength() == 128 && o.elementsPerSecond().median() > 0));
        assertEquals(273e9, profile.nominal().memoryBandwidthOf("cpu").orElseThrow().bytesPerSecond());
        assertEquals("user", profile.nominal().memoryBandwidthOf("cpu").orElseThrow().provenance().kind().label());
        assertTrue(progress.toString().contains("[1/"), progress::toString);
        assertArrayEquals(Files.readAllBytes(outcome.profileFile()), ProfileJson.toBytes(ProfileJson.read(outcome.profileFile())),
                "the stored profile survives read and write byte for byte");
    }

    @Test
    void shouldRecordTheDgxSparksUnifiedMemoryAndDatasheetWhenThePlatformIsGiven() {
        Calibrator.Outcome outcome = calibrate(Optional.of("dgx-spark"), Optional.empty(), new StringWriter());

        Profile profile = outcome.profile();
        assertEquals("dgx-spark", profile.nominal().platformId());
        assertEquals(273e9, profile.nominal().memoryBandwidthOf("cpu").orElseThrow().bytesPerSecond());
        Device gpu = profile.device("gpu").orElseThrow();
        assertEquals(List.of("cpu"), gpu.unifiedMemoryWith());
        assertEquals(List.of("gpu"), profile.device("cpu").orElseThrow().unifiedMemoryWith());
        assertFalse(profile.nominal().compute().isEmpty(), "the GB10's datasheet compute figures are kept");
    }

    @Test
    void shouldPoolInterleavedRoundsOfEveryTenantCount() {
        StringWriter progress = new StringWriter();
        List<TenantEntry> entries = TenantsMeasurement.measure(2, 2, 4L << 20, 1L << 40, false, null, Map.of(),
                new PrintWriter(progress, true), 100, 200, 2);
        assertEquals(List.of(1, 2), entries.stream().map(TenantEntry::tenants).toList());
        String text = progress.toString();
        // 1, 2, 1, 2 tenants: the rounds interleave, then one line per point.
        assertTrue(text.indexOf("[tenants 1/2, round 1/2]") < text.indexOf("[tenants 2/2, round 1/2]")
                && text.indexOf("[tenants 2/2, round 1/2]") < text.indexOf("[tenants 1/2, round 2/2]"), text);
        assertTrue(text.contains("tenants 2: per tenant"), text);
        for (TenantEntry entry : entries) {
            assertTrue(entry.provenance().kernel().contains("2 interleaved runs"), entry.provenance().kernel());
            assertTrue(entry.perTenantBytesPerSecond().samples() > 0 && entry.totalBytesPerSecond().best() > 0);
            assertEquals(MemoryLevel.L3, entry.level(), "4 MiB arrays are below the DRAM rule given");
        }
    }

    @Test
    void shouldMeasureHowBandwidthDividesAmongTenantsInSeparateProcesses() {
        int cpus = Runtime.getRuntime().availableProcessors();
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.SMOKE, new ProfileStore(profiles))
                .commandLine("membound calibrate --smoke --tenants (test)").memboundVersion("test").coreTypes(false)
                .tenants(Math.min(2, cpus)).build();
        Calibrator.Outcome outcome = Calibrator.run(request, new PrintWriter(new StringWriter(), true), c -> List.of(
                SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD").with("workingSet", "L1")
                        .with("threads", "1").with("elementType", "double").with("implementation", "vector")),
                new OptionsBuilder().forks(0).warmupIterations(0).measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(20)).shouldFailOnError(true).build());

        List<membound.profile.TenantEntry> curve = outcome.profile().device("cpu").orElseThrow().tenants();
        assertEquals(Math.min(2, cpus), curve.size());
        for (membound.profile.TenantEntry point : curve) {
            assertEquals(Math.max(1, cpus / point.tenants()), point.threadsPerTenant());
            assertTrue(point.totalBytesPerSecond().typical() >= point.perTenantBytesPerSecond().low() * point.tenants()
                    * 0.5, point::toString);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(CalibrationMode.class)
    void everyModeMeasuresWhatTheWriteAllocationRuleReads(CalibrationMode mode) {
        // Fill and Sum at one working set with every cpu, and Sum there with half of them (saturation).
        List<SuiteRequest> stream = mode.requests(8).stream().filter(r -> r.benchmark() == SuiteBenchmark.STREAM
                && r.values("elementType").equals(List.of("double")) && r.values("implementation").equals(List.of("vector"))
                && !r.values("workingSet").contains("sweep")).toList();
        String dram = mode == CalibrationMode.SMOKE ? "64MiB" : "DRAM";
        for (String kernel : List.of("FILL", "SUM")) {
            assertTrue(stream.stream().anyMatch(r -> r.values("kernel").contains(kernel)
                    && r.values("workingSet").contains(dram) && r.values("threads").contains("8")), kernel);
        }
        assertTrue(stream.stream().anyMatch(r -> r.values("kernel").equals(List.of("SUM"))
                && r.values("workingSet").equals(List.of(dram)) && r.values("threads").equals(List.of("4"))));
        assertTrue(mode.requests(1).stream().noneMatch(r -> r.benchmark() == SuiteBenchmark.STREAM
                && r.values("threads").equals(List.of("0"))), "one cpu has no half team");
    }

    @Test
    void aSmokeCalibrationStoresWhetherStoresAllocateAndCountsItsHardwareBytesByIt() {
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.SMOKE, new ProfileStore(profiles))
                .commandLine("membound calibrate --smoke (test)").memboundVersion("test").coreTypes(false).build();
        StringWriter progress = new StringWriter();
        Calibrator.Outcome outcome = Calibrator.run(request, new PrintWriter(progress, true),
                cpus -> CalibrationMode.SMOKE.requests(cpus).stream()
                        .filter(r -> r.benchmark() == SuiteBenchmark.STREAM).toList(),
                new OptionsBuilder().forks(0).warmupIterations(0).measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(20)).shouldFailOnError(true).build());

        Device cpu = ProfileJson.read(outcome.profileFile()).device("cpu").orElseThrow();
        membound.profile.WriteAllocation stores = cpu.writeAllocation();
        assertNotNull(stores, "a calibrated cpu says what its hardware bytes count");
        var fill = cpu.bandwidth().stream().filter(b -> b.kernel().equals("fill") && b.level() == MemoryLevel.DRAM)
                .findFirst();
        if (fill.isPresent()) {
            // 64 MiB arrays are DRAM by footprint on this host: the rule read Fill against Sum.
            assertTrue(stores.answer() != membound.profile.WriteAllocation.Answer.ASSUMED, stores::toString);
            assertTrue(stores.bandwidthIds().contains(fill.get().id()), stores::toString);
            assertNotNull(stores.readOverWrite());
        } else {
            // A last-level cache of 64 MiB or more holds them: nothing to decide from, and it says so.
            assertEquals(membound.profile.WriteAllocation.Answer.ASSUMED, stores.answer(), stores::toString);
        }
        for (var entry : cpu.bandwidth()) {
            double factor = entry.hardwareBytesPerSecond().typical() / entry.streamBytesPerSecond().typical();
            double expected = entry.kernel().equals("fill") && stores.storesAllocate() ? 2
                    : entry.kernel().equals("copy") && stores.storesAllocate() ? 1.5
                    : entry.kernel().equals("triad") && stores.storesAllocate() ? 4.0 / 3 : 1;
            assertEquals(expected, factor, 1e-9, entry.id() + " counted as " + stores.answer());
        }
        assertTrue(progress.toString().contains("memory counters"), progress::toString);
    }

    @Test
    void shouldPlanTheModesWithinTheirDocumentedContent() {
        assertEquals(List.of("1"), CalibrationMode.scalingThreads(2));
        assertEquals(List.of("1", "2", "4", "8", "16"), CalibrationMode.scalingThreads(20));
        assertEquals(6, CalibrationMode.QUICK.requests(2).size());
        assertTrue(CalibrationMode.QUICK.requests(2).stream().anyMatch(r -> r.benchmark() == SuiteBenchmark.GEMM),
                "quick measures a GEMM: the model never takes the FMA peak for one");
        assertTrue(CalibrationMode.QUICK.requests(2).stream().anyMatch(r -> r.benchmark() == SuiteBenchmark.PRODUCT
                && r.values("products").equals(List.of("1024x1024x1024:nn+1024x1024x1024:nt+1024x1024x1024:tn"))),
                "and the largest products of each layout");
        assertTrue(CalibrationMode.STANDARD.requests(20).stream()
                .anyMatch(r -> r.benchmark() == SuiteBenchmark.LATENCY));
        assertEquals("quick", CalibrationMode.QUICK.recordedSettings().get("mode"));
    }
}
