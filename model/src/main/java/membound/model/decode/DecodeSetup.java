package membound.model.decode;

import membound.model.Defaults;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * Inference: {@code batch} sequences, each with {@code contextTokens} tokens in its KV cache when
 * the next token is generated; the prompt of {@code promptTokens} is prefilled first.
 *
 * @param weights storage format of each kind of weight (the GEMMs dequantize in-kernel and compute in {@code compute})
 */
public record DecodeSetup(int contextTokens, int batch, int promptTokens, WeightScheme weights,
                          Precision kvCache, Precision compute, int tenants) {

    public DecodeSetup {
        positive("contextTokens", contextTokens);
        positive("batch", batch);
        positive("promptTokens", promptTokens);
        positive("tenants", tenants);
        if (weights == null) {
            weights = WeightScheme.uniform(WeightFormat.parse("bf16"));
        }
        if (kvCache == null) {
            kvCache = Defaults.KV_CACHE_PRECISION;
        }
        if (compute == null) {
            compute = Defaults.ACTIVATION_PRECISION;
        }
    }

    /** Every weight in one format. */
    public DecodeSetup(int contextTokens, int batch, int promptTokens, WeightFormat weights, Precision kvCache,
                       Precision compute, int tenants) {
        this(contextTokens, batch, promptTokens, WeightScheme.uniform(weights), kvCache, compute, tenants);
    }

    public static DecodeSetup defaults(WeightFormat weights) {
        return defaults(WeightScheme.uniform(weights));
    }

    public static DecodeSetup defaults(WeightScheme weights) {
        return new DecodeSetup(Defaults.DECODE_CONTEXT_TOKENS, Defaults.DECODE_BATCH, Defaults.DECODE_PROMPT_TOKENS,
                weights, Defaults.KV_CACHE_PRECISION, Defaults.ACTIVATION_PRECISION, 1);
    }

    public DecodeSetup withWeights(WeightScheme replaced) {
        return new DecodeSetup(contextTokens, batch, promptTokens, replaced, kvCache, compute, tenants);
    }

    private static void positive(String what, int value) {
        if (value <= 0) {
            throw new BadInputException(what + " must be positive: " + what + "=" + value);
        }
    }
}
