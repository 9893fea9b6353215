package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What carries a link's traffic: chip-to-chip (NVLink-C2C), PCIe, NVLink between GPUs, or a network (Ethernet, InfiniBand). */
public enum LinkKind implements JsonNames {
    C2C("c2c"),
    PCIE("pcie"),
    NVLINK("nvlink"),
    NETWORK("network");

    private final String jsonName;

    LinkKind(String jsonName) {
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
    public static LinkKind of(String text) {
        return JsonNames.parse(LinkKind.class, "link.kind", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
