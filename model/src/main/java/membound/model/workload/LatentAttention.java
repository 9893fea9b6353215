package membound.model.workload;

import membound.vocabulary.BadInputException;

/**
 * Multi-head latent attention (DeepSeek-V2, Section 2.1): keys and values are projected down to a
 * shared latent of {@code keyValueRank} channels (plus a decoupled rotary key of
 * {@code rotaryDimension}, shared by all heads) and up again per head; queries optionally through a
 * latent of {@code queryRank}. The KV cache holds only the latent and the rotary key per token and
 * layer, as the inference engines that absorb the up-projections (vLLM, SGLang) keep it.
 *
 * @param queryRank q_lora_rank; 0 when queries are projected directly (DeepSeek-V2-Lite)
 */
public record LatentAttention(int queryRank, int keyValueRank, int noPositionDimension, int rotaryDimension,
                              int valueDimension) {

    public static final LatentAttention NONE = new LatentAttention(0, 0, 0, 0, 0);

    public LatentAttention {
        boolean none = keyValueRank == 0 && noPositionDimension == 0 && rotaryDimension == 0 && valueDimension == 0
                && queryRank == 0;
        if (!none && (keyValueRank <= 0 || noPositionDimension < 0 || rotaryDimension <= 0 || valueDimension <= 0
                || queryRank < 0)) {
            throw new BadInputException("latent attention needs positive kv_lora_rank, qk_rope_head_dim and v_head_dim: "
                    + "kv_lora_rank=" + keyValueRank + ", qk_rope_head_dim=" + rotaryDimension + ", v_head_dim="
                    + valueDimension + ", qk_nope_head_dim=" + noPositionDimension + ", q_lora_rank=" + queryRank);
        }
    }

    public boolean present() {
        return keyValueRank > 0;
    }

    /** Width of one head's query and key: the part without positions plus the rotary part. */
    public int queryKeyHeadDimension() {
        return noPositionDimension + rotaryDimension;
    }

    /**
     * Weights of one layer's projections: queries (directly, or down to the query latent and up),
     * the joint down-projection of keys and values with the rotary key, their up-projection per head,
     * and the output projection.
     */
    public long weightsPerLayer(long hidden, long heads) {
        long queryOut = heads * queryKeyHeadDimension();
        long query = queryRank > 0 ? hidden * queryRank + (long) queryRank * queryOut : hidden * queryOut;
        long down = hidden * (keyValueRank + rotaryDimension);
        long up = (long) keyValueRank * heads * (noPositionDimension + valueDimension);
        long output = heads * valueDimension * hidden;
        return query + down + up + output;
    }

    /** The RMSNorms on the latents (one on the query latent when there is one, one on the key/value latent). */
    public long normChannelsPerLayer() {
        return keyValueRank + queryRank;
    }

    /** Elements the KV cache keeps per token and layer: the latent and the shared rotary key. */
    public int cacheElementsPerToken() {
        return keyValueRank + rotaryDimension;
    }
}
