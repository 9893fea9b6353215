package membound.benchmarks.stream;

import java.util.Arrays;
import java.util.Locale;

import membound.vocabulary.BadInputException;

/**
 * The element types the kernels run on, with their width. The CPU suite's Vector API kernels run on double and
 * float ({@link #CPU}); bf16 has STREAM kernels on the GPU only (the Vector API has no bf16 arithmetic).
 */
public enum ElementType {
    DOUBLE(Double.BYTES),
    FLOAT(Float.BYTES),
    /** bfloat16: an f32's high half, what training stores weights and activations in. */
    BF16(2);

    /** The types the CPU suite has kernels for. */
    public static final java.util.List<ElementType> CPU = java.util.List.of(DOUBLE, FLOAT);

    private final int bytes;

    ElementType(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }

    /** Lower-case name as Java spells the primitive ({@code double}, {@code float}), and {@code bf16}. */
    public String javaName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ElementType of(String name) {
        for (ElementType type : values()) {
            if (type.name().equalsIgnoreCase(name.trim())) {
                return type;
            }
        }
        throw new BadInputException("elementType must be one of double, float, bf16: elementType=" + name
                + " (known: " + Arrays.toString(values()) + ")");
    }
}
