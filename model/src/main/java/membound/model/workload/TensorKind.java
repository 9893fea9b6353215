package membound.model.workload;

import java.util.Locale;

/**
 * The kinds of weight tensor a checkpoint stores, by the part of the transformer they belong to.
 * A quantized checkpoint often stores them at different formats (gpt-oss: MXFP4 experts, BF16
 * everything else), so bytes are counted per kind.
 */
public enum TensorKind {
    EXPERTS,
    ATTENTION,
    DENSE_MLP,
    ROUTER,
    EMBEDDING,
    LM_HEAD,
    NORMS;

    /** The name a user writes: {@code experts}, {@code attention}, {@code dense-mlp}, {@code lm-head}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
