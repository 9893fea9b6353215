package membound.benchmarks.results;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.compute.ElementwiseBenchmark;
import membound.benchmarks.sizing.Threads;
import membound.vocabulary.RowOperation;
import membound.vocabulary.units.RateStatistics;

/**
 * One {@link ElementwiseBenchmark} result: the operation, its row length and team, and elements per second
 * over the distribution of pass times.
 */
public record ElementwiseResult(RowOperation operation, int row, int threads, long elementsPerPass,
        PassTimes passTimes) {

    public static boolean isElementwise(RunResult result) {
        return result.getParams().getBenchmark().startsWith(ElementwiseBenchmark.class.getName() + ".");
    }

    public static ElementwiseResult of(RunResult result) {
        int threads = Threads.resolve(result.getParams().getParam("threads"));
        int row = Integer.parseInt(result.getParams().getParam("row"));
        return new ElementwiseResult(RowOperation.of(result.getParams().getParam("operation")), row, threads,
                ElementwiseBenchmark.elementsPerPass(threads, row), PassTimes.of(result.getPrimaryResult()));
    }

    public RateStatistics elementsPerSecond() {
        return passTimes.rates(elementsPerPass);
    }
}
