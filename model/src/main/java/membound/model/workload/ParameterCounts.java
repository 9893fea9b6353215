package membound.model.workload;

/**
 * Parameters by part. {@code experts} holds every expert's MLP weights, {@code activeExperts} the
 * ones a token uses (k of E); a dense model has its MLP in {@code mlp} and no experts. A table
 * tied between input embedding and output projection is counted once, under {@code unembedding},
 * because the output projection is where it costs FLOPs.
 */
public record ParameterCounts(long embedding, long positionEmbedding, long attention, long mlp, long experts,
                              long activeExperts, long router, long norms, long unembedding) {

    public long total() {
        return embedding + positionEmbedding + attention + mlp + experts + router + norms + unembedding;
    }

    /** Parameters one token uses: all but the experts it is not routed to. */
    public long active() {
        return total() - experts + activeExperts;
    }

    /**
     * Tables a token only looks a row up in (an untied input embedding, learned positions): they
     * cost no FLOPs, so the N in 6·N·D leaves them out (Kaplan et al., 2020, section 2.1).
     */
    public long lookupOnly() {
        return embedding + positionEmbedding;
    }

    /** The N of 6·N·D: active parameters less the lookup-only tables. */
    public long activeInMatmuls() {
        return active() - lookupOnly();
    }
}
