package membound.model.workload;

import membound.vocabulary.BadInputException;

/**
 * The mixture-of-experts part of a transformer: experts per MoE layer, how many each token is
 * routed to, the width of one routed expert, the shared experts every token goes through, and how
 * many layers keep a dense MLP instead. {@link #DENSE} is an ordinary MLP on every layer.
 *
 * @param expertWidth intermediate width of one routed expert (Qwen's and DeepSeek's
 *        {@code moe_intermediate_size}); 0 until the transformer fills in its intermediate size
 * @param sharedWidth intermediate width of the shared experts together (DeepSeek: n_shared_experts x
 *        moe_intermediate_size; Qwen2-MoE: shared_expert_intermediate_size); 0 without
 * @param sharedGate the shared expert's output is scaled by a sigmoid gate of one output (Qwen2-MoE)
 * @param denseLayers layers whose MLP is dense, at the transformer's intermediate size (DeepSeek's
 *        first_k_dense_replace, Qwen's mlp_only_layers and decoder_sparse_step)
 */
public record MixtureOfExperts(int experts, int expertsPerToken, int expertWidth, int sharedWidth, boolean sharedGate,
                               int denseLayers) {

    public static final MixtureOfExperts DENSE = new MixtureOfExperts(1, 1);

    public MixtureOfExperts {
        if (experts < 1) {
            throw new BadInputException("experts must be at least 1: experts=" + experts);
        }
        if (expertsPerToken < 1 || expertsPerToken > experts) {
            throw new BadInputException("expertsPerToken must be between 1 and experts (" + experts
                    + "): expertsPerToken=" + expertsPerToken);
        }
        if (expertWidth < 0 || sharedWidth < 0 || denseLayers < 0) {
            throw new BadInputException("expert widths and dense layers must be zero or more: expertWidth=" + expertWidth
                    + ", sharedWidth=" + sharedWidth + ", denseLayers=" + denseLayers);
        }
    }

    /** Routed experts only, each as wide as the dense MLP would be (Mixtral, gpt-oss). */
    public MixtureOfExperts(int experts, int expertsPerToken) {
        this(experts, expertsPerToken, 0, 0, false, 0);
    }

    public boolean sparse() {
        return experts > 1;
    }

    MixtureOfExperts withExpertWidth(int width) {
        return new MixtureOfExperts(experts, expertsPerToken, width, sharedWidth, sharedGate, denseLayers);
    }

    /**
     * Expected number of distinct experts a layer touches when {@code tokens} tokens are each
     * routed to {@link #expertsPerToken} experts uniformly at random: E(1 - (1 - k/E)^T). One
     * token touches k; a training micro-batch touches all of them.
     */
    public double expertsTouched(double tokens) {
        if (!sparse()) {
            return 1;
        }
        double missed = Math.pow(1.0 - (double) expertsPerToken / experts, tokens);
        return Math.max(expertsPerToken, experts * (1.0 - missed));
    }
}
