package membound.model.machine;

import java.util.Locale;

/**
 * The elementwise and row-wise operations whose cost per element is the machine's to say rather than a FLOP
 * count's: a transcendental per element or a reduction per row. A profile may have measured each
 * ({@code operations[]}); the model then times an operation of that kind at the measured rate.
 */
public enum RowOperation {
    /** A causal softmax over rows of attention scores (every score counted, the masked ones too). */
    SOFTMAX,
    /** Softmax cross-entropy over rows of logits. */
    CROSS_ENTROPY,
    /** GELU, tanh approximation. */
    GELU,
    /** GELU's gradient. */
    GELU_BACKWARD,
    /** RMSNorm. */
    RMS_NORM,
    /** RMSNorm's gradient. */
    RMS_NORM_BACKWARD;

    /** The profile's name: {@code cross-entropy}, {@code gelu-backward}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The operation a profile names, or null for one this model does not know. */
    public static RowOperation ofLabel(String label) {
        for (RowOperation operation : values()) {
            if (operation.label().equals(label)) {
                return operation;
            }
        }
        return null;
    }
}
