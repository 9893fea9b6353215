package membound.model.machine;

/**
 * Which figures a prediction runs on. Every ceiling may carry a datasheet figure and a measured
 * one; a prediction is made on one basis and, beside it, on the other, so the output can say how
 * far the answer moved because of the measurement.
 */
public enum Basis {
    /** Measured ceilings (the profile, or third-party measurements in the catalog); datasheet where none. */
    MEASURED,
    /** Datasheet ceilings; a measured figure only where the datasheet has none. */
    DATASHEET;

    public String label() {
        return this == MEASURED ? "measured" : "datasheet";
    }
}
