package membound.profile;

import java.util.Arrays;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import org.HdrHistogram.AbstractHistogram;

import membound.vocabulary.units.RateStatistics;

/**
 * The spread of a rate (bytes per second, FLOP per second) over repeated runs: higher is better, so
 * {@code best} is the highest sample and {@code worst} the lowest. The unit is in the name of the field
 * that holds the distribution ({@code streamBytesPerSecond}, {@code flopsPerSecond}).
 *
 * <p>Only {@code best} and {@code samples} are always known. A figure imported from a tool that prints
 * its best rate and its slowest time (McCalpin {@code stream.c}, BabelStream) has {@code best} and
 * {@code worst} but no percentiles; those fields are then absent, never made up. When reading, JMH's
 * {@code "NaN"} is accepted for {@code mean}, {@code median}, {@code p5}, {@code p95} and
 * {@code coefficientOfVariation} and means the same as absent.
 *
 * <p>Percentiles are nearest-rank: {@code p5} is the smallest sample with at least 5% of the samples
 * at or below it, as HdrHistogram's {@code getValueAtPercentile} does.
 *
 * @param best  the highest rate seen
 * @param worst the lowest rate seen, if known
 * @param mean  the arithmetic mean of the rates, if known
 * @param median the 50th percentile, if known
 * @param p5    the 5th percentile, if known
 * @param p95   the 95th percentile, if known
 * @param coefficientOfVariation standard deviation over mean (population), if known; absent for one sample
 * @param samples how many runs the statistics were taken over
 */
public record Distribution(
        double best,
        Double worst,
        @JsonDeserialize(using = NanAsAbsent.class) Double mean,
        @JsonDeserialize(using = NanAsAbsent.class) Double median,
        @JsonDeserialize(using = NanAsAbsent.class) Double p5,
        @JsonDeserialize(using = NanAsAbsent.class) Double p95,
        @JsonDeserialize(using = NanAsAbsent.class) Double coefficientOfVariation,
        long samples) {

    public Distribution {
        Checks.positive("best", best);
        Checks.optionalPositive("worst", worst);
        Checks.optionalPositive("mean", mean);
        Checks.optionalPositive("median", median);
        Checks.optionalPositive("p5", p5);
        Checks.optionalPositive("p95", p95);
        Checks.optionalNonNegative("coefficientOfVariation", coefficientOfVariation);
        Checks.positive("samples", samples);
        Checks.ordered("worst", worst, "p5", p5);
        Checks.ordered("p5", p5, "median", median);
        Checks.ordered("median", median, "p95", p95);
        Checks.ordered("p95", p95, "best", best);
        Checks.ordered("worst", worst, "median", median);
        Checks.ordered("median", median, "best", best);
        Checks.ordered("worst", worst, "best", best);
        Checks.ordered("worst", worst, "mean", mean);
        Checks.ordered("mean", mean, "best", best);
        if (samples == 1 && worst != null && !worst.equals(best)) {
            throw new membound.vocabulary.BadInputException(
                    "worst must equal best for one sample: worst=" + worst + ", best=" + best);
        }
    }

    /** One figure from a single run (or a tool that prints only one). */
    public static Distribution single(double value) {
        return new Distribution(value, null, null, null, null, null, null, 1);
    }

    /**
     * The best and worst of {@code samples} runs, as McCalpin {@code stream.c} and BabelStream report them
     * (best rate and slowest time); nothing else is known.
     */
    public static Distribution bestAndWorst(double best, double worst, long samples) {
        return new Distribution(best, worst, null, null, null, null, null, samples);
    }

    /** Exact statistics of the given rates (at least one). */
    public static Distribution ofSamples(double... rates) {
        if (rates == null || rates.length == 0) {
            throw Checks.bad("samples", "at least one rate", 0);
        }
        double[] sorted = rates.clone();
        for (double rate : sorted) {
            Checks.positive("rate", rate);
        }
        Arrays.sort(sorted);
        int n = sorted.length;
        double sum = 0;
        for (double rate : sorted) {
            sum += rate;
        }
        double mean = sum / n;
        double squares = 0;
        for (double rate : sorted) {
            squares += (rate - mean) * (rate - mean);
        }
        Double cv = n < 2 ? null : Math.sqrt(squares / n) / mean;
        return new Distribution(sorted[n - 1], sorted[0], clamp(mean, sorted[0], sorted[n - 1]),
                nearestRank(sorted, 50), nearestRank(sorted, 5), nearestRank(sorted, 95), cv, n);
    }

    /**
     * Rates from a histogram of durations in integer nanoseconds: each run moved {@code unitsPerRun}
     * (bytes, FLOP) in the recorded time. The 5th percentile rate comes from the 95th percentile time.
     */
    public static Distribution ofDurationHistogram(double unitsPerRun, AbstractHistogram durationNanos) {
        Checks.positive("unitsPerRun", unitsPerRun);
        RateStatistics r = RateStatistics.ofDurations(unitsPerRun, durationNanos);
        return new Distribution(r.best(), r.worst(), r.mean(), r.median(), r.p5(), r.p95(), r.coefficientOfVariation(),
                r.samples());
    }

    /** The figure to use when one number is needed: the median, else the mean, else the best. */
    public double typical() {
        return median != null ? median : mean != null ? mean : best;
    }

    /** Which statistic {@link #typical()} is: its median, else its mean, else its best. */
    public membound.vocabulary.Statistic typicalStatistic() {
        return median != null ? membound.vocabulary.Statistic.MEDIAN
                : mean != null ? membound.vocabulary.Statistic.MEAN : membound.vocabulary.Statistic.BEST;
    }

    /** The low end of the measured spread: p5, else worst; absent when neither is known. */
    public Double low() {
        return p5 != null ? p5 : worst;
    }

    /** The high end of the measured spread: p95 when p5 is known, else best; absent for one sample. */
    public Double high() {
        if (p5 != null) {
            return p95 != null ? p95 : best;
        }
        return worst != null ? best : null;
    }

    /** This distribution with every figure multiplied by {@code factor} (to change units or conventions). */
    public Distribution scaled(double factor) {
        Checks.positive("factor", factor);
        return new Distribution(best * factor, times(worst, factor), times(mean, factor), times(median, factor),
                times(p5, factor), times(p95, factor), coefficientOfVariation, samples);
    }

    private static Double times(Double value, double factor) {
        return value == null ? null : value * factor;
    }


    private static double nearestRank(double[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double clamp(double value, double low, double high) {
        return Math.max(low, Math.min(high, value));
    }
}
