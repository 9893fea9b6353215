package membound.model.workload;

import membound.vocabulary.BadInputException;

/**
 * A decoder-only transformer: the sizes a Hugging Face {@code config.json} gives, and the
 * architectural choices that change parameters, FLOPs or bytes (gated MLP, norm type, learned or
 * rotary positions, tied embeddings, biases, experts, sliding-window layers, dropout, attention
 * sinks).
 *
 * <p>{@code vocabularySize} 0 means a stack of blocks without embedding and output layer, as a
 * benchmark of one transformer block is.
 */
public record Transformer(String name, String source, int vocabularySize, int hiddenSize, int layers,
                          int attentionHeads, int keyValueHeads, int headDimension, int intermediateSize,
                          Activation activation, Normalization normalization, PositionEncoding positions,
                          int maxPositions, boolean tiedEmbeddings, Biases biases, MixtureOfExperts experts,
                          SlidingWindow slidingWindow, boolean dropout, boolean attentionSinks) implements Workload {

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
                .experts(experts).slidingWindow(slidingWindow).dropout(dropout).attentionSinks(attentionSinks);
    }

    public Transformer withName(String replaced) {
        return new Transformer(replaced, source, vocabularySize, hiddenSize, layers, attentionHeads, keyValueHeads,
                headDimension, intermediateSize, activation, normalization, positions, maxPositions, tiedEmbeddings,
                biases, experts, slidingWindow, dropout, attentionSinks);
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

    /** Weights of one expert's MLP (or of the dense MLP), without biases. */
    public long mlpWeightsPerExpert() {
        return (activation.gated() ? 3L : 2L) * hiddenSize * intermediateSize;
    }

    /** Weights of one layer's attention projections, without biases. */
    public long attentionWeightsPerLayer() {
        return 2L * hiddenSize * queryDimension() + 2L * hiddenSize * keyValueDimension();
    }

    @Override
    public ParameterCounts parameters() {
        long h = hiddenSize;
        long attentionBiases = (biases.queryKeyValue() ? queryDimension() + 2L * keyValueDimension() : 0)
                + (biases.attentionOutput() ? h : 0);
        long attentionPerLayer = attentionWeightsPerLayer() + attentionBiases + (attentionSinks ? attentionHeads : 0);
        long mlpBiases = biases.mlp() ? (activation.gated() ? 2L * intermediateSize : intermediateSize) + h : 0;
        long perExpert = mlpWeightsPerExpert() + mlpBiases;
        long routerPerLayer = experts.sparse() ? h * experts.experts() + (biases.router() ? experts.experts() : 0) : 0;
        long normsPerLayer = 2L * h * normalization.parametersPerChannel();
        long finalNorm = h * normalization.parametersPerChannel();
        long table = hasEmbeddings() ? (long) vocabularySize * h : 0;
        long positionTable = positions == PositionEncoding.LEARNED ? (long) maxPositions * h : 0;
        long dense = experts.sparse() ? 0 : layers * perExpert;
        long allExperts = experts.sparse() ? layers * perExpert * experts.experts() : 0;
        long usedExperts = experts.sparse() ? layers * perExpert * experts.expertsPerToken() : 0;
        return new ParameterCounts(
                tiedEmbeddings ? 0 : table,
                positionTable,
                layers * attentionPerLayer,
                dense,
                allExperts,
                usedExperts,
                layers * routerPerLayer,
                layers * normsPerLayer + finalNorm,
                table);
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
                    experts, slidingWindow, dropout, attentionSinks);
        }
    }
}
