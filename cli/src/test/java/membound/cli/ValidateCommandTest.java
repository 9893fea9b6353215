package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code membound validate} as a user types it: bad input is one line, exit status 2, nothing written. (The
 * workloads themselves run in the validate module's tests, at tiny sizes.) Output is printed only on failure.
 */
class ValidateCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
        String both() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Membound.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void shouldTellTheUserToCalibrateWhenThereIsNoProfile() throws Exception {
        Path results = dir.resolve("validate");
        Run r = run("validate", "--profiles-dir", dir.resolve("profiles").toString(), "--results-dir", results.toString());

        assertEquals(2, r.exit(), r.both());
        assertTrue(r.err().contains("run 'scripts/membound calibrate --standard' first"), r.both());
        assertEquals(1, r.err().strip().lines().count(), r.both());
        assertFalse(Files.exists(results), "nothing written");
    }

    @Test
    void shouldRejectBadInputBeforeRunningAnything() {
        Path results = dir.resolve("validate");
        String example = TestProfiles.example().toString();
        String[][] cases = {
                {"--nominal-bandwidth", "fast"},
                {"--workloads", "adamw,bert"},
                {"--format", "yaml"},
                {"--profile", dir.resolve("missing.json").toString()},
        };
        for (String[] bad : cases) {
            String[] args = new String[bad.length + 5];
            args[0] = "validate";
            args[1] = "--results-dir";
            args[2] = results.toString();
            args[3] = "--profile";
            args[4] = example;
            System.arraycopy(bad, 0, args, 5, bad.length);
            Run r = run(args);
            assertEquals(2, r.exit(), r.both());
            assertTrue(r.err().startsWith("membound: "), r.both());
            assertEquals(1, r.err().strip().lines().count(), r.both());
        }
        assertFalse(Files.exists(results), "nothing written");
    }

    @Test
    void shouldSummarizeRecordedRunsByTheirMedians() throws Exception {
        Path a = write("a.json", 0.10, 0.11);
        Path b = write("b.json", 0.12, 0.11);
        Path c = write("c.json", 0.20, 0.11);

        Run text = run("validate", "--summary", a.toString(), b.toString(), c.toString());
        assertEquals(0, text.exit(), text.both());
        assertTrue(text.out().contains("3 recorded validations"), text.both());

        Run json = run("validate", "--summary", a.toString(), b.toString(), c.toString(), "--format", "json");
        JsonNode workload = new ObjectMapper().readTree(json.out()).path("workloads").path(0);
        assertEquals(0.12, workload.path("medianMeasuredStepSeconds").asDouble(), 1e-12, json.both());
        assertEquals((0.11 - 0.12) / 0.12, workload.path("medianError").asDouble(), 1e-12, json.both());
        // |errors|: 0.1, 0.083, 0.45
        assertEquals(0.1, workload.path("medianAbsoluteError").asDouble(), 1e-12, json.both());

        Run bad = run("validate", "--summary", TestProfiles.example().toString());
        assertEquals(2, bad.exit(), bad.both());
        assertTrue(bad.err().contains("must be a recorded validation"), bad.both());
    }

    private Path write(String name, double measured, double predicted) throws Exception {
        String json = "{\"schema\":\"membound-validation\",\"createdUtc\":\"2026-01-01T00:00:00Z\","
                + "\"profileFile\":\"p.json\",\"loadAverageBefore\":0.3,\"workloads\":[{\"id\":\"adamw\","
                + "\"label\":\"AdamW step\",\"measuredStepSeconds\":{\"median\":" + measured + "},"
                + "\"predictedStepSeconds\":" + predicted + ",\"error\":" + (predicted - measured) / measured
                + ",\"datasheetStepSeconds\":null}]}";
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    @Test
    void shouldCheckThePublishedSetWithoutAProfile() throws Exception {
        Run r = run("validate", "--published", "--profiles-dir", dir.resolve("profiles").toString());

        assertEquals(0, r.exit(), r.both());
        assertTrue(r.out().contains("held-out rows, median |error| by kind"), r.both());
        assertTrue(r.out().contains("decode.llama.cpp         bandwidth "), r.both());
        assertFalse(Files.exists(dir.resolve("profiles")), "no profile read or written");

        Run json = run("validate", "--published", "--format", "json");
        assertEquals(0, json.exit(), json.both());
        JsonNode tree = new ObjectMapper().readTree(json.out());
        assertEquals(3, tree.get("heldOut").size(), json.both());
        assertTrue(tree.get("rows").size() >= 30, json.both());
        for (JsonNode row : tree.get("rows")) {
            assertFalse(row.get("source").asText().isBlank(), row.toString());
            // A source a reader can open: an address, never an index's internal id.
            assertTrue(row.get("source").asText().contains("https://"), row.get("id") + ": " + row.get("source"));
        }
    }

    @Test
    void shouldSummarizeThePublishedSetNarrowlyByDefaultAndListEveryRowOnRequest() {
        Run summary = run("validate", "--published");
        assertEquals(0, summary.exit(), summary.both());
        assertTrue(summary.out().contains("scripts/membound validate --published --rows"), summary.out());
        // Five lines of terms per trainer group (typical, llm-foundry, megatron-bridge, nemo, pytorch-fsdp) and the rest.
        assertTrue(summary.out().lines().count() < 60, summary.out().lines().count() + " lines\n" + summary.out());
        for (String line : summary.out().lines().toList()) {
            assertTrue(line.length() <= 132, "a summary line wider than a terminal's 132 columns: " + line);
        }
        assertFalse(summary.out().contains("sources per row"), summary.out());
        assertTrue(summary.out().contains("set aside: l21, l22, l23, ") && summary.out().contains("(each with its reason: --rows)"),
                summary.out());

        Run rows = run("validate", "--published", "--rows");
        assertEquals(0, rows.exit(), rows.both());
        assertTrue(rows.out().contains("sources per row"), rows.both());
        String asideSection = rows.out().substring(rows.out().indexOf("\nset aside:\n"), rows.out().indexOf("\nsources per row"));
        assertTrue(asideSection.contains("  l22: LoRA on frozen BF16 weights"), asideSection);
        for (String line : asideSection.lines().toList()) {
            assertTrue(line.length() <= 120, "a set-aside reason is wrapped under 120 columns: " + line);
        }
        assertTrue(rows.out().contains("config:openai--gpt-oss-120b") || !rows.out().contains("gpt-oss-12~"),
                "model names are never cut\n" + rows.out());
        assertFalse(rows.out().contains("~\n") || rows.out().contains("~ "), "no cut names\n" + rows.out());
    }
}
