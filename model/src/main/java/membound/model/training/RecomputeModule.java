package membound.model.training;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * The parts of a layer selective checkpointing may recompute, as Megatron-Core's {@code recompute_modules} names
 * them: each is run again in the backward pass instead of keeping its activations. Without any named, selective
 * checkpointing recomputes the attention core ({@code core_attn}, Korthikanti et al. 2022), which a fused attention
 * kernel never keeps.
 */
public enum RecomputeModule {
    /** The attention core: scores, softmax and the product with the values (nothing extra with FlashAttention). */
    CORE_ATTN,
    /** The norms of each layer (input, post-attention, query and key norms). */
    LAYERNORM,
    /** The activation function of the experts. */
    MOE_ACT,
    /** Latent attention's up-projections of queries, keys and values (DeepSeek's MLA). */
    MLA_UP_PROJ,
    /** The dense MLP of a layer (a mixture of experts' dense layers; every layer of a dense model). */
    MLP,
    /** The shared experts every token goes through. */
    SHARED_EXPERTS,
    /** The whole mixture-of-experts block: router, dispatch, experts and combine. */
    MOE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code layernorm,moe_act} (Megatron's names, any case); one line with the close matches on a miss. */
    public static Set<RecomputeModule> parseList(String text) {
        Set<RecomputeModule> modules = EnumSet.noneOf(RecomputeModule.class);
        if (text == null || text.isBlank()) {
            throw new BadInputException("recompute modules must list modules such as layernorm,moe_act: "
                    + "recomputeModules=" + text);
        }
        for (String part : text.split(",")) {
            String key = part.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            try {
                modules.add(RecomputeModule.valueOf(key));
            } catch (IllegalArgumentException e) {
                throw new BadInputException("recompute modules must be among " + Names.list(values()) + ": "
                        + "recomputeModules=" + text + Names.suggestion(part.trim(), Names.labels(values())));
            }
        }
        return modules;
    }
}
