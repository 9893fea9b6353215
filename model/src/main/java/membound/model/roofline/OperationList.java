package membound.model.roofline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/**
 * Builds a step's operations. The factory methods say how each kind of operation counts its FLOPs
 * and bytes, once, so that training, recompute and decode count them alike.
 */
public final class OperationList {

    private final List<Operation> operations = new ArrayList<>(128);

    public List<Operation> operations() {
        return Collections.unmodifiableList(operations);
    }

    public int size() {
        return operations.size();
    }

    public void add(Operation operation) {
        if (operation.count() > 0) {
            operations.add(operation);
        }
    }

    public void addAll(List<Operation> more) {
        for (Operation op : more) {
            add(op);
        }
    }

    /**
     * A GEMM: {@code rows x inner} activations times an {@code inner x columns} weight, 2 x rows x
     * inner x columns FLOPs, every operand read once and the output written once.
     *
     * @param weightBytesRead bytes of weights read (all matrices touched, at their storage precision)
     */
    public static Operation gemm(String name, OperationClass cls, Kernel kernel, Precision precision, double count,
                                 double rows, double inner, double columns, double activationBytes,
                                 double weightBytesRead, double weightBytesWritten) {
        double flops = 2 * rows * inner * columns;
        return new Operation(name, cls, kernel, precision, Placement.DEVICE, count, flops, flops,
                rows * inner * activationBytes + weightBytesRead,
                rows * columns * activationBytes + weightBytesWritten,
                AccessPattern.READ, 0, 0, false,
                List.of(new OperationShape(rows, columns, inner, ProductShape.Layout.NN)));
    }

    /**
     * A GEMM given by its operand bytes directly (input gradients, weight gradients, batched attention GEMMs),
     * with the shapes of the products it runs (their FLOPs need not add up to {@code flops}: a batch of them
     * shares it in proportion).
     */
    public static Operation gemmBytes(String name, OperationClass cls, Precision precision, double count, double flops,
                                      double bytesRead, double bytesWritten, OperationShape... shapes) {
        return new Operation(name, cls, Kernel.GEMM, precision, Placement.DEVICE, count, flops, flops, bytesRead,
                bytesWritten, AccessPattern.READ, 0, 0, false, List.of(shapes));
    }

    /** The input gradient {@code dX = dY·Wᵀ} of a {@code rows × inner} by {@code inner × columns} layer. */
    public static OperationShape inputGradient(double rows, double inner, double columns) {
        return new OperationShape(rows, inner, columns, ProductShape.Layout.NT);
    }

    /** The weight gradient {@code dW = Xᵀ·dY} of a {@code rows × inner} by {@code inner × columns} layer. */
    public static OperationShape weightGradient(double rows, double inner, double columns) {
        return new OperationShape(inner, columns, rows, ProductShape.Layout.TN);
    }

    public static Operation elementwise(String name, OperationClass cls, AccessPattern pattern, double count,
                                        double flops, double bytesRead, double bytesWritten) {
        return new Operation(name, cls, Kernel.ELEMENTWISE, Precision.FP32, Placement.DEVICE, count, flops, 0,
                bytesRead, bytesWritten, pattern, 0, 0, false);
    }

    public static Operation transfer(String name, OperationClass cls, Placement placement, double count, double bytes,
                                     double messages, boolean overlapsBackward) {
        return new Operation(name, cls, Kernel.TRANSFER, Precision.FP32, placement, count, 0, 0, 0, 0,
                AccessPattern.COPY, bytes, messages, overlapsBackward);
    }
}
