package membound.model.machine;

import java.util.List;

import membound.model.roofline.OperationShape;
import membound.vocabulary.BadInputException;
import membound.vocabulary.ProductShape;

/**
 * A measured rate of the device's matrix products at one shape and layout (the calibrator's
 * {@code ProductBenchmark}). Small dimensions and transposed operands make a product slower than the square
 * GEMM the compute ceiling quotes; a step's product is timed at the nearest measured shape.
 */
public record ProductCeiling(ProductShape shape, double flopsPerSecond, String source) {

    public ProductCeiling {
        if (shape == null || !(flopsPerSecond > 0) || Double.isInfinite(flopsPerSecond) || source == null) {
            throw new BadInputException("a product ceiling needs a shape, a positive rate and a source: shape="
                    + shape + ", flopsPerSecond=" + flopsPerSecond);
        }
    }

    /**
     * The ceiling nearest {@code shape} by {@link OperationShape#distance}: among those of its layout, or all of
     * them when its layout was not measured; null for an empty list. Ties go to the first listed.
     */
    public static ProductCeiling nearest(List<ProductCeiling> ceilings, OperationShape shape) {
        ProductCeiling best = nearest(ceilings, shape, true);
        return best != null ? best : nearest(ceilings, shape, false);
    }

    /** The nearest of {@code shape}'s layout only, or of any layout; null if there is none. */
    private static ProductCeiling nearest(List<ProductCeiling> ceilings, OperationShape shape, boolean sameLayout) {
        ProductCeiling best = null;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (ProductCeiling c : ceilings) {
            if (sameLayout && c.shape().layout() != shape.layout()) {
                continue;
            }
            double d = shape.distance(c.shape());
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }
}
