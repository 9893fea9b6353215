package membound.calibrator.run;

import java.util.List;

/** A benchmark failed during a calibration: a forked VM died, or a result failed its check. */
public final class CalibrationFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> jmhTail;

    CalibrationFailedException(String cause, List<String> jmhTail) {
        super("calibration failed, no profile written: " + cause);
        this.jmhTail = List.copyOf(jmhTail);
    }

    /** The last lines JMH printed before the failure. */
    public List<String> jmhTail() {
        return jmhTail;
    }
}
