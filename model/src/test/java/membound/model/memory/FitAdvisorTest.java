package membound.model.memory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.Checkpointing;
import membound.model.training.RecomputeModule;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;

class FitAdvisorTest {

    @Test
    void shouldAdviseFullCheckpointingToASelectiveSetupThatDoesNotFitWithoutKeepingItsModules() {
        Machine h100 = Machines.datasheet("h100-sxm");
        // Llama 3.2 1B at 8 sequences of 8,192 tokens, only the norms recomputed: 125 GiB, full checkpointing 60 GiB.
        TrainingSetup selective = TrainingSetup.builder().sequenceLength(8192).microBatchSize(8).steps(1)
                .checkpointing(Checkpointing.SELECTIVE).recomputeModules(EnumSet.of(RecomputeModule.LAYERNORM)).build();
        MemoryFootprint memory = Estimator.predict(Presets.get("llama-3.2-1b"), selective, h100).memory();
        assertFalse(memory.fits());
        assertTrue(memory.advice().stream().anyMatch(a -> a.flags().startsWith("--checkpointing full")),
                String.valueOf(memory.advice()));
    }
}
