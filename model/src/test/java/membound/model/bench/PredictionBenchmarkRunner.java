package membound.model.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link PredictionBenchmark} through JMH when asked ({@code -Dmembound.jmh=true}); skipped in
 * an ordinary build, which must stay fast; {@code -Dmembound.jmh.include=REGEX} runs only the benchmark
 * methods whose names match. Writes JMH's JSON to {@code target/jmh-prediction.json}
 * and the predictions per second, with the seconds 100,000 take, to {@code target/jmh-prediction.txt}.
 */
class PredictionBenchmarkRunner {

    /**
     * Every benchmark method once through JMH, in this JVM, for a tenth of a second and no warmup: proves the
     * benchmark runs (its setup, its cases, JMH's generated code) in an ordinary build; its figures mean nothing.
     */
    @Test
    void everyBenchmarkMethodRunsBriefly() throws RunnerException {
        assumeTrue(!Boolean.getBoolean("membound.jmh"), "the full benchmark runs instead");
        Options options = new OptionsBuilder()
                .include(PredictionBenchmark.class.getName() + "\\..*")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(org.openjdk.jmh.runner.options.TimeValue.milliseconds(100))
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertEquals(6, results.size(), "benchmark methods run");
        for (RunResult r : results) {
            double perSecond = r.getPrimaryResult().getScore();
            assertTrue(perSecond > 0 && Double.isFinite(perSecond), r.getParams().getBenchmark() + ": " + perSecond);
        }
    }

    @Test
    void runPredictionBenchmark() throws RunnerException, IOException {
        assumeTrue(Boolean.getBoolean("membound.jmh"), "set -Dmembound.jmh=true to run the JMH benchmark");
        Options options = new OptionsBuilder()
                .include(PredictionBenchmark.class.getName() + "\\." + System.getProperty("membound.jmh.include", ".*"))
                .result(System.getProperty("membound.jmh.result", "target/jmh-prediction.json"))
                .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        StringBuilder summary = new StringBuilder();
        for (RunResult r : results) {
            double perSecond = r.getPrimaryResult().getScore();
            summary.append(String.format(Locale.ROOT, "%s: %.0f predictions/s (+- %.0f), 100,000 predictions in %.2f s%n",
                    r.getParams().getBenchmark(), perSecond, r.getPrimaryResult().getScoreError(), 100_000 / perSecond));
        }
        System.out.print(summary);
        Files.writeString(Path.of("target", "jmh-prediction.txt"), summary);
    }
}
