package membound.benchmarks.results;

/**
 * A rate (bytes/s, FLOP/s, loads/s) derived from pass times and a fixed amount of work per pass.
 * The best rate comes from the fastest pass; p5 from the slow tail (the 95th percentile of time); the coefficient
 * of variation is the rates' (as the profile's distributions have it).
 */
public record Rate(double best, double median, double p5, double p95, double coefficientOfVariation, long samples) {

    /** {@code workPerPass} units of work per pass, over the distribution of pass times. */
    public static Rate of(double workPerPass, PassTimes times) {
        return new Rate(
                perSecond(workPerPass, times.minNanos()),
                perSecond(workPerPass, times.percentileNanos(50)),
                perSecond(workPerPass, times.percentileNanos(95)),
                perSecond(workPerPass, times.percentileNanos(5)),
                times.rateCoefficientOfVariation(),
                times.count());
    }

    private static double perSecond(double work, long nanos) {
        return work * 1e9 / nanos;
    }
}
