package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code membound predict} end to end through {@link Membound#run}; output is printed only when a test fails. */
class PredictCommandTest {

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
        String both() {
            return "status " + status + "\n--- out\n" + out + "\n--- err\n" + err;
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Membound.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void shouldPrintStepTimeBreakdownMfuMemoryDatasheetAndSensitivity() {
        Run r = run("predict", "--model", "llama-3.2-1b", "--hardware", "dgx-spark", "--tokens", "2B", "--grad-accum", "4");
        assertEquals(0, r.status(), r.both());
        for (String expected : new String[] {"step time", "tokens per second", "total time", "MFU", "memory-bound share",
                "step by operation class", "optimizer", "bandwidth sensitivity", "elasticity", "memory per device",
                "optimizer states", "datasheet", "ceilings (measured basis)", "2.00 B tokens"}) {
            assertTrue(r.out().contains(expected), "missing '" + expected + "'\n" + r.both());
        }
    }

    @Test
    void shouldGiveEverythingAsJson() throws Exception {
        Run r = run("predict", "--model", "llama-3.2-1b", "--hardware", "h100", "--finetune", "lora", "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertTrue(json.path("measured").path("stepSeconds").asDouble() > 0, r.both());
        assertTrue(json.path("datasheet").path("mfu").asDouble() > 0, r.both());
        assertTrue(json.path("sensitivity").has("elasticity"), r.both());
        assertTrue(json.path("memory").has("optimizerStatesBytes"), r.both());
        assertTrue(json.path("operations").size() > 10, r.both());
        assertEquals("LORA", json.path("setup").path("fineTuning").path("mode").asText(), r.both());
    }

    @Test
    void shouldPutMachinesSideBySideAndNameTheOnesItCannotPredict() {
        Run r = run("predict", "--model", "llama-3.1-8b", "--decode", "--weights", "Q4_0",
                "--compare", "dgx-spark,gh200,h100,apple-m4-max");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("dgx-spark") && r.out().contains("gh200") && r.out().contains("h100-sxm"), r.both());
        assertTrue(r.out().contains("apple-m4-max has no compute ceiling"), r.both());
    }

    @Test
    void shouldPredictDecodeTokensPerSecond() {
        Run r = run("predict", "--model", "llama-3.1-8b", "--hardware", "dgx-spark", "--decode", "--weights", "Q8_0");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("bandwidth-bound"), r.both());
        assertTrue(r.out().contains("tokens per second"), r.both());
    }

    @Test
    void shouldReadAMeasuredProfileAndApplyWhatIfs() {
        Run r = run("predict", "--model", "gpt2", "--profile", "../results/profiles/examples/dgx-spark-example.json",
                "--memory-bandwidth", "200GB/s", "--peak-flops", "bf16=80T", "--format", "json");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("--memory-bandwidth 200.0 GB/s"), r.both());
        assertTrue(r.out().contains("--peak-flops bf16=80.0 TFLOP/s"), r.both());
    }

    @Test
    void shouldReadAConfigJson() throws Exception {
        Path config = dir.resolve("config.json");
        Files.writeString(config, """
                {"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 8, "num_attention_heads": 16,
                 "intermediate_size": 2816, "vocab_size": 32000}
                """);
        Run r = run("predict", "--model", config.toString(), "--hardware", "h100");
        assertEquals(0, r.status(), r.both());
    }

    // ---- bad input: one line, exit status 2 ----

    @Test
    void shouldSuggestPresetsForAnUnknownModel() {
        assertBadInput(run("predict", "--model", "lama-3.1-8b", "--hardware", "h100"),
                "membound: model must be a preset or a config.json path: model=lama-3.1-8b (did you mean llama-3.1-8b");
    }

    @Test
    void shouldNameTheMissingFieldOfAConfigJson() throws Exception {
        Path config = dir.resolve("config.json");
        Files.writeString(config, "{\"model_type\": \"llama\", \"hidden_size\": 1024, \"num_hidden_layers\": 8}");
        assertBadInput(run("predict", "--model", config.toString(), "--hardware", "h100"),
                "membound: config.json must have num_attention_heads: file=" + config);
    }

    @Test
    void shouldRefuseAnImpossibleParallelLayout() {
        assertBadInput(run("predict", "--model", "llama-3.1-8b", "--hardware", "h100", "--tensor-parallel", "3"),
                "membound: tensorParallel must divide attentionHeads (32 in llama-3.1-8b): tensorParallel=3");
    }

    @Test
    void shouldRefuseZeroAndNegativeSizes() {
        assertBadInput(run("predict", "--model", "gpt2", "--hardware", "h100", "--micro-batch", "0"),
                "membound: microBatchSize must be positive: microBatchSize=0");
        assertBadInput(run("predict", "--model", "gpt2", "--hardware", "h100", "--tokens", "-5"),
                "membound: tokens must be a positive whole count: tokens=-5");
    }

    @Test
    void shouldSuggestCatalogEntriesForAnUnknownMachine() {
        assertBadInput(run("predict", "--model", "gpt2", "--hardware", "h1000"), "membound: platform must be a catalog id or alias");
    }

    @Test
    void shouldRefuseAPrecisionItDoesNotKnow() {
        assertBadInput(run("predict", "--model", "gpt2", "--hardware", "h100", "--precision", "bf17"),
                "membound: precision must be one of fp32, bf16, fp16, fp8, fp4: precision=bf17");
    }

    private static void assertBadInput(Run r, String prefix) {
        assertEquals(2, r.status(), r.both());
        assertTrue(r.err().startsWith(prefix), r.both());
        assertEquals(1, r.err().strip().lines().count(), "one line\n" + r.both());
        assertTrue(!r.err().contains("Exception"), r.both());
    }
}
