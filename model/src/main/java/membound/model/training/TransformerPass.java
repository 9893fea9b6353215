package membound.model.training;

import membound.model.Defaults;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.OperationList;
import membound.model.roofline.OperationShape;
import membound.model.roofline.Placement;
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

    /** Shape of one micro-batch of work. */
    public record Shape(double batch, double queryTokens, double keyTokens, boolean causal,
                        boolean readsKvCache, boolean writesKvCache) {

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
     */
    public record Settings(boolean training, Precision compute, double activationBytes, double weightBitsPerParameter,
                           boolean dequantizeWeights, double gradientBytes, boolean baseTrainable,
                           FineTuning fineTuning, double adapterBytes, boolean sparseWeights, int tensorParallel,
                           boolean flashAttention, Checkpointing checkpointing, double kvCacheBytesPerElement,
                           Map<TensorKind, Double> weightBitsByKind) {

        public Settings {
            weightBitsByKind = weightBitsByKind == null ? Map.of() : Map.copyOf(weightBitsByKind);
        }

        /** Stored bits of one weight of that kind. */
        public double weightBits(TensorKind kind) {
            return weightBitsByKind.getOrDefault(kind, weightBitsPerParameter);
        }
    }

    private final Transformer tf;
    private final Shape shape;
    private final Settings s;
    private final OperationList forward;
    private final OperationList backward;
    private final OperationList recompute;

    private TransformerPass(Transformer tf, Shape shape, Settings settings, OperationList forward,
                            OperationList backward, OperationList recompute) {
        this.tf = tf;
        this.shape = shape;
        this.s = settings;
        this.forward = forward;
        this.backward = backward;
        this.recompute = recompute;
    }

    /**
     * Appends the operations of {@code layers} transformer layers and, if {@code withEmbedding} /
     * {@code withHead}, of the embedding and the output layer, each repeated {@code microBatches}
     * times.
     */
    public static void append(Transformer tf, Shape shape, Settings settings, double layers, double microBatches,
                              boolean withEmbedding, boolean withHead, OperationList forward,
                              OperationList backward, OperationList recompute) {
        TransformerPass pass = new TransformerPass(tf, shape, settings, forward, backward, recompute);
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

        norm("attention norm", count, splitRows, h, normFlops, e);
        if (tf.latentAttention().present()) {
            latentProjections(count, rows, h, heads);
        } else {
            linear(TensorKind.ATTENTION, "qkv projection", count, rows, h, qDim + 2 * kvDim, 1,
                    part(LoraTarget.Q, qDim), part(LoraTarget.K, kvDim), part(LoraTarget.V, kvDim));
        }
        if (tf.queryKeyNorm() != QueryKeyNorm.NONE) {
            norm("query and key norms", count, rows, qDim + kvDim, normFlops, e);
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
        if (full > 0) {
            attention("attention", perLayer * full, heads, kvDim, qDim, cachedPerKey, shape.keyTokens(), dropout);
        }
        if (sliding > 0) {
            attention("attention (sliding window)", perLayer * sliding, heads, kvDim, qDim, cachedPerKey,
                    Math.min(shape.keyTokens(), tf.slidingWindow().tokens()), dropout);
        }
        double outputIn = heads * tf.valueHeadDimension();
        linear(TensorKind.ATTENTION, "attention output projection", count, rows, outputIn, h, 1, part(LoraTarget.O, h));
        residual("attention residual add", count, splitRows, h, e, dropout);
        if (tf.normsPerLayer() > 2) {
            // Gemma 2 and 3 also norm each sublayer's output before the residual add.
            norm("sublayer output norms", count * (tf.normsPerLayer() - 2), splitRows, h, normFlops, e);
        }
        if (tf.normsPerLayer() >= 2) {
            norm("mlp norm", count, splitRows, h, normFlops, e);
        }
        if (tf.denseMlpLayers() > 0) {
            mlp("mlp", perLayer * tf.denseMlpLayers(), rows, h, f, e);
        }
        if (tf.expertLayers() > 0) {
            double expertCount = perLayer * tf.expertLayers();
            mixtureOfExperts(expertCount, rows, h, (double) tf.experts().expertWidth() / t, e);
            if (tf.experts().sharedWidth() > 0) {
                mlp("shared expert", expertCount, rows, h, (double) tf.experts().sharedWidth() / t, e);
            }
        }
        residual("mlp residual add", count, splitRows, h, e, dropout);
    }

    /** A dense MLP (or the shared experts every token goes through) of width {@code f}. */
    private void mlp(String name, double count, double rows, double h, double f, double e) {
        TensorKind kind = TensorKind.DENSE_MLP;
        double up = tf.activation().gated() ? 2 * f : f;
        if (tf.activation().gated()) {
            linear(kind, name + " gate and up projection", count, rows, h, up, 1, part(LoraTarget.GATE, f), part(LoraTarget.UP, f));
        } else {
            linear(kind, name + " up projection", count, rows, h, up, 1, part(LoraTarget.UP, f));
        }
        activation(count, rows, f, e);
        linear(kind, name + " down projection", count, rows, f, h, 1, part(LoraTarget.DOWN, h));
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
            linear(TensorKind.ATTENTION, "query down projection", count, rows, h, mla.queryRank(), 1);
            linear(TensorKind.ATTENTION, "query up projection", count, rows, mla.queryRank(), queryOut, 1, part(LoraTarget.Q, queryOut));
        } else {
            linear(TensorKind.ATTENTION, "query projection", count, rows, h, queryOut, 1, part(LoraTarget.Q, queryOut));
        }
        linear(TensorKind.ATTENTION, "key/value down projection", count, rows, h, mla.cacheElementsPerToken(), 1);
        double up = heads * (mla.noPositionDimension() + mla.valueDimension());
        linear(TensorKind.ATTENTION, "key/value up projection", count, rows, mla.keyValueRank(), up, 1, part(LoraTarget.K, up));
    }

    private void mixtureOfExperts(double count, double rows, double h, double f, double e) {
        int experts = tf.experts().experts();
        int k = tf.experts().expertsPerToken();
        double routed = rows * k;
        double touched = tf.experts().expertsTouched(rows);
        linear(TensorKind.ROUTER, "router", count, rows, h, experts, 1);
        elementwise("top-k routing", AccessPattern.COPY, count, 5 * rows * experts,
                rows * experts * e, rows * k * 2 * Defaults.FP32_BYTES, rows * k * 2 * Defaults.FP32_BYTES,
                rows * experts * e);
        elementwise("expert dispatch", AccessPattern.COPY, count, 0, rows * h * e, routed * h * e,
                routed * h * e, rows * h * e);
        double up = tf.activation().gated() ? 2 * f : f;
        if (tf.activation().gated()) {
            linear(TensorKind.EXPERTS, "expert gate and up projections", count, routed, h, up, touched, part(LoraTarget.GATE, f),
                    part(LoraTarget.UP, f));
        } else {
            linear(TensorKind.EXPERTS, "expert up projections", count, routed, h, up, touched, part(LoraTarget.UP, f));
        }
        activation(count, routed, f, e);
        linear(TensorKind.EXPERTS, "expert down projections", count, routed, f, h, touched, part(LoraTarget.DOWN, h));
        elementwise("expert combine", AccessPattern.TRIAD, count, 2 * routed * h, routed * h * e + routed * 4,
                rows * h * e, rows * h * e, routed * h * e);
    }

    private void norm(String name, double count, double rows, double width, double flopsPerElement, double e) {
        double elements = rows * width;
        boolean rms = tf.normalization() == Normalization.RMS_NORM;
        elementwise(name, AccessPattern.COPY, count, flopsPerElement * elements, elements * e, elements * e,
                2 * elements * e, elements * e,
                rms ? new Operation.RowWork(RowOperation.RMS_NORM, elements, width) : null,
                rms ? new Operation.RowWork(RowOperation.RMS_NORM_BACKWARD, elements, width) : null);
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
        if (tf.activation().gated()) {
            elementwise(tf.activation().name().toLowerCase(java.util.Locale.ROOT), AccessPattern.TRIAD, count,
                    flops * elements, 2 * elements * e, elements * e, 3 * elements * e, 2 * elements * e);
        } else {
            boolean gelu = tf.activation() == Activation.GELU;
            elementwise(tf.activation().name().toLowerCase(java.util.Locale.ROOT), AccessPattern.COPY, count,
                    flops * elements, elements * e, elements * e, 2 * elements * e, elements * e,
                    gelu ? new Operation.RowWork(RowOperation.GELU, elements, f) : null,
                    gelu ? new Operation.RowWork(RowOperation.GELU_BACKWARD, elements, f) : null);
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
        double keysPerQuery = shape.causal() ? causalKeysPerQuery(queries, keys) : keys;
        double kvBytes = shape.readsKvCache() ? s.kvCacheBytesPerElement() : e;
        double kvRead = batch * keys * cachedPerKey * kvBytes;
        double kvAppend = (shape.readsKvCache() || shape.writesKvCache()) ? rows * cachedPerKey * s.kvCacheBytesPerElement() : 0;
        double qBytes = rows * qDim * e;
        // PaLM's model FLOPs: QK^T and PV over every key, no causal saving.
        double modelFlops = 4 * batch * heads * d * queries * Math.min(keys, shape.keyTokens());
        if (s.flashAttention()) {
            double flops = 4 * batch * heads * d * queries * keysPerQuery;
            double lse = batch * heads * queries * Defaults.FP32_BYTES;
            forward.add(new Operation(name + " (fused)", OperationClass.FORWARD, Kernel.ATTENTION, s.compute(),
                    Placement.DEVICE, count, flops, modelFlops, qBytes + kvRead,
                    qBytes + lse + kvAppend, AccessPattern.READ, 0, 0, false));
            if (s.training()) {
                // FlashAttention-2's backward runs five GEMMs to the forward's two (it recomputes P): 2.5x.
                backward.add(new Operation(name + " backward (fused)", OperationClass.BACKWARD, Kernel.ATTENTION,
                        s.compute(), Placement.DEVICE, count, 2.5 * flops, 2 * modelFlops,
                        3 * qBytes + kvRead + lse, qBytes + kvRead, AccessPattern.READ, 0, 0, false));
                if (recomputesEverything()) {
                    recompute.add(new Operation(name + " (fused)", OperationClass.RECOMPUTE, Kernel.ATTENTION,
                            s.compute(), Placement.DEVICE, count, flops, 0, qBytes + kvRead,
                            qBytes + lse, AccessPattern.READ, 0, 0, false));
                }
            }
            return;
        }
        double scores = batch * heads * queries * keys;
        double kBytes = batch * keys * kvDim * kvBytes;
        double vBytes = kBytes;
        double gemmFlops = 2 * scores * d;
        boolean selective = s.training() && s.checkpointing() == Checkpointing.SELECTIVE;
        OperationList[] again = recomputesEverything() || selective ? new OperationList[] {recompute} : new OperationList[0];
        // A batch of one product per (sequence, head): scores S = Q·Kᵀ (queries × keys over d), O = P·V (queries
        // × d over keys); the backward runs dP = dO·Vᵀ and dV = Pᵀ·dO, then dQ = dS·K and dK = dSᵀ·Q.
        double pairs = batch * heads;
        OperationShape scoresShape = new OperationShape(pairs, queries, keys, d, ProductShape.Layout.NT);
        OperationShape valuesShape = new OperationShape(pairs, queries, d, keys, ProductShape.Layout.NN);
        OperationShape transposedShape = new OperationShape(pairs, keys, d, queries, ProductShape.Layout.TN);
        Operation qk = OperationList.gemmBytes(name + " scores (QK^T)", OperationClass.FORWARD, s.compute(), count,
                gemmFlops, qBytes + kBytes, scores * e, scoresShape);
        Operation softmax = OperationList.elementwise(name + " softmax", OperationClass.FORWARD, AccessPattern.COPY,
                count, 5 * scores, scores * e, scores * e);
        if (shape.causal()) {
            softmax = softmax.withRowWork(new Operation.RowWork(RowOperation.SOFTMAX, scores, keys));
        }
        Operation drop = dropout ? OperationList.elementwise(name + " dropout", OperationClass.FORWARD,
                AccessPattern.COPY, count, 2 * scores, scores * e, scores * e + scores) : null;
        Operation pv = OperationList.gemmBytes(name + " over values (PV)", OperationClass.FORWARD, s.compute(), count,
                gemmFlops, scores * e + vBytes, qBytes + kvAppend, valuesShape);
        for (Operation op : new Operation[] {qk, softmax, drop, pv}) {
            if (op == null) {
                continue;
            }
            forward.add(op);
            for (OperationList list : again) {
                list.add(op.as(OperationClass.RECOMPUTE, op.name()));
            }
        }
        if (!s.training()) {
            return;
        }
        backward.add(OperationList.gemmBytes(name + " PV backward", OperationClass.BACKWARD, s.compute(), count,
                2 * gemmFlops, 2 * qBytes + scores * e + vBytes, scores * e + vBytes, scoresShape, transposedShape));
        if (dropout) {
            backward.add(OperationList.elementwise(name + " dropout backward", OperationClass.BACKWARD,
                    AccessPattern.COPY, count, scores, scores * e + scores, scores * e));
        }
        backward.add(OperationList.elementwise(name + " softmax backward", OperationClass.BACKWARD,
                AccessPattern.TRIAD, count, 3 * scores, 2 * scores * e, scores * e));
        backward.add(OperationList.gemmBytes(name + " QK^T backward", OperationClass.BACKWARD, s.compute(), count,
                2 * gemmFlops, 2 * scores * e + qBytes + kBytes, qBytes + kBytes, valuesShape, transposedShape));
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
        forward.add(OperationList.elementwise("embedding lookup", OperationClass.FORWARD, AccessPattern.COPY,
                microBatches, 0, rows * h * wBytes, rows * h * e));
        if (trainable) {
            backward.add(OperationList.elementwise("embedding gradient (scatter-add)", OperationClass.BACKWARD,
                    AccessPattern.TRIAD, microBatches, rows * h, rows * h * (e + s.gradientBytes()), rows * h * s.gradientBytes()));
        }
        if (tf.positions() == PositionEncoding.LEARNED) {
            forward.add(OperationList.elementwise("position embedding add", OperationClass.FORWARD, AccessPattern.TRIAD,
                    microBatches, rows * h, rows * h * (wBytes + e), rows * h * e));
            if (trainable) {
                backward.add(OperationList.elementwise("position embedding gradient", OperationClass.BACKWARD,
                        AccessPattern.TRIAD, microBatches, rows * h, rows * h * (e + s.gradientBytes()),
                        rows * h * s.gradientBytes()));
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
        linear(TensorKind.LM_HEAD, "output projection (LM head)", microBatches, rows, h, vocabulary, 1);
        double logits = rows * vocabulary;
        if (s.training()) {
            // The loss runs in FP32: the logits are read, an FP32 softmax is kept for the backward pass.
            elementwise("cross-entropy loss", AccessPattern.COPY, microBatches, 5 * logits, logits * e,
                    logits * Defaults.FP32_BYTES, logits * Defaults.FP32_BYTES, logits * e,
                    new Operation.RowWork(RowOperation.CROSS_ENTROPY, logits, vocabulary), null);
        } else {
            elementwise("sampling (softmax over logits)", AccessPattern.READ, microBatches, 5 * logits, logits * e, 0, 0, 0);
        }
    }

    // ---- building blocks ----

    /** A slice of a linear layer's output columns that LoRA may target (q, k, v of a fused QKV projection). */
    private record Part(LoraTarget target, double columns) {
    }

    private static Part part(LoraTarget target, double columns) {
        return new Part(target, columns);
    }

    /**
     * A linear layer: {@code rows x inner} activations times weight matrices of {@code inner x
     * columns} ({@code matrices} of them when experts split the rows: the FLOPs stay 2 x rows x
     * inner x columns, the weight bytes are those of every matrix touched), its input and weight
     * gradients, LoRA adapters on the targeted parts, and QLoRA's dequantization.
     */
    private void linear(TensorKind kind, String name, double count, double rows, double inner, double columns,
                        double matrices, Part... parts) {
        double e = s.activationBytes();
        double weights = inner * columns * matrices;
        double storedBytes = weights * s.weightBits(kind) / 8;
        double readBytes = storedBytes;
        Operation dequantize = null;
        if (s.dequantizeWeights()) {
            // bitsandbytes unpacks NF4 into a 16-bit copy of the matrix before every GEMM that needs it.
            dequantize = OperationList.elementwise(name + " dequantize", OperationClass.FORWARD, AccessPattern.COPY,
                    count, 2 * weights, storedBytes, weights * e);
            readBytes = weights * e;
        }
        Kernel kernel = s.sparseWeights() ? Kernel.SPARSE_GEMM : Kernel.GEMM;
        Operation gemm = OperationList.gemm(name, OperationClass.FORWARD, kernel, s.compute(), count, rows, inner,
                columns, e, readBytes, 0);
        Operation lora = loraForward(name, count, rows, inner, matrices, parts);
        for (Operation op : new Operation[] {dequantize, gemm, lora}) {
            if (op == null) {
                continue;
            }
            forward.add(op);
            if (recomputesEverything()) {
                recompute.add(op.as(OperationClass.RECOMPUTE, op.name()));
            }
        }
        if (!s.training()) {
            return;
        }
        double flops = 2 * rows * inner * columns;
        if (dequantize != null) {
            backward.add(dequantize.as(OperationClass.BACKWARD, name + " dequantize (backward)"));
        }
        // The transposed 2:4 pattern is not 2:4: input gradients run dense.
        backward.add(OperationList.gemmBytes(name + " input gradient", OperationClass.BACKWARD, s.compute(), count,
                flops, rows * columns * e + readBytes, rows * inner * e,
                OperationList.inputGradient(rows / matrices, inner, columns)));
        if (s.baseTrainable()) {
            // Gradients accumulate into a buffer zeroed once per step (Megatron's main_grad): read, add, write.
            double g = weights * s.gradientBytes();
            backward.add(OperationList.gemmBytes(name + " weight gradient", OperationClass.BACKWARD, s.compute(), count,
                    flops, rows * inner * e + rows * columns * e + g, g,
                    OperationList.weightGradient(rows / matrices, inner, columns)));
        }
        if (lora != null) {
            // dB = (xA)^T dY, dA = x^T (dY B^T), and dX += (dY B^T) A^T: twice the forward FLOPs. dY and x
            // are the base input-gradient GEMM's operands (fused); the rank-r intermediates are read
            // twice and the adapters' gradients accumulated.
            double r = s.fineTuning().rank();
            double adapters = 0;
            double adaptersCount = 0;
            for (Part part : parts) {
                if (s.fineTuning().targets(part.target())) {
                    adapters += matrices * r * (inner + part.columns());
                    adaptersCount++;
                }
            }
            double ag = adapters * s.gradientBytes();
            backward.add(new Operation(name + " LoRA backward", OperationClass.BACKWARD, Kernel.GEMM, s.compute(),
                    Placement.DEVICE, count, 2 * lora.flops(), 2 * lora.flops(),
                    adapters * s.adapterBytes() + 2 * adaptersCount * rows * r * e + ag,
                    adaptersCount * rows * r * e + ag, AccessPattern.READ, 0, 0, false));
        }
    }

    /**
     * x A B added to the base output for each targeted part, fused with the base GEMM as fused-LoRA
     * kernels run it: x is the base GEMM's operand and the product is added in its epilogue, so the
     * adapters move only their own weights and the rank-r intermediate. (PEFT's unfused modules
     * re-read x and read-modify-write the output per adapter; not modelled.) Null when no part is
     * targeted.
     */
    private Operation loraForward(String name, double count, double rows, double inner, double matrices, Part... parts) {
        if (!s.fineTuning().adapters()) {
            return null;
        }
        double e = s.activationBytes();
        double r = s.fineTuning().rank();
        double flops = 0;
        double read = 0;
        double written = 0;
        for (Part part : parts) {
            if (!s.fineTuning().targets(part.target())) {
                continue;
            }
            flops += 2 * rows * r * (inner + part.columns());
            read += matrices * r * (inner + part.columns()) * s.adapterBytes() + rows * r * e;
            written += rows * r * e;
        }
        if (flops == 0) {
            return null;
        }
        return new Operation(name + " LoRA adapters", OperationClass.FORWARD, Kernel.GEMM, s.compute(),
                Placement.DEVICE, count, flops, flops, read, written, AccessPattern.READ, 0, 0, false);
    }

    /** An elementwise operation, its backward, and its recompute under full checkpointing. */
    private void elementwise(String name, AccessPattern pattern, double count, double flops, double read, double written,
                             double backwardRead, double backwardWritten) {
        elementwise(name, pattern, count, flops, read, written, backwardRead, backwardWritten, null, null);
    }

    /** The same, each pass doing the row work given (null: timed by its FLOPs). */
    private void elementwise(String name, AccessPattern pattern, double count, double flops, double read, double written,
                             double backwardRead, double backwardWritten, Operation.RowWork work,
                             Operation.RowWork backwardWork) {
        Operation op = OperationList.elementwise(name, OperationClass.FORWARD, pattern, count, flops, read, written)
                .withRowWork(work);
        forward.add(op);
        if (!s.training()) {
            return;
        }
        backward.add(OperationList.elementwise(name + " backward", OperationClass.BACKWARD, pattern, count, 2 * flops,
                backwardRead, backwardWritten).withRowWork(backwardWork));
        if (recomputesEverything()) {
            recompute.add(op.as(OperationClass.RECOMPUTE, name));
        }
    }
}
