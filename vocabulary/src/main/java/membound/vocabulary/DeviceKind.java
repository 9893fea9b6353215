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


    @Override
    public String toString() {
        return label;
    }
}
