package membound.model.roofline;

import java.util.List;

/**
 * The roofline (Williams, Waterman and Patterson, "Roofline: An Insightful Visual Performance
 * Model", CACM 2009) applied per operation: time = max(FLOPs / compute ceiling, bytes / bandwidth
 * ceiling) + link time. Compute and memory traffic of one operation overlap; operations run one
 * after another.
 */
public final class Roofline {

    private static final int CLASSES = OperationClass.values().length;
    private static final int TRANSFER = Kernel.TRANSFER.ordinal();
    private static final Placement[] PLACEMENTS = Placement.values();
    private static final int ELEMENTWISE = Kernel.ELEMENTWISE.ordinal();
    /** Forward and backward are the first two classes: the ones whose model FLOPs count. */
    private static final int BACKWARD = OperationClass.BACKWARD.ordinal();
    private static final int RECOMPUTE = OperationClass.RECOMPUTE.ordinal();
    private static final int DEVICE = Placement.DEVICE.ordinal();

    static {
        if (OperationClass.FORWARD.ordinal() != 0 || BACKWARD != 1) {
            throw new ExceptionInInitializerError("forward and backward must be the first operation classes");
        }
    }

    private Roofline() {
    }

    /** One operation's roofline: the slower of its compute and its memory traffic, or its link time for a transfer. */
    public static OperationTime time(Operation op, Ceilings ceilings) {
        if (op.count() == 0) {
            return new OperationTime(op, 0, 0, 0, 0, op.kernel() == Kernel.TRANSFER ? Bound.LINK : Bound.COMPUTE);
        }
        OperationList one = new OperationList(1);
        one.add(op);
        if (op.kernel() == Kernel.TRANSFER) {
            double link = linkSeconds(one, 0, ceilings);
            return new OperationTime(op, 0, 0, link, link, Bound.LINK);
        }
        double compute = ceilings.computeSeconds(one, 0);
        double memory = memorySeconds(one, 0, ceilings);
        return new OperationTime(op, compute, memory, 0, Math.max(compute, memory),
                memory > compute ? Bound.MEMORY : Bound.COMPUTE);
    }

    /** Seconds a transfer spends on its link: bytes over the link's bandwidth plus one latency per message. */
    private static double linkSeconds(OperationList ops, int i, Ceilings ceilings) {
        Placement placement = PLACEMENTS[OperationList.placementOf(ops.codes[i])];
        int at = i * OperationList.NUMBERS;
        double[] n = ops.numbers;
        return n[at + OperationList.COUNT] * (n[at + OperationList.LINK_BYTES] / ceilings.linkBytesPerSecond(placement)
                + n[at + OperationList.LINK_MESSAGES] * ceilings.linkLatencySeconds(placement));
    }

    /** Seconds an operation's bytes take at the ceiling of its access pattern for its working set (one repetition's bytes). */
    private static double memorySeconds(OperationList ops, int i, Ceilings ceilings) {
        int at = i * OperationList.NUMBERS;
        double[] n = ops.numbers;
        double bytes = n[at + OperationList.BYTES_READ] + n[at + OperationList.BYTES_WRITTEN];
        int code = ops.codes[i];
        return bytes == 0 ? 0 : n[at + OperationList.COUNT] * bytes
                * ceilings.secondsPerByte(OperationList.patternOf(code), bytes, OperationList.placementOf(code));
    }

    /**
     * What an operation's kernel launches add to its roofline time on the device: each of its {@code count}
     * repetitions is at least one kernel, which cannot finish sooner than the launch interval after the one before
     * (kernels shorter than a launch leave the GPU waiting for the host).
     */
    public static double launchBound(double count, double rooflineSeconds, double launchSeconds) {
        return Math.max(0, count * launchSeconds - rooflineSeconds);
    }

    /** Seconds of every operation, in order, and the sums a step needs. */
    public static Evaluation evaluate(List<Operation> operations, Ceilings ceilings) {
        return evaluate(OperationList.of(operations), ceilings);
    }

    /** Seconds of every row, in order, and the sums a step needs. */
    public static Evaluation evaluate(OperationList operations, Ceilings ceilings) {
        return evaluate(operations, ceilings, true);
    }

    /**
     * Only the sums a step needs, without the seconds of each row: the sweep path, which allocates
     * nothing per operation. The evaluation's {@code seconds} and {@code memoryBound} are null.
     */
    public static Evaluation sums(OperationList operations, Ceilings ceilings) {
        return evaluate(operations, ceilings, false);
    }

    /**
     * One pass over the rows. Written to be cheap for the sweep path (about forty rows a step, a million steps a
     * second): what differs from row to row (memory- or compute-bound, recomputed or not, counted in the model
     * FLOPs or not) is added as a 0/1 factor, not branched on, so that rows of every kind in any order cost alike.
     */
    private static Evaluation evaluate(OperationList ops, Ceilings ceilings, boolean perOperation) {
        if (perOperation) {
            // Each row's seconds line up with ops.operations().
            ops.normalize();
        }
        int n = ops.size();
        double[] seconds = perOperation ? new double[n] : null;
        boolean[] memoryBound = perOperation ? new boolean[n] : null;
        double[] byClass = new double[CLASSES];
        double[] memoryBoundByClass = new double[CLASSES];
        double overlappable = 0;
        double modelFlops = 0;
        double hardwareFlops = 0;
        double recompute = 0;
        double recomputeMemoryBound = 0;
        double[] numbers = ops.numbers;
        int[] codes = ops.codes;
        double launch = ceilings.kernelLaunchSeconds();
        for (int i = 0; i < n; i++) {
            int code = codes[i];
            int at = i * OperationList.NUMBERS;
            int kernel = OperationList.kernelOf(code);
            double t;
            double memorySeconds;
            double launchExtra = 0;
            if (kernel == TRANSFER) {
                t = linkSeconds(ops, i, ceilings);
                memorySeconds = 0;
                if (OperationList.overlapsOf(code)) {
                    overlappable += t;
                }
            } else {
                double compute = ceilings.computeSeconds(ops, i);
                double mem = memorySeconds(ops, i, ceilings);
                // Both are finite and non-negative, so one comparison gives the larger and the bound.
                boolean memory = mem > compute;
                t = memory ? mem : compute;
                memorySeconds = memory ? t : 0;
                if (launch > 0 && OperationList.placementOf(code) == DEVICE) {
                    // What the launches add counts in the class's time, not in the row's roofline seconds.
                    launchExtra = launchBound(numbers[at + OperationList.COUNT], t, launch);
                }
            }
            if (perOperation) {
                seconds[i] = t;
                memoryBound[i] = memorySeconds > 0;
            }
            int c = OperationList.classOf(code);
            double count = numbers[at + OperationList.COUNT];
            // Its recompute row, not written (OperationList.recomputed), is the same time and work again.
            double again = (code & OperationList.RECOMPUTED) != 0 ? 1 : 0;
            double modelCounted = c <= BACKWARD ? 1 : 0;
            double hardwareCounted = kernel != ELEMENTWISE ? 1 + again : 0;
            modelFlops += modelCounted * numbers[at + OperationList.MODEL_FLOPS] * count;
            hardwareFlops += hardwareCounted * numbers[at + OperationList.FLOPS] * count;
            double timed = t + launchExtra;
            byClass[c] += timed;
            memoryBoundByClass[c] += memorySeconds;
            recompute += again * timed;
            recomputeMemoryBound += again * memorySeconds;
        }
        byClass[RECOMPUTE] += recompute;
        memoryBoundByClass[RECOMPUTE] += recomputeMemoryBound;
        return new Evaluation(seconds, memoryBound, byClass, memoryBoundByClass, overlappable, modelFlops, hardwareFlops);
    }

    /**
     * Raw sums of one evaluation; {@link membound.model.Estimator} turns them into a step time.
     *
     * @param modelFlops model FLOPs of the forward and backward rows, all repetitions (PaLM's convention: no
     *        recompute, no elementwise work), MFU's numerator
     * @param hardwareFlops FLOPs of every row that is not elementwise, recompute included: HFU's numerator
     */
    public record Evaluation(double[] seconds, boolean[] memoryBound, double[] secondsByClass,
                             double[] memoryBoundSecondsByClass, double overlappableSeconds, double modelFlops,
                             double hardwareFlops) {

        public double seconds(OperationClass operationClass) {
            return secondsByClass[operationClass.ordinal()];
        }

        public double memoryBoundSeconds(OperationClass operationClass) {
            return memoryBoundSecondsByClass[operationClass.ordinal()];
        }
    }
}
