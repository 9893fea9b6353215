package membound.model.roofline;

/** Which compute ceiling an operation's FLOPs run against. */
public enum Kernel {
    /** Matrix multiplication on the matrix units: the device's attainable GEMM rate. */
    GEMM,
    /** A GEMM with a 2:4 sparse weight operand: the sparse peak scaled like the dense one, where the device has it. */
    SPARSE_GEMM,
    /** A fused attention kernel (FlashAttention): a documented fraction of the attainable GEMM rate. */
    ATTENTION,
    /** Elementwise and reduction work on the vector units (FP32, outside the matrix units). */
    ELEMENTWISE,
    /** Data moved over a link; no FLOPs. */
    TRANSFER;

    private final String label = name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');

    /** Lower case, as reports print it. */
    public String label() {
        return label;
    }
}
