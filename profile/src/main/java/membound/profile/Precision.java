package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Number formats of compute ceilings. Names follow the datasheets (fp64 = Java double, fp32 = Java float). */
public enum Precision implements JsonNames {
    FP64("fp64"),
    FP32("fp32"),
    TF32("tf32"),
    FP16("fp16"),
    BF16("bf16"),
    FP8("fp8"),
    FP6("fp6"),
    FP4("fp4"),
    INT8("int8"),
    INT4("int4");

    private final String jsonName;

    Precision(String jsonName) {
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
    public static Precision of(String text) {
        return JsonNames.parse(Precision.class, "precision", text);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
