package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * Activation checkpointing (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models"): keep everything; keep all but the attention core and recompute that
 * (selective); or keep only each layer's input and recompute the layer's forward pass (full).
 */
public enum Checkpointing {
    NONE,
    SELECTIVE,
    FULL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Checkpointing parse(String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        for (Checkpointing c : values()) {
            if (c.name().equals(key)) {
                return c;
            }
        }
        throw new BadInputException("checkpointing must be one of " + Names.list(values()) + ": checkpointing=" + text
                + Names.suggestion(text, Names.labels(values())));
    }
}
