package membound.benchmarks.training;

/**
 * The losses of a training benchmark's steps, held to what a working step does: every loss finite, and the last
 * lower than the first once there were two steps or more (a smoke run may take only one).
 */
final class LossTrace {

    private final String workload;
    private double first = Double.NaN;
    private double last;
    private long steps;

    /** @param workload what the failure messages call it, e.g. {@code MLP training} */
    LossTrace(String workload) {
        this.workload = workload;
    }

    /** Records a step's loss and returns it. */
    double record(double loss) {
        steps++;
        last = loss;
        if (Double.isNaN(first)) {
            first = loss;
        }
        return loss;
    }

    /** After an iteration: the last loss is finite. */
    void checkFinite() {
        if (!Double.isFinite(last)) {
            throw new IllegalStateException(workload + " failed validation: loss=" + last);
        }
    }

    /** After a trial: the loss fell. */
    void checkFell() {
        if (steps > 1 && !(last < first)) {
            throw new IllegalStateException(workload + " failed validation: the loss went from " + first + " to "
                    + last + " instead of falling");
        }
    }
}
