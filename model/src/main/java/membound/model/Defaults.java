package membound.model;

import membound.model.training.Checkpointing;
import membound.model.training.Optimizer;
import membound.vocabulary.Precision;

/**
 * Every default of the model in one place (as JMH keeps its own in {@code runner/Defaults}), each
 * with the reason it has its value. docs/model.md cites the same sources.
 */
public final class Defaults {

    private Defaults() {
    }

    // ---- training setup ----

    /** Tokens to train on when neither tokens nor steps are given: one billion, a round number to scale from. */
    public static final long TOKENS = 1_000_000_000L;
    public static final int SEQUENCE_LENGTH = 2048;
    public static final int MICRO_BATCH = 1;
    public static final int GRADIENT_ACCUMULATION = 1;

    /**
     * Mixed precision as ZeRO (Rajbhandari et al. 2020, section 3.1) counts it: 16-bit weights and
     * gradients, FP32 master weights and Adam moments: 2 + 2 + 4 + 4 + 4 = 16 bytes per parameter.
     */
    public static final Precision WEIGHT_PRECISION = Precision.BF16;
    public static final Precision ACTIVATION_PRECISION = Precision.BF16;
    public static final Precision GRADIENT_PRECISION = Precision.BF16;
    public static final Precision OPTIMIZER_STATE_PRECISION = Precision.FP32;
    public static final boolean MASTER_WEIGHTS = true;
    public static final Optimizer OPTIMIZER = Optimizer.ADAMW;
    public static final Checkpointing CHECKPOINTING = Checkpointing.NONE;
    public static final boolean FLASH_ATTENTION = true;
    public static final int LORA_RANK = 16;
    public static final int TENANTS = 1;

    // ---- decode ----

    public static final int DECODE_CONTEXT_TOKENS = 4096;
    public static final int DECODE_BATCH = 1;
    public static final int DECODE_PROMPT_TOKENS = 512;
    public static final int DECODE_GENERATED_TOKENS = 256;
    public static final Precision KV_CACHE_PRECISION = Precision.BF16;

    // ---- roofline ----

    /**
     * Attainable fraction of the dense peak for a large GEMM on a device with no measurement of
     * its own: 0.78, the median efficiency of the NVIDIA rows (A100 0.869, GH200 0.838, H100 0.803,
     * B300 0.786, B200 0.776, GB200 0.729) of the BF16 "Maximum Achievable Matmul FLOPS" table in
     * Stas Bekman, Machine Learning Engineering, compute/accelerator/README.md
     * (github.com/stas00/ml-engineering).
     */
    public static final double GEMM_FRACTION_OF_PEAK = 0.78;
    public static final String GEMM_FRACTION_SOURCE = "0.78 x dense peak: median NVIDIA efficiency in the BF16 "
            + "Maximum Achievable Matmul FLOPS table (S. Bekman, ml-engineering, compute/accelerator/README.md)";

    /**
     * A fused attention kernel's rate as a fraction of the device's attainable GEMM rate: 0.6.
     * FlashAttention-2 reaches 50-73% of the A100's peak (Dao 2023, abstract) where a GEMM reaches
     * 86.9% (MAMF table): 0.58-0.84 of GEMM; FlashAttention-3 reaches 75% of the H100's peak (Shah
     * et al. 2024) where a GEMM reaches 80.3%: 0.93. The low end keeps the prediction honest for the
     * backward pass, which FlashAttention-2 runs slower than its forward.
     */
    public static final double FUSED_ATTENTION_FRACTION_OF_GEMM = 0.6;
    public static final String FUSED_ATTENTION_SOURCE = "0.6 x attainable GEMM: FlashAttention-2 reaches 50-73% of A100 peak "
            + "(Dao 2023) against 86.9% for GEMM (MAMF table)";

    /** FlashAttention-2 on Hopper, which it was not written for: its fraction of the attainable GEMM rate. */
    public static final double HOPPER_FUSED_ATTENTION_FRACTION_OF_GEMM = 0.45;
    public static final String HOPPER_FUSED_ATTENTION_SOURCE = "0.45 x attainable GEMM on Hopper: FlashAttention-2 "
            + "reaches about 35% of H100 peak (Shah et al. 2024, FlashAttention-3, section 1) against about 78% for "
            + "GEMM; a trainer running FlashAttention-3 or cuDNN attention gets more, its fitted attention efficiency";

    /**
     * A Hopper-tuned attention kernel (FlashAttention-3, cuDNN's fused attention) on Hopper: its fraction of the
     * attainable GEMM rate. FlashAttention-3 reaches 75% of H100 peak in BF16 (Shah et al. 2024, abstract: up to 740
     * TFLOP/s of 989) against the 794.5 TFLOP/s a GEMM reaches (MAMF table): 0.93.
     */
    public static final double HOPPER_FA3_FRACTION_OF_GEMM = 0.93;
    public static final String HOPPER_FA3_SOURCE = "0.93 x attainable GEMM on Hopper with FlashAttention-3 or cuDNN "
            + "attention: 740 TFLOP/s, 75% of H100 peak (Shah et al. 2024) against 794.5 TFLOP/s for GEMM (MAMF table)";

    /** The fused-attention fraction of the GEMM rate for a device: Hopper GPUs' own, else the A100-derived one. */
    public static double fusedAttentionFractionOfGemm(String deviceName) {
        return fusedAttentionFractionOfGemm(deviceName, membound.model.training.AttentionKernel.FA2);
    }

    /** The same for a trainer's attention kernel: a Hopper-tuned one on Hopper reaches 0.93 of the GEMM rate. */
    public static double fusedAttentionFractionOfGemm(String deviceName, membound.model.training.AttentionKernel kernel) {
        if (!hopper(deviceName)) {
            return FUSED_ATTENTION_FRACTION_OF_GEMM;
        }
        return kernel == membound.model.training.AttentionKernel.FA3 ? HOPPER_FA3_FRACTION_OF_GEMM
                : HOPPER_FUSED_ATTENTION_FRACTION_OF_GEMM;
    }

    public static String fusedAttentionSource(String deviceName) {
        return fusedAttentionSource(deviceName, membound.model.training.AttentionKernel.FA2);
    }

    public static String fusedAttentionSource(String deviceName, membound.model.training.AttentionKernel kernel) {
        if (!hopper(deviceName)) {
            return FUSED_ATTENTION_SOURCE;
        }
        return kernel == membound.model.training.AttentionKernel.FA3 ? HOPPER_FA3_SOURCE : HOPPER_FUSED_ATTENTION_SOURCE;
    }

    private static boolean hopper(String deviceName) {
        String name = deviceName == null ? "" : deviceName.toLowerCase(java.util.Locale.ROOT);
        return name.contains("h100") || name.contains("h200") || name.contains("hopper");
    }

    /**
     * Memory a GPU runtime holds outside the model's tensors (CUDA context, library workspaces):
     * 1 GiB, an allowance of the order PyTorch shows as reserved-but-unallocated on an idle device.
     * Assumption, not measurement; a CPU gets none.
     */
    public static final long GPU_RUNTIME_RESERVE_BYTES = 1L << 30;

    /** Bytes of a loss value and of softmax statistics: FP32. */
    public static final int FP32_BYTES = 4;
}
