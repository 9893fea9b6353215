package membound.model.training;

import membound.model.Defaults;
import membound.model.roofline.Kernel;
import membound.model.roofline.OperationClass;
import membound.model.roofline.OperationList;
import membound.model.roofline.Placement;
import java.util.Locale;
import java.util.Map;

import membound.model.workload.Activation;
import membound.model.workload.LatentAttention;
import membound.model.workload.Normalization;
import membound.model.workload.PositionEncoding;
import membound.model.workload.QueryKeyNorm;
import membound.model.workload.TensorKind;
import membound.model.workload.Transformer;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.RowOperation;

/**
 * The operations of a transformer's forward pass and, when training, of its backward pass and of
 * what activation checkpointing recomputes. Training, prefill and decode all go through here, so
 * a GEMM, a norm or an attention kernel counts its FLOPs and bytes the same way everywhere.
 *
 * <p>Per micro-batch of {@code batch} sequences, {@code queryTokens} new tokens each attend to
 * {@code keyTokens} keys: training and prefill have query = key tokens (causal); a decode step has
 * one query token per sequence reading the KV cache of the context. Tensor parallelism splits
 * heads and the MLP width (Megatron-LM, Shoeybi et al. 2019) and, with sequence parallelism, the
 * rows of norms and residuals (Korthikanti et al. 2022).
 */
public final class TransformerPass {

    /**
     * Shape of one micro-batch of work.
     *
     * @param keysPerQuery keys a query attends to on average, or NaN to count them from the query and key tokens: a
     *        context-parallel slice of a causal sequence ({@code queryTokens} = s / c of {@code keyTokens} = s) has
     *        the whole sequence's average, (s + 1) / 2, as Megatron's load-balanced chunks give every rank an equal
     *        share of the causal work
     */
    public record Shape(double batch, double queryTokens, double keyTokens, boolean causal,
                        boolean readsKvCache, boolean writesKvCache, double keysPerQuery) {

        public Shape(double batch, double queryTokens, double keyTokens, boolean causal, boolean readsKvCache,
                     boolean writesKvCache) {
            this(batch, queryTokens, keyTokens, causal, readsKvCache, writesKvCache, Double.NaN);
        }

        public double rows() {
            return batch * queryTokens;
        }
    }

    /**
     * Precisions and switches of one pass.
     *
     * @param weightBitsPerParameter stored bits of the base weights (precision, quantization format, pruning)
     * @param dequantizeWeights base weights are unpacked into {@code activationBytes} before each GEMM (QLoRA)
     * @param baseTrainable the base weights get gradients (full fine-tuning)
     * @param sparseWeights forward GEMMs run on 2:4 sparse tensor throughput
     * @param kvCacheBytesPerElement precision of the KV cache read or written (decode, prefill)
     * @param weightBitsByKind stored bits of the kinds of tensor stored otherwise than {@code weightBitsPerParameter}
     *        (a quantized checkpoint's experts); empty when every weight is stored alike
     * @param expertParallel devices the routed experts are spread over ({@link Parallelism#expertParallel}); 1: every
     *        device holds every expert, split by tensor parallelism
     * @param recomputeModules with selective checkpointing, the parts of a layer recomputed (empty: the attention core)
     * @param attention the precision the attention kernels compute in (null: {@code compute})
     */
    public record Settings(boolean training, Precision compute, double activationBytes, double weightBitsPerParameter,
                           boolean dequantizeWeights, double gradientBytes, boolean baseTrainable,
                           FineTuning fineTuning, double adapterBytes, boolean sparseWeights, int tensorParallel,
                           boolean flashAttention, Checkpointing checkpointing, double kvCacheBytesPerElement,
                           Map<TensorKind, Double> weightBitsByKind, int expertParallel,
                           java.util.Set<RecomputeModule> recomputeModules, Precision attention) {

        public Settings {
            weightBitsByKind = weightBitsByKind == null ? Map.of() : Map.copyOf(weightBitsByKind);
            recomputeModules = recomputeModules == null ? java.util.Set.of() : java.util.Set.copyOf(recomputeModules);
            if (expertParallel < 1) {
                throw new IllegalArgumentException("expertParallel must be positive: " + expertParallel);
            }
        }

        /** Without expert parallelism or named recompute modules. */
        public Settings(boolean training, Precision compute, double activationBytes, double weightBitsPerParameter,
                        boolean dequantizeWeights, double gradientBytes, boolean baseTrainable, FineTuning fineTuning,
                        double adapterBytes, boolean sparseWeights, int tensorParallel, boolean flashAttention,
                        Checkpointing checkpointing, double kvCacheBytesPerElement,
                        Map<TensorKind, Double> weightBitsByKind) {
            this(training, compute, activationBytes, weightBitsPerParameter, dequantizeWeights, gradientBytes,
                    baseTrainable, fineTuning, adapterBytes, sparseWeights, tensorParallel, flashAttention,
                    checkpointing, kvCacheBytesPerElement, weightBitsByKind, 1, java.util.Set.of(), null);
        }

        /** The same with another checkpointing mode (a stage's layers recomputed and not). */
        public Settings withCheckpointing(Checkpointing value) {
            return new Settings(training, compute, activationBytes, weightBitsPerParameter, dequantizeWeights,
                    gradientBytes, baseTrainable, fineTuning, adapterBytes, sparseWeights, tensorParallel,
                    flashAttention, value, kvCacheBytesPerElement, weightBitsByKind, expertParallel,
                    value == Checkpointing.SELECTIVE ? recomputeModules : java.util.Set.of(), attention);
        }

        /** Stored bits of one weight of that kind. */
        public double weightBits(TensorKind kind) {
            return weightBitsByKind.isEmpty() ? weightBitsPerParameter
                    : weightBitsByKind.getOrDefault(kind, weightBitsPerParameter);
        }
    }

    private final Transformer tf;
    private final Shape shape;
    private final Settings s;
    /**
     * Forward and backward rows, both in one list (it reads them in class order); what checkpointing
     * recomputes is a forward row marked {@link OperationList#recomputed}.
     */
    private final OperationList forward;
    private final OperationList backward;

    private TransformerPass(Transformer tf, Shape shape, Settings settings, OperationList ops) {
        this.tf = tf;
        this.shape = shape;
        this.s = settings;
        this.forward = ops;
        this.backward = ops;
        FineTuning ft = settings.fineTuning();
        if (ft.adapters()) {
            for (LoraTarget target : LORA_TARGETS) {
                adapted[target.ordinal()] = ft.targets(target);
            }
        }
    }

    private static final LoraTarget[] LORA_TARGETS = LoraTarget.values();

    /** What the names of the routed experts' GEMM rows begin with (their forward, gradients and LoRA rows). */
    public static final String EXPERT_GEMM_PREFIX = "expert ";

    /** The routed tokens' dispatch to their experts, one run per MoE layer and pass (Overheads counts them). */
    public static final String EXPERT_DISPATCH = "expert dispatch";
    /** Per LoRA target: whether this pass's fine-tuning adapts it. */
    private final boolean[] adapted = new boolean[LORA_TARGETS.length];

    /**
     * Appends the operations of {@code layers} transformer layers and, if {@code withEmbedding} /
     * {@code withHead}, of the embedding and the output layer, each repeated {@code microBatches}
     * times.
     */
    public static void append(Transformer tf, Shape shape, Settings settings, double layers, double microBatches,
                              boolean withEmbedding, boolean withHead, OperationList ops) {
        TransformerPass pass = new TransformerPass(tf, shape, settings, ops);
        if (withEmbedding && tf.hasEmbeddings()) {
            pass.embedding(microBatches);
        }
        pass.layers(layers, microBatches);
        if (withHead && tf.hasEmbeddings()) {
            pass.head(microBatches);
        }
    }

    private boolean recomputesEverything() {
        return s.training() && s.checkpointing() == Checkpointing.FULL;
    }

    /**
     * The part of the layer the rows being added belong to ({@code recompute_modules}' names), null for none of them:
     * selective checkpointing recomputes the rows of the modules it names.
     */
    private RecomputeModule module;

    /** Whether the rows being added are recomputed in the backward pass: every row under full checkpointing, else
     * those of a module selective checkpointing names. */
    private boolean again() {
        return recomputesEverything() || s.training() && s.checkpointing() == Checkpointing.SELECTIVE
                && module != null && s.recomputeModules().contains(module);
    }

    /** The names of a dense MLP's rows: a layer's own or the shared experts'. */
    private record MlpNames(String gateAndUp, String up, String down) {
    }

    private static final MlpNames MLP = new MlpNames("mlp gate and up projection", "mlp up projection",
            "mlp down projection");
    private static final MlpNames SHARED_EXPERT = new MlpNames("shared expert gate and up projection",
            "shared expert up projection", "shared expert down projection");
    private static final String[] ACTIVATION_NAMES = new String[Activation.values().length];

    static {
        for (Activation a : Activation.values()) {
            ACTIVATION_NAMES[a.ordinal()] = a.name().toLowerCase(Locale.ROOT);
        }
    }

    // ---- the layers ----

    private void layers(double layers, double microBatches) {
        double count = layers * microBatches;
        double e = s.activationBytes();
        double rows = shape.rows();
        int t = s.tensorParallel();
        // Sequence parallelism splits the rows of norms, residuals and dropout over the tensor-parallel group.
        double splitRows = s.training() ? rows / t : rows;
        double h = tf.hiddenSize();
        double d = tf.headDimension();
        double heads = (double) tf.attentionHeads() / t;
        double kvHeads = Math.max(1.0, (double) tf.keyValueHeads() / t);
        double qDim = heads * d;
        double kvDim = kvHeads * d;
        double f = (double) tf.intermediateSize() / t;
        double normFlops = tf.normalization().flopsPerElement();
        boolean dropout = s.training() && tf.dropout();

        module = RecomputeModule.LAYERNORM;
        norm("attention norm", count, splitRows, h, normFlops, e);
        module = null;
        if (tf.latentAttention().present()) {
            latentProjections(count, rows, h, heads);
        } else {
            linear(TensorKind.ATTENTION, "qkv projection", count, rows, h, qDim + 2 * kvDim, 1,
                    lora(LoraTarget.Q) + lora(LoraTarget.K) + lora(LoraTarget.V),
                    loraColumns(LoraTarget.Q, qDim) + loraColumns(LoraTarget.K, kvDim) + loraColumns(LoraTarget.V, kvDim));
        }
        if (tf.queryKeyNorm() != QueryKeyNorm.NONE) {
            module = RecomputeModule.LAYERNORM;
            norm("query and key norms", count, rows, qDim + kvDim, normFlops, e);
            module = null;
        }
        if (tf.positions() == PositionEncoding.ROTARY) {
            double elements = rows * (qDim + kvDim);
            elementwise("rotary embedding", AccessPattern.COPY, count, 3 * elements,
                    elements * e, elements * e, 2 * elements * e, elements * e);
        }
        int sliding = tf.slidingWindow().layers();
        int full = tf.layers() - sliding;
        double perLayer = count / tf.layers();
        // What a query reads of the KV cache per key: keys and values, or latent attention's latent and rotary key.
        double cachedPerKey = tf.latentAttention().present() ? tf.kvCacheElementsPerToken() : 2 * kvDim;
        module = RecomputeModule.CORE_ATTN;
        if (full > 0) {
            attention("attention", perLayer * full, heads, kvDim, qDim, cachedPerKey, shape.keyTokens(), dropout);
        }
        if (sliding > 0) {
            attention("attention (sliding window)", perLayer * sliding, heads, kvDim, qDim, cachedPerKey,
                    Math.min(shape.keyTokens(), tf.slidingWindow().tokens()), dropout);
        }
        module = null;
        double outputIn = heads * tf.valueHeadDimension();
        linear(TensorKind.ATTENTION, "attention output projection", count, rows, outputIn, h, 1,
                lora(LoraTarget.O), loraColumns(LoraTarget.O, h));
        residual("attention residual add", count, splitRows, h, e, dropout);
        module = RecomputeModule.LAYERNORM;
        if (tf.normsPerLayer() > 2) {
            // Gemma 2 and 3 also norm each sublayer's output before the residual add.
            norm("sublayer output norms", count * (tf.normsPerLayer() - 2), splitRows, h, normFlops, e);
        }
        if (tf.normsPerLayer() >= 2) {
            norm("mlp norm", count, splitRows, h, normFlops, e);
        }
        module = RecomputeModule.MLP;
        if (tf.denseMlpLayers() > 0) {
            mlp(MLP, perLayer * tf.denseMlpLayers(), rows, h, f, e);
        }
        if (tf.expertLayers() > 0) {
            double expertCount = perLayer * tf.expertLayers();
            module = RecomputeModule.MOE;
            int ep = s.expertParallel();
            if (ep > 1 && s.training()) {
                // Expert parallelism, expert tensor parallelism 1: this device holds E / ep whole experts and runs
                // its share of the routed rows of the expert-parallel group (rows x k / t under balanced routing).
                mixtureOfExperts(expertCount, rows, h, tf.experts().expertWidth(), e, ep, t);
            } else {
                mixtureOfExperts(expertCount, rows, h, (double) tf.experts().expertWidth() / t, e, 1, 1);
            }
            if (tf.experts().sharedWidth() > 0) {
                module = RecomputeModule.SHARED_EXPERTS;
                mlp(SHARED_EXPERT, expertCount, rows, h, (double) tf.experts().sharedWidth() / t, e);
            }
        }
        module = null;
        residual("mlp residual add", count, splitRows, h, e, dropout);
    }

    /** A dense MLP (or the shared experts every token goes through) of width {@code f}. */
    private void mlp(MlpNames names, double count, double rows, double h, double f, double e) {
        TensorKind kind = TensorKind.DENSE_MLP;
        double up = tf.activation().gated() ? 2 * f : f;
        if (tf.activation().gated()) {
            linear(kind, names.gateAndUp(), count, rows, h, up, 1, lora(LoraTarget.GATE) + lora(LoraTarget.UP),
                    loraColumns(LoraTarget.GATE, f) + loraColumns(LoraTarget.UP, f));
        } else {
            linear(kind, names.up(), count, rows, h, up, 1, lora(LoraTarget.UP), loraColumns(LoraTarget.UP, f));
        }
        activation(count, rows, f, e);
        linear(kind, names.down(), count, rows, f, h, 1, lora(LoraTarget.DOWN), loraColumns(LoraTarget.DOWN, h));
    }

    /**
     * Latent attention's projections (DeepSeek-V2): queries directly or through their latent, the
     * joint down-projection of keys and values with the rotary key, and their up-projection per head,
     * run on every row as the Transformers implementation does (an engine that absorbs the
     * up-projection into the query and output reads the same weights).
     */
    private void latentProjections(double count, double rows, double h, double heads) {
        LatentAttention mla = tf.latentAttention();
        double queryOut = heads * mla.queryKeyHeadDimension();
        if (mla.queryRank() > 0) {
            linear(TensorKind.ATTENTION, "query down projection", count, rows, h, mla.queryRank(), 1, 0, 0);
            module = RecomputeModule.MLA_UP_PROJ;
            linear(TensorKind.ATTENTION, "query up projection", count, rows, mla.queryRank(), queryOut, 1,
                    lora(LoraTarget.Q), loraColumns(LoraTarget.Q, queryOut));
            module = null;
        } else {
            linear(TensorKind.ATTENTION, "query projection", count, rows, h, queryOut, 1,
                    lora(LoraTarget.Q), loraColumns(LoraTarget.Q, queryOut));
        }
        linear(TensorKind.ATTENTION, "key/value down projection", count, rows, h, mla.cacheElementsPerToken(), 1, 0, 0);
        double up = heads * (mla.noPositionDimension() + mla.valueDimension());
        module = RecomputeModule.MLA_UP_PROJ;
        linear(TensorKind.ATTENTION, "key/value up projection", count, rows, mla.keyValueRank(), up, 1,
                lora(LoraTarget.K), loraColumns(LoraTarget.K, up));
        module = null;
    }

    /**
     * The router, top-k, dispatch, the experts' GEMMs and the combine. With expert parallelism ({@code ep} &gt; 1) the
     * device runs the experts it holds, E / ep of them at full width {@code f}, over its share of the expert-parallel
     * group's routed rows (rows x k / t: the group's distinct tokens are rows x ep / t, spread evenly over its ep
     * devices by the balanced routing the set's sources force); the all-to-all that moves them is the planner's.
     */
    private void mixtureOfExperts(double count, double rows, double h, double f, double e, int ep, int t) {
        int experts = tf.experts().experts();
        int k = tf.experts().expertsPerToken();
        double routed = rows * k;
        double touched = tf.experts().expertsTouched(rows);
        double expertRows = routed;
        if (ep > 1) {
            expertRows = routed / t;
            touched = tf.experts().expertsTouched(rows * ep / t) / ep;
        }
        linear(TensorKind.ROUTER, "router", count, rows, h, experts, 1, 0, 0);
        elementwise("top-k routing", AccessPattern.COPY, count, 5 * rows * experts,
                rows * experts * e, rows * k * 2 * Defaults.FP32_BYTES, rows * k * 2 * Defaults.FP32_BYTES,
                rows * experts * e);
        elementwise(EXPERT_DISPATCH, AccessPattern.COPY, count, 0, rows * h * e, routed * h * e,
                routed * h * e, rows * h * e);
        double up = tf.activation().gated() ? 2 * f : f;
        if (tf.activation().gated()) {
            linear(TensorKind.EXPERTS, "expert gate and up projections", count, expertRows, h, up, touched,
                    lora(LoraTarget.GATE) + lora(LoraTarget.UP), loraColumns(LoraTarget.GATE, f) + loraColumns(LoraTarget.UP, f));
        } else {
            linear(TensorKind.EXPERTS, "expert up projections", count, expertRows, h, up, touched,
                    lora(LoraTarget.UP), loraColumns(LoraTarget.UP, f));
        }
        RecomputeModule outer = module;
        if (module != RecomputeModule.MOE || !s.recomputeModules().contains(RecomputeModule.MOE)) {
            module = RecomputeModule.MOE_ACT;
        }
        activation(count, expertRows, f, e);
        module = outer;
        linear(TensorKind.EXPERTS, "expert down projections", count, expertRows, f, h, touched,
                lora(LoraTarget.DOWN), loraColumns(LoraTarget.DOWN, h));
        elementwise("expert combine", AccessPattern.TRIAD, count, 2 * routed * h, routed * h * e + routed * 4,
                rows * h * e, rows * h * e, routed * h * e);
    }

    private void norm(String name, double count, double rows, double width, double flopsPerElement, double e) {
        double elements = rows * width;
        boolean rms = tf.normalization() == Normalization.RMS_NORM;
        elementwise(name, AccessPattern.COPY, count, flopsPerElement * elements, elements * e, elements * e,
                2 * elements * e, elements * e,
                rms ? RowOperation.RMS_NORM : null, rms ? RowOperation.RMS_NORM_BACKWARD : null, elements, width);
    }

    private void residual(String name, double count, double rows, double width, double e, boolean dropout) {
        double elements = rows * width;
        // Dropout on the branch is fused into the add and stores a one-byte mask (Korthikanti et al.).
        double mask = dropout ? elements : 0;
        elementwise(name, AccessPattern.TRIAD, count, (dropout ? 3 : 1) * elements, 2 * elements * e,
                elements * e + mask, 2 * elements * e + mask, elements * e);
    }

    private void activation(double count, double rows, double f, double e) {
        double elements = rows * f;
        int flops = tf.activation().flopsPerElement();
        String name = ACTIVATION_NAMES[tf.activation().ordinal()];
        if (tf.activation().gated()) {
            elementwise(name, AccessPattern.TRIAD, count, flops * elements, 2 * elements * e, elements * e,
                    3 * elements * e, 2 * elements * e);
        } else {
            boolean gelu = tf.activation() == Activation.GELU;
            elementwise(name, AccessPattern.COPY, count, flops * elements, elements * e, elements * e,
                    2 * elements * e, elements * e,
                    gelu ? RowOperation.GELU : null, gelu ? RowOperation.GELU_BACKWARD : null, elements, f);
        }
    }

    /**
     * Attention of one group of layers (full or sliding-window). A fused kernel (FlashAttention)
     * reads Q, K, V and writes O and the FP32 log-sum-exp; causal masking lets it skip the masked
     * half. Without it the scores are materialized: two batched GEMMs around a softmax, every score
     * written and read back.
     */
    private void attention(String name, double count, double heads, double kvDim, double qDim, double cachedPerKey,
                           double keys, boolean dropout) {
        double e = s.activationBytes();
        double batch = shape.batch();
        double queries = shape.queryTokens();
        double rows = shape.rows();
        // QK^T runs over the query/key head width, PV over the value head width (equal but in latent attention).
        double d = (tf.headDimension() + tf.valueHeadDimension()) / 2.0;
        double keysPerQuery = !Double.isNaN(shape.keysPerQuery()) ? Math.min(shape.keysPerQuery(), keys)
                : shape.causal() ? causalKeysPerQuery(queries, keys) : keys;
        double kvBytes = shape.readsKvCache() ? s.kvCacheBytesPerElement() : e;
        double kvRead = batch * keys * cachedPerKey * kvBytes;
        double kvAppend = (shape.readsKvCache() || shape.writesKvCache()) ? rows * cachedPerKey * s.kvCacheBytesPerElement() : 0;
        double qBytes = rows * qDim * e;
        // PaLM's model FLOPs: QK^T and PV over every key, no causal saving.
        double modelFlops = 4 * batch * heads * d * queries * Math.min(keys, shape.keyTokens());
        if (s.flashAttention()) {
            double flops = 4 * batch * heads * d * queries * keysPerQuery;
            double lse = batch * heads * queries * Defaults.FP32_BYTES;
            int fused = forward.add(name, " (fused)", OperationClass.FORWARD, Kernel.ATTENTION, attentionPrecision(),
                    Placement.DEVICE, count, flops, modelFlops, qBytes + kvRead, qBytes + lse + kvAppend,
                    AccessPattern.READ);
            if (s.training()) {
                // FlashAttention-2's backward runs five GEMMs to the forward's two (it recomputes P): 2.5x.
                backward.add(name, " backward (fused)", OperationClass.BACKWARD, Kernel.ATTENTION, attentionPrecision(),
                        Placement.DEVICE, count, 2.5 * flops, 2 * modelFlops, 3 * qBytes + kvRead + lse,
                        qBytes + kvRead, AccessPattern.READ);
                if (again()) {
                    // Training writes no KV cache (kvAppend is 0): the recompute is the forward kernel again.
                    forward.recomputed(fused);
                }
            }
            return;
        }
        double scores = batch * heads * queries * keys;
        double kBytes = batch * keys * kvDim * kvBytes;
        double vBytes = kBytes;
        double gemmFlops = 2 * scores * d;
        // Selective checkpointing without named modules recomputes the attention core (Korthikanti et al.).
        boolean selective = s.training() && s.checkpointing() == Checkpointing.SELECTIVE
                && (s.recomputeModules().isEmpty() || s.recomputeModules().contains(RecomputeModule.CORE_ATTN));
        boolean again = recomputesEverything() || selective;
        // A batch of one product per (sequence, head): scores S = Q·Kᵀ (queries × keys over d), O = P·V (queries
        // × d over keys); the backward runs dP = dO·Vᵀ and dV = Pᵀ·dO, then dQ = dS·K and dK = dSᵀ·Q.
        double pairs = batch * heads;
        int qk = forward.addGemmBytes(name, " scores (QK^T)", OperationClass.FORWARD, s.compute(), count, gemmFlops,
                qBytes + kBytes, scores * e);
        forward.shape(qk, pairs, queries, keys, d, ProductShape.Layout.NT);
        int softmax = forward.addElementwise(name, " softmax", OperationClass.FORWARD, AccessPattern.COPY, count,
                5 * scores, scores * e, scores * e);
        if (shape.causal()) {
            forward.rowWork(softmax, RowOperation.SOFTMAX, scores, keys);
        }
        int drop = dropout ? forward.addElementwise(name, " dropout", OperationClass.FORWARD, AccessPattern.COPY,
                count, 2 * scores, scores * e, scores * e + scores) : -1;
        int pv = forward.addGemmBytes(name, " over values (PV)", OperationClass.FORWARD, s.compute(), count, gemmFlops,
                scores * e + vBytes, qBytes + kvAppend);
        forward.shape(pv, pairs, queries, d, keys, ProductShape.Layout.NN);
        if (again) {
            forward.recomputed(qk);
            forward.recomputed(softmax);
            forward.recomputed(drop);
            forward.recomputed(pv);
        }
        if (!s.training()) {
            return;
        }
        int pvBackward = backward.addGemmBytes(name, " PV backward", OperationClass.BACKWARD, s.compute(), count,
                2 * gemmFlops, 2 * qBytes + scores * e + vBytes, scores * e + vBytes);
        backward.shape(pvBackward, pairs, queries, keys, d, ProductShape.Layout.NT);
        backward.shape(pvBackward, pairs, keys, d, queries, ProductShape.Layout.TN);
        if (dropout) {
            backward.addElementwise(name, " dropout backward", OperationClass.BACKWARD, AccessPattern.COPY, count,
                    scores, scores * e + scores, scores * e);
        }
        backward.addElementwise(name, " softmax backward", OperationClass.BACKWARD, AccessPattern.TRIAD, count,
                3 * scores, 2 * scores * e, scores * e);
        int qkBackward = backward.addGemmBytes(name, " QK^T backward", OperationClass.BACKWARD, s.compute(), count,
                2 * gemmFlops, 2 * scores * e + qBytes + kBytes, qBytes + kBytes);
        backward.shape(qkBackward, pairs, queries, d, keys, ProductShape.Layout.NN);
        backward.shape(qkBackward, pairs, keys, d, queries, ProductShape.Layout.TN);
    }

    /**
     * The precision a fused attention kernel runs in: the setting's (training: {@link
     * TrainingSetup#attentionComputePrecision}), else the GEMMs' (inference keeps the engine's GEMM precision, as its
     * fit was made).
     */
    private Precision attentionPrecision() {
        return s.attention() != null ? s.attention() : s.compute();
    }

    /**
     * Keys a query sees on average under a causal mask: (1 + 2 + ... + n) / n for n queries over
     * n keys, capped by a sliding window of {@code keys} when that is shorter.
     */
    static double causalKeysPerQuery(double queries, double keys) {
        if (keys >= queries) {
            return (queries + 1) / 2;
        }
        // First `keys` queries see 1..keys keys, the rest see `keys`.
        return (keys * (keys + 1) / 2 + (queries - keys) * keys) / queries;
    }

    // ---- embedding and output layer ----

    private void embedding(double microBatches) {
        double e = s.activationBytes();
        double rows = shape.rows();
        double h = tf.hiddenSize();
        double wBytes = s.weightBits(TensorKind.EMBEDDING) / 8;
        boolean trainable = s.training() && s.baseTrainable();
        forward.addElementwise("embedding lookup", null, OperationClass.FORWARD, AccessPattern.COPY, microBatches, 0,
                rows * h * wBytes, rows * h * e);
        if (trainable) {
            backward.addElementwise("embedding gradient (scatter-add)", null, OperationClass.BACKWARD,
                    AccessPattern.TRIAD, microBatches, rows * h, rows * h * (e + s.gradientBytes()),
                    rows * h * s.gradientBytes());
        }
        if (tf.positions() == PositionEncoding.LEARNED) {
            forward.addElementwise("position embedding add", null, OperationClass.FORWARD, AccessPattern.TRIAD,
                    microBatches, rows * h, rows * h * (wBytes + e), rows * h * e);
            if (trainable) {
                backward.addElementwise("position embedding gradient", null, OperationClass.BACKWARD,
                        AccessPattern.TRIAD, microBatches, rows * h, rows * h * (e + s.gradientBytes()),
                        rows * h * s.gradientBytes());
            }
        }
    }

    private void head(double microBatches) {
        double e = s.activationBytes();
        double rows = shape.rows();
        double h = tf.hiddenSize();
        double vocabulary = (double) tf.vocabularySize() / s.tensorParallel();
        norm("final norm", microBatches, s.training() ? rows / s.tensorParallel() : rows, h,
                tf.normalization().flopsPerElement(), e);
        linear(TensorKind.LM_HEAD, "output projection (LM head)", microBatches, rows, h, vocabulary, 1, 0, 0);
        double logits = rows * vocabulary;
        if (s.training()) {
            // The loss runs in FP32: the logits are read, an FP32 softmax is kept for the backward pass.
            elementwise("cross-entropy loss", AccessPattern.COPY, microBatches, 5 * logits, logits * e,
                    logits * Defaults.FP32_BYTES, logits * Defaults.FP32_BYTES, logits * e,
                    RowOperation.CROSS_ENTROPY, null, logits, vocabulary);
        } else {
            elementwise("sampling (softmax over logits)", AccessPattern.READ, microBatches, 5 * logits, logits * e, 0, 0, 0);
        }
    }

    // ---- building blocks ----

    /** 1 when LoRA adapts {@code target} (a slice of a linear layer's output columns: q, k, v of a fused QKV), else 0. */
    private double lora(LoraTarget target) {
        return adapted[target.ordinal()] ? 1 : 0;
    }

    /** {@code columns} when LoRA adapts {@code target}, else 0. */
    private double loraColumns(LoraTarget target, double columns) {
        return lora(target) * columns;
    }

    /**
     * A linear layer: {@code rows x inner} activations times weight matrices of {@code inner x
     * columns} ({@code matrices} of them when experts split the rows: the FLOPs stay 2 x rows x
     * inner x columns, the weight bytes are those of every matrix touched), its input and weight
     * gradients, LoRA adapters on the targeted parts, and QLoRA's dequantization.
     *
     * @param adaptedParts slices of the output LoRA adapts (each an adapter pair of its own)
     * @param adaptedColumns output columns of those slices, together
     */
    private void linear(TensorKind kind, String name, double count, double rows, double inner, double columns,
                        double matrices, double adaptedParts, double adaptedColumns) {
        double e = s.activationBytes();
        double weights = inner * columns * matrices;
        double storedBytes = weights * s.weightBits(kind) / 8;
        double readBytes = storedBytes;
        boolean again = again();
        int dequantize = -1;
        if (s.dequantizeWeights()) {
            // bitsandbytes unpacks NF4 into a 16-bit copy of the matrix before every GEMM that needs it.
            dequantize = forward.addElementwise(name, " dequantize", OperationClass.FORWARD, AccessPattern.COPY,
                    count, 2 * weights, storedBytes, weights * e);
            readBytes = weights * e;
            if (again) {
                forward.recomputed(dequantize);
            }
        }
        Kernel kernel = s.sparseWeights() ? Kernel.SPARSE_GEMM : Kernel.GEMM;
        int gemm = forward.addGemm(name, null, OperationClass.FORWARD, kernel, s.compute(), count, rows, inner,
                columns, e, readBytes, 0);
        if (again) {
            forward.recomputed(gemm);
        }
        // x A B added to the base output for each adapted slice, fused with the base GEMM as fused-LoRA kernels
        // run it: x is the base GEMM's operand and the product is added in its epilogue, so the adapters move
        // only their own weights and the rank-r intermediate. (PEFT's unfused modules re-read x and
        // read-modify-write the output per adapter; not modelled.)
        double r = s.fineTuning().rank();
        double adapters = matrices * r * (adaptedParts * inner + adaptedColumns);
        double loraFlops = 2 * rows * r * (adaptedParts * inner + adaptedColumns);
        if (adaptedParts > 0) {
            int lora = forward.add(name, " LoRA adapters", OperationClass.FORWARD, Kernel.GEMM, s.compute(),
                    Placement.DEVICE, count, loraFlops, loraFlops, adapters * s.adapterBytes() + adaptedParts * rows * r * e,
                    adaptedParts * rows * r * e, AccessPattern.READ);
            if (again) {
                forward.recomputed(lora);
            }
        }
        if (!s.training()) {
            return;
        }
        double flops = 2 * rows * inner * columns;
        if (dequantize >= 0) {
            forward.copyTo(dequantize, backward, OperationClass.BACKWARD, name, " dequantize (backward)");
        }
        // The transposed 2:4 pattern is not 2:4: input gradients run dense.
        int input = backward.addGemmBytes(name, " input gradient", OperationClass.BACKWARD, s.compute(), count, flops,
                rows * columns * e + readBytes, rows * inner * e);
        backward.inputGradientShape(input, rows / matrices, inner, columns);
        if (s.baseTrainable()) {
            // Gradients accumulate into a buffer zeroed once per step (Megatron's main_grad): read, add, write.
            double g = weights * s.gradientBytes();
            int weight = backward.addGemmBytes(name, " weight gradient", OperationClass.BACKWARD, s.compute(), count,
                    flops, rows * inner * e + rows * columns * e + g, g);
            backward.weightGradientShape(weight, rows / matrices, inner, columns);
        }
        if (adaptedParts > 0) {
            // dB = (xA)^T dY, dA = x^T (dY B^T), and dX += (dY B^T) A^T: twice the forward FLOPs. dY and x
            // are the base input-gradient GEMM's operands (fused); the rank-r intermediates are read
            // twice and the adapters' gradients accumulated.
            double ag = adapters * s.gradientBytes();
            backward.add(name, " LoRA backward", OperationClass.BACKWARD, Kernel.GEMM, s.compute(), Placement.DEVICE,
                    count, 2 * loraFlops, 2 * loraFlops, adapters * s.adapterBytes() + 2 * adaptedParts * rows * r * e + ag,
                    adaptedParts * rows * r * e + ag, AccessPattern.READ);
        }
    }

    /** An elementwise operation, its backward, and its recompute under full checkpointing. */
    private void elementwise(String name, AccessPattern pattern, double count, double flops, double read, double written,
                             double backwardRead, double backwardWritten) {
        elementwise(name, pattern, count, flops, read, written, backwardRead, backwardWritten, null, null, 0, 0);
    }

    /**
     * The same, the forward pass doing {@code work} and the backward {@code backwardWork} on {@code elements}
     * in rows of {@code rowLength} (null: timed by its FLOPs).
     */
    private void elementwise(String name, AccessPattern pattern, double count, double flops, double read, double written,
                             double backwardRead, double backwardWritten, RowOperation work,
                             RowOperation backwardWork, double elements, double rowLength) {
        int op = forward.addElementwise(name, null, OperationClass.FORWARD, pattern, count, flops, read, written);
        if (work != null) {
            forward.rowWork(op, work, elements, rowLength);
        }
        if (!s.training()) {
            return;
        }
        int back = backward.addElementwise(name, " backward", OperationClass.BACKWARD, pattern, count, 2 * flops,
                backwardRead, backwardWritten);
        if (backwardWork != null) {
            backward.rowWork(back, backwardWork, elements, rowLength);
        }
        if (again()) {
            forward.recomputed(op);
        }
    }
}
