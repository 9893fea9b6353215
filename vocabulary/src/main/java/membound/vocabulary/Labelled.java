package membound.vocabulary;

import java.util.ArrayList;
import java.util.List;

/**
 * A word of the vocabulary with the one name that JSON, the command line and printed text use for it
 * ({@code bf16}, {@code gpu}, {@code DRAM}). The profile's JSON writes and reads every such enum through
 * {@link #label()} and {@link #parse}; no module keeps a second spelling.
 */
public interface Labelled {

    /** The name written to JSON and printed. */
    String label();

    /** The constant of {@code type} whose label is exactly {@code text}; an unknown one lists the known labels. */
    static <E extends Enum<E> & Labelled> E parse(Class<E> type, String what, String text) {
        for (E value : type.getEnumConstants()) {
            if (value.label().equals(text)) {
                return value;
            }
        }
        throw new BadInputException(what + " must be one of " + known(type) + ": " + what + "=" + text);
    }

    /** {@code "cpu, gpu, accelerator"}: the labels of every constant, in declaration order. */
    static <E extends Enum<E> & Labelled> String known(Class<E> type) {
        return String.join(", ", labels(type.getEnumConstants()));
    }

    /** The labels of some constants, in the order given. */
    static List<String> labels(Labelled[] values) {
        List<String> labels = new ArrayList<>();
        for (Labelled value : values) {
            labels.add(value.label());
        }
        return labels;
    }
}
