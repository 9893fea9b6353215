package membound.vocabulary;

/** What a device is. */
public enum DeviceKind implements Labelled {
    CPU("cpu"),
    GPU("gpu"),
    ACCELERATOR("accelerator");

    private final String label;

    DeviceKind(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    /** A profile's JSON name, exactly; an unknown one lists the known names. */
    public static DeviceKind ofLabel(String text) {
        return Labelled.parse(DeviceKind.class, "device.kind", text);
    }

    @Override
    public String toString() {
        return label;
    }
}
