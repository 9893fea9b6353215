package membound.model.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import membound.vocabulary.BadInputException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The config.json parser on mangled real configs: fields dropped, values replaced by the wrong type, NaN,
 * zero, negative or absurd numbers, the text cut or overwritten. Whatever comes in, the parser returns a
 * transformer that passes its own checks or throws the one-line {@link BadInputException}; nothing else.
 */
class HuggingFaceConfigFuzzTest {

    static final String LLAMA = """
            {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "rms_norm_eps": 1e-05,
             "max_position_embeddings": 131072, "tie_word_embeddings": false, "hidden_act": "silu"}
            """;
    static final String MIXTRAL = """
            {"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8,
             "num_experts_per_tok": 2, "hidden_act": "silu", "tie_word_embeddings": false}
            """;
    static final String GPT2 = """
            {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
             "vocab_size": 50257, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05}
            """;
    /** The layout fields of DeepSeek-V2-Lite's published config: latent attention, shared experts, a dense first layer. */
    static final String DEEPSEEK = """
            {"model_type": "deepseek_v2", "hidden_size": 2048, "num_hidden_layers": 27, "num_attention_heads": 16,
             "num_key_value_heads": 16, "intermediate_size": 10944, "moe_intermediate_size": 1408, "vocab_size": 102400,
             "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": 6, "first_k_dense_replace": 1,
             "moe_layer_freq": 1, "q_lora_rank": null, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
             "qk_rope_head_dim": 64, "v_head_dim": 128, "tie_word_embeddings": false}
            """;
    /** Qwen3-30B-A3B's: experts of their own width, mlp_only_layers, decoder_sparse_step. */
    static final String QWEN3_MOE = """
            {"model_type": "qwen3_moe", "hidden_size": 2048, "num_hidden_layers": 48, "num_attention_heads": 32,
             "num_key_value_heads": 4, "head_dim": 128, "intermediate_size": 6144, "moe_intermediate_size": 768,
             "num_experts": 128, "num_experts_per_tok": 8, "decoder_sparse_step": 1, "mlp_only_layers": [],
             "vocab_size": 151936, "tie_word_embeddings": false, "sliding_window": null}
            """;
    static final List<String> CONFIGS = List.of(LLAMA, MIXTRAL, GPT2, DEEPSEEK, QWEN3_MOE);
    static final List<String> VALUES = List.of("\"big\"", "NaN", "0", "-1", "-0.5", "1e308", "99999999999999999999",
            "null", "[]", "{}", "true", "2.5", "\"\"");

    @Property(tries = 500)
    void parsesOrRefusesWithOneLine(@ForAll @IntRange(min = 0, max = 4) int config, @ForAll @IntRange(min = 0, max = 3) int kind,
            @ForAll long seed) {
        String text = mangle(CONFIGS.get(config), kind, new Random(seed));
        try {
            Transformer transformer = HuggingFaceConfig.parse(text, "fuzzed.json", "fuzzed");
            assertTrue(transformer.parameters().total() > 0, text);
        } catch (BadInputException e) {
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
            assertTrue(e.getMessage().contains("fuzzed.json"), "names the file: " + e.getMessage());
        }
    }

    static String mangle(String original, int kind, Random random) {
        switch (kind) {
            case 0: { // a value replaced
                String[] parts = original.split(":", -1);
                int i = 1 + random.nextInt(parts.length - 1);
                String rest = parts[i].replaceFirst("^\\s*(\"[^\"]*\"|[^,}]*)", " " + VALUES.get(random.nextInt(VALUES.size())));
                parts[i] = rest;
                return String.join(":", parts);
            }
            case 1: { // a field dropped
                String[] fields = original.replace("{", "").replace("}", "").split(",");
                StringBuilder kept = new StringBuilder("{");
                int drop = random.nextInt(fields.length);
                for (int i = 0; i < fields.length; i++) {
                    if (i != drop) {
                        kept.append(kept.length() > 1 ? "," : "").append(fields[i]);
                    }
                }
                return kept.append('}').toString();
            }
            case 2: // cut
                return original.substring(0, random.nextInt(original.length()));
            default: { // bytes overwritten
                byte[] bytes = original.getBytes(StandardCharsets.UTF_8);
                for (int n = 0; n < 1 + random.nextInt(4); n++) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
        }
    }
}
