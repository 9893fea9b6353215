package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import membound.cli.PredictCommandTest.Run;

/**
 * {@code membound trace} end to end on the public traces the trace module keeps in its test resources (each with
 * its source in the README beside it); output is printed only when a test fails.
 */
class TraceCommandTest {

    static final Path TRACES = TestProfiles.root().resolve("trace/src/test/resources/membound/trace");
    static final String RANK_0 = TRACES.resolve("hta/trace_filter/sampled_rank-0.json.gz").toString();
    static final String RANK_1 = TRACES.resolve("hta/trace_filter/sampled_rank-1.json.gz").toString();
    static final String GPT_CPU = TRACES.resolve("torch-cpu/gpt-cpu.pt.trace.json.gz").toString();
    static final String GPT_CONFIG = TRACES.resolve("torch-cpu/config.json").toString();

    @Test
    void shouldPrintStepsClassesAndTheStragglerOfAMultiRankTrace() {
        Run r = PredictCommandTest.run("trace", RANK_0, RANK_1);
        assertEquals(0, r.status(), r.both());
        for (String expected : List.of("rank 0", "rank 1", "ProfilerStep#551", "ProfilerStep#552", "gemm", "comm",
                "straggler: rank 1", "ncclKernel_SendRecv")) {
            assertTrue(r.out().contains(expected), "missing '" + expected + "'\n" + r.both());
        }
    }

    @Test
    void shouldGiveTheRanksListAsTheIssueAsksInJson() throws Exception {
        Run r = PredictCommandTest.run("trace", RANK_0, RANK_1, "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode ranks = new ObjectMapper().readTree(r.out()).path("ranks");
        assertEquals(2, ranks.size(), r.both());
        for (JsonNode rank : ranks) {
            assertEquals(2, rank.path("steps").size());
            for (JsonNode step : rank.path("steps")) {
                assertTrue(step.path("name").asText().startsWith("ProfilerStep#"));
                assertTrue(step.path("seconds").asDouble() > 0.5, r.both());
            }
            assertTrue(rank.path("gpuKernelSeconds").asDouble() > 0.5, r.both());
            JsonNode classes = rank.path("classSeconds");
            for (String c : List.of("gemm", "attention", "norm", "elementwise", "optimizer", "communication", "memcpy",
                    "other")) {
                assertTrue(classes.has(c), c + " missing\n" + r.both());
            }
            assertEquals(8, classes.size());
            double sum = 0;
            for (JsonNode v : classes) {
                sum += v.asDouble();
            }
            assertTrue(sum >= rank.path("gpuKernelSeconds").asDouble(), "classes hold the kernels and the copies");
        }
    }

    @Test
    void shouldHoldTheClassesAgainstTheMachineAndProjectOntoOthers() throws Exception {
        Run r = PredictCommandTest.run("trace", RANK_0, RANK_1, "--hardware", "a100", "--on", "gh200,dgx-spark",
                "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode json = new ObjectMapper().readTree(r.out());
        JsonNode classes = json.path("againstMachine").path("classes");
        assertTrue(classes.size() >= 3, r.both());
        assertTrue(classes.get(0).path("datasheetShare").asDouble() > 0, r.both());
        JsonNode projections = json.path("projections");
        assertEquals(2, projections.size());
        assertEquals("gh200", projections.get(0).path("target").asText());
        assertTrue(projections.get(0).path("meanProjectedSeconds").asDouble()
                < projections.get(0).path("meanMeasuredSeconds").asDouble(), "a GH200 is faster than an A100");
        for (JsonNode ratio : projections.get(1).path("ratios")) {
            assertTrue(ratio.path("basis").asText().contains(":"), "every ratio says its basis: " + ratio);
        }
    }

    @Test
    void projectingOntoTheSourceMachineGivesTheMeasuredStep() throws Exception {
        Run r = PredictCommandTest.run("trace", RANK_0, "--hardware", "a100", "--on", "a100", "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode p = new ObjectMapper().readTree(r.out()).path("projections").get(0);
        assertEquals(p.path("meanMeasuredSeconds").asDouble(), p.path("meanProjectedSeconds").asDouble(), 0.0);
    }

    @Test
    void shouldCompareATransformerTraceWithThePredictionClassByClass() {
        Run r = PredictCommandTest.run("trace", GPT_CPU, "--profile", TestProfiles.example().toString(), "--model",
                GPT_CONFIG, "--seq-len", "128", "--micro-batch", "8", "--precision", "fp32", "--no-flash-attention");
        assertEquals(0, r.status(), r.both());
        for (String expected : List.of("no GPU events", "against the prediction", "measured ms", "predicted ms",
                "step", "gemm", "norm", "optimizer")) {
            assertTrue(r.out().contains(expected), "missing '" + expected + "'\n" + r.both());
        }
    }

    @Test
    void aModelSetupThatContradictsTheTracesWorldSizeIsRefused() {
        Run r = PredictCommandTest.run("trace", RANK_0, RANK_1, "--hardware", "a100", "--model", "gpt2",
                "--data-parallel", "2");
        assertEquals(2, r.status(), r.both());
        assertTrue(r.err().contains("world_size=128") && r.err().contains("=2"), r.both());
        assertEquals(1, r.err().strip().lines().count(), r.both());
    }
}
