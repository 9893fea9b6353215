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
    void shouldWarnAndPredictAContextPastTheTrainedLength() {
        Run r = run("predict", "--model", "llama-3.1-8b", "--hardware", "dgx-spark", "--decode", "--context", "131073");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.err().contains("context 131073 is past the model's max_position_embeddings 131072"), r.both());
        assertTrue(r.out().contains("tokens per second"), r.both());
    }

    @Test
    void shouldPrintTheDefaultTrainersExpectedStepBesideTheRooflineBound() {
        Run r = run("predict", "--model", "gpt2-124m", "--hardware", "h100", "--seq-len", "1024");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("expected with trainer typical (typical PyTorch trainer; the default: no --trainer "
                + "given)"), r.both());
        assertTrue(r.out().contains("roofline bound (no trainer terms"), r.both());
        Run named = run("predict", "--model", "gpt2-124m", "--hardware", "h100", "--seq-len", "1024", "--trainer",
                "megatron");
        assertEquals(0, named.status(), named.both());
        assertTrue(named.out().contains("expected with trainer megatron (Megatron-LM"), named.both());
        assertTrue(named.out().contains("megatron-bridge.compute-efficiency = "), named.both());
    }

    @Test
    void shouldTalkOverTheNetworkAcrossNodes() {
        Run r = run("predict", "--model", "gpt2-124m", "--hardware", "h100", "--seq-len", "1024", "--data-parallel",
                "16", "--gpus-per-node", "8");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("devices talk over: hierarchical: nvlink inside 8-GPU nodes"), r.both());
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

    /**
     * Two DGX Sparks joined by their ConnectX-7 port: nccl-tests' all_reduce_perf over the pair, imported
     * into the Spark's profile as link spark-pair, sets the time of the data-parallel gradient all-reduce.
     */
    @Test
    void twoSparksTrainDataParallelOverTheLinkBandwidthImportedFromNcclTests() throws Exception {
        Path nccl = TestProfiles.localFixture("nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt");
        Path pair = dir.resolve("spark-pair.json");
        Run imported = run("import", "--format", "nccl-tests", nccl.toString(), "--into", TestProfiles.example().toString(),
                "--link", "spark-pair", "--output", pair.toString());
        assertEquals(0, imported.status(), imported.both());
        double linkBytesPerSecond = membound.profile.ProfileJson.read(pair).link("spark-pair").orElseThrow()
                .bandwidthBytesPerSecond().typical();
        assertEquals(22.07e9, linkBytesPerSecond, 0.01e9, "busbw of the four largest all-reduces, not the example's "
                + "22.5 GB/s nor the datasheet's 25 GB/s");

        String[] predict = {"predict", "--profile", pair.toString(), "--data-parallel", "2", "--link", "spark-pair",
                "--model", "llama-3.1-8b", "--finetune", "lora", "--tokens", "100M"};
        Run text = run(predict);
        assertEquals(0, text.status(), text.both());
        assertTrue(text.out().contains("devices talk over: spark-pair (network, gpu to peer)\n"
                + "  measured 22.1 GB/s per direction: imported: nccl-tests 2.17.1 output, file " + nccl), text.both());
        assertTrue(text.out().contains("  datasheet 25.0 GB/s per direction: NVIDIA DGX Spark"), text.both());
        assertTrue(text.out().contains("2 devices (data 2 x tensor 1 x pipeline 1, ZeRO 0)"), text.both());

        String[] asJson = java.util.Arrays.copyOf(predict, predict.length + 2);
        asJson[predict.length] = "--format";
        asJson[predict.length + 1] = "json";
        Run json = run(asJson);
        assertEquals(0, json.status(), json.both());
        JsonNode root = new ObjectMapper().readTree(json.out());
        JsonNode allReduce = null;
        for (JsonNode op : root.path("operations")) {
            if (op.path("name").asText().equals("data-parallel gradient all-reduce")) {
                allReduce = op;
            }
        }
        assertTrue(allReduce != null, json.both());
        double bf16GradientBytes = 2 * root.path("trainableParameters").asDouble();
        assertEquals(2.0 * (2 - 1) / 2 * bf16GradientBytes, allReduce.path("linkBytes").asDouble(), 1,
                "a ring all-reduce over 2 nodes sends 2(n-1)/n of the gradients");
        assertEquals(allReduce.path("linkBytes").asDouble() / linkBytesPerSecond, allReduce.path("seconds").asDouble(),
                1e-9, "the all-reduce takes the bytes over the imported bandwidth");

        Run single = run("predict", "--profile", pair.toString(), "--model", "llama-3.1-8b", "--finetune", "lora",
                "--format", "json");
        assertTrue(!single.out().contains("gradient all-reduce"), "one Spark has nothing to all-reduce\n" + single.both());
        assertBadInput(run("predict", "--profile", pair.toString(), "--data-parallel", "2", "--link", "spark-trio",
                "--model", "llama-3.1-8b"), "membound: link must be one of the machine's links (c2c, spark-pair): "
                + "link=spark-trio");
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
        // Without a model_type there are no Transformers defaults: the sizes must be there.
        Files.writeString(config, "{\"hidden_size\": 1024, \"num_hidden_layers\": 8}");
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
                "membound: precision must be one of fp32, bf16, fp16, fp8, fp4, mxfp8, nvfp4: precision=bf17");
    }

    private static void assertBadInput(Run r, String prefix) {
        assertEquals(2, r.status(), r.both());
        assertTrue(r.err().startsWith(prefix), r.both());
        assertEquals(1, r.err().strip().lines().count(), "one line\n" + r.both());
        assertTrue(!r.err().contains("Exception"), r.both());
    }

    @Test
    void shouldRunDecodeInTheEnginesGemmPrecisionAtItsFittedEfficiencies() {
        Run plain = run("predict", "--model", "gpt-oss-20b", "--hardware", "dgx-spark", "--decode", "--weights",
                "Q8_0,experts=MXFP4");
        Run engine = run("predict", "--model", "gpt-oss-20b", "--hardware", "dgx-spark", "--decode", "--weights",
                "Q8_0,experts=MXFP4", "--engine", "llama.cpp");
        assertEquals(0, plain.status(), plain.err());
        assertEquals(0, engine.status(), engine.err());
        assertTrue(engine.out().contains("engine llama.cpp: GEMMs in fp4 (engines.tsv"), engine.out());
        assertTrue(engine.out().contains("decode.llama.cpp.bandwidth-efficiency, fitted by 'membound validate "
                + "--published' on d2"), engine.out());
        assertTrue(engine.out().contains("time to first token with the prefill GEMMs at x"), engine.out());
        assertTrue(!plain.out().equals(engine.out()), "the engine changes the prediction");

        assertTrue(engine.out().contains("fixed cost per step: 581 kernels x "), "24 layers x 20 + 24 MoE layers x 4 + 5\n"
                + engine.out());

        // On an H100 a kernel boundary costs at least its published graph-node launch, 1.3 us.
        Run h100 = run("predict", "--model", "llama-3.2-1b", "--hardware", "h100-sxm", "--decode", "--weights", "bf16",
                "--engine", "sglang");
        assertEquals(0, h100.status(), h100.err());
        assertTrue(h100.out().contains("x 1.30 us = ") && h100.out().contains("hazyresearch.stanford.edu"), h100.out());

        Run unknown = run("predict", "--model", "gpt-oss-20b", "--hardware", "dgx-spark", "--decode", "--engine", "vlm");
        assertEquals(2, unknown.status(), unknown.err());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.out().isEmpty(), "nothing that looks like a prediction: " + unknown.out());
    }
}
