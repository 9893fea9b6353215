package membound.model.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.machine.Machine;
import membound.model.roofline.Operation;
import membound.model.training.Optimizer;
import membound.model.training.StepPlan;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Activation;
import membound.model.workload.Mlp;
import membound.vocabulary.Precision;

/** Bytes per parameter of weights, gradients and optimizer states, as ZeRO (Rajbhandari et al. 2020) counts them. */
class BytesPerParameterTest {

    final Mlp mlp = new Mlp("mlp", "test", List.of(1024, 4096, 1024), Activation.RELU, false);
    final Machine machine = TestMachines.simple(1e12, 1e14);

    @Test
    void shouldHoldSixteenBytesPerParameterForMixedPrecisionAdamW() {
        assertEquals(16.0, stateBytesPerParameter(TrainingSetup.builder().build()), 1e-12);
    }

    @Test
    void shouldHoldSixteenBytesPerParameterForFp32AdamWWithoutMasterCopy() {
        assertEquals(16.0, stateBytesPerParameter(TrainingSetup.builder().precision(Precision.FP32).build()), 1e-12);
    }

    @Test
    void shouldHoldTwelveBytesPerParameterForMixedPrecisionSgdWithMomentum() {
        assertEquals(12.0, stateBytesPerParameter(TrainingSetup.builder().optimizer(Optimizer.SGD_MOMENTUM).build()), 1e-12);
    }

    @Test
    void shouldHoldEightBytesAndTwoBlockScalesForEightBitAdam() {
        assertEquals(2 + 2 + 4 + 2 * (1 + 4.0 / 2048),
                stateBytesPerParameter(TrainingSetup.builder().optimizer(Optimizer.ADAM_8BIT).build()), 1e-12);
    }

    @Test
    void shouldMoveTwentyEightBytesPerParameterInAMixedPrecisionAdamWUpdate() {
        StepPlan plan = StepPlanner.plan(mlp, TrainingSetup.builder().build(), machine);
        Operation update = plan.operations().stream().filter(op -> op.name().startsWith("optimizer update"))
                .findFirst().orElseThrow();
        // reads master 4, gradient 2, m 4, v 4; writes master 4, bf16 weight 2, m 4, v 4
        assertEquals(14.0, update.bytesRead() / mlp.parameters().total(), 1e-12);
        assertEquals(14.0, update.bytesWritten() / mlp.parameters().total(), 1e-12);
    }

    private double stateBytesPerParameter(TrainingSetup setup) {
        MemoryFootprint fp = MemoryModel.training(StepPlanner.plan(mlp, setup, machine), machine);
        return (fp.weightsBytes() + fp.gradientsBytes() + fp.optimizerStatesBytes()) / mlp.parameters().total();
    }
}
