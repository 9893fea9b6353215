package membound.vocabulary.units;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

import membound.vocabulary.BadInputException;

/**
 * The statistics of a rate (bytes, FLOP or elements per second) from a histogram of pass times in integer
 * nanoseconds, each pass doing {@code unitsPerPass} of work. The one place rates are computed from times: the
 * benchmarks' table and the profile's distributions both take theirs from here, so the two never disagree.
 *
 * <p>The best rate is the shortest pass's, the 5th percentile rate the 95th percentile time's. The coefficient of
 * variation is the rates' (standard deviation over mean of work / time, each sample at its bucket's median
 * equivalent value), not the times': one pass the host stalled for 200 times its length adds one slow rate instead
 * of multiplying the times' standard deviation. A single sample's rate is its bucket's median: the bucket's lowest
 * and highest equivalent values differ, the rate does not.
 *
 * @param coefficientOfVariation absent for fewer than two samples
 */
public record RateStatistics(double best, double worst, double mean, double median, double p5, double p95,
                             Double coefficientOfVariation, long samples) {

    /** Rates from {@code durationNanos}, each pass doing {@code unitsPerPass}; both must be positive. */
    public static RateStatistics ofDurations(double unitsPerPass, AbstractHistogram durationNanos) {
        if (!(unitsPerPass > 0) || Double.isInfinite(unitsPerPass)) {
            throw new BadInputException("unitsPerPass must be a positive finite number: unitsPerPass=" + unitsPerPass);
        }
        long n = durationNanos.getTotalCount();
        if (n == 0) {
            throw new BadInputException("histogram.totalCount must be positive: histogram.totalCount=0");
        }
        if (durationNanos.getMinValue() <= 0) {
            throw new BadInputException("durationNanos.min must be positive: durationNanos.min="
                    + durationNanos.getMinValue());
        }
        double best = rate(unitsPerPass, n == 1 ? durationNanos.getValueAtPercentile(50) : durationNanos.getMinValue());
        double worst = n == 1 ? best : rate(unitsPerPass, durationNanos.getMaxValue());
        double sum = 0;
        double sumSquares = 0;
        for (HistogramIterationValue v : durationNanos.recordedValues()) {
            double r = rate(unitsPerPass, durationNanos.medianEquivalentValue(v.getValueIteratedTo()));
            sum += r * v.getCountAtValueIteratedTo();
            sumSquares += r * r * v.getCountAtValueIteratedTo();
        }
        double mean = sum / n;
        Double cv = n < 2 ? null : Math.sqrt(Math.max(0, sumSquares / n - mean * mean)) / mean;
        return new RateStatistics(best, worst, clamp(mean, worst, best),
                clamp(rate(unitsPerPass, durationNanos.getValueAtPercentile(50)), worst, best),
                clamp(rate(unitsPerPass, durationNanos.getValueAtPercentile(95)), worst, best),
                clamp(rate(unitsPerPass, durationNanos.getValueAtPercentile(5)), worst, best), cv, n);
    }

    /** The coefficient of variation, 0 where it is absent (one sample has no spread to show). */
    public double coefficientOfVariationOrZero() {
        return coefficientOfVariation == null ? 0 : coefficientOfVariation;
    }

    private static double rate(double units, double nanos) {
        return units / (nanos * 1e-9);
    }

    private static double clamp(double value, double low, double high) {
        return Math.max(low, Math.min(high, value));
    }
}
