package membound.benchmarks.results;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.util.Statistics;

/**
 * The distribution of one benchmark's time per operation, in integer nanoseconds, as HdrHistogram's
 * authors record it; converted to rates only when a figure is printed.
 */
public final class PassTimes {

    /** Three significant digits: a pass time is known to 0.1%, far below run-to-run noise. */
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram passTimeNanos;

    private PassTimes(Histogram passTimeNanos) {
        this.passTimeNanos = passTimeNanos;
    }

    /** Every sample of a JMH result (its raw data, in the result's time unit). */
    public static PassTimes of(Result<?> result) {
        double nanosPerUnit = nanosPerUnit(result.getScoreUnit());
        Statistics statistics = result.getStatistics();
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        for (Iterator<Map.Entry<Double, Long>> samples = statistics.getRawData(); samples.hasNext(); ) {
            Map.Entry<Double, Long> sample = samples.next();
            histogram.recordValueWithCount(Math.max(1, Math.round(sample.getKey() * nanosPerUnit)), sample.getValue());
        }
        return new PassTimes(histogram);
    }

    /** Samples given directly, in nanoseconds. */
    public static PassTimes ofNanos(long... nanos) {
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        for (long value : nanos) {
            histogram.recordValue(Math.max(1, value));
        }
        return new PassTimes(histogram);
    }

    public long count() {
        return passTimeNanos.getTotalCount();
    }

    public long minNanos() {
        return passTimeNanos.getMinValue();
    }

    public long maxNanos() {
        return passTimeNanos.getMaxValue();
    }

    /** The time below which {@code percentile}% of samples fall. */
    public long percentileNanos(double percentile) {
        return passTimeNanos.getValueAtPercentile(percentile);
    }

    public double meanNanos() {
        return passTimeNanos.getMean();
    }

    /** Standard deviation over mean of the pass times. */
    public double coefficientOfVariation() {
        double mean = passTimeNanos.getMean();
        return mean > 0 ? passTimeNanos.getStdDeviation() / mean : 0;
    }

    /**
     * Standard deviation over mean of the passes' rates (work / time): the spread of what is reported, as the
     * profile computes it. Unlike the times' CV it is bounded: one pass stalled 200 times its length (a host
     * descheduling the VM) adds one slow rate instead of multiplying the times' standard deviation.
     */
    public double rateCoefficientOfVariation() {
        double n = 0;
        double sum = 0;
        double sumSquares = 0;
        for (org.HdrHistogram.HistogramIterationValue v : passTimeNanos.recordedValues()) {
            double nanos = passTimeNanos.medianEquivalentValue(v.getValueIteratedTo());
            if (nanos <= 0) {
                continue;
            }
            double rate = 1 / nanos;
            long count = v.getCountAtValueIteratedTo();
            n += count;
            sum += rate * count;
            sumSquares += rate * rate * count;
        }
        if (n < 2) {
            return 0;
        }
        double mean = sum / n;
        return Math.sqrt(Math.max(0, sumSquares / n - mean * mean)) / mean;
    }

    /** A copy of the underlying histogram, for callers that keep or merge distributions. */
    public Histogram histogram() {
        return passTimeNanos.copy();
    }

    static double nanosPerUnit(String scoreUnit) {
        String unit = scoreUnit.substring(0, scoreUnit.indexOf('/'));
        return switch (unit) {
            case "ns" -> 1;
            case "us" -> TimeUnit.MICROSECONDS.toNanos(1);
            case "ms" -> TimeUnit.MILLISECONDS.toNanos(1);
            case "s" -> TimeUnit.SECONDS.toNanos(1);
            case "min" -> TimeUnit.MINUTES.toNanos(1);
            default -> throw new IllegalArgumentException("score unit must be a time per operation: unit=" + scoreUnit);
        };
    }
}
