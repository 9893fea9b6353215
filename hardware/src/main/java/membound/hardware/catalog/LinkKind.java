package membound.hardware.catalog;

/** The kind of connection between devices or machines. */
public enum LinkKind {
    /** Chip-to-chip NVLink between a CPU and a GPU (or two CPUs) in one package or board. */
    NVLINK_C2C,
    /** NVLink between GPUs. */
    NVLINK,
    PCIE,
    /** A network port to other machines, such as ConnectX-7 Ethernet. */
    NETWORK
}
