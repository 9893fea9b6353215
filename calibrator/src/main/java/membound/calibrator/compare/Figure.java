package membound.calibrator.compare;

import java.util.Locale;

import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.vocabulary.units.Units;

/**
 * One comparable number of a profile, with its measured spread where there is one.
 *
 * @param key            stable name across profiles, e.g. {@code cpu/ceiling/DRAM/triad}
 * @param unit           {@code bytes/s}, {@code FLOP/s} or {@code ns}
 * @param higherIsBetter false for latencies
 * @param value          the typical figure (median, else mean, else best)
 * @param statistic      which statistic {@code value} is
 * @param low            low end of the spread (p5, else worst; p50 for a latency), if known
 * @param high           high end of the spread (p95, else best; p90 for a latency), if known
 * @param source         where it came from, in a few words
 */
public record Figure(String key, String unit, boolean higherIsBetter, double value, String statistic, Double low,
                     Double high, String source) {

    public static final String BYTES_PER_SECOND = "bytes/s";
    public static final String FLOPS_PER_SECOND = "FLOP/s";
    public static final String ELEMENTS_PER_SECOND = "elements/s";
    public static final String NANOSECONDS = "ns";

    static Figure rate(String key, String unit, Distribution d, Provenance provenance) {
        String statistic = d.typicalStatistic().label();
        return new Figure(key, unit, true, d.typical(), statistic, d.low(), d.high(), describe(provenance));
    }

    /** Whether the spread is known, so that a difference can be called a change. */
    public boolean hasSpread() {
        return low != null && high != null;
    }

    /** The value as people read it: {@code 22.6 GB/s}, {@code 1.6 TFLOP/s}, {@code 113.0 ns}. */
    public String formatted() {
        return format(unit, value);
    }

    public static String format(String unit, double value) {
        return switch (unit) {
            case BYTES_PER_SECOND -> Units.formatBandwidth(value);
            case FLOPS_PER_SECOND -> Units.formatFlops(value);
            case ELEMENTS_PER_SECOND -> String.format(java.util.Locale.ROOT, "%.3g G elements/s", value / 1e9);
            case NANOSECONDS -> String.format(Locale.ROOT, "%.1f ns", value);
            default -> String.format(Locale.ROOT, "%.4g %s", value, unit);
        };
    }

    static String describe(Provenance p) {
        if (p == null) {
            return "unknown";
        }
        StringBuilder s = new StringBuilder(p.kind().label()).append(": ").append(p.source());
        if (p.kernel() != null) {
            s.append(" (").append(p.kernel()).append(')');
        }
        return s.toString();
    }
}
