package membound.validate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.sizing.Threads;
import membound.benchmarks.training.AdamWSettings;
import membound.benchmarks.training.MlpBenchmark;
import membound.benchmarks.training.MlpTraining;
import membound.benchmarks.training.OptimizerStep;
import membound.benchmarks.training.TransformerShape;
import membound.benchmarks.training.TransformerTraining;

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

    private Breakdown() {
    }

    static List<ValidationReport.Row> addMeasuredOperations(List<ValidationReport.Row> rows, List<RunResult> results,
            PrintWriter progress) {
        List<ValidationReport.Row> withOperations = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ValidationReport.Row row = rows.get(i);
            Map<String, Long> phases = measure(row.workload(), results.get(i), progress);
            if (phases == null) {
                withOperations.add(row);
                continue;
            }
            long steps = phases.remove(STEPS);
            List<ValidationReport.OperationRow> operations = new ArrayList<>();
            for (ValidationReport.OperationRow operation : row.operations()) {
                Long nanos = phases.get(operation.name());
                operations.add(new ValidationReport.OperationRow(operation.name(), operation.bound(),
                        operation.predictedSeconds(), nanos == null ? null : nanos / 1e9 / steps));
            }
            withOperations.add(row.withOperations(operations));
        }
        return withOperations;
    }

    private static final String STEPS = "\u0000steps";

    /** The phases of the workload's steps, summed, and the step count under {@link #STEPS}; null if not timed alone. */
    private static Map<String, Long> measure(ReferenceWorkload workload, RunResult result, PrintWriter progress) {
        var params = result.getParams();
        int threads = Threads.resolve(params.getParam("threads") == null ? "all" : params.getParam("threads"));
        progress.print("timing each operation of the " + workload.label() + " alone ");
        progress.flush();
        Map<String, Long> phases;
        switch (workload) {
            case OPTIMIZER -> {
                try (OptimizerStep optimizer = new OptimizerStep(Long.parseLong(params.getParam("parameters")), threads,
                        AdamWSettings.DEFAULTS)) {
                    phases = run(() -> {
                        optimizer.step();
                        if (optimizer.steps() >= 20) {
                            optimizer.reset();
                        }
                        return true;
                    }, optimizer::timePhases, optimizer::phaseNanos, progress);
                }
            }
            case MLP -> {
                try (MlpTraining mlp = new MlpTraining(MlpBenchmark.parseWidths(params.getParam("widths")),
                        Integer.parseInt(params.getParam("batch")), threads, AdamWSettings.DEFAULTS, 42, true)) {
                    phases = run(() -> Double.isFinite(mlp.step()), mlp::timePhases, mlp::phaseNanos, progress);
                }
            }
            case TRANSFORMER -> {
                try (TransformerTraining transformer = new TransformerTraining(
                        TransformerShape.parse(params.getParam("shape")), threads, AdamWSettings.DEFAULTS, 42, true)) {
                    phases = run(() -> Double.isFinite(transformer.step()), transformer::timePhases,
                            transformer::phaseNanos, progress);
                }
            }
            default -> {
                progress.println("(not timed alone: its tenants are processes of their own)");
                return null;
            }
        }
        return phases;
    }

    private static Map<String, Long> run(BooleanSupplier step, java.util.function.Consumer<Boolean> timePhases,
            java.util.function.Supplier<Map<String, Long>> phaseNanos, PrintWriter progress) {
        long until = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
        while (System.nanoTime() < until) {
            step.getAsBoolean();
        }
        timePhases.accept(true);
        long steps = 0;
        until = System.nanoTime() + (long) (TIMED_SECONDS * 1e9);
        while (System.nanoTime() < until || steps < 3) {
            step.getAsBoolean();
            steps++;
        }
        Map<String, Long> phases = new java.util.LinkedHashMap<>(phaseNanos.get());
        timePhases.accept(false);
        phases.put(STEPS, steps);
        progress.println(steps + " steps");
        return phases;
    }
}
