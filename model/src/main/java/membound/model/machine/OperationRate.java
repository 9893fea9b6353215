package membound.model.machine;

import java.util.List;

import membound.vocabulary.BadInputException;
import membound.vocabulary.RowOperation;

/**
 * A measured rate of an elementwise operation ({@link RowOperation}) on rows of {@code rowLength} elements:
 * a compute ceiling in elements per second, measured with the data in cache.
 */
public record OperationRate(RowOperation operation, double rowLength, double elementsPerSecond, String source) {

    public OperationRate {
        if (operation == null || !(rowLength >= 1) || !(elementsPerSecond > 0) || Double.isInfinite(elementsPerSecond)
                || source == null) {
            throw new BadInputException("an operation rate needs an operation, a row length >= 1, a positive "
                    + "rate and a source: operation=" + operation + ", rowLength=" + rowLength + ", elementsPerSecond="
                    + elementsPerSecond);
        }
    }

    /** The rate of {@code operation} measured at the row length nearest {@code rowLength} (by ratio), or null. */
    public static OperationRate nearest(List<OperationRate> rates, RowOperation operation, double rowLength) {
        OperationRate best = null;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (OperationRate rate : rates) {
            if (rate.operation() != operation) {
                continue;
            }
            double distance = Math.abs(Math.log(rate.rowLength() / rowLength));
            if (distance < bestDistance) {
                best = rate;
                bestDistance = distance;
            }
        }
        return best;
    }
}
