package membound.model.roofline;

import java.util.List;

/**
 * The roofline (Williams, Waterman and Patterson, "Roofline: An Insightful Visual Performance
 * Model", CACM 2009) applied per operation: time = max(FLOPs / compute ceiling, bytes / bandwidth
 * ceiling) + link time. Compute and memory traffic of one operation overlap; operations run one
 * after another.
 */
public final class Roofline {

    private Roofline() {
    }

    public static OperationTime time(Operation op, Ceilings ceilings) {
        double count = op.count();
        if (op.kernel() == Kernel.TRANSFER) {
            double link = count * (op.linkBytes() / ceilings.linkBytesPerSecond(op.placement())
                    + op.linkMessages() * ceilings.linkLatencySeconds(op.placement()));
            return new OperationTime(op, 0, 0, link, link, Bound.LINK);
        }
        double compute = ceilings.computeSeconds(op);
        double bytes = op.bytes();
        double memory = bytes == 0 ? 0
                : count * bytes / ceilings.bytesPerSecond(op.accessPattern(), bytes, op.placement());
        return new OperationTime(op, compute, memory, 0, Math.max(compute, memory),
                memory > compute ? Bound.MEMORY : Bound.COMPUTE);
    }

    /** Seconds of every operation, in order, and the sums a step needs; allocation-light for sweeps. */
    public static Evaluation evaluate(List<Operation> operations, Ceilings ceilings) {
        int n = operations.size();
        double[] seconds = new double[n];
        boolean[] memoryBound = new boolean[n];
        double[] byClass = new double[OperationClass.values().length];
        double[] memoryBoundByClass = new double[OperationClass.values().length];
        double overlappable = 0;
        for (int i = 0; i < n; i++) {
            Operation op = operations.get(i);
            double t;
            boolean memory = false;
            if (op.kernel() == Kernel.TRANSFER) {
                t = op.count() * (op.linkBytes() / ceilings.linkBytesPerSecond(op.placement())
                        + op.linkMessages() * ceilings.linkLatencySeconds(op.placement()));
                if (op.overlapsBackward()) {
                    overlappable += t;
                }
            } else {
                double compute = ceilings.computeSeconds(op);
                double bytes = op.bytes();
                double mem = bytes == 0 ? 0
                        : op.count() * bytes / ceilings.bytesPerSecond(op.accessPattern(), bytes, op.placement());
                t = Math.max(compute, mem);
                memory = mem > compute;
            }
            seconds[i] = t;
            memoryBound[i] = memory;
            byClass[op.operationClass().ordinal()] += t;
            if (memory) {
                memoryBoundByClass[op.operationClass().ordinal()] += t;
            }
        }
        return new Evaluation(seconds, memoryBound, byClass, memoryBoundByClass, overlappable);
    }

    /** Raw sums of one evaluation; {@link membound.model.Estimator} turns them into a step time. */
    public record Evaluation(double[] seconds, boolean[] memoryBound, double[] secondsByClass,
                             double[] memoryBoundSecondsByClass, double overlappableSeconds) {

        public double seconds(OperationClass operationClass) {
            return secondsByClass[operationClass.ordinal()];
        }

        public double memoryBoundSeconds(OperationClass operationClass) {
            return memoryBoundSecondsByClass[operationClass.ordinal()];
        }
    }
}
