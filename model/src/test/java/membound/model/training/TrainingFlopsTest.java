package membound.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.model.TestMachines;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;

/**
 * The operation inventory against the closed forms: training FLOPs = 6·N·D (Kaplan et al. 2020;
 * forward 2ND, backward 4ND) for the matmuls, attention apart as 12·L·a·d·s per token (PaLM,
 * Chowdhery et al. 2022, appendix B; the JAX scaling book's 12·B·T²·N·H per layer).
 */
class TrainingFlopsTest {

    static final double SIX_N_D_TOLERANCE = 0.02;
    static final int SEQUENCE = 2048;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpt2", "gpt2-xl", "llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.3-70b",
            "qwen2.5-7b", "mixtral-8x7b", "gpt-oss-20b"})
    void shouldCountSixNDTrainingFlopsForTheMatmuls(String preset) {
        Transformer tf = Presets.get(preset);
        StepPlan plan = plan(tf);
        double tokens = plan.setup().tokensPerStep();
        double matmul = 0;
        double attention = 0;
        for (Operation op : plan.operations()) {
            if (op.operationClass() != OperationClass.FORWARD && op.operationClass() != OperationClass.BACKWARD) {
                continue;
            }
            if (op.kernel() == Kernel.ATTENTION) {
                attention += op.totalModelFlops();
            } else if (op.kernel() == Kernel.GEMM) {
                matmul += op.totalModelFlops();
            }
        }
        // N: the parameters a token multiplies (active experts only; no lookup-only tables).
        double sixND = 6.0 * tf.parameters().activeInMatmuls() * tokens;
        assertEquals(1.0, matmul / sixND, SIX_N_D_TOLERANCE, "matmul FLOPs / 6ND");

        int full = tf.layers() - tf.slidingWindow().layers();
        double keys = full * SEQUENCE + tf.slidingWindow().layers() * Math.min(SEQUENCE, tf.slidingWindow().tokens());
        double palmAttention = 12.0 * tf.attentionHeads() * tf.headDimension() * keys * tokens;
        assertEquals(palmAttention, attention, palmAttention * 1e-9, "attention, reported apart");
    }

    private static StepPlan plan(Transformer tf) {
        TrainingSetup setup = TrainingSetup.builder().sequenceLength(SEQUENCE).microBatchSize(1).build();
        return StepPlanner.plan(tf, setup, TestMachines.simple(1e12, 1e14));
    }
}
