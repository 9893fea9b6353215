package membound.model.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import membound.model.training.Checkpointing;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;

/**
 * Korthikanti et al. 2022, section 4.1: a GPT layer with 16-bit activations and dropout keeps
 * s·b·h·(34 + 5·a·s/h) bytes; selective recompute keeps 34·s·b·h; full recompute 2·s·b·h.
 */
class ActivationMemoryTest {

    static final double BF16 = 2;
    final Transformer gpt = Presets.get("gpt2-xl");
    final double s = 1024;
    final double b = 4;
    final double h = gpt.hiddenSize();
    final double a = gpt.attentionHeads();

    @Test
    void shouldKeepThirtyFourSbhPlusFiveAsSquaredBWithoutRecompute() {
        assertEquals(s * b * h * (34 + 5 * a * s / h),
                ActivationMemory.perLayerBytes(gpt, b, s, BF16, Checkpointing.NONE, false, 1), 1e-6);
    }

    @Test
    void shouldKeepThirtyFourSbhWithSelectiveRecompute() {
        assertEquals(34 * s * b * h, ActivationMemory.perLayerBytes(gpt, b, s, BF16, Checkpointing.SELECTIVE, false, 1), 1e-6);
    }

    @Test
    void shouldKeepTwoSbhWithFullRecompute() {
        assertEquals(2 * s * b * h, ActivationMemory.perLayerBytes(gpt, b, s, BF16, Checkpointing.FULL, false, 1), 1e-6);
    }

    @Test
    void shouldReplaceTheScoresByTheLogSumExpWithFlashAttention() {
        assertEquals(34 * s * b * h + a * s * b * 4,
                ActivationMemory.perLayerBytes(gpt, b, s, BF16, Checkpointing.NONE, true, 1), 1e-6);
    }

    @Test
    void shouldDivideByTensorParallelismWithSequenceParallelism() {
        assertEquals(s * b * h * (34 + 5 * a * s / h) / 5,
                ActivationMemory.perLayerBytes(gpt, b, s, BF16, Checkpointing.NONE, false, 5), 1e-3);
    }
}
