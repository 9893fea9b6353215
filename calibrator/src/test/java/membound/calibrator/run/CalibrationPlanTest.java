package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import membound.benchmarks.placement.Placement;
import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuitePlan;
import membound.calibrator.Fixtures;
import membound.calibrator.store.ProfileStore;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.SystemFiles;
import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.profile.BandwidthEntry;
import membound.profile.Distribution;
import membound.profile.LevelCeiling;
import membound.profile.Provenance;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/** What calibrate plans on a host with two core types (the GB10 fixture) and on one with one: no run needed. */
class CalibrationPlanTest {

    private static final Host SPARK = host("dgx-spark");
    private static final Host EPYC = host("dev-epyc");

    @TempDir
    Path profiles;

    private static Host host(String name) {
        return HostDetector.detect(SystemFiles.fixture(
                Fixtures.repositoryRoot().resolve("hardware/src/test/resources/hosts").resolve(name)));
    }

    private Calibrator.Request request(CalibrationMode mode, boolean pin, boolean coreTypes, Optional<String> jvm) {
        return Calibrator.Request.builder(mode, new ProfileStore(profiles)).commandLine("membound calibrate (test)")
                .memboundVersion("test").pin(pin).coreTypes(coreTypes).jvm(jvm.orElse(null)).build();
    }

    private static List<String> dramTriadPlacements(SuitePlan plan) {
        return plan.steps().stream().filter(step -> step.benchmark() == SuiteBenchmark.STREAM
                && step.workingSets().stream().anyMatch(ws -> ws.label().equals("DRAM"))
                && step.options().getParameter("kernel").get().contains("TRIAD"))
                .map(step -> step.placement().name() + " " + step.threads() + "t").distinct().toList();
    }

    @Test
    void shouldPlanTheX925TheA725AndAllTwentyCoresOnAGb10() {
        Calibrator.Plan plan = Calibrator.plan(request(CalibrationMode.QUICK, false, true, Optional.empty()), SPARK);

        assertEquals(List.of("Cortex-X925", "Cortex-A725", "all"),
                plan.placements().stream().map(Placement::name).toList());
        assertEquals(List.of("Cortex-X925 10t", "Cortex-A725 10t", "all 20t"), dramTriadPlacements(plan.suite()));
        assertEquals("2 core types, Cortex-A725 (10 cpus 0-4,10-14), Cortex-X925 (10 cpus 5-9,15-19): bandwidth "
                + "measured on Cortex-X925, Cortex-A725, all (each type on its own, then all 20 together; ceilings "
                + "from all)", plan.coreTypeNote());
    }

    @ParameterizedTest
    @EnumSource(CalibrationMode.class)
    void shouldMeasureEachCoreTypeOnItsOwnInEveryMode(CalibrationMode mode) {
        Calibrator.Plan plan = Calibrator.plan(request(mode, false, true, Optional.empty()), SPARK);

        List<String> placements = plan.placements().stream().map(Placement::name).toList();
        assertEquals(List.of("Cortex-X925", "Cortex-A725"), placements.subList(0, 2));
        assertEquals("all", placements.get(placements.size() - 1));
        assertEquals(mode == CalibrationMode.FULL ? List.of("Cortex-X925", "Cortex-A725", "cluster0", "cluster1", "all")
                : List.of("Cortex-X925", "Cortex-A725", "all"), placements);
        // Compute and latency run on all cpus only: the model's compute ceilings are never a subset's.
        assertTrue(plan.suite().steps().stream().filter(step -> step.benchmark() != SuiteBenchmark.STREAM)
                .allMatch(step -> step.placement().name().equals("all")));
    }

    @Test
    void shouldSayWhenAHostHasOneCoreTypeAndMeasureOnce() {
        Calibrator.Plan plan = Calibrator.plan(request(CalibrationMode.QUICK, false, true, Optional.empty()), EPYC);

        assertEquals(List.of("all"), plan.placements().stream().map(Placement::name).toList());
        assertTrue(plan.coreTypeNote().startsWith("one core type (AMD EPYC"), plan.coreTypeNote());
        assertTrue(plan.coreTypeNote().endsWith("all 2 cpus measured together"), plan.coreTypeNote());
    }

    @Test
    void shouldMeasureAllCoresOnlyWhenAskedTo() {
        Calibrator.Plan plan = Calibrator.plan(request(CalibrationMode.QUICK, true, false, Optional.empty()), SPARK);

        assertEquals(List.of("all"), plan.placements().stream().map(Placement::name).toList());
        assertTrue(plan.placements().get(0).pinned());
        assertTrue(plan.coreTypeNote().contains("all 20 cpus measured together only (--no-core-types); each benchmark "
                + "thread bound to one cpu (--pin)"), plan.coreTypeNote());
    }

    @Test
    void shouldForkTheJavaItIsGiven() {
        Calibrator.Plan plan = Calibrator.plan(request(CalibrationMode.SMOKE, false, true,
                Optional.of("/opt/arm64/bin/java")), EPYC);

        assertTrue(plan.suite().steps().stream().allMatch(step -> step.options().getJvm().get().equals("/opt/arm64/bin/java")));
    }

    @Test
    void shouldTakeCeilingsFromAllCoresNeverFromOneCoreType() {
        BandwidthEntry x925 = triad("triad-x925", "Cortex-X925", 300e9);
        BandwidthEntry all = triad("triad-all", "all", 200e9);

        List<LevelCeiling> ceilings = MemoryCeilingRule.chosen(List.of(x925, all));

        assertEquals(1, ceilings.size());
        assertEquals(AccessPattern.TRIAD, ceilings.get(0).access());
        assertEquals("triad-all", ceilings.get(0).bandwidthId());
        assertTrue(ProfileBuilder.scaling(List.of(x925, all)).isEmpty(), "one all-cpu team size is no curve");
    }

    private static BandwidthEntry triad(String id, String placement, double bytesPerSecond) {
        return new BandwidthEntry(id, "triad", membound.vocabulary.AccessPattern.TRIAD, false, "double",
                membound.vocabulary.Implementation.VECTOR, 20, placement, 3L << 30, MemoryLevel.DRAM,
                Distribution.single(bytesPerSecond), null,
                Provenance.measured("StreamBenchmark Triad (vector)", null, Map.of()));
    }
}
