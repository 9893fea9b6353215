package membound.vocabulary;

/**
 * What carries a link's traffic: chip-to-chip NVLink-C2C, PCIe, NVLink between GPUs, or a network (Ethernet,
 * InfiniBand); unknown where an imported output did not show it.
 */
public enum LinkKind implements Labelled {
    /** Chip-to-chip NVLink between a CPU and a GPU (or two CPUs) in one package or board. */
    C2C("c2c", "nvlink-c2c"),
    PCIE("pcie", "pcie"),
    /** NVLink between GPUs. */
    NVLINK("nvlink", "nvlink"),
    /** A network port to other machines, such as ConnectX-7 Ethernet. */
    NETWORK("network", "network"),
    /**
     * Imported from an output that does not show what carried it (a table pasted alone, one rank line, a JSON without
     * device names), and not given on the command line: the profile flags it ({@code link-kind-unknown}) with the
     * next step.
     */
    UNKNOWN("unknown", "unknown");

    private final String label;
    private final String longName;

    LinkKind(String label, String longName) {
        this.label = label;
        this.longName = longName;
    }

    /** The JSON and command-line name: {@code c2c}. */
    @Override
    public String label() {
        return label;
    }

    /** The name a datasheet gives it: {@code nvlink-c2c}. */
    public String longName() {
        return longName;
    }


    @Override
    public String toString() {
        return label;
    }
}
