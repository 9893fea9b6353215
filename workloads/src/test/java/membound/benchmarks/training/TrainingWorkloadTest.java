package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** A benchmark's parameters give the workload its trial built: the same sizes, seed and threads, step for step. */
class TrainingWorkloadTest {

    @Test
    void shouldBuildTheMlpItsBenchmarkBuildsAndStepItTheSame() {
        MlpBenchmark benchmark = new MlpBenchmark();
        benchmark.widths = "37,21,7";
        benchmark.batch = 5;
        benchmark.threads = "1";
        benchmark.setUp();
        try (TrainingWorkload alone = TrainingWorkload.of(MlpBenchmark.class.getName() + ".step",
                Map.of("widths", "37,21,7", "batch", "5", "threads", "1")::get).orElseThrow()) {
            MlpTraining mlp = assertInstanceOf(MlpTraining.class, alone);
            assertEquals(5, mlp.batch());
            for (int i = 0; i < 3; i++) {
                assertEquals(benchmark.step(), alone.step(), "step " + i + ": the same seed and sizes, bit for bit");
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void shouldBuildTheTransformerAndTheOptimizerFromTheirParameters() {
        try (TrainingWorkload transformer = TrainingWorkload.of(TransformerBenchmark.class.getName() + ".step",
                Map.of("shape", "11,8,2,12,5,3", "threads", "1")::get).orElseThrow()) {
            assertEquals(TransformerShape.parse("11,8,2,12,5,3"),
                    assertInstanceOf(TransformerTraining.class, transformer).shape());
            assertTrue(Double.isFinite(transformer.step()));
        }
        try (TrainingWorkload optimizer = TrainingWorkload.of(OptimizerBenchmark.class.getName() + ".step",
                Map.of("parameters", "10000")::get).orElseThrow()) {
            OptimizerStep step = assertInstanceOf(OptimizerStep.class, optimizer);
            assertEquals(10_000, step.parameters());
            assertEquals(Runtime.getRuntime().availableProcessors(), step.threads(), "no threads parameter: every cpu");
            optimizer.timePhases(true);
            optimizer.step();
            assertEquals(3, optimizer.phaseNanos().size(), "norm, update and zero: " + optimizer.phaseNanos());
            assertTrue(step.lastStepNanos() > 0);
            optimizer.restart();
            assertEquals(0, step.steps());
        }
    }

    @Test
    void shouldHaveNoWorkloadForBenchmarksThatAreNotOneInThisJvm() {
        assertEquals(Optional.empty(), TrainingWorkload.of(TenantsBenchmark.class.getName() + ".step", Map.<String, String>of()::get));
        assertEquals(Optional.empty(), TrainingWorkload.of("membound.benchmarks.stream.StreamBenchmark.pass",
                Map.<String, String>of()::get));
    }
}
