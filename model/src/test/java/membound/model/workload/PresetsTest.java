package membound.model.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.vocabulary.BadInputException;

class PresetsTest {

    /**
     * Exact totals follow from each published config.json (the number {@code sum(p.numel())} gives
     * for the Hugging Face checkpoint); the rounded column is the figure the model card or Hub page
     * publishes, to the digits it publishes.
     */
    @ParameterizedTest(name = "{0}: {1} parameters")
    @CsvSource({
            "gpt2,          124439808,   124e6,     1e6",
            "gpt2-xl,       1557611200,  1.56e9,    0.01e9",
            "llama-3.2-1b,  1235814400,  1.24e9,    0.01e9",
            "llama-3.2-3b,  3212749824,  3.21e9,    0.01e9",
            "llama-3.1-8b,  8030261248,  8.03e9,    0.01e9",
            "llama-3.3-70b, 70553706496, 70.6e9,    0.1e9",
            "qwen2.5-7b,    7615616512,  7.61e9,    0.01e9",
            "mixtral-8x7b,  46702792704, 46.7e9,    0.1e9",
            "gpt-oss-20b,   20914757184, 20.91e9,   0.01e9",
    })
    void shouldCountTheParametersThePublishedCheckpointHas(String preset, long exact, double published, double digit) {
        long total = Presets.get(preset).parameters().total();
        assertEquals(exact, total);
        // Model cards round or truncate: the exact count is within one unit of the last published digit.
        assertEquals(published, total, digit, "the published figure");
    }

    /** Mistral's "12.9B active" counts the input embedding; OpenAI's gpt-oss "3.6B active" does not. */
    @Test
    void shouldCountOnlyTheRoutedExpertsAsActive() {
        assertEquals(12.9e9, Presets.get("mixtral-8x7b").parameters().active(), 0.05e9);
        assertEquals(3.61e9, Presets.get("gpt-oss-20b").parameters().activeInMatmuls(), 0.005e9);
    }

    @Test
    void shouldReadTheArchitecturalChoicesOfEachFamily() {
        Transformer gpt2 = Presets.get("gpt2");
        assertEquals(PositionEncoding.LEARNED, gpt2.positions());
        assertEquals(Normalization.LAYER_NORM, gpt2.normalization());
        assertTrue(gpt2.tiedEmbeddings() && gpt2.dropout());
        Transformer llama = Presets.get("llama-3.1-8b");
        assertEquals(Activation.SWIGLU, llama.activation());
        assertEquals(8, llama.keyValueHeads());
        assertTrue(!llama.tiedEmbeddings() && !llama.dropout());
        assertTrue(Presets.get("qwen2.5-7b").biases().queryKeyValue());
        Transformer oss = Presets.get("gpt-oss-20b");
        assertEquals(new SlidingWindow(128, 12), oss.slidingWindow());
        assertEquals(new MixtureOfExperts(32, 4, 2880, 0, false, 0), oss.experts(), "each expert as wide as intermediate_size");
    }

    @Test
    void shouldFindAPresetByItsHuggingFaceId() {
        assertSame(Presets.get("llama-3.1-8b"), Presets.get("meta-llama/Llama-3.1-8B"));
        assertSame(Presets.get("mixtral-8x7b"), Presets.get("mistralai/Mixtral-8x7B-v0.1"));
    }

    @Test
    void shouldSuggestCloseMatchesForAnUnknownPreset() {
        BadInputException e = assertThrows(BadInputException.class, () -> Presets.get("llama-3.1-7b"));
        assertTrue(e.getMessage().contains("model=llama-3.1-7b"), e.getMessage());
        assertTrue(e.getMessage().contains("did you mean llama-3.1-8b"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }
}
