package membound.benchmarks.compute;

import java.util.Arrays;
import java.util.Locale;

/**
 * The elementwise and row-wise operations of a training step whose cost per element is the machine's to say,
 * not a FLOP count's: a transcendental per element ({@code exp} in a softmax, {@code tanh} in GELU) or a
 * reduction per row (a norm). {@link ElementwiseBenchmark} measures how many elements per second each
 * processes; the model times an operation of that kind at that rate where it is slower than its bytes.
 */
public enum RowOperation {
    /** A causal softmax over rows of attention scores: row i of a row × row block sees i + 1 keys. */
    SOFTMAX,
    /** Softmax cross-entropy over rows of logits (a row is the vocabulary). */
    CROSS_ENTROPY,
    /** GELU (tanh approximation). */
    GELU,
    /** GELU's gradient, recomputing the tanh. */
    GELU_BACKWARD,
    /** RMSNorm over rows of the hidden size. */
    RMS_NORM,
    /** RMSNorm's gradient, with its γ gradient. */
    RMS_NORM_BACKWARD;

    /** {@code cross-entropy}, {@code gelu-backward}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The operation with this label; a wrong one is an {@link IllegalArgumentException} that lists them. */
    public static RowOperation of(String label) {
        for (RowOperation operation : values()) {
            if (operation.label().equals(label == null ? null : label.trim().toLowerCase(Locale.ROOT))) {
                return operation;
            }
        }
        throw new IllegalArgumentException("operation must be one of "
                + String.join(", ", Arrays.stream(values()).map(RowOperation::label).toList()) + ": operation=" + label);
    }
}
