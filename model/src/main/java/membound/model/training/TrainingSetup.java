package membound.model.training;

import membound.model.Defaults;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * Every knob of a training run. Sizes are per device and per micro-batch as frameworks take them:
 * a step processes {@code sequenceLength x microBatchSize x gradientAccumulation} tokens on each
 * data-parallel replica. Built with {@link #builder()}; defaults live in {@link Defaults}.
 *
 * @param tokens tokens to train on in total; the last step counts pro rata, so time is linear in tokens
 * @param masterWeights keep an FP32 copy of trainable weights when {@code weightPrecision} is narrower
 * @param overlapCommunication hide the data-parallel gradient all-reduce behind the backward pass
 * @param recomputeModules with selective checkpointing, the parts of a layer recomputed (Megatron-Core's
 *        {@code recompute_modules}); empty: the attention core
 * @param recomputeLayers with full checkpointing, how many layers of each pipeline stage are recomputed (Megatron's
 *        {@code recompute_method=block}, {@code recompute_num_layers}); 0: every layer
 * @param attentionPrecision the precision the fused attention kernels compute in, or null for the default
 *        ({@link #attentionComputePrecision()})
 * @param attentionKernel the fused attention kernel (FlashAttention-2 or a Hopper-tuned one): its rate on Hopper
 * @param moeDispatcher how a mixture of experts' tokens reach their experts (a fused path or Megatron-Core's all-to-all)
 * @param overlapExpertCommunication the expert-parallel all-to-all of one micro-batch hides behind another's compute
 *        (Megatron-Core's {@code overlap_moe_expert_parallel_comm}, the recipes' {@code moe_a2a_overlap})
 * @param overlapParameterGather with a distributed optimizer (ZeRO-1/2) and overlapped communication, its all-gather of
 *        the updated parameters hides behind the next step's forward (Megatron's {@code overlap_param_gather}, on in
 *        the default; its MXFP8 recipes of 25.11 turn it off)
 */
public record TrainingSetup(long tokens, int sequenceLength, int microBatchSize, int gradientAccumulation,
                            Precision weightPrecision, Precision activationPrecision, Precision gradientPrecision,
                            Precision optimizerStatePrecision, boolean masterWeights, Optimizer optimizer,
                            Checkpointing checkpointing, boolean flashAttention, FineTuning fineTuning,
                            Pruning pruning, Offload offload, Parallelism parallelism, int tenants,
                            boolean overlapCommunication, java.util.Set<RecomputeModule> recomputeModules,
                            int recomputeLayers, Precision attentionPrecision, AttentionKernel attentionKernel,
                            MoeDispatcher moeDispatcher, boolean overlapExpertCommunication,
                            boolean overlapParameterGather) {

    public TrainingSetup {
        if (tokens <= 0) {
            throw new BadInputException("tokens must be positive: tokens=" + tokens);
        }
        positive("sequenceLength", sequenceLength);
        positive("microBatchSize", microBatchSize);
        positive("gradientAccumulation", gradientAccumulation);
        positive("tenants", tenants);
        long perStep = tokensPerStep(sequenceLength, microBatchSize, gradientAccumulation,
                parallelism == null ? 1 : parallelism.dataParallel());
        if (parallelism != null && sequenceLength % parallelism.contextParallel() != 0) {
            throw new BadInputException("context-parallel must divide the sequence length (" + sequenceLength
                    + "): contextParallel=" + parallelism.contextParallel());
        }
        if (tokens < perStep) {
            throw new BadInputException("tokens must be at least one optimizer step's tokens (sequence length x "
                    + "micro-batch x accumulation x replicas = " + perStep + "): tokens=" + tokens);
        }
        if (weightPrecision == null || activationPrecision == null || gradientPrecision == null
                || optimizerStatePrecision == null || optimizer == null || checkpointing == null) {
            throw new BadInputException("precisions, optimizer and checkpointing must be given");
        }
        if (fineTuning == null) {
            fineTuning = FineTuning.full();
        }
        if (pruning == null) {
            pruning = Pruning.NONE;
        }
        if (offload == null) {
            offload = Offload.NONE;
        }
        if (parallelism == null) {
            parallelism = Parallelism.SINGLE;
        }
        if (attentionKernel == null) {
            attentionKernel = AttentionKernel.FA2;
        }
        if (moeDispatcher == null) {
            moeDispatcher = MoeDispatcher.FUSED;
        }
        recomputeModules = recomputeModules == null || recomputeModules.isEmpty() ? java.util.Set.of()
                : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(recomputeModules));
        if (!recomputeModules.isEmpty() && checkpointing != Checkpointing.SELECTIVE) {
            throw new BadInputException("recompute modules need selective checkpointing: checkpointing="
                    + checkpointing.label() + ", recomputeModules=" + recomputeModules);
        }
        if (recomputeLayers < 0) {
            throw new BadInputException("recompute layers must be 0 (every layer) or more: recomputeLayers="
                    + recomputeLayers);
        }
        if (recomputeLayers > 0 && checkpointing != Checkpointing.FULL) {
            throw new BadInputException("recompute layers need full checkpointing: checkpointing="
                    + checkpointing.label() + ", recomputeLayers=" + recomputeLayers);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.tokens = tokens;
        b.sequenceLength = sequenceLength;
        b.microBatchSize = microBatchSize;
        b.gradientAccumulation = gradientAccumulation;
        b.weightPrecision = weightPrecision;
        b.activationPrecision = activationPrecision;
        b.gradientPrecision = gradientPrecision;
        b.optimizerStatePrecision = optimizerStatePrecision;
        b.masterWeights = masterWeights;
        b.optimizer = optimizer;
        b.checkpointing = checkpointing;
        b.flashAttention = flashAttention;
        b.fineTuning = fineTuning;
        b.pruning = pruning;
        b.offload = offload;
        b.parallelism = parallelism;
        b.tenants = tenants;
        b.overlapCommunication = overlapCommunication;
        b.recomputeModules = recomputeModules;
        b.recomputeLayers = recomputeLayers;
        b.attentionPrecision = attentionPrecision;
        b.attentionKernel = attentionKernel;
        b.moeDispatcher = moeDispatcher;
        b.overlapExpertCommunication = overlapExpertCommunication;
        b.overlapParameterGather = overlapParameterGather;
        return b;
    }

    /**
     * The precision activations are stored in, what norms, activation functions and residual adds read and write: the
     * activation precision, except in low-precision training (GEMMs in 8 bits or fewer, as Transformer Engine runs FP8,
     * MXFP8 and NVFP4) with 16-bit or wider weights, which quantizes only each GEMM's inputs and keeps the activations
     * in the weights' precision.
     */
    public Precision storedActivationPrecision() {
        return activationPrecision.bits() <= 8 && weightPrecision.bits() >= 16 ? weightPrecision : activationPrecision;
    }

    /**
     * The precision the fused attention kernels compute in: the one set, else the stored activations' (Transformer
     * Engine's FP8 recipes leave attention in 16 bits unless FP8 attention is asked for: fp8_dot_product_attention).
     */
    public Precision attentionComputePrecision() {
        return attentionPrecision != null ? attentionPrecision : storedActivationPrecision();
    }

    /** Tokens one device processes per micro-batch. */
    public long tokensPerMicroBatch() {
        return (long) sequenceLength * microBatchSize;
    }

    /** Tokens the whole job processes per optimizer step: all data-parallel replicas together. */
    public long tokensPerStep() {
        return tokensPerStep(sequenceLength, microBatchSize, gradientAccumulation, parallelism.dataParallel());
    }

    /** The most tokens a step may take: beyond 2^53 a double no longer counts them exactly. */
    static final long MAX_TOKENS_PER_STEP = 1L << 53;

    private static long tokensPerStep(int sequenceLength, int microBatchSize, int gradientAccumulation, int replicas) {
        try {
            long perStep = Math.multiplyExact(Math.multiplyExact(Math.multiplyExact((long) sequenceLength,
                    microBatchSize), gradientAccumulation), replicas);
            if (perStep <= MAX_TOKENS_PER_STEP) {
                return perStep;
            }
        } catch (ArithmeticException e) {
            // reported below with the factors
        }
        throw new BadInputException("tokens per step must be at most 2^53 (sequence length x micro-batch x "
                + "accumulation x replicas): sequenceLength=" + sequenceLength + ", microBatchSize=" + microBatchSize
                + ", gradientAccumulation=" + gradientAccumulation + ", dataParallel=" + replicas);
    }

    /** Steps to train on {@link #tokens}, fractional: the last, partial step counts pro rata. */
    public double steps() {
        return (double) tokens / tokensPerStep();
    }

    /** Whether an FP32 master copy is kept: asked for, and the weights are narrower than FP32. */
    public boolean keepsMasterWeights() {
        return masterWeights && weightPrecision != Precision.FP32;
    }

    private static void positive(String what, long value) {
        if (value <= 0) {
            throw new BadInputException(what + " must be positive: " + what + "=" + value);
        }
    }

    /** Setters named after the knobs; {@link #build()} checks them all. */
    public static final class Builder {
        private long tokens = Defaults.TOKENS;
        private long steps;
        private int sequenceLength = Defaults.SEQUENCE_LENGTH;
        private int microBatchSize = Defaults.MICRO_BATCH;
        private int gradientAccumulation = Defaults.GRADIENT_ACCUMULATION;
        private Precision weightPrecision = Defaults.WEIGHT_PRECISION;
        private Precision activationPrecision = Defaults.ACTIVATION_PRECISION;
        private Precision gradientPrecision = Defaults.GRADIENT_PRECISION;
        private Precision optimizerStatePrecision = Defaults.OPTIMIZER_STATE_PRECISION;
        private boolean masterWeights = Defaults.MASTER_WEIGHTS;
        private Optimizer optimizer = Defaults.OPTIMIZER;
        private Checkpointing checkpointing = Defaults.CHECKPOINTING;
        private boolean flashAttention = Defaults.FLASH_ATTENTION;
        private FineTuning fineTuning = FineTuning.full();
        private Pruning pruning = Pruning.NONE;
        private Offload offload = Offload.NONE;
        private Parallelism parallelism = Parallelism.SINGLE;
        private int tenants = Defaults.TENANTS;
        private boolean overlapCommunication;
        private java.util.Set<RecomputeModule> recomputeModules = java.util.Set.of();
        private int recomputeLayers;
        private Precision attentionPrecision;
        private AttentionKernel attentionKernel = AttentionKernel.FA2;
        private MoeDispatcher moeDispatcher = MoeDispatcher.FUSED;
        private boolean overlapExpertCommunication;
        private boolean overlapParameterGather = true;

        private Builder() {
        }

        public Builder tokens(long value) { tokens = value; steps = 0; return this; }
        /** Train for this many optimizer steps instead of a token count. */
        public Builder steps(long value) {
            if (value <= 0) {
                throw new BadInputException("steps must be positive: steps=" + value);
            }
            steps = value;
            return this;
        }
        public Builder sequenceLength(int value) { sequenceLength = value; return this; }
        public Builder microBatchSize(int value) { microBatchSize = value; return this; }
        public Builder gradientAccumulation(int value) { gradientAccumulation = value; return this; }
        /** Weights, activations and gradients in one precision; optimizer states keep theirs. */
        public Builder precision(Precision value) {
            weightPrecision = value;
            activationPrecision = value;
            gradientPrecision = value;
            return this;
        }
        public Builder weightPrecision(Precision value) { weightPrecision = value; return this; }
        public Builder activationPrecision(Precision value) { activationPrecision = value; return this; }
        public Builder gradientPrecision(Precision value) { gradientPrecision = value; return this; }
        public Builder optimizerStatePrecision(Precision value) { optimizerStatePrecision = value; return this; }
        public Builder masterWeights(boolean value) { masterWeights = value; return this; }
        public Builder optimizer(Optimizer value) { optimizer = value; return this; }
        public Builder checkpointing(Checkpointing value) { checkpointing = value; return this; }
        public Builder flashAttention(boolean value) { flashAttention = value; return this; }
        public Builder fineTuning(FineTuning value) { fineTuning = value; return this; }
        public Builder pruning(Pruning value) { pruning = value; return this; }
        public Builder offload(Offload value) { offload = value; return this; }
        public Builder parallelism(Parallelism value) { parallelism = value; return this; }
        public Builder tenants(int value) { tenants = value; return this; }
        public Builder overlapCommunication(boolean value) { overlapCommunication = value; return this; }
        /** With selective checkpointing: the parts of a layer recomputed (empty: the attention core). */
        public Builder recomputeModules(java.util.Set<RecomputeModule> value) { recomputeModules = value; return this; }
        /** With full checkpointing: layers of each pipeline stage recomputed (0: all). */
        public Builder recomputeLayers(int value) { recomputeLayers = value; return this; }
        /** The precision attention computes in (null: the stored activations' precision). */
        public Builder attentionPrecision(Precision value) { attentionPrecision = value; return this; }
        /** The fused attention kernel (its rate on Hopper differs: FlashAttention-2 or FlashAttention-3/cuDNN). */
        public Builder attentionKernel(AttentionKernel value) { attentionKernel = value; return this; }
        /** How a mixture of experts' tokens reach their experts (a fused path, or Megatron-Core's all-to-all dispatcher). */
        public Builder moeDispatcher(MoeDispatcher value) { moeDispatcher = value; return this; }
        /** Hide the expert-parallel all-to-all of one micro-batch behind another's compute. */
        public Builder overlapExpertCommunication(boolean value) { overlapExpertCommunication = value; return this; }
        /** With a distributed optimizer: hide its parameter all-gather behind the next forward (default on). */
        public Builder overlapParameterGather(boolean value) { overlapParameterGather = value; return this; }

        public TrainingSetup build() {
            long total = tokens;
            if (steps > 0) {
                long perStep = (long) sequenceLength * microBatchSize * gradientAccumulation
                        * (parallelism == null ? 1 : parallelism.dataParallel());
                if (perStep <= 0) {
                    throw new BadInputException("sequenceLength, microBatchSize and gradientAccumulation must be positive to count steps");
                }
                total = Math.multiplyExact(steps, perStep);
            }
            return new TrainingSetup(total, sequenceLength, microBatchSize, gradientAccumulation, weightPrecision,
                    activationPrecision, gradientPrecision, optimizerStatePrecision, masterWeights, optimizer,
                    checkpointing, flashAttention, fineTuning, pruning, offload, parallelism, tenants,
                    overlapCommunication, recomputeModules, recomputeLayers, attentionPrecision, attentionKernel,
                    moeDispatcher, overlapExpertCommunication, overlapParameterGather);
        }
    }
}
