package membound.benchmarks.stream;

import membound.vocabulary.BadInputException;

/**
 * The closed form every pass is checked against: since every element of an array holds the same value,
 * one element simulated in the kernel's own precision predicts the whole array, as STREAM's
 * {@code checkSTREAMresults} does with its scalars {@code aj, bj, cj}.
 *
 * <p>Start values are STREAM's: {@code a = 1, b = 2, c = 0}, then {@code a = 2a} and one iteration of the
 * recurrence (Copy, Scale, Add, Triad) with {@code s = 3}, which leaves {@code a = 30, b = 6, c = 8}:
 * small integers, exact in float and double, and all different so a kernel that reads the wrong array
 * fails. Values are held as doubles but every step rounds to the element type, so a float simulation
 * follows the float kernels bit for bit.
 */
public record StreamValues(ElementType type, double a, double b, double c) {

    /** STREAM's scalar. */
    public static final double SCALAR = 3.0;

    /** The value Fill writes. */
    public static final double FILL_VALUE = SCALAR;

    /** STREAM's state after initialisation and one iteration of its recurrence. */
    public static StreamValues start(ElementType type) {
        StreamValues values = new StreamValues(type, 1.0, 2.0, 0.0);
        values = new StreamValues(type, values.round(2.0 * values.a), values.b, values.c);
        for (StreamKernel kernel : new StreamKernel[] {StreamKernel.COPY, StreamKernel.SCALE,
                StreamKernel.ADD, StreamKernel.TRIAD}) {
            values = values.after(kernel, 1);
        }
        return values;
    }

    /** The state after {@code times} applications of {@code kernel}, rounded as the element type rounds. */
    public StreamValues after(StreamKernel kernel, long times) {
        if (times <= 0) {
            return this;
        }
        double s = SCALAR;
        return switch (kernel) {
            case COPY, BULK_COPY -> new StreamValues(type, a, b, a);
            case SCALE -> new StreamValues(type, a, round(s * c), c);
            case ADD -> new StreamValues(type, a, b, round(a + b));
            case TRIAD -> new StreamValues(type, round(b + round(s * c)), b, c);
            case NSTREAM -> {
                double increment = round(b + round(s * c));
                double next = a;
                for (long k = 0; k < times; k++) {
                    next = round(next + increment);
                }
                yield new StreamValues(type, next, b, c);
            }
            case FILL -> new StreamValues(type, a, b, FILL_VALUE);
            case DOT, SUM -> this;
        };
    }

    /** What Dot or Sum returns over {@code elements} elements of this state. */
    public double reduction(StreamKernel kernel, long elements) {
        return switch (kernel) {
            case DOT -> round(a * b) * elements;
            case SUM -> a * elements;
            default -> throw new BadInputException("kernel must be DOT or SUM: kernel=" + kernel);
        };
    }

    /** The value array {@code name} ('a', 'b' or 'c') holds in this state. */
    public double of(char array) {
        return switch (array) {
            case 'a' -> a;
            case 'b' -> b;
            case 'c' -> c;
            default -> throw new BadInputException("array must be a, b or c: array=" + array);
        };
    }

    private double round(double value) {
        return switch (type) {
            case DOUBLE -> value;
            case FLOAT -> (float) value;
            case BF16 -> roundToBf16((float) value);
        };
    }

    /** The nearest bf16 (ties to even), as {@code cvt.rn.bf16x2.f32} rounds; NaN stays NaN. */
    static double roundToBf16(float value) {
        if (Float.isNaN(value)) {
            return value;
        }
        int bits = Float.floatToRawIntBits(value);
        bits += 0x7FFF + ((bits >>> 16) & 1);
        return Float.intBitsToFloat(bits & 0xFFFF0000);
    }
}
