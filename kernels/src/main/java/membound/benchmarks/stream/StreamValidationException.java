package membound.benchmarks.stream;

/** A kernel computed the wrong answer: the run is void, and no bandwidth may be reported for it. */
public final class StreamValidationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public StreamValidationException(String message) {
        super(message);
    }
}
