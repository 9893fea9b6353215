package membound.model.machine;

import java.util.List;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * What a device computes per second in one precision: the datasheet's dense peak (the denominator
 * of MFU), the rate a large GEMM really attains (the roofline's compute ceiling for matrix
 * multiplications), and the 2:4 structured-sparse peak where the device has one.
 *
 * <p>A datasheet gives only peaks; the attainable GEMM rate is then the peak times a documented,
 * sourced fraction (see docs/model.md, "Attainable GEMM"), never the peak itself: no GEMM library
 * reaches the datasheet peak.
 *
 * <p>A calibrated device may also have measured its products at several shapes ({@code products}) and the
 * rates of its elementwise operations ({@code operations}); where the GEMM rate a prediction uses is the
 * measured one, a product with a shape is timed at the nearest measured shape, and an operation of a
 * measured kind at its rate.
 */
public record ComputeCeiling(Precision precision, Ceiling peakDense, Ceiling attainableGemm, Ceiling peakSparse,
                             List<ProductCeiling> products, List<OperationRate> operations) {

    public ComputeCeiling {
        if (precision == null || peakDense == null || attainableGemm == null) {
            throw new BadInputException("compute ceiling needs a precision, a dense peak and an attainable GEMM rate");
        }
        products = products == null ? List.of() : List.copyOf(products);
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    public ComputeCeiling(Precision precision, Ceiling peakDense, Ceiling attainableGemm, Ceiling peakSparse) {
        this(precision, peakDense, attainableGemm, peakSparse, List.of(), List.of());
    }

    /** True if a prediction on {@code basis} times shaped products at {@link #products}: its GEMM rate is measured. */
    public boolean usesProducts(Basis basis) {
        return !products.isEmpty() && measuredOn(basis);
    }

    /** True if a prediction on {@code basis} times elementwise operations at {@link #operations}. */
    public boolean usesOperations(Basis basis) {
        return !operations.isEmpty() && measuredOn(basis);
    }

    /** The measured figures stand on this basis: it is the measured one, or the device has no datasheet GEMM (a CPU). */
    private boolean measuredOn(Basis basis) {
        return basis == Basis.MEASURED ? attainableGemm.hasMeasured() : !attainableGemm.hasDatasheet();
    }

    /** Every rate times {@code factor}: the peaks, the GEMM, the measured products and elementwise rates. */
    public ComputeCeiling scaled(double factor, String why) {
        return new ComputeCeiling(precision, peakDense.scaled(factor, why), attainableGemm.scaled(factor, why),
                peakSparse == null ? null : peakSparse.scaled(factor, why),
                products.stream().map(p -> new ProductCeiling(p.shape(), p.flopsPerSecond() * factor,
                        p.source() + "; " + why)).toList(),
                operations.stream().map(o -> new OperationRate(o.operation(), o.rowLength(),
                        o.elementsPerSecond() * factor, o.source() + "; " + why)).toList());
    }

    public boolean hasSparse() {
        return peakSparse != null;
    }

    /**
     * What-if {@code --peak-flops}: the attainable GEMM rate becomes {@code flopsPerSecond} on both
     * bases, the dense peak (MFU's denominator) the larger of the old peak and that rate.
     *
     * @param old the ceiling replaced, or null when the device had none in this precision
     */
    public static ComputeCeiling whatIf(ComputeCeiling old, Precision precision, double flopsPerSecond) {
        String why = "set on the command line: --peak-flops " + precision.label() + "="
                + membound.vocabulary.units.Units.formatFlops(flopsPerSecond);
        Ceiling attainable = new Ceiling(flopsPerSecond, why, flopsPerSecond, why);
        if (old == null) {
            return new ComputeCeiling(precision, attainable, attainable, null);
        }
        double datasheet = old.peakDense().value(Basis.DATASHEET);
        double measured = old.peakDense().value(Basis.MEASURED);
        Ceiling peak = new Ceiling(Math.max(flopsPerSecond, datasheet),
                flopsPerSecond > datasheet ? why : old.peakDense().source(Basis.DATASHEET),
                Math.max(flopsPerSecond, measured),
                flopsPerSecond > measured ? why : old.peakDense().source(Basis.MEASURED));
        return new ComputeCeiling(precision, peak, attainable, old.peakSparse());
    }
}
