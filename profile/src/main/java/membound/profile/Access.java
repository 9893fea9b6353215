package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The access pattern a bandwidth ceiling applies to; each names the STREAM-style kernel it is measured with (READ: a dot product or sum, WRITE: a fill). */
public enum Access implements JsonNames {
    READ("read"),
    WRITE("write"),
    COPY("copy"),
    SCALE("scale"),
    ADD("add"),
    TRIAD("triad");

    private final String jsonName;

    Access(String jsonName) {
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
    public static Access of(String text) {
        return JsonNames.parse(Access.class, "access", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
