package membound.profile;

import membound.vocabulary.Labelled;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/**
 * A compute ceiling: the FMA peak (independent fused multiply-adds in registers, no memory traffic), the
 * rate an attainable GEMM reaches, or the rate of a training step's matrix product at one shape and layout.
 * One FMA counts as 2 FLOP.
 *
 * @param id            unique within the device
 * @param kind          fma-peak, gemm or product
 * @param precision     the number format
 * @param threads       threads, if known
 * @param matrixSize    n of the n×n×n GEMM, absent for the others
 * @param shape         the product's m, n, k and layout; present for a product only
 * @param flopsPerSecond the distribution of FLOP per second
 * @param provenance    how it was measured
 */
public record ComputeEntry(String id, Kind kind, Precision precision, Integer threads, Long matrixSize,
                           ProductShape shape, Distribution flopsPerSecond, Provenance provenance) {

    public ComputeEntry {
        Checks.id("compute.id", id);
        Checks.present("compute.kind", kind);
        Checks.present("compute.precision", precision);
        Checks.optionalPositive("compute.threads", threads);
        Checks.optionalPositive("compute.matrixSize", matrixSize);
        if ((kind == Kind.PRODUCT) != (shape != null)) {
            throw Checks.bad("compute.shape", "given for a product and only for one (compute " + id + " is a " + kind
                    + ")", shape == null ? "<none>" : shape);
        }
        Checks.present("compute.flopsPerSecond", flopsPerSecond);
        Checks.present("compute.provenance", provenance);
    }

    /** Which ceiling. */
    public enum Kind implements Labelled {
        FMA_PEAK("fma-peak"),
        GEMM("gemm"),
        PRODUCT("product");

        /** The kinds that are a device's compute ceilings; a product at one shape is a point below them. */
        public static final java.util.List<Kind> CEILINGS = java.util.List.of(FMA_PEAK, GEMM);

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }

        public static Kind of(String text) {
            return Labelled.parse(Kind.class, "compute.kind", text);
        }

        @Override
        public String toString() {
            return label;
        }
    }
}
