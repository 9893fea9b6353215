package membound.model.hardware;

/**
 * What a device computes per second in one precision: the datasheet's dense peak (the denominator
 * of MFU), the rate a large GEMM really attains (the roofline's compute ceiling for matrix
 * multiplications), and the 2:4 structured-sparse peak where the device has one.
 *
 * <p>A datasheet gives only peaks; the attainable GEMM rate is then the peak times a documented,
 * sourced fraction (see docs/model.md, "Attainable GEMM"), never the peak itself: no GEMM library
 * reaches the datasheet peak.
 */
public record ComputeCeiling(Precision precision, Ceiling peakDense, Ceiling attainableGemm, Ceiling peakSparse) {

    public ComputeCeiling {
        if (precision == null || peakDense == null || attainableGemm == null) {
            throw new IllegalArgumentException("compute ceiling needs a precision, a dense peak and an attainable GEMM rate");
        }
    }

    public boolean hasSparse() {
        return peakSparse != null;
    }
}
