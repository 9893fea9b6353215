package membound.trace.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.trace.RankSummary;
import membound.trace.TraceAnalysis;
import membound.trace.TraceClass;
import membound.trace.Traces;

/**
 * Runs {@link ReaderBenchmark} through JMH when asked ({@code -Dmembound.jmh=true}), writing JMH's JSON to
 * {@code target/jmh-trace-reader.json} and the MB/s to {@code target/jmh-trace-reader.txt}; an ordinary build checks
 * the generated trace reads as it was written, and measures nothing.
 */
class ReaderBenchmarkRunner {

    @TempDir
    Path dir;

    @Test
    void theGeneratedTraceReadsAsItWasWritten() throws IOException {
        Path file = dir.resolve("generated.json");
        GeneratedKineto.write(file, 2_000_000);
        RankSummary r = TraceAnalysis.summarise(Traces.read(file));
        assertEquals(0, r.trace().rank());
        assertEquals(8, r.trace().worldSize());
        assertTrue(r.trace().shapes());
        for (TraceClass c : new TraceClass[] {TraceClass.GEMM, TraceClass.ELEMENTWISE, TraceClass.NORM,
            TraceClass.ATTENTION, TraceClass.COMMUNICATION}) {
            assertTrue(r.classSeconds().get(c) > 0, c + ": " + r.classSeconds());
        }
        assertTrue(r.steps().get(0).costs().get(TraceClass.GEMM).flops() > 0);
    }

    @Test
    void runReaderBenchmark() throws RunnerException, IOException {
        assumeTrue(Boolean.getBoolean("membound.jmh"), "set -Dmembound.jmh=true to run the JMH benchmark");
        Options options = new OptionsBuilder()
                .include(ReaderBenchmark.class.getName())
                .param("traceMegabytes", System.getProperty("membound.jmh.traceMegabytes", "512"))
                .result("target/jmh-trace-reader.json")
                .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        StringBuilder summary = new StringBuilder();
        for (RunResult r : results) {
            double seconds = r.getPrimaryResult().getScore();
            long megabytes = Long.parseLong(r.getParams().getParam("traceMegabytes"));
            summary.append(String.format(Locale.ROOT, "%d MB trace: %.2f s per read (+- %.2f), %.0f MB/s on one core%n",
                    megabytes, seconds, r.getPrimaryResult().getScoreError(), megabytes / seconds));
        }
        System.out.print(summary);
        Files.writeString(Path.of("target", "jmh-trace-reader.txt"), summary);
    }
}
