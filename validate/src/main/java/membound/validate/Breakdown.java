package membound.validate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.training.TrainingWorkload;

/**
 * Every operation of a workload timed alone: the workload runs in this JVM (plain Java, no JMH) with the same
 * sizes as the measured run, and each phase of its steps is timed under the model's name for the operation.
 * Beside the model's time for each operation, this says which one a prediction gets wrong. A phase's time
 * includes starting and joining the threads, which a fused step would not pay; the sum of the phases is
 * close to the step.
 */
final class Breakdown {

    /** Seconds of warm-up (the JIT compiles the kernels), then of timed steps. */
    static final double WARMUP_SECONDS = 3;
    static final double TIMED_SECONDS = 3;

    /** Steps between restarts, as a benchmark iteration restarts the optimizer ({@link TrainingWorkload#restart}). */
    static final int STEPS_PER_RESTART = 20;

    private Breakdown() {
    }

    /** What timing a workload's phases gives: the steps timed and each operation's nanoseconds over all of them. */
    record Phases(long steps, Map<String, Long> nanos) {
        Phases {
            nanos = Map.copyOf(nanos);
        }

        /** Seconds per step of {@code operation}; null if the workload has no phase of that name. */
        Double secondsPerStep(String operation) {
            Long total = nanos.get(operation);
            return total == null ? null : total / 1e9 / steps;
        }
    }

    static List<ValidationReport.Row> addMeasuredOperations(List<ValidationReport.Row> rows, List<RunResult> results,
            PrintWriter progress) {
        List<ValidationReport.Row> withOperations = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ValidationReport.Row row = rows.get(i);
            Optional<Phases> phases = measure(row.workload(), results.get(i), progress);
            if (phases.isEmpty()) {
                withOperations.add(row);
                continue;
            }
            List<ValidationReport.OperationRow> operations = new ArrayList<>();
            for (ValidationReport.OperationRow operation : row.operations()) {
                operations.add(new ValidationReport.OperationRow(operation.name(), operation.bound(),
                        operation.predictedSeconds(), phases.get().secondsPerStep(operation.name())));
            }
            withOperations.add(row.withOperations(operations));
        }
        return withOperations;
    }

    /** The phases of the workload's steps as its benchmark built it; empty if it cannot be timed alone. */
    private static Optional<Phases> measure(ReferenceWorkload workload, RunResult result, PrintWriter progress) {
        progress.print("timing each operation of the " + workload.label() + " alone ");
        progress.flush();
        Optional<TrainingWorkload> alone = TrainingWorkload.of(result.getParams());
        if (alone.isEmpty()) {
            progress.println("(not timed alone: its tenants are processes of their own)");
            return Optional.empty();
        }
        try (TrainingWorkload training = alone.get()) {
            return Optional.of(run(training, WARMUP_SECONDS, TIMED_SECONDS, progress));
        }
    }

    /** Steps for {@code warmupSeconds}, then at least three timed steps for {@code timedSeconds}. */
    static Phases run(TrainingWorkload workload, double warmupSeconds, double timedSeconds, PrintWriter progress) {
        long steps = 0;
        long until = System.nanoTime() + (long) (warmupSeconds * 1e9);
        while (System.nanoTime() < until) {
            steps = step(workload, steps);
        }
        workload.timePhases(true);
        long timed = 0;
        until = System.nanoTime() + (long) (timedSeconds * 1e9);
        while (System.nanoTime() < until || timed < 3) {
            steps = step(workload, steps);
            timed++;
        }
        Phases phases = new Phases(timed, workload.phaseNanos());
        workload.timePhases(false);
        progress.println(timed + " steps");
        return phases;
    }

    /** One step, and a restart after every {@link #STEPS_PER_RESTART}; returns the steps since the last restart. */
    private static long step(TrainingWorkload workload, long sinceRestart) {
        workload.step();
        if (sinceRestart + 1 >= STEPS_PER_RESTART) {
            workload.restart();
            return 0;
        }
        return sinceRestart + 1;
    }
}
