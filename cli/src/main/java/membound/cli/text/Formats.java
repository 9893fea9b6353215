package membound.cli.text;

import java.util.Locale;

/** Printing of durations, counts and percentages for the predict report. */
public final class Formats {

    private Formats() {
    }

    public static String duration(double seconds) {
        if (seconds < 1e-3) {
            return String.format(Locale.ROOT, "%.1f us", seconds * 1e6);
        }
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
        }
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

    public static String count(double value) {
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

    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    public static String signedPercent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }

    public static String decimalBytes(double bytes) {
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

    public static String gib(double bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1L << 30));
    }
}
