package membound.model.workload;

/**
 * RMSNorm on queries and keys before attention: none, one per head over the head dimension (Qwen3,
 * Gemma 3), or one over the whole query and key projection outputs (OLMo 2).
 */
public enum QueryKeyNorm {
    NONE,
    PER_HEAD,
    PER_PROJECTION;

    /** Norm channels per layer for these head counts. */
    public long channels(long heads, long keyValueHeads, long headDimension) {
        return switch (this) {
            case NONE -> 0;
            case PER_HEAD -> 2 * headDimension;
            case PER_PROJECTION -> (heads + keyValueHeads) * headDimension;
        };
    }
}
