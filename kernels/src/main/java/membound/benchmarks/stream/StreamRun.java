package membound.benchmarks.stream;

import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.team.ThreadTeam;
import membound.vocabulary.Implementation;

/**
 * A {@link StreamWorkload} running on a {@link ThreadTeam}: each thread allocates and fills its own slice,
 * passes start together, and every result is checked against {@link StreamValues}' closed form.
 *
 * <p>Checking: a Dot or Sum pass is checked as it ends (its result is one number per thread). Kernels that
 * write arrays are checked element by element by {@link #check()}, which the benchmark calls once all passes
 * have run, outside the timed region: written-only arrays start as NaN, so an element no pass wrote cannot
 * pass, and Nstream adds to its array every pass, so one pass too few or too many cannot either. A wrong answer throws {@link StreamValidationException}: it is an
 * error, never a figure.
 */
public final class StreamRun implements AutoCloseable {

    /** Relative tolerance for reductions, STREAM's epsilons: partial sums may be added in any order. */
    static final double DOUBLE_REDUCTION_TOLERANCE = 1e-13;
    static final double FLOAT_REDUCTION_TOLERANCE = 1e-6;

    private final StreamWorkload workload;
    private final Implementation implementation;
    private final StreamValues start;
    private final ThreadTeam<StreamSlice> team;
    private long applications;

    private StreamRun(StreamWorkload workload, Implementation implementation, CpuBinding binding) {
        this.workload = workload;
        this.implementation = implementation;
        this.start = StreamValues.start(workload.elementType());
        int reps = workload.repsPerPass();
        this.team = new ThreadTeam<>(workload.threads(), binding, thread -> {
            StreamSlice slice = StreamSlice.allocate(workload.kernel(), workload.elementType(), implementation,
                    workload.elementsPerThread());
            slice.fill(start);
            return slice;
        }, slice -> slice.pass(reps));
    }

    /** Allocates and fills every thread's slice on that thread. */
    public static StreamRun start(StreamWorkload workload, Implementation implementation) {
        return new StreamRun(workload, implementation, CpuBinding.none());
    }

    /** As {@link #start(StreamWorkload, Implementation)}, each thread bound to its cpu by {@code binding} first. */
    public static StreamRun start(StreamWorkload workload, Implementation implementation, CpuBinding binding) {
        return new StreamRun(workload, implementation, binding);
    }

    public StreamWorkload workload() {
        return workload;
    }

    /** Runs one pass on every thread; returns its wall time, first start to last finish, in nanoseconds. */
    public long pass() {
        long nanos = team.runPass();
        applications += workload.repsPerPass();
        if (workload.kernel().isReduction()) {
            checkReductions();
        }
        return nanos;
    }

    /** Checks every element of every array against the closed form for the passes run so far. */
    public void check() {
        StreamValues expected = start.after(workload.kernel(), applications);
        team.run(slice -> {
            String problem = slice.check(expected);
            if (problem != null) {
                throw failure(team.states().indexOf(slice), problem);
            }
        });
    }

    /** Refills every slice with the start values (on its own thread) and forgets the passes run. */
    public void reset() {
        team.run(slice -> slice.fill(start));
        applications = 0;
    }

    private void checkReductions() {
        double expected = start.reduction(workload.kernel(), workload.elementsPerThread());
        double tolerance = workload.elementType() == ElementType.DOUBLE
                ? DOUBLE_REDUCTION_TOLERANCE : FLOAT_REDUCTION_TOLERANCE;
        for (int thread = 0; thread < team.threads(); thread++) {
            double actual = team.state(thread).lastReduction();
            if (!(Math.abs(actual - expected) <= tolerance * Math.abs(expected))) {
                throw failure(thread, workload.kernel().label().toLowerCase(java.util.Locale.ROOT) + "=" + actual
                        + " but the closed form gives " + expected);
            }
        }
    }

    private StreamValidationException failure(int thread, String problem) {
        return new StreamValidationException(workload.kernel().label() + " (" + workload.elementType().javaName()
                + ", " + implementation.name().toLowerCase(java.util.Locale.ROOT) + ") failed validation on thread "
                + thread + " after " + applications + " applications: " + problem);
    }

    @Override
    public void close() {
        team.close();
    }
}
