package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What a device is. */
public enum DeviceKind implements JsonNames {
    CPU("cpu"),
    GPU("gpu"),
    ACCELERATOR("accelerator");

    private final String jsonName;

    DeviceKind(String jsonName) {
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
    public static DeviceKind of(String text) {
        return JsonNames.parse(DeviceKind.class, "device.kind", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
