package membound.report.html;

import java.util.Locale;

import membound.vocabulary.units.Units;

/** How the page prints numbers: the hardware module's units, and durations a person reads at a glance. */
final class Numbers {

    private Numbers() {
    }

    static String bandwidth(double bytesPerSecond) {
        return Units.formatBandwidth(bytesPerSecond);
    }

    static String flops(double flopsPerSecond) {
        return Units.formatFlops(flopsPerSecond);
    }

    static String bytes(double bytes) {
        return Units.formatBytes((long) bytes);
    }

    /** {@code 840 ms}, {@code 2.34 s}, {@code 14.5 min}, {@code 6.2 h}, {@code 13.2 days}. */
    static String duration(double seconds) {
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.0f ms", seconds * 1e3);
        }
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds < 2 * 3600) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        if (seconds < 48 * 3600) {
            return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.1f days", seconds / 86400);
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    static String signedPercent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }

    /** {@code 1.00 B}, {@code 500 M}, {@code 2,048}. */
    static String count(double value) {
        if (value >= 1e9) {
            return String.format(Locale.ROOT, "%.2f B", value / 1e9);
        }
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.0f M", value / 1e6);
        }
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    static String intensity(Double flopsPerByte) {
        return flopsPerByte == null ? "\u2013" : String.format(Locale.ROOT, flopsPerByte >= 10 ? "%.0f" : "%.2f", flopsPerByte);
    }
}
