package membound.model.roofline;

import java.util.Locale;

/** What limits an operation: the compute ceiling, the memory bandwidth ceiling, or a link. */
public enum Bound {
    COMPUTE, MEMORY, LINK;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
