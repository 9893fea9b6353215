package membound.benchmarks.training;

import java.util.LinkedHashMap;
import java.util.Map;

import membound.benchmarks.team.ThreadTeam;

/**
 * The threads of a training step: a {@link ThreadTeam} that runs one phase of the step (a product, an
 * elementwise pass) at a time, each thread on its share of the rows, all starting together; a phase ends
 * when the slowest thread does, as a GPU kernel or an OpenMP loop does. Optionally times every phase under
 * the model's name for the operation, to find which operation a prediction gets wrong.
 */
final class Workers implements AutoCloseable {

    /** The body of a phase: rows {@code [from, to)} on thread {@code thread}. */
    @FunctionalInterface
    interface Range {
        void run(int thread, int from, int to);
    }

    private final ThreadTeam<Integer> team;
    private final Map<String, long[]> phaseNanos = new LinkedHashMap<>();
    private boolean timed;

    Workers(int threads) {
        this.team = new ThreadTeam<>(threads, thread -> thread, thread -> { });
    }

    int threads() {
        return team.threads();
    }

    /**
     * Runs {@code body} over {@code [0, n)} split into whole multiples of {@code grain} (the last thread takes
     * the remainder); a thread with nothing to do still joins the phase.
     */
    void forRange(String phase, int n, int grain, Range body) {
        long start = timed ? System.nanoTime() : 0;
        int threads = team.threads();
        team.run(thread -> {
            int from = start(n, grain, threads, thread);
            int to = start(n, grain, threads, thread + 1);
            if (to > from) {
                body.run(thread, from, to);
            }
        });
        if (timed) {
            record(phase, System.nanoTime() - start);
        }
    }

    /** First index of thread {@code thread}'s share: whole grains, the last thread takes the remainder. */
    static int start(int n, int grain, int threads, int thread) {
        if (thread >= threads) {
            return n;
        }
        long grains = n / grain;
        return (int) (grains * thread / threads) * grain;
    }

    /** Time of a phase that runs on the caller alone (combining per-thread partial results). */
    void serial(String phase, Runnable body) {
        long start = timed ? System.nanoTime() : 0;
        body.run();
        if (timed) {
            record(phase, System.nanoTime() - start);
        }
    }

    /** Starts or stops recording phase times; starting clears what was recorded. */
    void timePhases(boolean on) {
        timed = on;
        if (on) {
            phaseNanos.clear();
        }
    }

    /** Nanoseconds per phase name since timing started, summed over its runs, in first-run order. */
    Map<String, Long> phaseNanos() {
        Map<String, Long> copy = new LinkedHashMap<>();
        phaseNanos.forEach((name, nanos) -> copy.put(name, nanos[0]));
        return copy;
    }

    private void record(String phase, long nanos) {
        phaseNanos.computeIfAbsent(phase, p -> new long[1])[0] += nanos;
    }

    @Override
    public void close() {
        team.close();
    }
}
