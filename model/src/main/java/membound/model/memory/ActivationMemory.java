package membound.model.memory;

import membound.model.Defaults;
import membound.model.training.Checkpointing;
import membound.model.workload.Transformer;

/**
 * Activation bytes a transformer layer keeps for its backward pass, term by term as Korthikanti
 * et al. (2022, "Reducing Activation Recomputation in Large Transformer Models", section 4.1)
 * derive them, generalized to grouped-query attention, gated MLPs, experts and activations of any
 * width. For a GPT layer (multi-head attention, 4h GELU MLP, LayerNorm, dropout, 16-bit
 * activations) the terms add up to their s·b·h·(34 + 5·a·s/h) bytes.
 */
public final class ActivationMemory {

    private ActivationMemory() {
    }

    /**
     * Bytes one layer keeps for a micro-batch of {@code batch} sequences of {@code sequence} tokens.
     *
     * @param e bytes per activation element (2 for BF16); dropout masks are 1 byte per element
     * @param tensorParallel divides everything: heads and MLP width by tensor parallelism, the rest by
     *        sequence parallelism (Korthikanti et al., section 4.2.2)
     */
    public static double perLayerBytes(Transformer tf, double batch, double sequence, double e,
                                       Checkpointing checkpointing, boolean flashAttention, int tensorParallel) {
        double tokens = batch * sequence;
        double h = tf.hiddenSize();
        if (checkpointing == Checkpointing.FULL) {
            // Only the layer's input (Korthikanti: 2sbh at 16 bits).
            return tokens * h * e / tensorParallel;
        }
        double mask = tf.dropout() ? 1 : 0;
        double q = tf.queryDimension();
        double kv = tf.keyValueDimension();
        double f = tf.experts().sparse() ? tf.experts().expertWidth() : tf.intermediateSize();
        double shared = tf.experts().sharedWidth();
        double heads = tf.attentionHeads();

        double attention = tokens * h * e          // norm input (LayerNorm 2sbh of 4sbh)
                + tokens * h * e                   // QKV projection input (2sbh)
                + tokens * (q + kv) * e            // Q and K for QK^T (4sbh with MHA)
                + tokens * kv * e                  // V (2sbh with MHA)
                + tokens * q * e                   // output projection input (2sbh)
                + tokens * h * mask;               // attention dropout mask (sbh)
        double scores = batch * heads * sequence * sequence;
        if (flashAttention) {
            attention += batch * heads * sequence * Defaults.FP32_BYTES;  // log-sum-exp per query and head
        } else if (checkpointing == Checkpointing.NONE) {
            attention += scores * e                // softmax output (2as²b)
                    + scores * mask                // its dropout mask (as²b)
                    + scores * e * mask;           // dropout output (2as²b)
        }
        // Selective recompute keeps everything but the score-sized terms (34sbh).

        double mlp = tokens * h * e                // norm input (LayerNorm 2sbh of 4sbh)
                + tokens * h * mask;               // MLP dropout mask (sbh)
        int k = tf.experts().expertsPerToken();
        double routed = tokens * k;
        if (tf.experts().sparse()) {
            mlp += tokens * h * e                  // router input
                    + tokens * tf.experts().experts() * Defaults.FP32_BYTES  // router probabilities
                    + routed * h * e;              // dispatched expert inputs
        } else {
            mlp += tokens * h * e;                 // first linear input (2sbh)
        }
        if (tf.activation().gated()) {
            mlp += (routed * f + tokens * shared) * 3 * e;  // gate and up outputs, and their product (down input)
        } else {
            mlp += (routed * f + tokens * shared) * 2 * e;  // activation input and second linear input (8sbh + 8sbh at 4h)
        }
        return (attention + mlp) / tensorParallel;
    }

    /**
     * The output layer and loss (last stage): final-norm input, LM-head input, FP32 softmax over
     * the vocabulary; and the embedding dropout mask (first stage).
     */
    public static double outsideLayersBytes(Transformer tf, double batch, double sequence, double e, int tensorParallel) {
        if (!tf.hasEmbeddings()) {
            return 0;
        }
        double tokens = batch * sequence;
        double h = tf.hiddenSize();
        return (2 * tokens * h * e + tokens * h * (tf.dropout() ? 1 : 0)) / tensorParallel
                + tokens * (double) tf.vocabularySize() / tensorParallel * Defaults.FP32_BYTES;
    }
}
