package membound.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodePrediction;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightFormat;
import membound.model.machine.Machines;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;

/** The plausibility checks, on the built-in datasheet entries. */
class PlausibilityTest {

    @Test
    void shouldPutLlama8bFullBf16TrainingOnAnH100BetweenThirtyAndEightyFivePercentMfu() {
        TrainingSetup setup = TrainingSetup.builder().microBatchSize(2).gradientAccumulation(8).build();
        Prediction p = Estimator.predict(Presets.get("llama-3.1-8b"), setup, Machines.datasheet("h100"));
        for (StepResult basis : new StepResult[] {p.measured(), p.datasheet()}) {
            assertTrue(basis.mfu() > 0.30 && basis.mfu() < 0.85, basis.basis() + " MFU " + basis.mfu());
        }
    }

    @Test
    void shouldReportTheAdamWStepOnADgxSparkAsMemoryBound() {
        Prediction p = Estimator.predict(Presets.get("llama-3.2-3b"), TrainingSetup.builder().build(),
                Machines.datasheet("dgx-spark"));
        StepResult.ClassTime optimizer = p.measured().time("optimizer");
        assertTrue(optimizer.seconds() > 0);
        assertEquals(1.0, optimizer.memoryBoundSeconds() / optimizer.seconds(), 1e-9);
        OperationRow update = p.operations().stream().filter(r -> r.name().equals("optimizer update (adamw)"))
                .findFirst().orElseThrow();
        assertEquals("memory", update.bound());
    }

    @Test
    void shouldFindEightBitDecodeOfAnEightBModelOnADgxSparkBandwidthBound() {
        DecodePrediction p = DecodeEstimator.predict(Presets.get("llama-3.1-8b"),
                DecodeSetup.defaults(WeightFormat.parse("Q8_0")), Machines.datasheet("dgx-spark"));
        assertTrue(p.bandwidthBound());
        assertTrue(p.memoryBoundShare() > 0.99, "memory-bound share " + p.memoryBoundShare());
        // Bytes per token over the measured read bandwidth bounds the rate from above.
        assertTrue(p.tokensPerSecond() <= 232.5e9 / p.bytesPerToken() * 1.0001);
    }
}
