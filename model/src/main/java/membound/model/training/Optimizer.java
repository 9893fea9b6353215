package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.text.Names;

/**
 * The optimizer: how many bytes of state it keeps per trainable parameter, how many bytes its
 * update reads and writes, and roughly how many FLOPs it spends (few: every optimizer step is
 * bandwidth-bound, which is the point of modelling its bytes exactly). Master weights are not
 * part of this; {@link TrainingSetup#masterWeights()} adds them.
 */
public enum Optimizer {
    /** Loshchilov and Hutter 2019: first and second moment per parameter. */
    ADAMW("adamw", 2, 15),
    /** Momentum SGD: one velocity per parameter. */
    SGD_MOMENTUM("sgd", 1, 6),
    /**
     * Shazeer and Stern 2018, without momentum (its default): the second moment is factored into
     * a row and a column vector per matrix, O(rows + cols) instead of O(rows x cols).
     */
    ADAFACTOR("adafactor", 0, 12),
    /**
     * Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization": both Adam moments in
     * 8 bits with one FP32 absmax per block of 2048 values.
     */
    ADAM_8BIT("adam8bit", 2, 17);

    /** bitsandbytes' block size for 8-bit optimizer states (Dettmers et al. 2022, section 2). */
    static final int EIGHT_BIT_BLOCK = 2048;
    /**
     * Adafactor's factored statistics are (rows + cols) FP32 values per matrix: for the smallest
     * preset's matrices (768 x 3072) that is 4 x (768 + 3072) / (768 x 3072) = 0.0065 bytes per
     * parameter; 0.01 bounds it for every preset.
     */
    static final double ADAFACTOR_STATE_BYTES_PER_PARAMETER = 0.01;

    private final String label;
    private final String updateName;
    private final int moments;
    private final int flopsPerParameter;

    Optimizer(String label, int moments, int flopsPerParameter) {
        this.label = label;
        this.updateName = "optimizer update (" + label + ")";
        this.moments = moments;
        this.flopsPerParameter = flopsPerParameter;
    }

    public String label() {
        return label;
    }

    /** The name of its update in a step's operations. */
    public String updateName() {
        return updateName;
    }

    /** Bytes of optimizer state per trainable parameter, in {@code statePrecision} (ignored by the 8-bit optimizer). */
    public double stateBytesPerParameter(Precision statePrecision) {
        return switch (this) {
            case ADAMW, SGD_MOMENTUM -> moments * statePrecision.bytesPerElement();
            case ADAFACTOR -> ADAFACTOR_STATE_BYTES_PER_PARAMETER;
            case ADAM_8BIT -> moments * (1.0 + 4.0 / EIGHT_BIT_BLOCK);
        };
    }

    /**
     * Times the update reads the gradient: once for Adam and SGD; Adafactor reads it for the
     * factored statistics and again for the update.
     */
    public int gradientReads() {
        return this == ADAFACTOR ? 2 : 1;
    }

    /** Approximate FLOPs per parameter of one update (AdamW: moments, bias correction, sqrt, divide, decay). */
    public int flopsPerParameter() {
        return flopsPerParameter;
    }

    public static Optimizer parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        for (Optimizer optimizer : values()) {
            if (optimizer.label.replace("-", "").equals(key)) {
                return optimizer;
            }
        }
        switch (key) {
            case "adam", "adamwtorch", "adamwfused" -> { return ADAMW; }
            case "sgdmomentum", "momentum" -> { return SGD_MOMENTUM; }
            case "8bitadam", "adamw8bit", "bnbadam8bit", "paged8bitadam" -> { return ADAM_8BIT; }
            default -> { }
        }
        java.util.List<String> labels = java.util.Arrays.stream(values()).map(Optimizer::label).toList();
        throw new BadInputException("optimizer must be one of " + String.join(", ", labels) + ": optimizer=" + text
                + Names.suggestion(text, labels));
    }
}
