package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;

/**
 * Weight sparsity. 2:4 structured sparsity (two of every four weights zero) runs GEMMs on a
 * device's sparse tensor throughput where it has one, and stores half the values plus 2-bit
 * indices; unstructured sparsity runs dense kernels and only saves memory when the weights are
 * stored compressed.
 */
public record Pruning(Kind kind, double sparsity) {

    public enum Kind {
        NONE, STRUCTURED_2_4, UNSTRUCTURED
    }

    public static final Pruning NONE = new Pruning(Kind.NONE, 0);
    public static final Pruning STRUCTURED_2_4 = new Pruning(Kind.STRUCTURED_2_4, 0.5);

    public Pruning {
        if (kind == null) {
            kind = Kind.NONE;
        }
        if (kind == Kind.NONE) {
            sparsity = 0;
        } else if (kind == Kind.STRUCTURED_2_4) {
            sparsity = 0.5;
        } else if (!(sparsity > 0 && sparsity < 1)) {
            throw new BadInputException("unstructured sparsity must be between 0 and 1 (exclusive): sparsity=" + sparsity);
        }
    }

    /** {@code none}, {@code 2:4}, {@code unstructured=0.7} or {@code 70%}. */
    public static Pruning parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (key.equals("none") || key.isEmpty()) {
            return NONE;
        }
        if (key.equals("2:4") || key.equals("2of4") || key.equals("structured")) {
            return STRUCTURED_2_4;
        }
        String value = key.startsWith("unstructured=") ? key.substring("unstructured=".length()) : key;
        try {
            double sparsity = value.endsWith("%")
                    ? Double.parseDouble(value.substring(0, value.length() - 1)) / 100
                    : Double.parseDouble(value);
            return new Pruning(Kind.UNSTRUCTURED, sparsity);
        } catch (NumberFormatException e) {
            throw new BadInputException("pruning must be none, 2:4 or unstructured=FRACTION: pruning=" + text);
        }
    }

    /**
     * Stored bits per weight when pruned: 2:4 keeps half the values and a 2-bit position for each
     * kept one (NVIDIA's compressed format); unstructured keeps (1 - s) of the values and a one-bit
     * mask per weight.
     */
    public double storedBitsPerWeight(double denseBits) {
        return switch (kind) {
            case NONE -> denseBits;
            case STRUCTURED_2_4 -> 0.5 * denseBits + 0.5 * 2;
            case UNSTRUCTURED -> (1 - sparsity) * denseBits + 1;
        };
    }
}
