package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * How a mixture of experts' routed tokens reach their experts and come back, as far as its speed goes: a fused path
 * (Megatron-Core's flex dispatcher over DeepEP or HybridEP, dispatch and combine fused into the communication kernels;
 * or a trainer's own expert path), or Megatron-Core's all-to-all token dispatcher (NCCL all-to-all between separate
 * permute and unpermute kernels, the token counts read back to the host before each exchange), which its recipes run
 * where they name no flex backend. The two differ in the step time far beyond the bytes they move: the all-to-all
 * dispatcher's read-back is a synchronisation per MoE layer's forward, after which the GPU waits on the host's
 * launches; the published set fits its cost per dispatch ({@code alltoall-dispatch}, {@link Overheads}).
 */
public enum MoeDispatcher {
    FUSED,
    ALLTOALL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code fused} ({@code flex}, {@code deepep}, {@code hybridep}) or {@code alltoall}; one line on a miss. */
    public static MoeDispatcher parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (key.equals("flex") || key.equals("deepep") || key.equals("hybridep")) {
            return FUSED;
        }
        for (MoeDispatcher d : values()) {
            if (d.label().equals(key)) {
                return d;
            }
        }
        throw new BadInputException("moe dispatcher must be fused, flex, deepep, hybridep or alltoall: moe-dispatcher="
                + text + Names.suggestion(key, Names.labels(values())));
    }
}
