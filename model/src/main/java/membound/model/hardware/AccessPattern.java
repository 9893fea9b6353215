package membound.model.hardware;

/**
 * How an operation touches memory, matched to the STREAM-style kernel that measures the same
 * pattern: a read-mostly operation (a GEMM streaming its weights, a gradient norm) runs at the
 * read bandwidth, a one-in-one-out operation (a normalization, an activation) at the copy
 * bandwidth, and a several-in-one-out update (a residual add, an optimizer step) at the triad
 * bandwidth. Measured ceilings differ by pattern because stores cost more than loads.
 */
public enum AccessPattern {
    /** Read-mostly: STREAM-style read/dot kernels (2 arrays read, nothing written per element pair). */
    READ,
    /** Copy-like: one stream in, one stream out (STREAM copy/scale). */
    COPY,
    /** Update-like: several streams in, one or more out (STREAM add/triad, nstream). */
    TRIAD;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Patterns to fall back to, nearest first, when a tier has no ceiling for this one. */
    AccessPattern[] fallbacks() {
        return switch (this) {
            case READ -> new AccessPattern[] {COPY, TRIAD};
            case COPY -> new AccessPattern[] {TRIAD, READ};
            case TRIAD -> new AccessPattern[] {COPY, READ};
        };
    }
}
