package membound.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import membound.benchmarks.training.AdamWSettings;
import membound.benchmarks.training.MlpTraining;
import membound.benchmarks.training.OptimizerStep;
import membound.benchmarks.training.TransformerShape;
import membound.benchmarks.training.TransformerTraining;
import membound.model.Estimator;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;

/**
 * The model describes the same workloads the benchmarks run: the same operations (every phase a workload
 * times is an operation of the model's step, and the other way round), the same parameters, the same FLOPs
 * in products.
 */
class ModelWorkloadsTest {

    private static final Machine MACHINE = ValidationMachines.of(TestProfiles.example(), null, null).measured();

    @Test
    void shouldListTheOptimizerPassesTheWorkloadRuns() {
        try (OptimizerStep optimizer = new OptimizerStep(1000, 1, AdamWSettings.DEFAULTS)) {
            optimizer.timePhases(true);
            optimizer.step();
            assertEquals(optimizer.phaseNanos().keySet(), names(ModelWorkloads.optimizer(1000)));
        }
        List<Operation> ops = ModelWorkloads.optimizer(1000);
        assertEquals(36.0 * 1000, ops.stream().mapToDouble(Operation::totalBytes).sum(), "36 bytes per parameter");
    }

    @Test
    void shouldDescribeTheMlpWithItsOperationsParametersAndProductFlops() {
        int[] widths = {40, 48, 36, 10};
        try (MlpTraining mlp = new MlpTraining(widths, 12, 2, AdamWSettings.DEFAULTS, 1, true)) {
            mlp.timePhases(true);
            mlp.step();
            List<Operation> ops = ModelWorkloads.mlpStep(widths, 12, MACHINE);
            assertEquals(mlp.phaseNanos().keySet(), names(ops));
            assertEquals(mlp.parameterCount(), ModelWorkloads.mlp(widths).parameters().total());
            assertEquals(mlp.productFlops(), gemmFlops(ops), 1e-6);
        }
    }

    @Test
    void shouldDescribeTheTransformerWithItsOperationsAndParameters() {
        TransformerShape shape = new TransformerShape(50, 32, 4, 48, 8, 2);
        try (TransformerTraining transformer = new TransformerTraining(shape, 2, AdamWSettings.DEFAULTS, 1, true)) {
            transformer.timePhases(true);
            transformer.step();
            assertEquals(transformer.phaseNanos().keySet(), names(ModelWorkloads.transformerStep(shape, MACHINE)));
            assertEquals(transformer.parameterCount(), ModelWorkloads.transformer(shape).parameters().total());
        }
    }

    @Test
    void shouldTimeTheStepAsTheModelsOwnStepDoes() {
        TransformerShape shape = new TransformerShape(2048, 256, 4, 1024, 256, 4);
        ReferenceWorkload.Description description = ReferenceWorkload.TRANSFORMER.describe(
                java.util.Map.of("shape", shape.toString(), "threads", "all"), MACHINE);
        double step = Estimator.step(ModelWorkloads.transformer(shape), ModelWorkloads.setup(256, 4, 1), MACHINE,
                Basis.MEASURED).stepSeconds();
        assertEquals(step, Validation.predict(description, MACHINE, Basis.MEASURED).seconds(), 1e-12 * step);
    }

    private static Set<String> names(List<Operation> operations) {
        Set<String> names = new LinkedHashSet<>();
        operations.forEach(op -> names.add(op.name()));
        return names;
    }

    private static double gemmFlops(List<Operation> operations) {
        return operations.stream().filter(op -> op.kernel() == Kernel.GEMM).mapToDouble(Operation::totalFlops).sum();
    }
}
