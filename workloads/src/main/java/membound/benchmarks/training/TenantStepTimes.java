package membound.benchmarks.training;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Each tenant's own step time in {@link TenantsBenchmark}, as JMH secondary results
 * ({@code tenant1.stepMicros}, {@code tenant2.stepMicros}, ...: the median of the iteration's steps, averaged
 * over iterations). JMH's primary score is the step of the pair, first start to last finish; this says how
 * the tenants shared it. Add with {@code -prof membound.benchmarks.training.TenantStepTimes}; it reports
 * nothing for other benchmarks.
 */
public final class TenantStepTimes implements InternalProfiler {

    /** Label of tenant {@code tenant}'s (1-based) result. */
    public static String label(int tenant) {
        return "tenant" + tenant + ".stepMicros";
    }

    private static final List<Histogram> STEP_NANOS = new ArrayList<>();

    /** Called by the benchmark after every step, with each tenant's own time. */
    static synchronized void record(long[] nanos) {
        while (STEP_NANOS.size() < nanos.length) {
            STEP_NANOS.add(new Histogram(3));
        }
        for (int t = 0; t < nanos.length; t++) {
            STEP_NANOS.get(t).recordValue(Math.max(1, nanos[t]));
        }
    }

    static synchronized void clear() {
        STEP_NANOS.clear();
    }

    @Override
    public String getDescription() {
        return "each tenant's own step time (membound TenantsBenchmark)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        clear();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        List<Result> results = new ArrayList<>();
        synchronized (TenantStepTimes.class) {
            for (int t = 0; t < STEP_NANOS.size(); t++) {
                Histogram h = STEP_NANOS.get(t);
                if (h.getTotalCount() > 0) {
                    results.add(new ScalarResult(label(t + 1), h.getValueAtPercentile(50) / 1e3, "us/op",
                            AggregationPolicy.AVG));
                }
            }
        }
        return results;
    }
}
