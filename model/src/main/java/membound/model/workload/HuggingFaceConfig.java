package membound.model.workload;

import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;

/**
 * Reads the architecture out of a Hugging Face {@code config.json}: GPT-2 style ({@code n_embd},
 * {@code n_layer}, ...) and Llama style ({@code hidden_size}, {@code num_hidden_layers}, ...), which
 * covers Llama, Mistral, Mixtral, Qwen2 and gpt-oss. Fields the architecture cannot do without
 * must be there; optional ones take the default the Transformers library gives them, listed in
 * docs/model.md. Anything wrong is one line naming the file, the field and the value.
 */
public final class HuggingFaceConfig {

    /** Strict as profiles are read: a duplicate key is an error, not a silent choice of its last value. */
    private static final ObjectMapper JSON = membound.profile.ProfileJson.strictMapper();

    private HuggingFaceConfig() {
    }

    public static Transformer read(Path file) {
        String text = InputFiles.readText(file, "config.json", InputFiles.Kind.CONFIG);
        Path parent = file.toAbsolutePath().getParent();
        String fallbackName = parent != null && parent.getFileName() != null ? parent.getFileName().toString() : "config";
        return parse(text, file.toString(), fallbackName);
    }

    /**
     * @param origin the file name (or preset resource) for messages and the workload's source
     * @param fallbackName the name when the config has no {@code _name_or_path}
     */
    public static Transformer parse(String text, String origin, String fallbackName) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadInputException("config.json must be valid JSON: file=" + origin + " ("
                    + e.getOriginalMessage().replace('\n', ' ') + ")");
        }
        if (root == null || !root.isObject()) {
            throw new BadInputException("config.json must hold a JSON object: file=" + origin);
        }
        Fields f = new Fields(root, origin);
        String type = f.text("model_type", "");
        String name = f.text("_name_or_path", fallbackName);
        if (name.isBlank()) {
            name = fallbackName;
        }
        if (root.has("text_config") && !root.has("hidden_size")) {
            throw new BadInputException("config.json must describe a text-only decoder (this one nests text_config, "
                    + "a multimodal model): file=" + origin);
        }
        Transformer.Builder b = Transformer.builder(name).source(origin);
        if (type.equals("gpt2") || root.has("n_embd")) {
            return gpt2(f, b);
        }
        return llamaLike(f, b, type);
    }

    private static Transformer gpt2(Fields f, Transformer.Builder b) {
        int hidden = f.requiredInt("n_embd");
        int heads = f.requiredInt("n_head");
        if (hidden % heads != 0) {
            throw new BadInputException("n_head must divide n_embd (" + hidden + "): file=" + f.origin + ", n_head=" + heads);
        }
        boolean dropout = f.number("resid_pdrop", 0.1) > 0 || f.number("attn_pdrop", 0.1) > 0
                || f.number("embd_pdrop", 0.1) > 0;
        String act = f.text("activation_function", "gelu_new");
        return b.vocabularySize(f.requiredInt("vocab_size"))
                .hiddenSize(hidden)
                .layers(f.requiredInt("n_layer"))
                .multiHead(heads)
                .intermediateSize(f.optionalInt("n_inner", 4 * hidden))
                .activation(act.startsWith("relu") ? Activation.RELU : Activation.GELU)
                .normalization(Normalization.LAYER_NORM)
                .positions(PositionEncoding.LEARNED)
                .maxPositions(f.requiredInt("n_positions"))
                .tiedEmbeddings(f.bool("tie_word_embeddings", true))
                .biases(Biases.ALL)
                .dropout(dropout)
                .build();
    }

    private static Transformer llamaLike(Fields f, Transformer.Builder b, String type) {
        int hidden = f.requiredInt("hidden_size");
        int heads = f.requiredInt("num_attention_heads");
        int kvHeads = f.optionalInt("num_key_value_heads", heads);
        int headDim = f.optionalInt("head_dim", hidden % heads == 0 ? hidden / heads : 0);
        if (headDim <= 0) {
            throw new BadInputException("config.json must have head_dim when num_attention_heads does not divide hidden_size: file="
                    + f.origin + ", hidden_size=" + hidden + ", num_attention_heads=" + heads);
        }
        int experts = f.optionalInt("num_local_experts", f.optionalInt("num_experts", 1));
        int perToken = experts > 1 ? f.optionalInt("num_experts_per_tok", f.optionalInt("experts_per_token", 0)) : 1;
        if (experts > 1 && perToken == 0) {
            throw new BadInputException("config.json must have num_experts_per_tok for a mixture of experts: file="
                    + f.origin + ", num_local_experts=" + experts);
        }
        if (f.root.has("shared_expert_intermediate_size") || f.root.has("n_shared_experts")) {
            throw new BadInputException("config.json describes shared experts, which the model does not know yet: file="
                    + f.origin + ", model_type=" + type);
        }
        boolean gptOss = type.equals("gpt_oss");
        // Llama-style attention_bias puts biases on q, k, v and o; Qwen2 puts them on q, k and v
        // without saying so in the config (its attention module hard-codes them).
        boolean qwen2 = type.equals("qwen2");
        boolean attentionBias = f.bool("attention_bias", false);
        boolean qkvBias = qwen2 || attentionBias;
        boolean outputBias = attentionBias && !qwen2;
        boolean mlpBias = f.bool("mlp_bias", gptOss);
        String act = f.text("hidden_act", f.text("hidden_activation", "silu")).toLowerCase(Locale.ROOT);
        // Every model in this family has a gated MLP: gate and up projections, then down.
        Activation activation = act.startsWith("gelu") ? Activation.GEGLU : Activation.SWIGLU;
        boolean layerNorm = f.root.has("layer_norm_eps") && !f.root.has("rms_norm_eps");
        int maxPositions = f.optionalInt("max_position_embeddings", 0);
        SlidingWindow window = SlidingWindow.NONE;
        int windowTokens = f.optionalInt("sliding_window", 0);
        if (windowTokens > 0 && f.bool("use_sliding_window", true)) {
            int slidingLayers = f.countOf("layer_types", "sliding_attention");
            if (slidingLayers < 0) {
                // No per-layer list: Mistral-style, every layer slides (max_window_layers is Qwen2's, unused when off).
                slidingLayers = f.requiredInt("num_hidden_layers");
            }
            if (slidingLayers > 0 && windowTokens < Math.max(1, maxPositions)) {
                window = new SlidingWindow(windowTokens, slidingLayers);
            }
        }
        return b.vocabularySize(f.requiredInt("vocab_size"))
                .hiddenSize(hidden)
                .layers(f.requiredInt("num_hidden_layers"))
                .attentionHeads(heads)
                .keyValueHeads(kvHeads)
                .headDimension(headDim)
                .intermediateSize(f.requiredInt("intermediate_size"))
                .activation(activation)
                .normalization(layerNorm ? Normalization.LAYER_NORM : Normalization.RMS_NORM)
                .positions(PositionEncoding.ROTARY)
                .maxPositions(maxPositions)
                .tiedEmbeddings(f.bool("tie_word_embeddings", false))
                .biases(new Biases(qkvBias || gptOss, outputBias || gptOss, mlpBias, gptOss))
                .experts(new MixtureOfExperts(experts, perToken))
                .slidingWindow(window)
                .dropout(f.number("attention_dropout", 0) > 0 || f.number("hidden_dropout", 0) > 0)
                .attentionSinks(gptOss)
                .build();
    }

    /** Typed access to the JSON object with one-line errors. */
    private static final class Fields {
        final JsonNode root;
        final String origin;

        Fields(JsonNode root, String origin) {
            this.root = root;
            this.origin = origin;
        }

        int requiredInt(String field) {
            JsonNode node = root.get(field);
            if (node == null || node.isNull()) {
                throw new BadInputException("config.json must have " + field + ": file=" + origin + ", " + field + "=<missing>");
            }
            return toInt(field, node);
        }

        int optionalInt(String field, int fallback) {
            JsonNode node = root.get(field);
            return node == null || node.isNull() ? fallback : toInt(field, node);
        }

        private int toInt(String field, JsonNode node) {
            if (!node.isIntegralNumber() || node.longValue() <= 0 || node.longValue() > Integer.MAX_VALUE) {
                throw new BadInputException(field + " must be a positive integer: file=" + origin + ", " + field + "=" + node);
            }
            return node.intValue();
        }

        double number(String field, double fallback) {
            JsonNode node = root.get(field);
            if (node == null || node.isNull()) {
                return fallback;
            }
            if (!node.isNumber() || !(node.doubleValue() >= 0)) {
                throw new BadInputException(field + " must be a number of zero or more: file=" + origin + ", " + field + "=" + node);
            }
            return node.doubleValue();
        }

        boolean bool(String field, boolean fallback) {
            JsonNode node = root.get(field);
            if (node == null || node.isNull()) {
                return fallback;
            }
            if (!node.isBoolean()) {
                throw new BadInputException(field + " must be true or false: file=" + origin + ", " + field + "=" + node);
            }
            return node.booleanValue();
        }

        String text(String field, String fallback) {
            JsonNode node = root.get(field);
            if (node == null || node.isNull()) {
                return fallback;
            }
            if (!node.isTextual()) {
                throw new BadInputException(field + " must be a string: file=" + origin + ", " + field + "=" + node);
            }
            return node.textValue();
        }

        /** How often {@code value} occurs in the array {@code field}; -1 if there is no such array. */
        int countOf(String field, String value) {
            JsonNode node = root.get(field);
            if (node == null || node.isNull()) {
                return -1;
            }
            if (!node.isArray()) {
                throw new BadInputException(field + " must be a list: file=" + origin + ", " + field + "=" + node);
            }
            int count = 0;
            for (JsonNode item : node) {
                if (value.equals(item.asText())) {
                    count++;
                }
            }
            return count;
        }
    }
}
