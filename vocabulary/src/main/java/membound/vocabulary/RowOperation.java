package membound.vocabulary;

import java.util.Locale;
import java.util.Optional;

/**
 * The elementwise and row-wise operations of a training step whose cost per element is the machine's to say, not a
 * FLOP count's: a transcendental per element ({@code exp} in a softmax, {@code tanh} in GELU) or a reduction per row
 * (a norm). The benchmarks measure how many elements per second each processes, the profile keeps the rates, and
 * the model times an operation of that kind at that rate where it is slower than its bytes.
 */
public enum RowOperation implements Labelled {
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
    @Override
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The operation with this label, as a user types it (case and surrounding blanks ignored); a wrong one lists them. */
    public static RowOperation of(String label) {
        return find(label).orElseThrow(() -> new BadInputException("operation must be one of "
                + Labelled.known(RowOperation.class) + ": operation=" + label));
    }

    /** The operation with this label, if there is one. */
    public static Optional<RowOperation> find(String label) {
        String wanted = label == null ? null : label.trim().toLowerCase(Locale.ROOT);
        for (RowOperation operation : values()) {
            if (operation.label().equals(wanted)) {
                return Optional.of(operation);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return label();
    }
}
