package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where a figure came from: measured by membound, imported from another tool's output, taken from a datasheet, given by the user on the command line, or made up for an example (never a measurement). */
public enum ProvenanceKind implements JsonNames {
    MEASURED("measured"),
    IMPORTED("imported"),
    DATASHEET("datasheet"),
    USER("user"),
    EXAMPLE("example");

    private final String jsonName;

    ProvenanceKind(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name written to JSON and printed. */
    @JsonValue
    @Override
    public String jsonName() {
        return jsonName;
    }

    /** Reads a JSON name; an unknown name is an error that lists the known ones. */
    @JsonCreator
    public static ProvenanceKind of(String text) {
        return JsonNames.parse(ProvenanceKind.class, "provenance.kind", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
