package membound.validate;

import java.io.PrintWriter;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.suite.ProgressOutput;
import membound.vocabulary.text.Numbers;

/**
 * JMH's output during a validation as one line per workload: {@code [2/4] MLP training step ..... 182.4 ms
 * per step}. JMH's own text is kept (the last lines) to explain a failure.
 */
final class ProgressLines extends ProgressOutput {

    ProgressLines(PrintWriter out, int total) {
        super(out, total);
    }

    @Override
    protected String label(BenchmarkParams params) {
        return ReferenceWorkload.ofBenchmark(params.getBenchmark()).label();
    }

    @Override
    protected String figure(RunResult result) {
        PassTimes times = PassTimes.of(result.getPrimaryResult());
        return Numbers.secondsOrMillis(times.percentileNanos(50) / 1e9) + " per step";
    }
}
