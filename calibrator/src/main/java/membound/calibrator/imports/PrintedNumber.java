package membound.calibrator.imports;

import java.math.BigDecimal;

/**
 * A number as a tool printed it, with the rounding its printed digits allow: half a unit of the last digit
 * ({@code 0.00124} may be anything from 0.001235 to 0.001245). Self-consistency checks compare figures within
 * these roundings, so a tool that prints five decimals of a one-millisecond time is held to what it printed,
 * not to a fixed percentage.
 *
 * @param value    the number
 * @param rounding half a unit of its last printed digit (0 for a number computed exactly)
 */
record PrintedNumber(double value, double rounding) {

    /** The number written as {@code text}: {@code 271556.605}, {@code 2.019964e+00}, {@code 16000}. */
    static PrintedNumber parse(String text) {
        String t = text.strip();
        BigDecimal exact = new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
        return new PrintedNumber(exact.doubleValue(), 0.5 * BigDecimal.ONE.movePointLeft(exact.scale()).doubleValue());
    }

    /** A number known exactly, such as a count of bytes computed from an element count. */
    static PrintedNumber exact(double value) {
        return new PrintedNumber(value, 0);
    }

    /** The rounding relative to the value. */
    double relativeRounding() {
        return value == 0 ? 0 : rounding / Math.abs(value);
    }
}
