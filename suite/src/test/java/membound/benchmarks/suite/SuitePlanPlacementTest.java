package membound.benchmarks.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import membound.benchmarks.TestHosts;
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.placement.CpuSetProfiler;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.results.StreamResult;
import membound.vocabulary.BadInputException;
import membound.hardware.host.CoreType;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.vocabulary.units.Units;

class SuitePlanPlacementTest {

    private static final Host SPARK = TestHosts.dgxSpark();
    private static final Options ONE_FORK = new OptionsBuilder().forks(1).build();

    private static SuiteRequest triad(String workingSet) {
        return SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD").with("threads", "all")
                .with("workingSet", workingSet);
    }

    private SuitePlan plan(Host host, boolean pin, SuiteRequest... requests) {
        return SuitePlan.of(List.of(requests), ONE_FORK, host, true, pin);
    }

    @Test
    void shouldPlanDramTriadOnEachCoreTypeOfADgxSparkAndOnAll() {
        SuitePlan plan = plan(SPARK, false, triad("DRAM").on("Cortex-X925"), triad("DRAM").on("Cortex-A725"),
                triad("DRAM").with("threads", "20"));

        assertEquals(List.of("Cortex-X925", "Cortex-A725", "all"),
                plan.steps().stream().map(step -> step.placement().name()).toList());
        assertEquals(List.of(10, 10, 20), plan.steps().stream().map(SuitePlan.Step::threads).toList());
        // One array size for every placement: STREAM's rule is about the whole machine's 24 MiB of L3.
        assertEquals(List.of(96 * Units.MIB), plan.steps().stream()
                .map(step -> step.workingSets().get(0).arrayBytes()).distinct().toList());
        assertTrue(plan.describe().contains("threads=10, working sets DRAM 96.0 MiB, on Cortex-X925 (cpus 5-9,15-19)"),
                plan::describe);
    }

    @Test
    void shouldConfineEachCoreTypesForksWithTasksetAndTellThemWhereTheyRun() {
        SuitePlan plan = plan(SPARK, false, triad("DRAM").on("x925"), triad("DRAM"));
        Options x925 = plan.steps().get(0).options();
        Options all = plan.steps().get(1).options();

        assertTrue(x925.getJvmArgsAppend().get().containsAll(List.of("-Dmembound.placement=Cortex-X925",
                "-Dmembound.cpus=5-9,15-19", "-Dmembound.pin=false")), x925.getJvmArgsAppend().get()::toString);
        assertEquals(List.of(CpuSetProfiler.class.getCanonicalName()),
                x925.getProfilers().stream().map(p -> p.getKlass()).toList());
        assertTrue(all.getProfilers().isEmpty(), "all cpus are not confined");
        assertTrue(all.getJvmArgsAppend().get().contains("-Dmembound.placement=all"));
    }

    @Test
    void shouldSizeCacheLevelsByTheCachesOfThePlacementsCores() {
        SuiteRequest tenThreads = triad("L2").with("threads", "10");
        SuitePlan plan = plan(SPARK, false, tenThreads.on("Cortex-X925"), tenThreads.on("Cortex-A725"), tenThreads);

        List<Long> arrayBytes = plan.steps().stream().map(step -> step.workingSets().get(0).arrayBytes()).toList();
        // Each placement's share of L2 per core: 2 MiB on an X925, 512 KiB on an A725, and on all cpus the smallest.
        assertTrue(arrayBytes.get(0) >= 3 * arrayBytes.get(1), arrayBytes::toString);
        assertEquals(arrayBytes.get(1), arrayBytes.get(2));
    }

    @Test
    void shouldPassPinningToEveryFork() {
        SuitePlan plan = plan(TestHosts.devEpyc(), true, triad("DRAM"));

        assertTrue(plan.pinned());
        assertTrue(plan.steps().get(0).options().getJvmArgsAppend().get().contains("-Dmembound.pin=true"));
        assertTrue(plan.describe().contains("on all (cpus 0-1, one thread per cpu)"), plan::describe);
    }

    @Test
    void shouldRefuseMoreThreadsThanThePlacementHasCpus() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> plan(SPARK, false, triad("DRAM").with("threads", "12").on("Cortex-A725")));

        assertEquals("threads must not exceed the cpus of placement Cortex-A725 (10): threads=12", e.getMessage());
    }

    @Test
    void shouldRefuseAPlacementWithoutAFork() {
        BadInputException e = assertThrows(BadInputException.class, () -> SuitePlan.of(
                List.of(triad("DRAM").on("Cortex-X925")), new OptionsBuilder().forks(0).build(), SPARK, true,
                false));

        assertEquals("placement must run in a forked JVM (forks at least 1): placement=Cortex-X925, forks=0",
                e.getMessage());
    }

    @Test
    void shouldReadPlacementsAndPinningFromProperties() throws Exception {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty(SuitePlan.PLACEMENT_PROPERTY, "Cortex-X925,all");
        properties.setProperty(SuitePlan.PIN_PROPERTY, "true");
        org.openjdk.jmh.runner.options.CommandLineOptions triad = new org.openjdk.jmh.runner.options.CommandLineOptions("Triad");
        SuitePlan plan = SuitePlan.of(triad, SPARK, properties);

        assertEquals(List.of("Cortex-X925", "all"), plan.placements().stream().map(Placement::name).toList());
        assertTrue(plan.pinned());
        properties.setProperty(SuitePlan.PIN_PROPERTY, "yes");
        BadInputException e = assertThrows(BadInputException.class, () -> SuitePlan.of(triad, SPARK, properties));
        assertEquals("membound.pin must be true or false: membound.pin=yes", e.getMessage());
    }

    /**
     * A real fork on a placement of one cpu, on this machine (its first cpu made a core type of its own): the
     * fork fails unless taskset confined it to that cpu and the pinned team thread was bound there. Tagged "fork":
     * CI's emulated aarch64 run cannot exec a JVM by its own path.
     */
    @Test
    @Tag("fork")
    void shouldRunAConfinedPinnedForkOnlyOnItsCpus() throws Exception {
        Host here = HostDetector.detect();
        org.junit.jupiter.api.Assumptions.assumeTrue(here.logicalCpus() >= 2, "needs two cpus to confine one");
        CoreType first = new CoreType("first", Optional.empty(), List.of(0), List.of(), java.util.OptionalInt.empty());
        CoreType rest = new CoreType("rest", Optional.empty(),
                java.util.stream.IntStream.range(1, here.logicalCpus()).boxed().toList(), List.of(),
                java.util.OptionalInt.empty());
        Host split = new Host(here.hostname(), here.cpu(), here.logicalCpus(), List.of(first, rest), here.clusters(),
                here.caches(), here.memoryBytes(), here.numaNodes(), here.os(), here.jdk(), here.vectorBitWidth(),
                here.transparentHugePages(), here.dmi(), here.platform(), here.warnings());
        Options tiny = new OptionsBuilder().forks(1).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50)).shouldFailOnError(true).build();
        SuitePlan plan = SuitePlan.of(List.of(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD")
                .with("threads", "all").with("workingSet", "4MiB").on("first")), tiny, split, false, true);

        List<RunResult> run = SuiteRunner.run(plan, OutputFormatFactory.createFormatInstance(
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), VerboseMode.SILENT));

        assertEquals(1, run.size());
        StreamResult result = StreamResult.of(run.get(0));
        assertEquals("first", result.placement());
        assertEquals(1, result.workload().threads());
        assertTrue(StreamResult.pinned(run.get(0).getParams()));
        assertFalse(run.get(0).getParams().getJvmArgs().stream().noneMatch(a -> a.equals("-D"
                + CpuBinding.CPUS_PROPERTY + "=0")));
    }
}
