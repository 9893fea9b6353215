package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

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
                           Shape shape, Distribution flopsPerSecond, Provenance provenance) {

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
    public enum Kind implements JsonNames {
        FMA_PEAK("fma-peak"),
        GEMM("gemm"),
        PRODUCT("product");

        /** The kinds that are a device's compute ceilings; a product at one shape is a point below them. */
        public static final java.util.List<Kind> CEILINGS = java.util.List.of(FMA_PEAK, GEMM);

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        @JsonValue
        @Override
        public String jsonName() {
            return jsonName;
        }

        @JsonCreator
        public static Kind of(String text) {
            return JsonNames.parse(Kind.class, "compute.kind", text);
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /**
     * The shape of a product: C (m × n) = op(A)·op(B) over k, or a batch of such products.
     *
     * @param batch  products run together (attention's, one per sequence and head), absent for one
     * @param layout nn ({@code A·B}, a forward pass), nt ({@code A·Bᵀ}, an input gradient or attention scores) or
     *        tn ({@code Aᵀ·B}, a weight gradient)
     */
    public record Shape(Long batch, long m, long n, long k, Layout layout) {

        public Shape(long m, long n, long k, Layout layout) {
            this(null, m, n, k, layout);
        }

        public Shape {
            Checks.optionalPositive("compute.shape.batch", batch);
            Checks.positive("compute.shape.m", m);
            Checks.positive("compute.shape.n", n);
            Checks.positive("compute.shape.k", k);
            Checks.present("compute.shape.layout", layout);
        }

        /** Products in the batch: 1 when absent. */
        public long products() {
            return batch == null ? 1 : batch;
        }

        @Override
        public String toString() {
            return (batch != null ? batch + "x" : "") + m + "x" + n + "x" + k + ":" + layout;
        }
    }

    /** Where the operands of a product are transposed. */
    public enum Layout implements JsonNames {
        NN("nn"),
        NT("nt"),
        TN("tn");

        private final String jsonName;

        Layout(String jsonName) {
            this.jsonName = jsonName;
        }

        @JsonValue
        @Override
        public String jsonName() {
            return jsonName;
        }

        @JsonCreator
        public static Layout of(String text) {
            return JsonNames.parse(Layout.class, "compute.shape.layout", text);
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }
}
