package membound.model.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import membound.model.workload.HuggingFaceConfig;
import membound.model.workload.Presets;
import membound.model.workload.TensorKind;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;

class WeightSchemeTest {

    private static final double Q4_K = 4.5;
    private static final double Q6_K = 6.5625;
    private static final double Q8_0 = 8.5;

    @Test
    void shouldPickTheLayersLlamaCppGivesMoreBits() {
        int picked = 0;
        for (int layer = 0; layer < 32; layer++) {
            picked += GgufMix.useMoreBits(layer, 32) ? 1 : 0;
        }
        // Layers 0-3 and 28-31, and 6, 9, ..., 27 between: 4 + 4 + 8.
        assertEquals(16, picked);
    }

    /** Llama 3.1 8B in Q4_K_M: v_proj and down_proj at Q6_K on 16 of 32 layers, the output layer at Q6_K. */
    @Test
    void shouldWeighQ4KmByTheModelsOwnTensors() {
        Transformer llama = Presets.get("llama-3.1-8b");
        WeightScheme mix = WeightScheme.parse("q4_k_m").resolve(llama);
        double q = 4096.0 * 4096;
        double kv = 4096.0 * 1024;
        double attention = (q * Q4_K + kv * Q4_K + kv * (Q4_K + Q6_K) / 2 + q * Q4_K) / (2 * q + 2 * kv);
        assertEquals(attention, mix.format(TensorKind.ATTENTION).bitsPerWeight(), 1e-9);
        double mlp = (2 * Q4_K + (Q4_K + Q6_K) / 2) / 3;
        assertEquals(mlp, mix.format(TensorKind.DENSE_MLP).bitsPerWeight(), 1e-9);
        assertEquals(Q6_K, mix.format(TensorKind.LM_HEAD).bitsPerWeight(), 1e-12);
        assertEquals(Q4_K, mix.format(TensorKind.EMBEDDING).bitsPerWeight(), 1e-12);
        assertEquals(32, mix.format(TensorKind.NORMS).bitsPerWeight(), 1e-12);
    }

    @Test
    void shouldGiveAnEightExpertModelsKeysAndValuesQ8() {
        WeightScheme mix = WeightScheme.parse("Q4_K_M").resolve(Presets.get("mixtral-8x7b"));
        double q = 4096.0 * 4096;
        double kv = 4096.0 * 1024;
        // k and v at Q8_0, the attention output at Q5_K (5.5 bits), q at Q4_K.
        double attention = (q * Q4_K + 2 * kv * Q8_0 + q * 5.5) / (2 * q + 2 * kv);
        assertEquals(attention, mix.format(TensorKind.ATTENTION).bitsPerWeight(), 1e-9);
    }

    @Test
    void shouldFallBackWhereRowsAreNotSuperBlocks() throws URISyntaxException {
        // gpt-oss's hidden size 2880 is not a multiple of 256: llama.cpp stores its Q4_K rows as Q5_0 (5.5 bits).
        Transformer oss = HuggingFaceConfig.read(Path.of(getClass()
                .getResource("/membound/model/configs/openai--gpt-oss-20b.json").toURI()));
        WeightScheme mix = WeightScheme.parse("Q4_K_M").resolve(oss);
        double upAndGate = 5.5;
        double down = (5.5 * 12 + 8.5 * 12) / 24;  // Q6_K falls back to Q8_0 on the 12 of 24 layers use_more_bits picks
        assertEquals((2 * upAndGate + down) / 3, mix.format(TensorKind.EXPERTS).bitsPerWeight(), 1e-9);
    }

    @Test
    void shouldReadABaseFormatAndOverridesPerKind() {
        WeightScheme scheme = WeightScheme.parse("fp8, experts=nvfp4, lm-head=bf16");
        assertEquals(8, scheme.format(TensorKind.ATTENTION).bitsPerWeight());
        assertEquals(4.5, scheme.format(TensorKind.EXPERTS).bitsPerWeight());
        assertEquals(16, scheme.format(TensorKind.LM_HEAD).bitsPerWeight());
        assertTrue(!scheme.isUniform());
        assertEquals(16, WeightScheme.parse("experts=mxfp4").format(TensorKind.NORMS).bitsPerWeight(), "BF16 base");
    }

    @Test
    void shouldNameAnUnknownKindInOneLine() {
        BadInputException e = assertThrows(BadInputException.class, () -> WeightScheme.parse("bf16,expert=mxfp4"));
        assertTrue(e.getMessage().startsWith("weights must override a tensor kind (experts, attention, dense-mlp, router, "
                + "embedding, lm-head, norms): weights=bf16,expert=mxfp4 (kind expert)"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    @Test
    void shouldKnowTheQuantizedCheckpointConventions() {
        WeightScheme awq = WeightScheme.parse("awq-int4-g128");
        assertEquals(4 + 20.0 / 128, awq.format(TensorKind.EXPERTS).bitsPerWeight(), 1e-12);
        assertEquals(16, awq.format(TensorKind.LM_HEAD).bitsPerWeight());
        assertEquals(4 + 20.0 / 64, WeightScheme.parse("gptq-int4-g64").format(TensorKind.ATTENTION).bitsPerWeight(), 1e-12);
        WeightScheme fp8 = WeightScheme.parse("fp8-block128");
        assertEquals(8 + 32.0 / 16384, fp8.format(TensorKind.DENSE_MLP).bitsPerWeight(), 1e-12);
        assertEquals(16, fp8.format(TensorKind.EMBEDDING).bitsPerWeight());
        WeightScheme nvfp4 = WeightScheme.parse("nvfp4-modelopt");
        assertEquals(4.5, nvfp4.format(TensorKind.ATTENTION).bitsPerWeight());
        assertEquals(16, nvfp4.format(TensorKind.ROUTER).bitsPerWeight());
        assertThrows(BadInputException.class, () -> WeightScheme.parse("awq-int4-g4"));
    }
}
