package membound.hardware.catalog;

import java.util.Arrays;
import java.util.Locale;

import membound.vocabulary.BadInputException;

/** Number formats that datasheets give peak throughput for. */
public enum Precision {
    FP64(8),
    FP32(4),
    /** TensorFloat-32: stored as 32 bits, multiplied at 19 bits on NVIDIA tensor cores. */
    TF32(4),
    BF16(2),
    FP16(2),
    FP8(1),
    FP4(0.5),
    INT8(1);

    private final double bytesPerValue;

    Precision(double bytesPerValue) {
        this.bytesPerValue = bytesPerValue;
    }

    /** Storage per value in memory; FP4 packs two values per byte (scale factors not counted). */
    public double bytesPerValue() {
        return bytesPerValue;
    }

    /** Reads {@code bf16}, {@code BF16}, {@code fp8} ...; the error lists the known names. */
    public static Precision parse(String text) {
        String name = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        for (Precision p : values()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new BadInputException("precision must be one of " + Arrays.toString(values()).toLowerCase(Locale.ROOT)
                + ": precision=" + text);
    }
}
