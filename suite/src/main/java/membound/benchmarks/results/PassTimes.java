package membound.benchmarks.results;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.util.Statistics;

import membound.vocabulary.units.RateStatistics;

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

    /**
     * Samples as JMH's JSON keeps them ({@code [time, count]} pairs in the result's unit, e.g. {@code us/op}): the
     * same conversion as {@link #of(Result)}.
     */
    public static PassTimes ofSamples(String scoreUnit, Iterable<double[]> timeAndCount) {
        double nanosPerUnit = nanosPerUnit(scoreUnit);
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        for (double[] sample : timeAndCount) {
            histogram.recordValueWithCount(Math.max(1, Math.round(sample[0] * nanosPerUnit)), (long) sample[1]);
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

    /** The rate of {@code unitsPerPass} of work per pass over these times: the statistics the profile keeps too. */
    public RateStatistics rates(double unitsPerPass) {
        return RateStatistics.ofDurations(unitsPerPass, passTimeNanos);
    }

    /** A copy of the underlying histogram, for callers that keep or merge distributions. */
    public Histogram histogram() {
        return passTimeNanos.copy();
    }

    /** Nanoseconds in one unit of a JMH score unit ({@code us/op} is 1000); the one conversion of JMH's units. */
    public static double nanosPerUnit(String scoreUnit) {
        String unit = scoreUnit.substring(0, scoreUnit.indexOf('/'));
        return switch (unit) {
            case "ns" -> 1;
            case "us" -> TimeUnit.MICROSECONDS.toNanos(1);
            case "ms" -> TimeUnit.MILLISECONDS.toNanos(1);
            case "s" -> TimeUnit.SECONDS.toNanos(1);
            case "min" -> TimeUnit.MINUTES.toNanos(1);
            default -> throw new membound.vocabulary.BadInputException("score unit must be a time per operation: unit=" + scoreUnit);
        };
    }
}
