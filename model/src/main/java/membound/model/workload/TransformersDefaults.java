package membound.model.workload;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values the Hugging Face Transformers library gives a {@code config.json} field that is
 * absent, per {@code model_type}: the keyword defaults of each {@code configuration_*.py}
 * ({@code LlamaConfig}, {@code Gemma3TextConfig}, {@code DeepseekV3Config}, ...; a field without
 * one falls back to {@code PretrainedConfig}'s, which ties the embeddings). Only fields that shape
 * the model are listed. A published config usually gives them all; Gemma 3's nested
 * {@code text_config} is the common exception (it gives only what differs from these).
 */
final class TransformersDefaults {

    private static final Map<String, Map<String, Object>> BY_TYPE = new TreeMap<>();

    static {
        put("llama", Map.of("vocab_size", 32000, "hidden_size", 4096, "intermediate_size", 11008,
                "num_hidden_layers", 32, "num_attention_heads", 32, "max_position_embeddings", 2048,
                "tie_word_embeddings", false));
        put("mistral", Map.of("vocab_size", 32000, "hidden_size", 4096, "intermediate_size", 14336,
                "num_hidden_layers", 32, "num_attention_heads", 32, "num_key_value_heads", 8,
                "max_position_embeddings", 131072, "sliding_window", 4096, "tie_word_embeddings", false));
        put("mixtral", Map.of("vocab_size", 32000, "hidden_size", 4096, "intermediate_size", 14336,
                "num_hidden_layers", 32, "num_attention_heads", 32, "num_key_value_heads", 8,
                "max_position_embeddings", 131072, "num_local_experts", 8, "num_experts_per_tok", 2,
                "tie_word_embeddings", false));
        Map<String, Object> qwen = Map.of("vocab_size", 151936, "max_position_embeddings", 32768,
                "use_sliding_window", false, "sliding_window", 4096, "max_window_layers", 28,
                "tie_word_embeddings", false);
        put("qwen2", qwen, Map.of("hidden_size", 4096, "intermediate_size", 22016, "num_hidden_layers", 32,
                "num_attention_heads", 32, "num_key_value_heads", 32));
        put("qwen2_moe", qwen, Map.of("hidden_size", 2048, "intermediate_size", 5632, "num_hidden_layers", 24,
                "num_attention_heads", 16, "num_key_value_heads", 16, "decoder_sparse_step", 1,
                "moe_intermediate_size", 1408, "shared_expert_intermediate_size", 5632, "num_experts_per_tok", 4,
                "num_experts", 60));
        put("qwen3", qwen, Map.of("hidden_size", 4096, "intermediate_size", 22016, "num_hidden_layers", 32,
                "num_attention_heads", 32, "num_key_value_heads", 32, "head_dim", 128));
        put("qwen3_moe", qwen, Map.of("hidden_size", 2048, "intermediate_size", 6144, "num_hidden_layers", 24,
                "num_attention_heads", 32, "num_key_value_heads", 4, "decoder_sparse_step", 1,
                "moe_intermediate_size", 768, "num_experts_per_tok", 8, "num_experts", 128));
        put("gemma", Map.of("vocab_size", 256000, "hidden_size", 3072, "intermediate_size", 24576,
                "num_hidden_layers", 28, "num_attention_heads", 16, "num_key_value_heads", 16, "head_dim", 256,
                "hidden_act", "gelu_pytorch_tanh", "max_position_embeddings", 8192, "tie_word_embeddings", true));
        Map<String, Object> gemmaNext = Map.of("hidden_size", 2304, "intermediate_size", 9216,
                "num_hidden_layers", 26, "num_attention_heads", 8, "num_key_value_heads", 4, "head_dim", 256,
                "hidden_activation", "gelu_pytorch_tanh", "tie_word_embeddings", true, "sliding_window", 4096);
        put("gemma2", gemmaNext, Map.of("vocab_size", 256000, "max_position_embeddings", 8192));
        put("gemma3_text", gemmaNext, Map.of("vocab_size", 262208, "max_position_embeddings", 131072,
                "sliding_window_pattern", 6));
        put("phi3", Map.of("vocab_size", 32064, "hidden_size", 3072, "intermediate_size", 8192,
                "num_hidden_layers", 32, "num_attention_heads", 32, "max_position_embeddings", 4096,
                "tie_word_embeddings", false));
        put("phimoe", Map.of("vocab_size", 32064, "hidden_size", 4096, "intermediate_size", 6400,
                "num_hidden_layers", 32, "num_attention_heads", 32, "num_key_value_heads", 8,
                "max_position_embeddings", 131072, "num_local_experts", 16, "num_experts_per_tok", 2,
                "tie_word_embeddings", false));
        put("olmo2", Map.of("vocab_size", 50304, "hidden_size", 4096, "intermediate_size", 11008,
                "num_hidden_layers", 32, "num_attention_heads", 32, "max_position_embeddings", 2048,
                "tie_word_embeddings", false));
        put("gpt_oss", Map.of("vocab_size", 201088, "hidden_size", 2880, "intermediate_size", 2880,
                "num_hidden_layers", 36, "num_attention_heads", 64, "num_key_value_heads", 8, "head_dim", 64,
                "num_local_experts", 128, "num_experts_per_tok", 4, "sliding_window", 128),
                Map.of("max_position_embeddings", 131072, "attention_bias", true, "tie_word_embeddings", false));
        put("deepseek_v2", Map.of("vocab_size", 102400, "hidden_size", 5120, "intermediate_size", 12288,
                "moe_intermediate_size", 1536, "num_hidden_layers", 30, "num_attention_heads", 32,
                "num_key_value_heads", 32, "moe_layer_freq", 1, "q_lora_rank", 1536, "kv_lora_rank", 512),
                Map.of("qk_rope_head_dim", 64, "v_head_dim", 128, "qk_nope_head_dim", 128,
                        "max_position_embeddings", 2048, "tie_word_embeddings", false));
        Map<String, Object> v3 = Map.of("vocab_size", 129280, "hidden_size", 7168, "intermediate_size", 18432,
                "moe_intermediate_size", 2048, "num_hidden_layers", 61, "num_attention_heads", 128,
                "num_key_value_heads", 128, "n_shared_experts", 1, "n_routed_experts", 256, "num_experts_per_tok", 8);
        Map<String, Object> v3Attention = Map.of("first_k_dense_replace", 3, "moe_layer_freq", 1, "q_lora_rank", 1536,
                "kv_lora_rank", 512, "qk_rope_head_dim", 64, "v_head_dim", 128, "qk_nope_head_dim", 128,
                "max_position_embeddings", 4096, "tie_word_embeddings", false);
        put("deepseek_v3", v3, v3Attention);
        put("kimi_k2", v3, v3Attention);
        put("gpt2", Map.of("vocab_size", 50257, "n_positions", 1024, "n_embd", 768, "n_layer", 12, "n_head", 12,
                "tie_word_embeddings", true));
        put("gpt_neox", Map.of("vocab_size", 50432, "hidden_size", 6144, "num_hidden_layers", 44,
                "num_attention_heads", 64, "intermediate_size", 24576, "max_position_embeddings", 2048,
                "tie_word_embeddings", false, "attention_bias", true, "hidden_act", "gelu"));
        put("falcon", Map.of("vocab_size", 65024, "hidden_size", 4544, "num_hidden_layers", 32,
                "num_attention_heads", 71, "multi_query", true, "new_decoder_architecture", false,
                "parallel_attn", true, "bias", false, "max_position_embeddings", 2048, "tie_word_embeddings", true));
        // Falcon's first configs, which Transformers reads as FalconConfig.
        BY_TYPE.put("RefinedWebModel", BY_TYPE.get("falcon"));
        BY_TYPE.put("RefinedWeb", BY_TYPE.get("falcon"));
    }

    /** Multimodal configs whose {@code text_config} does not name its own model_type. */
    static final Map<String, String> TEXT_CONFIG_TYPES = Map.of("gemma3", "gemma3_text", "mistral3", "mistral",
            "llava", "llama");

    private TransformersDefaults() {
    }

    /** The defaults of that model_type; null if the model does not know it. */
    static Map<String, Object> of(String modelType) {
        return BY_TYPE.get(modelType);
    }

    static List<String> knownTypes() {
        return List.copyOf(BY_TYPE.keySet());
    }

    @SafeVarargs
    private static void put(String type, Map<String, Object>... parts) {
        Map<String, Object> merged = new TreeMap<>();
        for (Map<String, Object> part : parts) {
            merged.putAll(part);
        }
        BY_TYPE.put(type, Map.copyOf(merged));
    }
}
