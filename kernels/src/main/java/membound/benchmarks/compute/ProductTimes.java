package membound.benchmarks.compute;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.util.SampleBuffer;

import membound.vocabulary.ProductShape;

/**
 * Each shape's own pass times in {@link ProductBenchmark}, as JMH secondary results: one sample-time result
 * per shape, labelled {@code product.MxNxK:layout}, holding every pass of that shape (JMH merges the
 * iterations' samples as it does a primary result's). Added by the suite to every run of the benchmark; by
 * hand with {@code -prof membound.benchmarks.compute.ProductTimes}. It reports nothing for other benchmarks.
 */
public final class ProductTimes implements InternalProfiler {

    private static final String PREFIX = "product.";
    /** A shape's own result; JMH adds derived ones ({@code product.4x4x4:nn:p0.50}) that this skips. */
    private static final java.util.regex.Pattern LABEL =
            java.util.regex.Pattern.compile("product\\.(\\d+x)?\\d+x\\d+x\\d+:(nn|nt|tn)");
    private static List<ProductShape> shapes = List.of();
    private static final List<SampleBuffer> PASS_NANOS = new ArrayList<>();

    /** Label of a shape's result: {@code product.256x1024x1024:tn}. */
    public static String label(ProductShape shape) {
        return PREFIX + shape;
    }

    /** Called by the benchmark's setup: the shapes of this trial, in the order {@link #record} numbers them. */
    static synchronized void start(List<ProductShape> trialShapes) {
        shapes = List.copyOf(trialShapes);
        PASS_NANOS.clear();
        for (int i = 0; i < shapes.size(); i++) {
            PASS_NANOS.add(new SampleBuffer());
        }
    }

    /** Called after each pass of shape {@code index}. */
    static synchronized void record(int index, long nanos) {
        PASS_NANOS.get(index).add(Math.max(1, nanos));
    }

    @Override
    public String getDescription() {
        return "each shape's own pass times (membound ProductBenchmark)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        synchronized (ProductTimes.class) {
            for (int i = 0; i < PASS_NANOS.size(); i++) {
                PASS_NANOS.set(i, new SampleBuffer());
            }
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        List<Result> results = new ArrayList<>();
        synchronized (ProductTimes.class) {
            for (int i = 0; i < shapes.size(); i++) {
                SampleBuffer samples = PASS_NANOS.get(i);
                if (samples.count() > 0) {
                    results.add(new SampleTimeResult(ResultRole.SECONDARY, label(shapes.get(i)), samples,
                            TimeUnit.NANOSECONDS));
                }
            }
        }
        return results;
    }

    /** Each shape's pass-time result of a run, in the order the run reports them; empty without the profiler. */
    public static Map<ProductShape, Result<?>> of(RunResult run) {
        Map<ProductShape, Result<?>> byShape = new LinkedHashMap<>();
        for (Map.Entry<String, Result> entry : run.getSecondaryResults().entrySet()) {
            if (LABEL.matcher(entry.getKey()).matches()) {
                byShape.put(ProductShape.parse(entry.getKey().substring(PREFIX.length())), entry.getValue());
            }
        }
        return byShape;
    }
}
