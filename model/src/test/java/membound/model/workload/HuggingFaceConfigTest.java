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
        Path file = write("config.json", LLAMA_LIKE.replace("\"intermediate_size\": 1536,", ""));
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
    void shouldRejectKeyValueHeadsThatDoNotDivideTheHeads() throws IOException {
        Path file = write("config.json", LLAMA_LIKE.replace("\"num_key_value_heads\": 2", "\"num_key_value_heads\": 3"));
        BadInputException e = assertThrows(BadInputException.class, () -> HuggingFaceConfig.read(file));
        assertEquals("keyValueHeads must divide attentionHeads (8): keyValueHeads=3", e.getMessage());
    }

    @Test
    void shouldReadAGpt2StyleConfig() throws IOException {
        Path file = write("config.json", """
                {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
                 "vocab_size": 50257, "n_inner": null}
                """);
        assertEquals(124_439_808L, HuggingFaceConfig.read(file).parameters().total());
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
