package membound.model.machine;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * A number format that weights, activations, gradients or optimizer states are stored in, and
 * that a device computes in. Bits are per element without block scales; block-scaled storage
 * formats (Q4_0, NF4, MXFP4, ...) are {@link membound.model.decode.WeightFormat}s.
 */
public enum Precision {
    FP32(32),
    BF16(16),
    FP16(16),
    FP8(8),
    FP4(4);

    private final int bits;

    Precision(int bits) {
        this.bits = bits;
    }

    public int bits() {
        return bits;
    }

    public double bytesPerElement() {
        return bits / 8.0;
    }

    /** Lower-case name as the command line and JSON write it: {@code bf16}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The next wider format a device falls back to when it has no ceiling for this one: FP4 runs as
     * FP8, FP8 as BF16, BF16 and FP16 as FP32. FP32 has none.
     */
    public Precision wider() {
        return switch (this) {
            case FP4 -> FP8;
            case FP8 -> BF16;
            case BF16, FP16 -> FP32;
            case FP32 -> null;
        };
    }

    public static Precision parse(String what, String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace("FLOAT", "FP");
        for (Precision p : values()) {
            if (p.name().equals(key)) {
                return p;
            }
        }
        throw new BadInputException(what + " must be one of " + Names.list(values()) + ": " + what + "=" + text
                + Names.suggestion(text, Names.labels(values())));
    }
}
