package membound.vocabulary;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import membound.vocabulary.text.Names;

/**
 * A number format: what a datasheet gives a peak for, what a profile measured a ceiling in, and what a
 * training step stores tensors and computes in. Bits are per element without block scales; block-scaled
 * storage formats (Q4_0, NF4, MXFP4, ...) are the model's weight formats, built on these.
 */
public enum Precision implements Labelled {
    FP64(64),
    FP32(32),
    /** TensorFloat-32: stored as 32 bits, multiplied at 19 bits on NVIDIA tensor cores. */
    TF32(32),
    BF16(16),
    FP16(16),
    FP8(8),
    FP6(6),
    /** Two values per byte (scale factors not counted). */
    FP4(4),
    INT8(8),
    INT4(4),
    /**
     * FP8 (E4M3) with one shared power-of-two scale (E8M0) per block of 32 values, the OCP microscaling format
     * Blackwell tensor cores multiply natively: 8.25 bits per value stored.
     */
    MXFP8(8),
    /**
     * NVIDIA's FP4 (E2M1) with one FP8 (E4M3) scale per block of 16 values and a per-tensor FP32 scale: 4.5 bits per
     * value stored (the per-tensor scale not counted), multiplied on Blackwell's FP4 tensor cores.
     */
    NVFP4(4);

    /**
     * The formats a training step stores weights, activations, gradients and optimizer states in and computes in,
     * in the order the model lists them. FP64, TF32, FP6 and the integer formats are datasheet and profile formats
     * only: no training setup names them. The block-scaled MXFP8 and NVFP4 are training formats (their GEMMs run at
     * the FP8 and FP4 rates of a device that has no ceiling of their own, {@link #wider()}).
     */
    public static final Set<Precision> TRAINING = Collections.unmodifiableSet(EnumSet.of(FP32, BF16, FP16, FP8, FP4,
            MXFP8, NVFP4));

    private final int bits;

    Precision(int bits) {
        this.bits = bits;
    }

    public int bits() {
        return bits;
    }

    /**
     * Storage per value in memory: FP4 packs two values per byte; the block-scaled formats add their scales (MXFP8 one
     * byte per 32 values, NVFP4 one byte per 16).
     */
    public double bytesPerElement() {
        return switch (this) {
            case MXFP8 -> (bits + 8.0 / 32) / 8.0;
            case NVFP4 -> (bits + 8.0 / 16) / 8.0;
            default -> bits / 8.0;
        };
    }

    /** Lower-case name as the command line and JSON write it: {@code bf16}. */
    @Override
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The next wider format a device falls back to when it has no ceiling for this one: FP4 runs as FP8, FP6 as
     * FP8, FP8 as BF16, BF16, FP16 and TF32 as FP32, INT4 as INT8; the block-scaled MXFP8 as FP8 and NVFP4 as FP4 (the
     * same tensor-core rate on Blackwell, which multiplies them natively; a datasheet prints no figure of their own).
     * FP64, FP32 and INT8 have none.
     */
    public Precision wider() {
        return switch (this) {
            case MXFP8 -> FP8;
            case NVFP4 -> FP4;
            case FP4, FP6 -> FP8;
            case FP8 -> BF16;
            case BF16, FP16, TF32 -> FP32;
            case INT4 -> INT8;
            case FP64, FP32, INT8 -> null;
        };
    }

    @Override
    public String toString() {
        return label();
    }


    /**
     * A training format as a user types it ({@code bf16}, {@code BF16}, {@code float32}); {@code what} names the
     * option in the error, which lists the training formats and the close matches.
     */
    public static Precision parseTraining(String what, String text) {
        Precision p = lenient(text);
        if (p != null && TRAINING.contains(p)) {
            return p;
        }
        List<String> known = Labelled.labels(TRAINING.toArray(new Precision[0]));
        throw new BadInputException(what + " must be one of " + String.join(", ", known) + ": " + what + "=" + text
                + Names.suggestion(text, known));
    }

    /** Any format as a user types it ({@code bf16}, {@code BF16}, {@code fp8}); the error lists them all. */
    public static Precision parse(String text) {
        Precision p = lenient(text);
        if (p != null) {
            return p;
        }
        throw new BadInputException("precision must be one of [" + Labelled.known(Precision.class) + "]: precision="
                + text);
    }

    private static Precision lenient(String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace("FLOAT", "FP");
        for (Precision p : values()) {
            if (p.name().equals(key)) {
                return p;
            }
        }
        return null;
    }
}
