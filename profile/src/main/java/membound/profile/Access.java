package membound.profile;

import membound.vocabulary.Labelled;

/** The access pattern a bandwidth ceiling applies to; each names the STREAM-style kernel it is measured with (READ: a dot product or sum, WRITE: a fill). */
public enum Access implements Labelled {
    READ("read"),
    WRITE("write"),
    COPY("copy"),
    SCALE("scale"),
    ADD("add"),
    TRIAD("triad");

    private final String label;

    Access(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    /** Reads a JSON name; an unknown name is an error that lists the known ones. */
    public static Access of(String text) {
        return Labelled.parse(Access.class, "access", text);
    }

    @Override
    public String toString() {
        return label;
    }
}
