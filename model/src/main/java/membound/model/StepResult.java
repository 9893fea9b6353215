package membound.model;

import java.util.List;

import membound.model.machine.Basis;

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
     * Class times over an array nobody else holds, unmodifiable: what {@link membound.model.Estimator} builds a
     * step's breakdown into, so that a sweep's step is not copied twice into a list.
     */
    public static List<ClassTime> breakdownOf(ClassTime[] times, int count) {
        return new Breakdown(java.util.Arrays.copyOf(times, count));
    }

    private static final class Breakdown extends java.util.AbstractList<ClassTime> implements java.util.RandomAccess {
        private final ClassTime[] times;

        Breakdown(ClassTime[] times) {
            this.times = times;
        }

        @Override
        public ClassTime get(int index) {
            return times[index];
        }

        @Override
        public int size() {
            return times.length;
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
