package membound.vocabulary.text;

import java.util.Locale;

/**
 * How membound prints counts, durations and percentages for people: predict's text, the report's page and
 * validate's tables all print through here. Where they print a number differently on purpose (the page
 * rounds, validate keeps step times in seconds or milliseconds) the difference has its own name here.
 * Sizes, bandwidths and FLOP rates are {@link membound.vocabulary.units.Units}'.
 */
public final class Numbers {

    /** What every formatter here prints for a figure nobody has (NaN): a machine with no datasheet, say. */
    public static final String UNKNOWN = "unknown";

    private Numbers() {
    }

    /** {@code 45.3%}. */
    public static String percent(double fraction) {
        if (Double.isNaN(fraction)) {
            return UNKNOWN;
        }
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    /** {@code +4.2%}, {@code -0.8%}. */
    public static String signedPercent(double fraction) {
        if (Double.isNaN(fraction)) {
            return UNKNOWN;
        }
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }

    /** {@code 1.24 T}, {@code 2.00 B}, {@code 8.03 M}, {@code 20,480}, {@code 3}, {@code 2.5}. */
    public static String count(double value) {
        if (Double.isNaN(value)) {
            return UNKNOWN;
        }
        if (value >= 1e12) {
            return String.format(Locale.ROOT, "%.2f T", value / 1e12);
        }
        if (value >= 1e9) {
            return String.format(Locale.ROOT, "%.2f B", value / 1e9);
        }
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", value / 1e6);
        }
        if (value >= 1e4 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** A count at a glance, as the report's page shows it: {@code 1.00 B}, {@code 500 M}, {@code 2,048}. */
    public static String roundedCount(double value) {
        if (Double.isNaN(value)) {
            return UNKNOWN;
        }
        if (value >= 1e9) {
            return String.format(Locale.ROOT, "%.2f B", value / 1e9);
        }
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.0f M", value / 1e6);
        }
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    /** {@code 12.5 us}, {@code 840.2 ms}, {@code 2.34 s}, {@code 14.5 min}, {@code 6.2 h}, {@code 13.2 days}. */
    public static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return UNKNOWN;
        }
        if (seconds < 1e-3) {
            return String.format(Locale.ROOT, "%.1f us", seconds * 1e6);
        }
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
        }
        return overASecond(seconds);
    }

    /** A duration at a glance, as the report's page shows it: below a second in whole milliseconds ({@code 840 ms}). */
    public static String roundedDuration(double seconds) {
        if (Double.isNaN(seconds)) {
            return UNKNOWN;
        }
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.0f ms", seconds * 1e3);
        }
        return overASecond(seconds);
    }

    /**
     * A measured step as validate prints it, in seconds or milliseconds and never minutes, so a column of
     * steps compares at a glance: {@code 1.50 s}, {@code 112.3 ms}, {@code 0.42 ms}.
     */
    public static String secondsOrMillis(double seconds) {
        if (Double.isNaN(seconds)) {
            return UNKNOWN;
        }
        if (seconds >= 1) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds >= 0.01) {
            return String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f ms", seconds * 1e3);
    }

    /** Bytes in powers of ten: {@code 1.20 TB}, {@code 16.06 GB}, {@code 4.2 MB}, {@code 512 B}. */
    public static String decimalBytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return UNKNOWN;
        }
        if (bytes >= 1e12) {
            return String.format(Locale.ROOT, "%.2f TB", bytes / 1e12);
        }
        if (bytes >= 1e9) {
            return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
        }
        if (bytes >= 1e6) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }

    /** Bytes in GiB with one decimal, for memory footprints against a capacity: {@code 15.0 GiB}. */
    public static String gib(double bytes) {
        if (Double.isNaN(bytes)) {
            return UNKNOWN;
        }
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1L << 30));
    }

    private static String overASecond(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds < 2 * 3600) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        if (seconds < 2 * 86400) {
            return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.1f days", seconds / 86400);
    }
}
