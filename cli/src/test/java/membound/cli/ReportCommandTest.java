package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code membound report} end to end through {@link Membound#run}; output is printed only when a test fails. */
class ReportCommandTest {

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

    private static String example() {
        return TestProfiles.example().toString();
    }

    @Test
    void shouldWriteThePageAndEveryChartIntoANewDirectory() throws Exception {
        Path out = dir.resolve("report");
        Run r = run("report", "--profile", example(), "--model", "gpt2", "--compare", "h100", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().startsWith("wrote " + out + ": 8 charts as PNG and SVG, and index.html"), r.both());
        assertTrue(r.out().contains("open " + out.resolve("index.html")), r.both());
        String page = Files.readString(out.resolve("index.html"));
        for (String chart : new String[] {"roofline-gpu", "time-breakdown", "bandwidth-sensitivity", "latency-cpu"}) {
            assertTrue(Files.size(out.resolve(chart + ".png")) > 10_000, chart + ".png\n" + r.both());
            assertTrue(Files.readString(out.resolve(chart + ".svg")).contains("<svg"), chart + ".svg\n" + r.both());
            assertTrue(page.contains(chart + ".svg"), chart + " on the page\n" + r.both());
        }
        assertTrue(page.contains("membound report --profile " + example() + " --model gpt2 --compare h100 --out " + out),
                "the page names the command that made it\n" + r.both());
    }

    @Test
    void shouldDrawTheProfileAloneWithoutAWorkloadIntoAnEmptyDirectoryTheUserMade() throws Exception {
        Path out = Files.createDirectory(dir.resolve("profile-only"));
        Run r = run("report", "--profile", example(), "--out", out.toString(), "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(out.resolve("index.html").toString(), json.path("index").asText(), r.both());
        List<String> omitted = json.path("omitted").findValuesAsText("chart");
        assertTrue(omitted.containsAll(List.of("time-breakdown", "bandwidth-sensitivity")), r.both());
        assertTrue(Files.readString(out.resolve("index.html")).contains("no workload given"), r.both());
        assertTrue(Files.exists(out.resolve("roofline-cpu.svg")), r.both());
    }

    @Test
    void shouldPointFromPredictToTheReport() {
        Run r = run("predict", "--model", "gpt2", "--profile", example());
        assertEquals(0, r.status(), r.both());
        // The very command, to paste as it is: predict's arguments and a new directory.
        assertTrue(r.out().strip().endsWith("charts and a page of this: scripts/membound report --model gpt2 --profile "
                + example() + " --out report-gpt2"), r.both());
        Run bytes = run("predict", "--model", "gpt2", "--hardware", "h100", "--finetune", "lora", "--format", "text");
        assertTrue(bytes.out().strip().endsWith("scripts/membound report --model gpt2 --hardware h100 --finetune lora "
                + "--out report-gpt2"), bytes.both());
    }

    @Test
    void shouldNeverOverwriteWhatTheUserMade() throws Exception {
        Path out = Files.createDirectory(dir.resolve("mine"));
        Files.writeString(out.resolve("index.html"), "my page");
        assertBadInput(run("report", "--profile", example(), "--model", "gpt2", "--out", out.toString()),
                "membound: out must be a new or empty directory (report never overwrites): out=" + out);
        assertEquals("my page", Files.readString(out.resolve("index.html")));
        assertEquals(List.of("index.html"), names(out));
    }

    @Test
    void shouldRefuseBadInputWithOneLineAndWriteNothing() throws Exception {
        Path out = dir.resolve("never");
        String o = out.toString();
        assertBadInput(run("report", "--profile", dir.resolve("missing.json").toString(), "--out", o), "membound: ");
        assertBadInput(run("report", "--model", "gpt2", "--out", o), "membound: machine must be given: --profile PATH|latest");
        assertBadInput(run("report", "--hardware", "dgx-spark", "--out", o), "membound: hardware needs a workload");
        assertBadInput(run("report", "--profile", example(), "--model", "lama-3.1-8b", "--out", o),
                "membound: model must be a preset");
        assertBadInput(run("report", "--profile", example(), "--model", "gpt2", "--micro-batch", "0", "--out", o),
                "membound: ");
        assertBadInput(run("report", "--profile", example(), "--model", "gpt2", "--seq-len", "long", "--out", o),
                "membound: Invalid value for option '--sequence-length': 'long' is not an int");
        assertBadInput(run("report", "--profile", example(), "--model", "gpt2", "--decode", "--out", o),
                "membound: decode must be left out");
        assertBadInput(run("report", "--profile", example(), "--compare", "h100", "--out", o),
                "membound: compare needs a workload");
        assertBadInput(run("report", "--profile", example(), "--colour", "--out", o), "membound: Unknown option: '--colour'");
        assertBadInput(run("report", "--profile", example()), "membound: Missing required option: '--out=DIR'");
        assertBadInput(run("report", "--profile", Files.writeString(dir.resolve("bad.json"), "{\"schema\":").toString(),
                "--out", o), "membound: ");
        assertFalse(Files.exists(out), "nothing written");
        assertEquals(List.of("bad.json"), names(dir), "no staging directory left behind");
    }

    private static void assertBadInput(Run r, String prefix) {
        assertEquals(2, r.status(), r.both());
        assertTrue(r.err().startsWith(prefix), "expected '" + prefix + "'\n" + r.both());
        assertEquals(1, r.err().strip().lines().count(), "one line\n" + r.both());
        assertFalse(r.err().contains("Exception"), r.both());
        assertEquals("", r.out(), r.both());
    }

    private static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
