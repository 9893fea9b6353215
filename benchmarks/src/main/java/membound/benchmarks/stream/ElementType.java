package membound.benchmarks.stream;

import java.util.Arrays;
import java.util.Locale;

import membound.vocabulary.BadInputException;

/** The element types the kernels run on, with their width. */
public enum ElementType {
    DOUBLE(Double.BYTES),
    FLOAT(Float.BYTES);

    private final int bytes;

    ElementType(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }

    /** Lower-case name as Java spells the primitive: {@code double}, {@code float}. */
    public String javaName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ElementType of(String name) {
        for (ElementType type : values()) {
            if (type.name().equalsIgnoreCase(name.trim())) {
                return type;
            }
        }
        throw new BadInputException("elementType must be one of double, float: elementType=" + name
                + " (known: " + Arrays.toString(values()) + ")");
    }
}
