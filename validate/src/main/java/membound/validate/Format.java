package membound.validate;

import java.util.Locale;

/** How validate prints its numbers. */
final class Format {

    private Format() {
    }

    /** 0.1123 s as {@code 112.3 ms}, 1.5 s as {@code 1.50 s}, 0.00042 s as {@code 0.42 ms}. */
    static String seconds(double seconds) {
        if (seconds >= 1) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds >= 0.01) {
            return String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f ms", seconds * 1e3);
    }

    /** A signed percentage: {@code +4.2%}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }
}
