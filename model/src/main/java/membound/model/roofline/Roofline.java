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

    /** One operation's roofline: the slower of its compute and its memory traffic, or its link time for a transfer. */
    public static OperationTime time(Operation op, Ceilings ceilings) {
        if (op.kernel() == Kernel.TRANSFER) {
            double link = linkSeconds(op, ceilings);
            return new OperationTime(op, 0, 0, link, link, Bound.LINK);
        }
        double compute = ceilings.computeSeconds(op);
        double memory = memorySeconds(op, ceilings);
        return new OperationTime(op, compute, memory, 0, Math.max(compute, memory),
                memory > compute ? Bound.MEMORY : Bound.COMPUTE);
    }

    /** Seconds a transfer spends on its link: bytes over the link's bandwidth plus one latency per message. */
    static double linkSeconds(Operation op, Ceilings ceilings) {
        return op.count() * (op.linkBytes() / ceilings.linkBytesPerSecond(op.placement())
                + op.linkMessages() * ceilings.linkLatencySeconds(op.placement()));
    }

    /** Seconds an operation's bytes take at the ceiling of its access pattern for its working set. */
    static double memorySeconds(Operation op, Ceilings ceilings) {
        double bytes = op.bytes();
        return bytes == 0 ? 0 : op.count() * bytes / ceilings.bytesPerSecond(op.accessPattern(), bytes, op.placement());
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
            // The same formulas as time(), without an OperationTime per operation.
            if (op.kernel() == Kernel.TRANSFER) {
                t = linkSeconds(op, ceilings);
                if (op.overlapsBackward()) {
                    overlappable += t;
                }
            } else {
                double compute = ceilings.computeSeconds(op);
                double mem = memorySeconds(op, ceilings);
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
