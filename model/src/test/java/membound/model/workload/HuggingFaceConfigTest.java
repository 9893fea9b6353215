package membound.model.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

class HuggingFaceConfigTest {

    @TempDir
    Path dir;

    private static final String LLAMA_LIKE = """
            {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
             "num_key_value_heads": 2, "intermediate_size": 1536, "vocab_size": 32000, "rms_norm_eps": 1e-5,
             "tie_word_embeddings": true}
            """;

    @Test
    void shouldReadALlamaStyleConfig() throws IOException {
        Path file = write("config.json", LLAMA_LIKE);
        Transformer tf = HuggingFaceConfig.read(file);
        assertEquals(512, tf.hiddenSize());
        assertEquals(64, tf.headDimension());
        assertEquals(2, tf.keyValueHeads());
        assertEquals(Activation.SWIGLU, tf.activation());
        assertEquals(file.toString(), tf.source());
        // 32000*512 tied + 4 x (2*512*512 + 2*512*128 + 3*512*1536 + 2*512) + 512
        assertEquals(32000L * 512 + 4L * (2 * 512 * 512 + 2 * 512 * 128 + 3 * 512 * 1536 + 2 * 512) + 512,
                tf.parameters().total());
    }

    @Test
    void shouldNameTheFileAndTheFieldThatIsMissing() throws IOException {
        // Without a model_type there are no Transformers defaults to fall back on.
        Path file = write("config.json", LLAMA_LIKE.replace("\"intermediate_size\": 1536,", "")
                .replace("\"model_type\": \"llama\", ", ""));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertEquals("config.json must have intermediate_size: file=" + file + ", intermediate_size=<missing>",
                e.getMessage());
    }

    @Test
    void shouldRejectAFieldOfTheWrongType() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"hidden_size\": 512", "\"hidden_size\": \"512\""));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertTrue(e.getMessage().startsWith("hidden_size must be a positive integer: file="), e.getMessage());
    }

    @Test
    void shouldRefuseKeyValueHeadsThatDoNotDivideTheHeadsInTheConfigsWords() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"num_key_value_heads\": 2", "\"num_key_value_heads\": 3"));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertEquals("num_key_value_heads must divide num_attention_heads (8): file=" + file + ", num_key_value_heads=3",
                e.getMessage());
    }

    @Test
    void shouldRejectZeroAndNegativeSizes() throws IOException {
        Path zero = write("zero.json", LLAMA_LIKE.replace("\"num_hidden_layers\": 4", "\"num_hidden_layers\": 0"));
        assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(zero));
        Path negative = write("negative.json", LLAMA_LIKE.replace("\"vocab_size\": 32000", "\"vocab_size\": -5"));
        assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(negative));
    }

    @Test
    void shouldRejectMalformedJsonAndMissingFilesInOneLine() throws IOException {
        Path broken = write("broken.json", "{\"hidden_size\": 512,");
        BadInputException malformed = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(broken));
        assertTrue(malformed.getMessage().startsWith("config.json must be valid JSON: file="), malformed.getMessage());
        assertTrue(!malformed.getMessage().contains("\n"));
        BadInputException missing = assertThrows(BadInputException.class,
                () -> HuggingFaceConfig.read(dir.resolve("absent.json")));
        assertTrue(missing.getMessage().startsWith("config.json must be an existing file"), missing.getMessage());
    }

    @Test
    void shouldReadAGpt2StyleConfig() throws IOException {
        Path file = write("config.json", """
                {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
                 "vocab_size": 50257, "n_inner": null}
                """);
        assertEquals(124_439_808L, HuggingFaceConfig.read(file).parameters().total());
    }

    @Test
    void shouldTakeTheDefaultTransformersGivesAnAbsentField() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"intermediate_size\": 1536,", ""));
        assertEquals(11008, HuggingFaceConfig.read(file).intermediateSize(), "LlamaConfig's intermediate_size");
    }

    /**
     * Gemma 2 9B: the architecture fields as MaxText's Hugging Face reproduction lists them
     * (AI-Hypercomputer/maxtext, hf_model_configs.py: transformers.Gemma2Config(...)); tying and the
     * rest are Gemma2Config's defaults. Google's checkpoint has 9.24 B parameters (Hub page).
     */
    @Test
    void shouldTieGemmaEmbeddingsByDefaultAndCountItsFourNormsPerLayer() throws IOException {
        Path file = write("config.json", """
                {"model_type": "gemma2", "num_hidden_layers": 42, "num_attention_heads": 16, "num_key_value_heads": 8,
                 "hidden_size": 3584, "intermediate_size": 14336, "final_logit_softcapping": 30.0,
                 "attn_logit_softcapping": 50.0, "head_dim": 256, "sliding_window": 4096, "query_pre_attn_scalar": 224}
                """);
        Transformer tf = HuggingFaceConfig.read(file);
        assertTrue(tf.tiedEmbeddings());
        assertEquals(4, tf.normsPerLayer());
        assertEquals(Activation.GEGLU, tf.activation());
        assertEquals(new SlidingWindow(4096, 21), tf.slidingWindow(), "every other layer slides");
        assertEquals(9.24e9, tf.parameters().total(), 0.01e9);
    }

    /** Gemma 3 4B as published: a multimodal config whose text_config gives only what differs from Gemma3TextConfig. */
    @Test
    void shouldReadAMultimodalConfigFromItsTextConfig() throws IOException {
        Path file = write("config.json", """
                {"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
                 "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
                   "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
                 "vision_config": {"model_type": "siglip_vision_model"}}
                """);
        Transformer tf = HuggingFaceConfig.read(file);
        assertEquals(256, tf.headDimension(), "Gemma3TextConfig's head_dim");
        assertEquals(QueryKeyNorm.PER_HEAD, tf.queryKeyNorm());
        assertEquals(new SlidingWindow(1024, 34 - 34 / 6), tf.slidingWindow(), "five local layers to one global");
        assertTrue(tf.source().contains("the vision tower is left out"), tf.source());
        // Gemma 3 technical report, Table 1: 3,209M non-embedding parameters in the 4B model's language part.
        long table = (long) tf.vocabularySize() * tf.hiddenSize();
        assertEquals(3.209e9, tf.parameters().total() - table, 0.001e9);
    }

    @Test
    void shouldRefuseAFieldThatChangesTheShapeAndIsNotRead() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"rms_norm_eps\"", "\"interleave_moe_layer_step\": 2, \"rms_norm_eps\""));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertEquals("config.json must not have a field that changes the shape and that the model does not read for "
                + "model_type llama: file=" + file + ", interleave_moe_layer_step=2", e.getMessage());
    }

    @Test
    void shouldRefuseAModelTypeItDoesNotKnow() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"llama\"", "\"llama4_text\""));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertTrue(e.getMessage().startsWith("model_type must be one the model knows ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("model_type=llama4_text"), e.getMessage());
    }

    @Test
    void shouldCacheOnlyTheLatentOfLatentAttention() throws IOException, java.net.URISyntaxException {
        Transformer lite = HuggingFaceConfig.read(Path.of(getClass()
                .getResource("/membound/model/configs/deepseek-v2-lite.json").toURI()));
        assertEquals(512 + 64, lite.kvCacheElementsPerToken(), "kv_lora_rank + qk_rope_head_dim");
        assertEquals(26, lite.expertLayers(), "first_k_dense_replace = 1 of 27");
        assertEquals(2 * 1408, lite.experts().sharedWidth(), "two shared experts");
        assertEquals(128 + 64, lite.headDimension());
        assertEquals(128, lite.valueHeadDimension());
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
