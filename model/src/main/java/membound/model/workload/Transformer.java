package membound.model.workload;

import membound.vocabulary.BadInputException;

/**
 * A decoder-only transformer: the sizes a Hugging Face {@code config.json} gives, and the
 * architectural choices that change parameters, FLOPs or bytes (gated MLP, norm type, learned or
 * rotary positions, tied embeddings, biases, experts, sliding-window layers, dropout, attention
 * sinks, latent attention, the norms of a layer).
 *
 * <p>{@code normsPerLayer} counts the norms over the hidden size in one layer: 2 in a pre-norm
 * block, 4 where the sublayer outputs are normed too (Gemma 2 and 3), 1 where attention and MLP
 * run in parallel from one norm (Falcon-7B). With latent attention, {@code headDimension} is the
 * query/key head width and the value head width is the latent attention's.
 *
 * <p>{@code vocabularySize} 0 means a stack of blocks without embedding and output layer, as a
 * benchmark of one transformer block is.
 */
public record Transformer(String name, String source, int vocabularySize, int hiddenSize, int layers,
                          int attentionHeads, int keyValueHeads, int headDimension, int intermediateSize,
                          Activation activation, Normalization normalization, PositionEncoding positions,
                          int maxPositions, boolean tiedEmbeddings, Biases biases, MixtureOfExperts experts,
                          SlidingWindow slidingWindow, boolean dropout, boolean attentionSinks,
                          LatentAttention latentAttention, int normsPerLayer, QueryKeyNorm queryKeyNorm) implements Workload {

    public Transformer {
        positive("hiddenSize", hiddenSize);
        positive("layers", layers);
        positive("attentionHeads", attentionHeads);
        positive("keyValueHeads", keyValueHeads);
        positive("headDimension", headDimension);
        positive("intermediateSize", intermediateSize);
        if (vocabularySize < 0) {
            throw new BadInputException("vocabularySize must be zero (no embeddings) or positive: vocabularySize=" + vocabularySize);
        }
        if (attentionHeads % keyValueHeads != 0) {
            throw new BadInputException("keyValueHeads must divide attentionHeads (" + attentionHeads
                    + "): keyValueHeads=" + keyValueHeads);
        }
        if (activation == null || normalization == null || positions == null) {
            throw new BadInputException("activation, normalization and positions must be given");
        }
        if (positions == PositionEncoding.LEARNED) {
            positive("maxPositions", maxPositions);
        }
        if (biases == null) {
            biases = Biases.NONE;
        }
        if (experts == null) {
            experts = MixtureOfExperts.DENSE;
        }
        if (slidingWindow == null) {
            slidingWindow = SlidingWindow.NONE;
        }
        if (latentAttention == null) {
            latentAttention = LatentAttention.NONE;
        }
        if (queryKeyNorm == null) {
            queryKeyNorm = QueryKeyNorm.NONE;
        }
        if (normsPerLayer < 0) {
            throw new BadInputException("normsPerLayer must be zero or more: normsPerLayer=" + normsPerLayer);
        }
        if (experts.sparse() && experts.expertWidth() == 0) {
            experts = experts.withExpertWidth(intermediateSize);
        }
        if (experts.denseLayers() >= layers && experts.sparse()) {
            throw new BadInputException("a mixture of experts must leave a layer with experts (" + layers
                    + " layers): denseLayers=" + experts.denseLayers());
        }
        if (slidingWindow.layers() > layers) {
            throw new BadInputException("slidingWindowLayers must not exceed layers (" + layers
                    + "): slidingWindowLayers=" + slidingWindow.layers());
        }
        if (name == null || name.isBlank()) {
            name = "transformer";
        }
        if (source == null || source.isBlank()) {
            source = "given in code";
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public Builder toBuilder() {
        return new Builder(name).source(source).vocabularySize(vocabularySize).hiddenSize(hiddenSize).layers(layers)
                .attentionHeads(attentionHeads).keyValueHeads(keyValueHeads).headDimension(headDimension)
                .intermediateSize(intermediateSize).activation(activation).normalization(normalization)
                .positions(positions).maxPositions(maxPositions).tiedEmbeddings(tiedEmbeddings).biases(biases)
                .experts(experts).slidingWindow(slidingWindow).dropout(dropout).attentionSinks(attentionSinks)
                .latentAttention(latentAttention).normsPerLayer(normsPerLayer).queryKeyNorm(queryKeyNorm);
    }

    public Transformer withName(String replaced) {
        return new Transformer(replaced, source, vocabularySize, hiddenSize, layers, attentionHeads, keyValueHeads,
                headDimension, intermediateSize, activation, normalization, positions, maxPositions, tiedEmbeddings,
                biases, experts, slidingWindow, dropout, attentionSinks, latentAttention, normsPerLayer, queryKeyNorm);
    }

    /** Width of the query projection's output: heads x head dimension (not always the hidden size). */
    public int queryDimension() {
        return attentionHeads * headDimension;
    }

    /** Width of the key projection's output (and of the value projection's). */
    public int keyValueDimension() {
        return keyValueHeads * headDimension;
    }

    public boolean hasEmbeddings() {
        return vocabularySize > 0;
    }

    /** Width of one head's value (and of the attention output per head). */
    public int valueHeadDimension() {
        return latentAttention.present() ? latentAttention.valueDimension() : headDimension;
    }

    /** Elements the KV cache keeps per token and layer: keys and values, or latent attention's compressed latent. */
    public int kvCacheElementsPerToken() {
        return latentAttention.present() ? latentAttention.cacheElementsPerToken() : 2 * keyValueDimension();
    }

    /** Layers whose MLP is a mixture of experts (none in a dense model). */
    public int expertLayers() {
        return experts.sparse() ? layers - experts.denseLayers() : 0;
    }

    /** Layers with a dense MLP of {@link #intermediateSize}. */
    public int denseMlpLayers() {
        return layers - expertLayers();
    }

    /** Weights of one MLP (a dense one, an expert, the shared experts) of that intermediate width, without biases. */
    public long mlpWeights(int width) {
        return (activation.gated() ? 3L : 2L) * hiddenSize * width;
    }

    /** Weights of one expert's MLP (or of the dense MLP), without biases. */
    public long mlpWeightsPerExpert() {
        return mlpWeights(experts.sparse() ? experts.expertWidth() : intermediateSize);
    }

    /** Weights of one layer's attention projections, without biases. */
    public long attentionWeightsPerLayer() {
        if (latentAttention.present()) {
            return latentAttention.weightsPerLayer(hiddenSize, attentionHeads);
        }
        return 2L * hiddenSize * queryDimension() + 2L * hiddenSize * keyValueDimension();
    }

    @Override
    public ParameterCounts parameters() {
        long h = hiddenSize;
        long attentionBiases = (biases.queryKeyValue() ? queryDimension() + 2L * keyValueDimension() : 0)
                + (biases.attentionOutput() ? h : 0);
        long attentionPerLayer = attentionWeightsPerLayer() + attentionBiases + (attentionSinks ? attentionHeads : 0);
        long normChannels = normsPerLayer * h + queryKeyNorm.channels(attentionHeads, keyValueHeads, headDimension)
                + latentAttention.normChannelsPerLayer();
        long finalNorm = h * normalization.parametersPerChannel();
        long table = hasEmbeddings() ? (long) vocabularySize * h : 0;
        long headBias = hasEmbeddings() && biases.outputHead() ? vocabularySize : 0;
        long positionTable = positions == PositionEncoding.LEARNED ? (long) maxPositions * h : 0;
        long moeLayers = expertLayers();
        long expert = mlp(experts.sparse() ? experts.expertWidth() : intermediateSize);
        long shared = experts.sharedWidth() > 0 ? mlp(experts.sharedWidth()) : 0;
        long routerPerLayer = experts.sparse() ? h * experts.experts() + (biases.router() ? experts.experts() : 0)
                + (experts.sharedGate() ? h : 0) : 0;
        return new ParameterCounts(
                tiedEmbeddings ? 0 : table,
                positionTable,
                layers * attentionPerLayer,
                denseMlpLayers() * mlp(intermediateSize) + moeLayers * shared,
                moeLayers * expert * experts.experts(),
                moeLayers * expert * experts.expertsPerToken(),
                moeLayers * routerPerLayer,
                layers * normChannels * normalization.parametersPerChannel() + finalNorm,
                table + headBias);
    }

    /** One MLP of that width with its biases. */
    private long mlp(int width) {
        long biasCount = biases.mlp() ? (activation.gated() ? 2L * width : width) + hiddenSize : 0;
        return mlpWeights(width) + biasCount;
    }

    private static void positive(String what, int value) {
        if (value <= 0) {
            throw new BadInputException(what + " must be positive: " + what + "=" + value);
        }
    }

    /** Named setters for the many sizes; defaults are Llama's choices (SwiGLU, RMSNorm, RoPE, no biases). */
    public static final class Builder {
        private final String name;
        private String source;
        private int vocabularySize;
        private int hiddenSize;
        private int layers;
        private int attentionHeads;
        private int keyValueHeads;
        private int headDimension;
        private int intermediateSize;
        private Activation activation = Activation.SWIGLU;
        private Normalization normalization = Normalization.RMS_NORM;
        private PositionEncoding positions = PositionEncoding.ROTARY;
        private int maxPositions;
        private boolean tiedEmbeddings;
        private Biases biases = Biases.NONE;
        private MixtureOfExperts experts = MixtureOfExperts.DENSE;
        private SlidingWindow slidingWindow = SlidingWindow.NONE;
        private boolean dropout;
        private boolean attentionSinks;
        private LatentAttention latentAttention = LatentAttention.NONE;
        private int normsPerLayer = 2;
        private QueryKeyNorm queryKeyNorm = QueryKeyNorm.NONE;

        private Builder(String name) {
            this.name = name;
        }

        public Builder source(String value) { source = value; return this; }
        public Builder vocabularySize(int value) { vocabularySize = value; return this; }
        public Builder hiddenSize(int value) { hiddenSize = value; return this; }
        public Builder layers(int value) { layers = value; return this; }
        public Builder attentionHeads(int value) { attentionHeads = value; return this; }
        public Builder keyValueHeads(int value) { keyValueHeads = value; return this; }
        public Builder headDimension(int value) { headDimension = value; return this; }
        public Builder intermediateSize(int value) { intermediateSize = value; return this; }
        public Builder activation(Activation value) { activation = value; return this; }
        public Builder normalization(Normalization value) { normalization = value; return this; }
        public Builder positions(PositionEncoding value) { positions = value; return this; }
        public Builder maxPositions(int value) { maxPositions = value; return this; }
        public Builder tiedEmbeddings(boolean value) { tiedEmbeddings = value; return this; }
        public Builder biases(Biases value) { biases = value; return this; }
        public Builder experts(MixtureOfExperts value) { experts = value; return this; }
        public Builder slidingWindow(SlidingWindow value) { slidingWindow = value; return this; }
        public Builder dropout(boolean value) { dropout = value; return this; }
        public Builder attentionSinks(boolean value) { attentionSinks = value; return this; }
        public Builder latentAttention(LatentAttention value) { latentAttention = value; return this; }
        public Builder normsPerLayer(int value) { normsPerLayer = value; return this; }
        public Builder queryKeyNorm(QueryKeyNorm value) { queryKeyNorm = value; return this; }

        /** Multi-head attention over the hidden size: as many key/value heads as query heads, head = hidden / heads. */
        public Builder multiHead(int heads) {
            attentionHeads = heads;
            keyValueHeads = heads;
            if (hiddenSize > 0 && hiddenSize % heads == 0) {
                headDimension = hiddenSize / heads;
            }
            return this;
        }

        public Transformer build() {
            int head = headDimension > 0 ? headDimension
                    : attentionHeads > 0 && hiddenSize % attentionHeads == 0 ? hiddenSize / attentionHeads : 0;
            int kv = keyValueHeads > 0 ? keyValueHeads : attentionHeads;
            return new Transformer(name, source, vocabularySize, hiddenSize, layers, attentionHeads, kv, head,
                    intermediateSize, activation, normalization, positions, maxPositions, tiedEmbeddings, biases,
                    experts, slidingWindow, dropout, attentionSinks, latentAttention, normsPerLayer, queryKeyNorm);
        }
    }
}
