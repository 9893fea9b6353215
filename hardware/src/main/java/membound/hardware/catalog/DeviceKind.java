package membound.hardware.catalog;

/** What a device in a platform is. */
public enum DeviceKind {
    CPU,
    GPU
}
