package membound.hardware.catalog;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * One datasheet number, in base units, with where it came from. The source names the document (title,
 * address, date where it has one) and says plainly when the figure is derived, a third party's report
 * or not checked against the vendor's own page.
 *
 * @param unit {@link #BYTES}, {@link #BYTES_PER_SECOND}, {@link #FLOPS} or {@link #OPS}
 */
public record Figure(double value, String unit, String source) {

    public static final String BYTES = "B";
    public static final String BYTES_PER_SECOND = "B/s";
    public static final String FLOPS = "FLOP/s";
    /** Integer operations per second, for INT8 figures. */
    public static final String OPS = "OP/s";

    public Figure {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new BadInputException("value must be positive and finite: value=" + value);
        }
        if (unit == null || !(unit.equals(BYTES) || unit.equals(BYTES_PER_SECOND) || unit.equals(FLOPS)
                || unit.equals(OPS))) {
            throw new BadInputException("unit must be B, B/s, FLOP/s or OP/s: unit=" + unit);
        }
        if (source == null || source.isBlank()) {
            throw new BadInputException("source must name where the figure came from: source=" + source);
        }
    }

    public static Figure bytes(double bytes, String source) {
        return new Figure(bytes, BYTES, source);
    }

    public static Figure bytesPerSecond(double bytesPerSecond, String source) {
        return new Figure(bytesPerSecond, BYTES_PER_SECOND, source);
    }

    public static Figure flopsPerSecond(double flopsPerSecond, String source) {
        return new Figure(flopsPerSecond, FLOPS, source);
    }

    public static Figure opsPerSecond(double opsPerSecond, String source) {
        return new Figure(opsPerSecond, OPS, source);
    }

    /** The value as a person reads it: {@code 273.0 GB/s}, {@code 989.5 TFLOP/s}, {@code 128 GB}. */
    public String formatted() {
        return switch (unit) {
            case BYTES_PER_SECOND -> Units.formatBandwidth(value);
            case FLOPS -> Units.formatFlops(value);
            case OPS -> Units.formatFlops(value).replace("FLOP/s", "OP/s");
            default -> String.format(Locale.ROOT, "%.0f GB", value / Units.GB);
        };
    }

    @Override
    public String toString() {
        return formatted() + " (" + source + ")";
    }
}
