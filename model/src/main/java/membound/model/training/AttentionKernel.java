package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * The fused attention kernel a trainer runs, as far as its speed goes: FlashAttention-2 (the flash-attn package, and
 * PyTorch's scaled_dot_product_attention before 2.5), written for Ampere and about 35% of an H100's peak; or a
 * Hopper-tuned kernel, FlashAttention-3 or cuDNN's fused attention (Transformer Engine, PyTorch's SDPA on Hopper since
 * 2.5), about 75% of it (Shah et al. 2024). They differ on Hopper only: elsewhere the device's one fraction of the GEMM
 * rate stands ({@link membound.model.Defaults#fusedAttentionFractionOfGemm(String, AttentionKernel)}).
 */
public enum AttentionKernel {
    FA2,
    FA3;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code fa2} or {@code fa3} ({@code cudnn} is FA3's class); one line with the known ones on a miss. */
    public static AttentionKernel parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (key.equals("cudnn")) {
            return FA3;
        }
        for (AttentionKernel k : values()) {
            if (k.label().equals(key)) {
                return k;
            }
        }
        throw new BadInputException("attention kernel must be fa2, fa3 or cudnn: attention=" + text
                + Names.suggestion(key, Names.labels(values())));
    }
}
