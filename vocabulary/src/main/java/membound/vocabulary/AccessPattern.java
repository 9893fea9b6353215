package membound.vocabulary;

import java.util.Locale;

/**
 * How an operation touches memory, matched to the STREAM-style kernel that measures the same pattern: a
 * read-mostly operation (a GEMM streaming its weights, a gradient norm) runs at the read bandwidth, a
 * one-in-one-out operation (a normalization, an activation) at the copy bandwidth, a several-in-one-out operation
 * (a residual add) at the triad bandwidth, and an update in place (an optimizer step) at the copy kernel's rate in
 * the bytes the memory moved. Measured ceilings differ by pattern because stores cost more than loads. Every
 * STREAM kernel names its pattern in the kernel table; the profile's ceilings and the model's roofline use these.
 */
public enum AccessPattern implements Labelled {
    /** Read-mostly: STREAM-style read/dot kernels (arrays read, nothing written). */
    READ,
    /** Copy-like: one stream in, one stream out (STREAM copy/scale). */
    COPY,
    /** Several streams in, one out to an array not read first (STREAM add/triad). */
    TRIAD,
    /**
     * Arrays read and written back in place (an optimizer's update of weights and states). On a cache that
     * allocates on write, a store to a line not yet read first reads it (write-allocate): the STREAM kernels that
     * measure the other patterns pay that hidden read, an in-place update does not, since it stores only lines it
     * has just loaded. Its ceiling is therefore the copy kernel's rate counted in the bytes the memory moved (STREAM
     * bytes plus write-allocate), where that figure was measured; otherwise the copy figure as it is (on memory that
     * does not allocate on write, such as a GPU's, the two are the same).
     */
    UPDATE,
    /**
     * Write-only: one stream out, nothing read (STREAM-style fill; zeroing a gradient buffer). Its ceiling is the
     * fill kernel's, in the bytes the code writes (on a cache that allocates on write the memory also reads each
     * line first, and the measured fill rate already pays that).
     */
    WRITE;

    /** {@code read}, {@code update}: as JSON and tables write it. */
    @Override
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Patterns to fall back to, nearest first, when a tier has no ceiling for this one. */
    public AccessPattern[] fallbacks() {
        return switch (this) {
            case READ -> new AccessPattern[] {COPY, TRIAD};
            case COPY -> new AccessPattern[] {TRIAD, READ};
            case TRIAD -> new AccessPattern[] {COPY, READ};
            case UPDATE, WRITE -> new AccessPattern[] {COPY, TRIAD, READ};
        };
    }


    @Override
    public String toString() {
        return label();
    }
}
