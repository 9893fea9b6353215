package membound.model.workload;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import membound.vocabulary.BadInputException;

/**
 * Turns the JSON tree of a Hugging Face {@code config.json} into a {@link Transformer}, per
 * {@code model_type} the way the Transformers library lays the model out (its
 * {@code modeling_*.py}): which projections carry biases, how many norms a layer has, which layers
 * have experts and how wide they are, latent attention, which layers slide. A multimodal config is
 * read from its {@code text_config}; the vision tower is left out and the source says so. A field
 * that changes the shape and that the reader for the config's model_type did not read is refused
 * by name.
 */
final class ConfigInterpreter {

    /**
     * Fields that change parameters, FLOPs or the KV cache in some family. Whichever of these a
     * config has must have been read by its family's reader.
     */
    private static final Set<String> SHAPE_FIELDS = Set.of(
            "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim",
            "intermediate_size", "vocab_size", "tie_word_embeddings", "attention_bias", "mlp_bias", "lm_head_bias",
            "num_local_experts", "num_experts", "n_routed_experts", "num_experts_per_tok", "experts_per_token",
            "moe_intermediate_size", "shared_expert_intermediate_size", "n_shared_experts", "num_shared_experts",
            "moe_shared_expert_intermediate_size", "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step",
            "mlp_only_layers", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
            "num_nextn_predict_layers", "sliding_window", "layer_types", "sliding_window_pattern",
            "use_sliding_window", "max_window_layers", "interleave_moe_layer_step", "intermediate_size_mlp",
            "no_rope_layers", "attention_chunk_size", "multi_query", "new_decoder_architecture", "num_kv_heads",
            "parallel_attn", "bias", "ffn_hidden_size", "num_ln_in_parallel_attn", "n_embd", "n_layer", "n_head",
            "n_inner", "n_positions", "full_attention_interval", "linear_num_value_heads", "linear_num_key_heads",
            "linear_key_head_dim", "linear_value_head_dim", "linear_conv_kernel_dim", "hybrid_override_pattern",
            "mamba_num_heads", "ssm_state_size", "num_kv_shared_layers", "laurel_rank", "altup_num_inputs",
            "hidden_size_per_layer_input", "use_qk_norm", "qk_layernorm", "kv_channels", "num_query_groups", "n_embed");

    private static final String SLIDING = "sliding_attention";
    private static final String FULL = "full_attention";

    private ConfigInterpreter() {
    }

    static Transformer interpret(JsonNode root, String origin, String fallbackName) {
        ConfigFields outer = new ConfigFields(root, origin, Map.of());
        String name = outer.text("_name_or_path", fallbackName);
        if (name.isBlank()) {
            name = fallbackName;
        }
        String type = outer.text("model_type", "");
        JsonNode body = root;
        String source = origin;
        JsonNode text = root.get("text_config");
        if (text != null && !text.isNull()) {
            if (!text.isObject()) {
                throw new BadInputException("text_config must be an object: file=" + origin + ", text_config=" + text);
            }
            body = text;
            type = new ConfigFields(text, origin, Map.of()).text("model_type",
                    TransformersDefaults.TEXT_CONFIG_TYPES.getOrDefault(type, type));
            source = origin + (root.has("vision_config") ? " (text_config; the vision tower is left out)" : " (text_config)");
        }
        Map<String, Object> defaults = type.isEmpty() ? Map.of() : TransformersDefaults.of(type);
        if (defaults == null) {
            throw new BadInputException("model_type must be one the model knows (" + String.join(", ",
                    TransformersDefaults.knownTypes()) + "): file=" + origin + ", model_type=" + type);
        }
        ConfigFields f = new ConfigFields(body, origin, defaults);
        Transformer.Builder b = Transformer.builder(name);
        Transformer tf;
        try {
            tf = switch (type) {
                case "gpt_neox" -> gptNeoX(f, b);
                case "falcon", "RefinedWeb", "RefinedWebModel" -> falcon(f, b);
                default -> type.equals("gpt2") || (type.isEmpty() && body.has("n_embd")) ? gpt2(f, b) : decoder(f, b, type);
            };
        } catch (BadInputException e) {
            // The transformer's own checks speak its words (keyValueHeads, layers) and know no file: name it.
            if (e.getMessage() != null && e.getMessage().contains("file=" + origin)) {
                throw e;
            }
            throw new BadInputException(e.getMessage() + " (file=" + origin + ")", e);
        }
        if (f.nullableInt("num_nextn_predict_layers") > 0) {
            source += " (the multi-token-prediction layers are left out, as Transformers leaves them out)";
        }
        refuseUnreadShapeFields(f, body, type);
        return tf.toBuilder().source(source).build();
    }

    private static void refuseUnreadShapeFields(ConfigFields f, JsonNode body, String type) {
        for (var it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (SHAPE_FIELDS.contains(field) && !f.read().contains(field)) {
                throw new BadInputException("config.json must not have a field that changes the shape and that the "
                        + "model does not read for model_type " + (type.isEmpty() ? "<none>" : type) + ": file="
                        + f.origin + ", " + field + "=" + body.get(field));
            }
        }
    }

    // ---- GPT-2 ----

    private static Transformer gpt2(ConfigFields f, Transformer.Builder b) {
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

    // ---- GPT-NeoX (Pythia) and Falcon: LayerNorm, an ungated GELU MLP, one fused QKV projection ----

    private static Transformer gptNeoX(ConfigFields f, Transformer.Builder b) {
        int hidden = f.requiredInt("hidden_size");
        boolean attentionBias = f.bool("attention_bias", true);
        f.given("use_parallel_residual");  // both residual forms have the same two LayerNorms
        return b.vocabularySize(f.requiredInt("vocab_size"))
                .hiddenSize(hidden)
                .layers(f.requiredInt("num_hidden_layers"))
                .multiHead(f.requiredInt("num_attention_heads"))
                .intermediateSize(f.requiredInt("intermediate_size"))
                .activation(ungated(f.text("hidden_act", "gelu")))
                .normalization(Normalization.LAYER_NORM)
                .maxPositions(f.optionalInt("max_position_embeddings", 0))
                .tiedEmbeddings(f.bool("tie_word_embeddings", false))
                // The MLP's two linear layers always carry biases (GPTNeoXMLP).
                .biases(new Biases(attentionBias, attentionBias, true, false))
                .dropout(f.number("attention_dropout", 0) > 0 || f.number("hidden_dropout", 0) > 0)
                .build();
    }

    private static Transformer falcon(ConfigFields f, Transformer.Builder b) {
        // The first Falcon configs (model_type RefinedWebModel) name the sizes as FalconConfig's aliases do.
        int hidden = f.requiredInt(f.given("n_embed") ? "n_embed" : "hidden_size");
        int heads = f.requiredInt(f.given("n_head") ? "n_head" : "num_attention_heads");
        int layers = f.requiredInt(f.given("n_layer") ? "n_layer" : "num_hidden_layers");
        if (hidden % heads != 0) {
            throw new BadInputException("num_attention_heads must divide hidden_size (" + hidden + "): file="
                    + f.origin + ", num_attention_heads=" + heads);
        }
        boolean newArchitecture = f.bool("new_decoder_architecture", false);
        boolean multiQuery = f.bool("multi_query", true);
        boolean parallel = f.bool("parallel_attn", true);
        int kvHeads = newArchitecture ? f.optionalInt("num_kv_heads", heads) : multiQuery ? 1 : heads;
        if (!newArchitecture) {
            f.given("num_kv_heads");  // FalconAttention reads it only in the new architecture
        }
        // FalconDecoderLayer: the new architecture norms attention and MLP inputs apart (two LayerNorms,
        // unless num_ln_in_parallel_attn is 1); the old one shares one norm when attention runs in parallel.
        int norms = newArchitecture ? f.optionalInt("num_ln_in_parallel_attn", 2) : parallel ? 1 : 2;
        boolean bias = f.bool("bias", false);
        f.given("alibi");  // ALiBi instead of rotary positions: no parameters
        return b.vocabularySize(f.requiredInt("vocab_size"))
                .hiddenSize(hidden)
                .layers(layers)
                .attentionHeads(heads)
                .keyValueHeads(kvHeads)
                .headDimension(hidden / heads)
                .intermediateSize(f.optionalInt("ffn_hidden_size", 4 * hidden))
                .activation(ungated(f.text("activation", "gelu")))
                .normalization(Normalization.LAYER_NORM)
                .normsPerLayer(norms)
                .maxPositions(f.optionalInt("max_position_embeddings", 0))
                .tiedEmbeddings(f.bool("tie_word_embeddings", true))
                .biases(bias ? new Biases(true, true, true, false) : Biases.NONE)
                .dropout(f.number("attention_dropout", 0) > 0 || f.number("hidden_dropout", 0) > 0)
                .build();
    }

    private static Activation ungated(String act) {
        return act.toLowerCase(Locale.ROOT).startsWith("relu") ? Activation.RELU : Activation.GELU;
    }

    // ---- decoders with a gated MLP: Llama, Mistral, Mixtral, Qwen, Gemma, Phi-3, OLMo 2, gpt-oss, DeepSeek ----

    private static Transformer decoder(ConfigFields f, Transformer.Builder b, String type) {
        int hidden = f.requiredInt("hidden_size");
        int heads = f.requiredInt("num_attention_heads");
        int layers = f.requiredInt("num_hidden_layers");
        LatentAttention latent = latentAttention(f, type);
        int kvHeads = f.optionalInt("num_key_value_heads", heads);
        if (!latent.present() && kvHeads > 0 && heads % kvHeads != 0) {
            throw new BadInputException("num_key_value_heads must divide num_attention_heads (" + heads + "): file="
                    + f.origin + ", num_key_value_heads=" + kvHeads);
        }
        int headDim = latent.present() ? latent.queryKeyHeadDimension() : headDimension(f, hidden, heads);
        if (latent.present()) {
            f.given("head_dim");  // DeepseekV3Config sets it to the rotary width; the layout is the latent's
        }
        String act = f.text("hidden_act", f.text("hidden_activation", "silu")).toLowerCase(Locale.ROOT);
        int maxPositions = f.optionalInt("max_position_embeddings", 0);
        return b.vocabularySize(f.requiredInt("vocab_size"))
                .hiddenSize(hidden)
                .layers(layers)
                .attentionHeads(heads)
                .keyValueHeads(latent.present() ? heads : kvHeads)
                .headDimension(headDim)
                .intermediateSize(f.requiredInt("intermediate_size"))
                // Every model in this family has a gated MLP: gate and up projections, then down.
                .activation(act.startsWith("gelu") ? Activation.GEGLU : Activation.SWIGLU)
                .normalization(normalization(f, type))
                .normsPerLayer(type.equals("gemma2") || type.equals("gemma3_text") ? 4 : 2)
                .queryKeyNorm(queryKeyNorm(f, type))
                .maxPositions(maxPositions)
                .tiedEmbeddings(f.bool("tie_word_embeddings", false))
                .biases(biases(f, type, latent))
                .experts(experts(f, type, layers))
                .latentAttention(latent)
                .slidingWindow(slidingWindow(f, type, layers, maxPositions))
                .dropout(f.number("attention_dropout", 0) > 0 || f.number("hidden_dropout", 0) > 0)
                .attentionSinks(type.equals("gpt_oss"))
                .build();
    }

    private static int headDimension(ConfigFields f, int hidden, int heads) {
        int headDim = f.optionalInt("head_dim", hidden % heads == 0 ? hidden / heads : 0);
        if (headDim <= 0) {
            throw new BadInputException("config.json must have head_dim when num_attention_heads does not divide hidden_size: file="
                    + f.origin + ", hidden_size=" + hidden + ", num_attention_heads=" + heads);
        }
        return headDim;
    }

    private static boolean deepSeek(String type) {
        return type.equals("deepseek_v2") || type.equals("deepseek_v3") || type.equals("kimi_k2");
    }

    private static LatentAttention latentAttention(ConfigFields f, String type) {
        if (!deepSeek(type)) {
            return LatentAttention.NONE;
        }
        return new LatentAttention(f.nullableInt("q_lora_rank"), f.requiredInt("kv_lora_rank"),
                f.requiredInt("qk_nope_head_dim"), f.requiredInt("qk_rope_head_dim"), f.requiredInt("v_head_dim"));
    }

    private static Normalization normalization(ConfigFields f, String type) {
        boolean layerNormEps = f.given("layer_norm_eps");
        boolean rmsNormEps = f.given("rms_norm_eps");
        // PhimoeDecoderLayer normalizes with nn.LayerNorm (weight and bias) although its config names rms_norm_eps.
        return type.equals("phimoe") || (layerNormEps && !rmsNormEps) ? Normalization.LAYER_NORM : Normalization.RMS_NORM;
    }

    private static QueryKeyNorm queryKeyNorm(ConfigFields f, String type) {
        // Qwen3's attention always norms queries and keys; a config that says otherwise is not this layout.
        if ((type.equals("qwen3") || type.equals("qwen3_moe")) && !f.bool("use_qk_norm", true)) {
            throw new BadInputException("use_qk_norm must be true for " + type + " (its attention always has q_norm and "
                    + "k_norm): file=" + f.origin + ", use_qk_norm=false");
        }
        return switch (type) {
            case "qwen3", "qwen3_moe", "gemma3_text" -> QueryKeyNorm.PER_HEAD;
            case "olmo2" -> QueryKeyNorm.PER_PROJECTION;
            default -> QueryKeyNorm.NONE;
        };
    }

    private static Biases biases(ConfigFields f, String type, LatentAttention latent) {
        boolean gptOss = type.equals("gpt_oss");
        boolean attentionBias = f.bool("attention_bias", false);
        if (latent.present() && attentionBias) {
            throw new BadInputException("attention_bias must be false with latent attention (its biases are not laid out "
                    + "in the model): file=" + f.origin + ", attention_bias=true");
        }
        // Qwen2 (and Qwen2-MoE) put biases on q, k and v without saying so in the config: the attention
        // module hard-codes them. gpt-oss has biases on attention, experts and router.
        boolean qwen2 = type.equals("qwen2") || type.equals("qwen2_moe");
        boolean mlpBias = f.bool("mlp_bias", gptOss);
        // DeepSeek-V3's router keeps a per-expert score-correction bias (topk_method noaux_tc).
        boolean routerBias = gptOss || f.text("topk_method", "").equals("noaux_tc");
        return new Biases(qwen2 || attentionBias, attentionBias && !qwen2, mlpBias, routerBias,
                f.bool("lm_head_bias", false));
    }

    private static MixtureOfExperts experts(ConfigFields f, String type, int layers) {
        if (type.equals("qwen2_moe") || type.equals("qwen3_moe")) {
            int experts = f.requiredInt("num_experts");
            int width = f.requiredInt("moe_intermediate_size");
            int shared = f.nullableInt("shared_expert_intermediate_size");
            if (type.equals("qwen3_moe") && shared > 0) {
                throw new BadInputException("shared_expert_intermediate_size must be 0 for qwen3_moe (Qwen3MoeSparseMoeBlock "
                        + "has no shared expert): file=" + f.origin + ", shared_expert_intermediate_size=" + shared);
            }
            // Qwen2MoeDecoderLayer: layer i has experts unless listed in mlp_only_layers, every decoder_sparse_step-th.
            List<Integer> mlpOnly = f.indices("mlp_only_layers");
            int step = f.optionalInt("decoder_sparse_step", 1);
            int dense = 0;
            for (int i = 0; i < layers; i++) {
                dense += mlpOnly.contains(i) || (i + 1) % step != 0 ? 1 : 0;
            }
            return new MixtureOfExperts(experts, f.requiredInt("num_experts_per_tok"), width, shared, shared > 0, dense);
        }
        if (deepSeek(type)) {
            int experts = f.nullableInt("n_routed_experts");
            int width = f.requiredInt("moe_intermediate_size");
            int firstDense = f.optionalInt("first_k_dense_replace", 0);
            int frequency = f.optionalInt("moe_layer_freq", 1);
            if (experts == 0) {
                return MixtureOfExperts.DENSE;
            }
            // DeepseekV2DecoderLayer: experts from layer first_k_dense_replace on, every moe_layer_freq-th layer.
            int dense = 0;
            for (int i = 0; i < layers; i++) {
                dense += i >= firstDense && i % frequency == 0 ? 0 : 1;
            }
            int shared = f.nullableInt("n_shared_experts") * width;
            return new MixtureOfExperts(experts, f.requiredInt("num_experts_per_tok"), width, shared, false, dense);
        }
        int experts = f.optionalInt("num_local_experts", 1);
        if (experts == 1) {
            return MixtureOfExperts.DENSE;
        }
        int perToken = f.optionalInt("num_experts_per_tok", f.optionalInt("experts_per_token", 0));
        if (perToken == 0) {
            throw new BadInputException("config.json must have num_experts_per_tok for a mixture of experts: file="
                    + f.origin + ", num_local_experts=" + experts);
        }
        return new MixtureOfExperts(experts, perToken);
    }

    /**
     * Which layers attend through a sliding window: those {@code layer_types} names so; without the
     * list, the family's rule (Gemma 2 every other layer from the first; Gemma 3 all but every
     * {@code sliding_window_pattern}-th; Qwen from {@code max_window_layers} on when
     * {@code use_sliding_window}; Mistral and Phi-3 every layer).
     */
    private static SlidingWindow slidingWindow(ConfigFields f, String type, int layers, int maxPositions) {
        int window = f.nullableInt("sliding_window");
        boolean used = f.bool("use_sliding_window", true);
        List<String> types = f.texts("layer_types");
        int sliding;
        if (types != null) {
            sliding = 0;
            for (String kind : types) {
                if (!kind.equals(SLIDING) && !kind.equals(FULL)) {
                    throw new BadInputException("layer_types must list " + SLIDING + " or " + FULL + " layers: file="
                            + f.origin + ", layer_types=" + kind);
                }
                sliding += kind.equals(SLIDING) ? 1 : 0;
            }
            if (types.size() != layers) {
                throw new BadInputException("layer_types must name every layer (" + layers + "): file=" + f.origin
                        + ", layer_types=" + types.size() + " entries");
            }
        } else {
            sliding = switch (type) {
                case "gemma2" -> (layers + 1) / 2;
                case "gemma3_text" -> layers - layers / f.optionalInt("sliding_window_pattern", 6);
                case "qwen2", "qwen2_moe", "qwen3", "qwen3_moe" ->
                        layers - Math.min(layers, f.optionalInt("max_window_layers", layers));
                default -> layers;
            };
        }
        f.given("max_window_layers");
        f.given("sliding_window_pattern");
        if (window == 0 || !used || sliding == 0 || window >= Math.max(1, maxPositions)) {
            return SlidingWindow.NONE;
        }
        return new SlidingWindow(window, sliding);
    }
}
