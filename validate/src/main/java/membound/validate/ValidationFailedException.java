package membound.validate;

import java.util.List;

/** A workload failed during a validation: a forked VM died, or a step failed its check. Nothing is written. */
public final class ValidationFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> jmhTail;

    ValidationFailedException(String cause, List<String> jmhTail) {
        super("validation failed, nothing written: " + cause);
        this.jmhTail = List.copyOf(jmhTail);
    }

    /** The last lines JMH printed before the failure. */
    public List<String> jmhTail() {
        return jmhTail;
    }
}
