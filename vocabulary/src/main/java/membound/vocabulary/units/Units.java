package membound.vocabulary.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;

/**
 * Parsing and printing of sizes, bandwidths and FLOP rates. GB = 10^9 bytes, GiB = 2^30 bytes,
 * everywhere; a parsed value is held in base units (bytes, bytes per second, FLOP per second).
 */
public final class Units {

    public static final double GB = 1e9;
    public static final long GIB = 1L << 30;
    public static final long MIB = 1L << 20;
    public static final long KIB = 1L << 10;

    private static final Pattern NUMBER_UNIT =
            Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*");

    private Units() {
    }

    /**
     * Parses a size such as {@code 64MiB}, {@code 2GB}, {@code 48KiB} or {@code 4096} (bytes).
     *
     * @param what the name of the setting, for the error message
     */
    public static long parseBytes(String what, String text) {
        Matcher m = match(what, text, "a size such as 64MiB, 2GB or 4096 (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
        double multiplier = switch (m.group(2)) {
            case "", "B" -> 1;
            case "KB", "kB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            case "KiB" -> KIB;
            case "MiB" -> MIB;
            case "GiB" -> GIB;
            case "TiB" -> 1024.0 * GIB;
            default -> throw bad(what, text, "a size with unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB");
        };
        double bytes = Double.parseDouble(m.group(1)) * multiplier;
        if (bytes <= 0 || bytes > Long.MAX_VALUE || bytes != Math.rint(bytes)) {
            throw bad(what, text, "a positive whole number of bytes");
        }
        return (long) bytes;
    }

    /** Parses a bandwidth such as {@code 273GB/s}, {@code 4.8TB/s} or {@code 900GiB/s}, in bytes per second. */
    public static double parseBandwidth(String what, String text) {
        Matcher m = match(what, text, "a bandwidth such as 273GB/s (units B/s, MB/s, GB/s, TB/s, MiB/s, GiB/s)");
        double multiplier = switch (m.group(2)) {
            case "B/s" -> 1;
            case "MB/s" -> 1e6;
            case "GB/s" -> 1e9;
            case "TB/s" -> 1e12;
            case "MiB/s" -> MIB;
            case "GiB/s" -> GIB;
            case "TiB/s" -> 1024.0 * GIB;
            default -> throw bad(what, text, "a bandwidth with unit B/s, MB/s, GB/s, TB/s, MiB/s, GiB/s or TiB/s");
        };
        return positive(what, text, Double.parseDouble(m.group(1)) * multiplier);
    }

    /** Parses a FLOP rate such as {@code 92T}, {@code 92TFLOPS}, {@code 500G} or {@code 1.2e15}, in FLOP per second. */
    public static double parseFlops(String what, String text) {
        Matcher m = match(what, text, "a FLOP rate such as 92T, 92TFLOPS or 500G");
        String unit = m.group(2).toUpperCase(Locale.ROOT);
        if (unit.endsWith("FLOPS")) {
            unit = unit.substring(0, unit.length() - "FLOPS".length());
        } else if (unit.endsWith("FLOP/S")) {
            unit = unit.substring(0, unit.length() - "FLOP/S".length());
        }
        double multiplier = switch (unit) {
            case "" -> 1;
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            case "T" -> 1e12;
            case "P" -> 1e15;
            default -> throw bad(what, text, "a FLOP rate with prefix K, M, G, T or P");
        };
        return positive(what, text, Double.parseDouble(m.group(1)) * multiplier);
    }

    /** {@code 2.00 GiB}, {@code 48.0 KiB}, {@code 512 B}: binary units, as caches and arrays are sized. */
    public static String formatBytes(long bytes) {
        if (bytes < KIB) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes / (double) KIB;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f %s" : value >= 10 ? "%.1f %s" : "%.2f %s",
                value, units[unit]);
    }

    /** {@code 231.9 GB/s}: decimal units, as bandwidth datasheets are written. */
    public static String formatBandwidth(double bytesPerSecond) {
        if (bytesPerSecond >= 1e12) {
            return String.format(Locale.ROOT, "%.2f TB/s", bytesPerSecond / 1e12);
        }
        return String.format(Locale.ROOT, "%.1f GB/s", bytesPerSecond / GB);
    }

    /** {@code 92.3 TFLOP/s}, {@code 153 GFLOP/s}. */
    public static String formatFlops(double flopsPerSecond) {
        if (flopsPerSecond >= 1e15) {
            return String.format(Locale.ROOT, "%.2f PFLOP/s", flopsPerSecond / 1e15);
        }
        if (flopsPerSecond >= 1e12) {
            return String.format(Locale.ROOT, "%.1f TFLOP/s", flopsPerSecond / 1e12);
        }
        return String.format(Locale.ROOT, "%.1f GFLOP/s", flopsPerSecond / 1e9);
    }

    private static Matcher match(String what, String text, String rule) {
        if (text == null) {
            throw bad(what, "", rule);
        }
        Matcher m = NUMBER_UNIT.matcher(text);
        if (!m.matches()) {
            throw bad(what, text, rule);
        }
        return m;
    }

    private static double positive(String what, String text, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw bad(what, text, "a positive finite value");
        }
        return value;
    }

    private static BadInputException bad(String what, String text, String rule) {
        return new BadInputException(what + " must be " + rule + ": " + what + "=" + text);
    }
}
