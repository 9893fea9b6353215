package membound.model.training;

import java.util.List;

import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.Roofline;

/**
 * What a per-operation roofline misses in a training step, as two terms applied to its evaluation:
 * <ul>
 *   <li>{@code computeEfficiency}: the fraction of the basis's GEMM ceiling a trainer's forward, backward and
 *   recompute kernels reach on compute-bound operations (the roofline charges them at the ceiling; FSDP's
 *   gathers, unfused norms and attention kernels slower than the GEMM ceiling land here);</li>
 *   <li>{@code perOperationSeconds}: a fixed cost per operation run (kernel launch, Python dispatch, the
 *   synchronisation between them), times every operation's count in the step.</li>
 * </ul>
 * Neither is measured by the CPU or GPU suites today; both are fitted on the fit rows of the published set
 * ({@code membound validate --published} prints their values and the rows). {@link #NONE} leaves the
 * roofline as it is. Cheap: one pass over the evaluation's arrays, no allocation.
 */
public record Overheads(double computeEfficiency, double perOperationSeconds, String source) {

    public static final Overheads NONE = new Overheads(1, 0, "none: the roofline alone");

    public Overheads {
        if (!(computeEfficiency > 0 && computeEfficiency <= 2)) {
            throw new IllegalArgumentException("compute efficiency must be in (0, 2]: computeEfficiency="
                    + computeEfficiency);
        }
        if (!(perOperationSeconds >= 0)) {
            throw new IllegalArgumentException("per-operation seconds must be >= 0: perOperationSeconds="
                    + perOperationSeconds);
        }
    }

    /** Seconds the terms add to a step whose roofline evaluation is {@code eval} (of {@code operations}). */
    public double addedSeconds(List<Operation> operations, Roofline.Evaluation eval) {
        double computeBound = 0;
        double runs = 0;
        double[] seconds = eval.seconds();
        boolean[] memoryBound = eval.memoryBound();
        for (int i = 0; i < seconds.length; i++) {
            Operation op = operations.get(i);
            if (op.kernel() == Kernel.TRANSFER) {
                continue;
            }
            runs += op.count();
            OperationClass c = op.operationClass();
            if (!memoryBound[i] && (c == OperationClass.FORWARD || c == OperationClass.BACKWARD
                    || c == OperationClass.RECOMPUTE)) {
                computeBound += seconds[i];
            }
        }
        return computeBound * (1 / computeEfficiency - 1) + runs * perOperationSeconds;
    }
}
