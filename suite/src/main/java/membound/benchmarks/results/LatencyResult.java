package membound.benchmarks.results;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.latency.LatencyBenchmark;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.WorkingSet;

/**
 * One {@link LatencyBenchmark} result: the working set chased and the distribution of the time of one chase
 * of {@link LatencyBenchmark#STEPS_PER_INVOCATION} loads, from which ns per load follow.
 */
public record LatencyResult(WorkingSet workingSet, PassTimes chaseNanos) {

    public static boolean isLatency(RunResult result) {
        return result.getParams().getBenchmark().startsWith(LatencyBenchmark.class.getName() + ".");
    }

    public static LatencyResult of(RunResult result) {
        WorkingSet workingSet = WorkingSet.resolveSingle(result.getParams().getParam("workingSet"), CacheSizes::detect);
        return new LatencyResult(workingSet,
                PassTimes.of(result.getPrimaryResult()));
    }

    /** Nanoseconds per load at a percentile of chases. */
    public double nanosPerLoad(double percentile) {
        return chaseNanos.percentileNanos(percentile) / (double) LatencyBenchmark.STEPS_PER_INVOCATION;
    }

    public double meanNanosPerLoad() {
        return chaseNanos.meanNanos() / LatencyBenchmark.STEPS_PER_INVOCATION;
    }
}
