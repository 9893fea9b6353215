package membound.model.roofline;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.ProductShape;

/**
 * The mean shape of an operation's matrix products, with real dimensions (an expert's rows are a fractional
 * share of the tokens), against which measured {@link ProductShape}s are matched. The shape of a matrix product: C (m × n) = op(A)·op(B) over an inner dimension k, or of a batch of them run
 * together (attention's, one per sequence and head). A step's GEMMs carry it so that a device measured at
 * several shapes times each product at the nearest one ({@link ProductCeiling}).
 *
 * @param batch products run together, at least 1
 * @param layout {@link ProductShape.Layout#NN} a forward pass ({@code Y = X·W}: m tokens, k in, n out), {@link ProductShape.Layout#NT} an
 *        input gradient ({@code dX = dY·Wᵀ}) or attention scores ({@code Q·Kᵀ}), {@link ProductShape.Layout#TN} a weight
 *        gradient ({@code dW = Xᵀ·dY}: m in, n out, k tokens)
 */
public record OperationShape(double batch, double m, double n, double k, ProductShape.Layout layout) {

    public OperationShape {
        if (!(batch >= 1) || !(m >= 1) || !(n >= 1) || !(k >= 1) || Double.isInfinite(batch * m * n * k)
                || layout == null) {
            throw new BadInputException("a product shape needs batch, m, n, k >= 1 and a layout: batch=" + batch
                    + ", m=" + m + ", n=" + n + ", k=" + k + ", layout=" + layout);
        }
    }

    /** One product (no batch). */
    public OperationShape(double m, double n, double k, ProductShape.Layout layout) {
        this(1, m, n, k, layout);
    }

    /** batch·m·n·k: the batch's FLOPs are twice it. */
    public double volume() {
        return batch * m * n * k;
    }

    /**
     * How far apart two shapes are: the sum over batch, m, n and k of |ln(a/b)|, so that twice as large and
     * half as large are equally far, and each dimension counts alike.
     */
    public double distance(OperationShape other) {
        return Math.abs(Math.log(batch / other.batch)) + Math.abs(Math.log(m / other.m))
                + Math.abs(Math.log(n / other.n)) + Math.abs(Math.log(k / other.k));
    }

    /** {@link #distance(OperationShape)} to a measured product's shape. */
    public double distance(ProductShape measured) {
        return distance(new OperationShape(measured.batch(), measured.m(), measured.n(), measured.k(), measured.layout()));
    }

    @Override
    public String toString() {
        return (batch > 1 ? String.format(Locale.ROOT, "%.0fx", batch) : "")
                + String.format(Locale.ROOT, "%.0fx%.0fx%.0f:%s", m, n, k, layout.label());
    }
}
