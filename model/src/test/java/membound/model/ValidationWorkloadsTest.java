package membound.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.roofline.Bound;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationTime;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.vocabulary.Precision;

/** The shapes membound validate times on a CPU: an optimizer step alone, one transformer block without embeddings. */
class ValidationWorkloadsTest {

    final Machine machine = TestMachines.simple(100e9, 1e12);

    @Test
    void shouldTimeAnFp32AdamWStepByItsTwentyEightBytesPerParameter() {
        TrainingSetup fp32 = TrainingSetup.builder().precision(Precision.FP32).build();
        List<Operation> ops = StepPlanner.optimizerStep(fp32, 50e6);
        Operation update = ops.stream().filter(op -> op.name().startsWith("optimizer update")).findFirst().orElseThrow();
        // reads w, g, m, v; writes w, m, v: 7 x 4 bytes
        assertEquals(28 * 50e6, update.bytes());
        OperationTime t = Estimator.time(List.of(update), machine, Basis.MEASURED, 1).get(0);
        assertEquals(28 * 50e6 / 100e9, t.seconds(), 1e-12);
        assertEquals(Bound.MEMORY, t.bound());
    }

    @Test
    void shouldPredictOneBlockWithoutEmbeddingOrOutputLayer() {
        Transformer block = Transformer.builder("block").vocabularySize(0).hiddenSize(512).layers(1).multiHead(8)
                .intermediateSize(2048).build();
        Prediction p = Estimator.predict(block, TrainingSetup.builder().sequenceLength(256).precision(Precision.FP32).build(),
                machine);
        assertTrue(p.operations().stream().noneMatch(r -> r.name().startsWith("embedding") || r.name().contains("LM head") || r.name().contains("cross-entropy")));
        assertTrue(p.measured().stepSeconds() > 0);
    }
}
