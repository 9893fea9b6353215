package membound.benchmarks.training;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A reference training workload outside JMH: steps one at a time, each step's phases timed under the model's names
 * for the operations. {@link MlpTraining}, {@link TransformerTraining} and {@link OptimizerStep} are ones; each
 * training benchmark builds its own the same way for its JMH run and for {@link #of(BenchmarkParams)}.
 */
public interface TrainingWorkload extends AutoCloseable {

    /**
     * One training step. Returns a figure that stays finite while the step is sound: the loss before the update for a
     * model, the gradient norm it clipped with for the optimizer alone.
     */
    double step();

    /** Records the time of every phase under the model's operation names from now on (off: stops). */
    void timePhases(boolean on);

    /** Nanoseconds per operation since {@link #timePhases} started, summed over the steps. */
    Map<String, Long> phaseNanos();

    /**
     * Back to the starting values, where a long run would leave what was measured (the optimizer alone: its moments
     * decay towards subnormal floats, so its benchmark restarts it every iteration). A model keeps training: nothing.
     */
    default void restart() {
    }

    @Override
    void close();

    /** The workload a training benchmark's run timed, built as its trial did; empty for the tenants and the rest. */
    static Optional<TrainingWorkload> of(BenchmarkParams params) {
        return of(params.getBenchmark(), params::getParam);
    }

    /**
     * As above, from the benchmark's method name ({@code membound.benchmarks.training.MlpBenchmark.step}) and its
     * parameters by name.
     */
    static Optional<TrainingWorkload> of(String benchmark, Function<String, String> param) {
        String type = benchmark.substring(0, Math.max(0, benchmark.lastIndexOf('.')));
        if (type.equals(OptimizerBenchmark.class.getName())) {
            return Optional.of(OptimizerBenchmark.workload(param));
        }
        if (type.equals(MlpBenchmark.class.getName())) {
            return Optional.of(MlpBenchmark.workload(param));
        }
        if (type.equals(TransformerBenchmark.class.getName())) {
            return Optional.of(TransformerBenchmark.workload(param));
        }
        return Optional.empty();
    }
}
