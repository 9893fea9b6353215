package membound.model.workload;

import membound.vocabulary.BadInputException;

/** Experts per MLP layer and how many each token is routed to; {@link #DENSE} is an ordinary MLP. */
public record MixtureOfExperts(int experts, int expertsPerToken) {

    public static final MixtureOfExperts DENSE = new MixtureOfExperts(1, 1);

    public MixtureOfExperts {
        if (experts < 1) {
            throw new BadInputException("experts must be at least 1: experts=" + experts);
        }
        if (expertsPerToken < 1 || expertsPerToken > experts) {
            throw new BadInputException("expertsPerToken must be between 1 and experts (" + experts
                    + "): expertsPerToken=" + expertsPerToken);
        }
    }

    public boolean sparse() {
        return experts > 1;
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
