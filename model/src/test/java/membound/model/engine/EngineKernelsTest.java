package membound.model.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.model.decode.WeightScheme;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;

class EngineKernelsTest {

    private static final Transformer GPT_OSS = Presets.get("gpt-oss-20b");
    private static final Transformer LLAMA_1B = Presets.get("llama-3.2-1b");

    @Test
    void shouldCountAnEnginesKernelsPerLayerPerMixtureOfExpertsLayerAndPerStep() {
        Engine llamaCpp = Engine.parse("llama.cpp");
        EngineKernels.Count dense = EngineKernels.perStep(llamaCpp, LLAMA_1B, WeightScheme.parse("Q4_K_M"), 1);
        assertEquals(LLAMA_1B.layers() * 20 + 5, dense.kernels(), 0, dense.source());
        EngineKernels.Count moe = EngineKernels.perStep(llamaCpp, GPT_OSS, WeightScheme.parse("gpt-oss-mxfp4"), 1);
        assertEquals(GPT_OSS.layers() * 20 + GPT_OSS.expertLayers() * 4 + 5, moe.kernels(), 0, moe.source());
        assertTrue(moe.source().contains("MoE layers"), moe.source());
    }

    @Test
    void shouldCountFewerKernelsForSixteenBitWeightsAndMoreAboveBatchOne() {
        Engine llamaCpp = Engine.parse("llama.cpp");
        double quantized = EngineKernels.perStep(llamaCpp, LLAMA_1B, WeightScheme.parse("Q4_K_M"), 1).kernels();
        double sixteen = EngineKernels.perStep(llamaCpp, LLAMA_1B, WeightScheme.parse("bf16"), 1).kernels();
        double batch8 = EngineKernels.perStep(llamaCpp, LLAMA_1B, WeightScheme.parse("Q4_K_M"), 8).kernels();
        double batch64 = EngineKernels.perStep(llamaCpp, LLAMA_1B, WeightScheme.parse("Q4_K_M"), 64).kernels();
        assertTrue(sixteen < quantized, "no q8_1 quantize before a 16-bit mat-vec: " + sixteen + " vs " + quantized);
        assertTrue(quantized < batch8 && batch8 < batch64, quantized + " < " + batch8 + " < " + batch64);
    }

    @Test
    void shouldCountNothingForAnEngineTheTableDoesNotKnow() {
        Engine eager = Engine.parse("pytorch-eager");
        assertNull(EngineKernels.perStep(eager, LLAMA_1B, WeightScheme.parse("bf16"), 1));
        assertTrue(EngineKernels.counts("vllm"));
        assertTrue(!EngineKernels.counts("pytorch-eager"));
    }
}
