package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.suite.SuiteRequest;
import membound.benchmarks.suite.SuiteRunner;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.Quality;
import membound.profile.WriteAllocation;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * What the profile builder makes of real JMH results, measured in this JVM on tiny arrays and read against made-up
 * caches (a 256 KiB last-level cache), so that the sizes fall where a test needs them on any machine.
 */
class ProfileBuilderTest {

    /** 32 KiB L1 and 64 KiB L2 and L3 per core, 256 KiB of last-level cache: the DRAM rule is 1 MiB arrays. */
    private static final CacheSizes SMALL_CACHES = new CacheSizes(Map.of(1, 32L << 10, 2, 64L << 10, 3, 64L << 10),
            256L << 10, "made up by the test");

    static List<RunResult> run(SuiteRequest... requests) throws Exception {
        SuitePlan plan = SuitePlan.of(List.of(requests), new OptionsBuilder().forks(0).warmupIterations(0)
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(20)).shouldFailOnError(true).build(),
                HostDetector.detect(), false, false);
        return SuiteRunner.run(plan, OutputFormatFactory.createFormatInstance(
                new PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT));
    }

    static Profile build(List<RunResult> results) {
        return build(results, MemoryCounters.Reading.NOT_TRIED);
    }

    static Profile build(List<RunResult> results, MemoryCounters.Reading counters) {
        Host host = HostDetector.detect();
        return new ProfileBuilder(host, SMALL_CACHES, Optional.empty(),
                new ProfileBuilder.NominalBandwidth(null, null, "not needed by this test"), Map.of("mode", "full"),
                "membound calibrate --full (test)", Instant.parse("2026-12-01T00:00:00Z"), "test")
                .build(results, LoadReport.unmonitored(results.size()), List.of(), null, counters);
    }

    /** What a memory controller counted during Fill: {@code read} bytes for every 40 GB written. */
    private static MemoryCounters.Reading counted(double read) {
        return new MemoryCounters.Reading(new WriteAllocation.MemoryCounters("perf stat -a", List.of(
                "uncore_imc/cas_count_read/", "uncore_imc/cas_count_write/"), read, 40e9, 2, "Fill (test)"), null);
    }

    @Test
    void everyHardwareByteFigureAndTheUpdateCeilingCountWhatTheStoresWereFoundToDo() throws Exception {
        List<RunResult> results = run(stream("COPY", "DRAM:1048576"), stream("FILL", "DRAM:1048576"),
                stream("SUM", "DRAM:1048576"));

        // Counters that saw a read for every line written: stores allocate, Copy moves 1.5x and Fill 2x their bytes.
        Device allocating = build(results, counted(39e9)).device("cpu").orElseThrow();
        assertEquals(WriteAllocation.Answer.YES, allocating.writeAllocation().answer());
        assertEquals(1.5, hardwareOverStream(allocating, "copy-double-vector-1t-dram"), 1e-9);
        assertEquals(2.0, hardwareOverStream(allocating, "fill-double-vector-1t-dram"), 1e-9);
        assertEquals(1.0, hardwareOverStream(allocating, "sum-double-vector-1t-dram"), 1e-9);
        LevelCeiling copy = allocating.ceiling(MemoryLevel.DRAM, AccessPattern.COPY).orElseThrow();
        LevelCeiling update = allocating.ceiling(MemoryLevel.DRAM, AccessPattern.UPDATE).orElseThrow();
        assertTrue(update.inHardwareBytes());
        assertEquals(1.5, update.bytesPerSecond() / copy.bytesPerSecond(), 1e-9, "an update at copy's hardware rate");

        // Counters that saw (next to) no reads: the stores streamed, the memory moved what the code wrote.
        Device streaming = build(results, counted(0.4e9)).device("cpu").orElseThrow();
        assertEquals(WriteAllocation.Answer.NO, streaming.writeAllocation().answer());
        for (BandwidthEntry entry : streaming.bandwidth()) {
            assertEquals(1.0, hardwareOverStream(streaming, entry.id()), 1e-9, entry.id());
        }
        assertEquals(streaming.ceiling(MemoryLevel.DRAM, AccessPattern.COPY).orElseThrow().bytesPerSecond(),
                streaming.ceiling(MemoryLevel.DRAM, AccessPattern.UPDATE).orElseThrow().bytesPerSecond(),
                "an update at copy's own rate");
        assertEquals(List.of("sum-double-vector-1t-dram", "fill-double-vector-1t-dram"),
                streaming.writeAllocation().bandwidthIds(), "the entries beside the counters");
    }

    private static double hardwareOverStream(Device cpu, String id) {
        BandwidthEntry entry = cpu.bandwidthEntry(id).orElseThrow();
        return entry.hardwareBytesPerSecond().typical() / entry.streamBytesPerSecond().typical();
    }

    private static SuiteRequest stream(String kernel, String... workingSets) {
        return SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", kernel).with("workingSet", workingSets)
                .with("threads", "1").with("elementType", "double").with("implementation", "vector");
    }

    @Test
    void aSweepPointBetweenTheLastLevelCacheAndFourTimesItIsNoDramCeilingAndRaisesNoFlag() throws Exception {
        // A --full sweep's 512 KiB arrays: above the 256 KiB last-level cache, so DRAM by footprint, but below the
        // 1 MiB of the run sized for DRAM (given resolved, as the suite passes it). Sum has only a small run.
        Profile profile = build(run(stream("TRIAD", "512KiB", "DRAM:1048576"), stream("SUM", "512KiB")));
        var cpu = profile.device("cpu").orElseThrow();

        assertEquals(MemoryLevel.DRAM, cpu.bandwidthEntry("triad-double-vector-1t-512kib").orElseThrow().level(),
                "the sweep point is DRAM by its footprint");
        assertEquals("triad-double-vector-1t-dram", cpu.ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD).orElseThrow()
                .bandwidthId(), "the run sized for DRAM is the ceiling");
        List<String> tooSmall = profile.quality().flags().stream().filter(f -> f.code().equals("working-set-too-small"))
                .map(Quality.Flag::subject).toList();
        assertEquals(List.of("sum-double-vector-1t-512kib"), tooSmall,
                "only a ceiling taken from arrays below the rule is flagged, not the sweep point beside the DRAM run");
    }
}
