package membound.export;

import membound.vocabulary.Labelled;

/** Where an exported figure stands: what it was measured or published as, or the neutral value a tool needs. */
public enum Origin implements Labelled {
    /** Measured: by membound's suites, or imported from another tool's output into the profile. */
    MEASURED("measured"),
    /** The datasheet's figure, with its source. */
    DATASHEET("datasheet"),
    /**
     * A third-party measurement the catalog keeps beside a datasheet figure, standing in where the datasheet has
     * none.
     */
    PUBLISHED("published"),
    /**
     * The documented neutral value a tool requires where the machine has no such figure at all (a link of a
     * single device): chosen so that a run the machine can do is not changed by it, and said on stderr.
     */
    NEUTRAL("neutral");

    private final String label;

    Origin(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
