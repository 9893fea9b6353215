package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A level of the memory hierarchy a working set lives in. {@code SLC} is a memory-side (system-level) cache such as the DGX Spark's 16 MB one. */
public enum MemoryLevel implements JsonNames {
    L1("L1"),
    L2("L2"),
    L3("L3"),
    SLC("SLC"),
    DRAM("DRAM");

    private final String jsonName;

    MemoryLevel(String jsonName) {
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
    public static MemoryLevel of(String text) {
        return JsonNames.parse(MemoryLevel.class, "level", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
