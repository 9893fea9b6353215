package membound.benchmarks.gpu;

/**
 * A device's compute capability, as the driver gives it ({@code CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR} and
 * {@code _MINOR}) and as NVIDIA writes it: {@code 9.0} for an H200, {@code 12.1} for a GB10. Ordered by major, then
 * minor, as numbers: 10.0 comes after 9.0.
 */
public record ComputeCapability(int major, int minor) implements Comparable<ComputeCapability> {

    public ComputeCapability {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("a compute capability is two whole numbers: " + major + "." + minor);
        }
    }

    /** Whether a device of this capability has what {@code least} brings. */
    public boolean atLeast(ComputeCapability least) {
        return compareTo(least) >= 0;
    }

    @Override
    public int compareTo(ComputeCapability other) {
        int byMajor = Integer.compare(major, other.major);
        return byMajor != 0 ? byMajor : Integer.compare(minor, other.minor);
    }

    /** {@code major.minor}. */
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
