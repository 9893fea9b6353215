package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import membound.profile.Profile;
import membound.profile.Quality;
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
        Host host = HostDetector.detect();
        return new ProfileBuilder(host, SMALL_CACHES, Optional.empty(),
                new ProfileBuilder.NominalBandwidth(null, null, "not needed by this test"), Map.of("mode", "full"),
                "membound calibrate --full (test)", Instant.parse("2026-12-01T00:00:00Z"), "test")
                .build(results, LoadReport.unmonitored(results.size()));
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
