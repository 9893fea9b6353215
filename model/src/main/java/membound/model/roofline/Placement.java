package membound.model.roofline;

/** Where an operation's time is spent. */
public enum Placement {
    /** On the training device, against its memory and compute. */
    DEVICE,
    /** On the host (an offloaded optimizer step), against host memory and compute. */
    HOST,
    /** On the link between parallel devices. */
    PARALLEL_LINK,
    /** On the link between device and host memory. */
    HOST_LINK;

    private final String label = name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');

    /** Lower case, as reports print it. */
    public String label() {
        return label;
    }
}
