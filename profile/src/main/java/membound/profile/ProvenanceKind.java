package membound.profile;

import membound.vocabulary.Labelled;

/** Where a figure came from: measured by membound, imported from another tool's output, taken from a datasheet, given by the user on the command line, or made up for an example (never a measurement). */
public enum ProvenanceKind implements Labelled {
    MEASURED("measured"),
    IMPORTED("imported"),
    DATASHEET("datasheet"),
    USER("user"),
    EXAMPLE("example");

    private final String label;

    ProvenanceKind(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    /** Reads a JSON name; an unknown name is an error that lists the known ones. */
    public static ProvenanceKind of(String text) {
        return Labelled.parse(ProvenanceKind.class, "provenance.kind", text);
    }

    @Override
    public String toString() {
        return label;
    }
}
