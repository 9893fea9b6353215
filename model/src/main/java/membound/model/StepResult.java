package membound.model;

import java.util.List;

import membound.model.machine.Basis;
import membound.model.roofline.OperationClass;

/**
 * One step on one basis: its time, broken down by operation class, and what follows from it.
 *
 * @param memoryBoundShare fraction of the step spent in operations whose bytes take longer than their FLOPs
 * @param tokensPerSecond tokens per second of the whole job (all data-parallel replicas)
 * @param steps optimizer steps to train on the setup's tokens (fractional: the last step counts pro rata)
 * @param modelFlopsPerStep one device's model FLOPs per step (PaLM convention: matmuls, no recompute)
 * @param mfu model FLOPs utilization: model FLOPs per second over the dense peak (Chowdhery et al. 2022, appendix B)
 * @param hfu hardware FLOPs utilization: all FLOPs executed, recompute included, over the dense peak
 */
public record StepResult(Basis basis, double stepSeconds, List<ClassTime> breakdown, double memoryBoundShare,
                         double tokensPerStep, double tokensPerSecond, double steps, double totalSeconds,
                         double modelFlopsPerStep, double peakFlopsPerSecond, double mfu, double hfu) {

    public StepResult {
        breakdown = breakdown instanceof Breakdown ? breakdown : List.copyOf(breakdown);
    }

    /**
     * The class times of a step over per-class arrays nobody else holds (what {@link membound.model.Estimator}
     * evaluates a step into), unmodifiable: one entry per class that takes time, in class order, each made when it
     * is read, so that a sweep's step allocates no record per class.
     *
     * @param seconds seconds per {@link OperationClass} ordinal
     * @param memoryBoundSeconds seconds of memory-bound operations per class (at most that class's seconds are counted)
     * @param stepSeconds the step, what each share is of
     */
    public static List<ClassTime> breakdownOf(double[] seconds, double[] memoryBoundSeconds, double stepSeconds) {
        return new Breakdown(seconds, memoryBoundSeconds, stepSeconds);
    }

    private static final OperationClass[] CLASSES = OperationClass.values();

    private static final class Breakdown extends java.util.AbstractList<ClassTime> implements java.util.RandomAccess {
        private final double[] seconds;
        private final double[] memoryBoundSeconds;
        private final double stepSeconds;
        /** Bit c: class c takes time. */
        private final int classes;

        Breakdown(double[] seconds, double[] memoryBoundSeconds, double stepSeconds) {
            this.seconds = seconds;
            this.memoryBoundSeconds = memoryBoundSeconds;
            this.stepSeconds = stepSeconds;
            int mask = 0;
            for (int c = 0; c < CLASSES.length; c++) {
                if (seconds[c] > 0) {
                    mask |= 1 << c;
                }
            }
            this.classes = mask;
        }

        @Override
        public ClassTime get(int index) {
            if (index < 0 || index >= size()) {
                throw new IndexOutOfBoundsException("class time " + index + " of " + size());
            }
            int mask = classes;
            for (int k = 0; k < index; k++) {
                mask &= mask - 1;
            }
            int c = Integer.numberOfTrailingZeros(mask);
            double s = seconds[c];
            return new ClassTime(CLASSES[c].label(), s, s / stepSeconds, Math.min(s, memoryBoundSeconds[c]));
        }

        @Override
        public int size() {
            return Integer.bitCount(classes);
        }
    }

    /** Seconds of one class of operations in a step, and how many of them were memory-bound. */
    public record ClassTime(String operationClass, double seconds, double share, double memoryBoundSeconds) {
    }

    public ClassTime time(String operationClass) {
        for (ClassTime t : breakdown) {
            if (t.operationClass().equals(operationClass)) {
                return t;
            }
        }
        return new ClassTime(operationClass, 0, 0, 0);
    }
}
