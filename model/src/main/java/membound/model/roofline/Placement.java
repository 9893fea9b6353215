package membound.model.roofline;

/** Where an operation's time is spent. */
public enum Placement {
    /** On the training device, against its memory and compute. */
    DEVICE,
    /** On the host (an offloaded optimizer step), against host memory and compute. */
    HOST,
    /**
     * On the link the data-parallel group talks over: the peer link inside a node, NCCL's hierarchical ring over the
     * nodes the group spans ({@link membound.model.Estimator#parallelLink}).
     */
    PARALLEL_LINK,
    /** On the link between device and host memory. */
    HOST_LINK,
    /** On the peer link between devices of one node or NVLink domain (tensor parallelism, groups inside a node). */
    NODE_LINK,
    /** On one device's own network link to other nodes (pipeline, context and expert traffic leaving a node). */
    NETWORK_LINK;

    private final String label = name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');

    /** Lower case, as reports print it. */
    public String label() {
        return label;
    }
}
