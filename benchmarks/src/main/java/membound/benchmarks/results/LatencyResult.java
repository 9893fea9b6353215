package membound.benchmarks.results;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.latency.LatencyBenchmark;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.WorkingSet;

/** One {@link LatencyBenchmark} result: the working set chased and the distribution of ns per load. */
public record LatencyResult(WorkingSet workingSet, PassTimes nanosPerLoad) {

    public static boolean isLatency(RunResult result) {
        return result.getParams().getBenchmark().startsWith(LatencyBenchmark.class.getName() + ".");
    }

    public static LatencyResult of(RunResult result) {
        WorkingSet workingSet = WorkingSet.resolveSingle(result.getParams().getParam("workingSet"), CacheSizes::detect);
        return new LatencyResult(workingSet, PassTimes.of(result.getPrimaryResult()));
    }
}
