package membound.model.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.machine.Machine;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

class DecodeTest {

    final Machine machine = TestMachines.simple(250e9, 100e12);

    @Test
    void shouldKnowLlamaCppBlockFormatsByTheirBits() {
        assertEquals(4.5, WeightFormat.parse("Q4_0").bitsPerWeight());
        assertEquals(8.5, WeightFormat.parse("q8_0").bitsPerWeight());
        assertEquals(6.5625, WeightFormat.parse("Q6_K").bitsPerWeight());
        assertEquals(4.25, WeightFormat.parse("mxfp4").bitsPerWeight());
        assertEquals(5.0, WeightFormat.parse("5bits").bitsPerWeight());
        // A mix is no single block format: the weight scheme reads it, llama.cpp's quantizer rules applied.
        BadInputException mixed = assertThrows(BadInputException.class, () -> WeightFormat.parse("Q4_K_M"));
        assertTrue(mixed.getMessage().contains("(Q4_K_M, Q5_K_M, Q6_K, Q8_0)"), mixed.getMessage());
        BadInputException unknownMix = assertThrows(BadInputException.class, () -> WeightScheme.parse("Q3_K_M"));
        assertTrue(unknownMix.getMessage().endsWith("weights=Q3_K_M"), unknownMix.getMessage());
    }

    @Test
    void shouldReadEveryNonLookupWeightAndTheKvCacheOncePerStep() {
        Transformer tf = Presets.get("llama-3.1-8b");
        DecodeSetup setup = new DecodeSetup(4096, 1, 128, WeightFormat.parse("Q8_0"), Precision.BF16, Precision.BF16, 1);
        DecodePrediction p = DecodeEstimator.predict(tf, setup, machine);
        double weights = (tf.parameters().total() - tf.parameters().lookupOnly()) * 8.5 / 8;
        assertEquals(weights, p.weightBytesPerStep(), 1);
        // 2 (K, V) x 32 layers x 8 heads x 128 x 4096 tokens x 2 bytes
        assertEquals(2.0 * 32 * 8 * 128 * 4096 * 2, p.kvCacheBytesPerStep(), 1);
        // Bandwidth-bound: the step is the bytes over the bandwidth, to within the tiny compute-bound ops.
        assertEquals((weights + p.kvCacheBytesPerStep()) / 250e9, p.stepSeconds(), p.stepSeconds() * 0.01);
    }

    @Test
    void shouldAddAnEnginesKernelCostToEveryStepAndSayItsShare() {
        Transformer tf = Presets.get("llama-3.2-1b");
        DecodeSetup setup = new DecodeSetup(512, 1, 128, WeightFormat.parse("Q4_0"), Precision.BF16, Precision.BF16, 1);
        DecodePrediction bare = DecodeEstimator.predict(tf, setup, machine);
        KernelCost cost = new KernelCost(325, 2e-6, "test: 325 kernels at 2 us");
        DecodePrediction engine = DecodeEstimator.predict(tf, setup, machine, cost);
        assertEquals(bare.stepSeconds() + 325 * 2e-6, engine.stepSeconds(), 1e-12);
        assertEquals(bare.datasheetStepSeconds() + 325 * 2e-6, engine.datasheetStepSeconds(), 1e-12);
        assertTrue(engine.notes().stream().anyMatch(n -> n.startsWith("fixed cost per step: 325 kernels x 2.00 us")),
                engine.notes().toString());
        assertEquals(bare.prefillSeconds(), engine.prefillSeconds(), 0, "the kernel cost is the decode step's");
    }

    @Test
    void shouldNeverChargeAKernelLessThanTheDevicesMeasuredLaunchInterval() {
        KernelCost cost = new KernelCost(100, 1e-6, "test");
        assertEquals(100 * 1e-6, cost.seconds(0), 1e-15);
        assertEquals(100 * 3e-6, cost.seconds(3e-6), 1e-15, "a measured launch of 3 us is the floor");
        assertThrows(IllegalArgumentException.class, () -> new KernelCost(-1, 1e-6, "test"));
    }

    @Test
    void shouldReadOnlyTheExpertsABatchIsRoutedTo() {
        Transformer mixtral = Presets.get("mixtral-8x7b");
        DecodeSetup one = new DecodeSetup(1024, 1, 128, WeightFormat.parse("bf16"), Precision.BF16, Precision.BF16, 1);
        DecodePrediction p = DecodeEstimator.predict(mixtral, one, machine);
        var counts = mixtral.parameters();
        double activeWeights = (counts.total() - counts.lookupOnly() - counts.experts() + counts.experts() * 2.0 / 8) * 2;
        assertEquals(activeWeights, p.weightBytesPerStep(), 1);
        assertTrue(p.weightBytesPerStep() < counts.total() * 2 * 0.35);
    }

    @Test
    void shouldGrowTheKvCacheOnlyOnFullAttentionLayersBeyondTheWindow() {
        Transformer oss = Presets.get("gpt-oss-20b");
        DecodeSetup longContext = new DecodeSetup(100_000, 1, 128, WeightFormat.parse("mxfp4"), Precision.BF16, Precision.BF16, 1);
        DecodePrediction p = DecodeEstimator.predict(oss, longContext, machine);
        // 12 full layers x 100,000 tokens + 12 sliding layers x 128 tokens, 8 KV heads x 64, K and V, 2 bytes.
        assertEquals(2.0 * 8 * 64 * (12 * 100_000 + 12 * 128) * 2, p.kvCacheBytesPerStep(), 1);
    }

    /**
     * gpt-oss as released keeps attention, router, embeddings and LM head in BF16 and only the experts
     * in MXFP4: a decode step reads those at 16 bits, not at 4.25.
     */
    @Test
    void shouldReadGptOssExpertsInMxfp4AndTheRestInBf16() {
        Transformer oss = membound.model.workload.Presets.get("gpt-oss-20b");
        DecodeSetup released = DecodeSetup.defaults(WeightScheme.parse("gpt-oss-mxfp4"));
        DecodeSetup everyTensor = DecodeSetup.defaults(WeightFormat.parse("mxfp4"));
        var counts = oss.parameters();
        double touched = oss.experts().expertsTouched(1) / oss.experts().experts();
        double expected = (counts.experts() * touched * 4.25
                + (counts.attention() + counts.router() + counts.norms() + counts.unembedding()) * 16) / 8;
        assertEquals(expected, released.weights().bytes(counts, touched, false), 1);
        var machine = membound.model.machine.Machines.datasheet("dgx-spark");
        DecodePrediction mixed = DecodeEstimator.predict(oss, released, machine);
        DecodePrediction uniform = DecodeEstimator.predict(oss, everyTensor, machine);
        assertEquals(expected, mixed.weightBytesPerStep(), 1);
        assertTrue(mixed.tokensPerSecond() < uniform.tokensPerSecond(), "BF16 attention and LM head are read slower");
        assertEquals(WeightScheme.parse("bf16,experts=mxfp4").overriddenBits(), released.weights().overriddenBits());
    }
}
