package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a first-time user sees, step by step as the README leads them (the newcomer walk of issue 33): every figure
 * worded as what it is, an answer for a machine one does not own, one Spark, a catalog that shows device memory,
 * and help examples and hints that paste as they are.
 */
class FirstUseTest {

    @TempDir
    Path dir;

    private static ReportCommandTest.Run run(String... args) {
        return ReportCommandTest.run(args);
    }

    private static String answerList(String page) {
        int at = page.indexOf("<ul class=\"answer\">");
        return page.substring(at, page.indexOf("</ul>", at));
    }

    @Test
    void shouldAnswerForACatalogMachineWithoutAProfileAndNeverCallADatasheetFigureMeasured() throws Exception {
        Path out = dir.resolve("answer");
        ReportCommandTest.Run r = run("answer", "--hardware", "dgx-spark", "--model", "llama-3.2-1b",
                "--sizes", "gpt2,llama-3.2-1b", "--compare", "h100", "--users", "2", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String answer = answerList(Files.readString(out.resolve("index.html")));
        assertTrue(answer.contains("was measured by a third party at <b>232.5 GB/s</b>"), answer);
        assertFalse(answer.contains("was measured at"), answer);
        assertTrue(answer.contains("H100"), "the compared machine\n" + answer);
    }

    @Test
    void shouldCallTheExampleProfilesFiguresExamplesNotMeasurements() throws Exception {
        Path out = dir.resolve("answer");
        ReportCommandTest.Run r = run("answer", "--profile", TestProfiles.example().toString(), "--model", "llama-3.2-1b",
                "--sizes", "gpt2,llama-3.2-1b", "--compare", "h100", "--users", "2", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String page = Files.readString(out.resolve("index.html"));
        String answer = answerList(page);
        assertTrue(answer.contains("is given by an example profile, made up and not a measurement, as <b>232.0 GB/s</b>"),
                answer);
        assertFalse(answer.contains("measured at") || answer.contains("measured bandwidth"), answer);
        // The map table's column is the bandwidth the text names, and its step the text's.
        assertTrue(page.contains("step at 232.0 GB/s (example)"), "the map table names the figure the text uses");
    }

    @Test
    void shouldLeadTheAnswerWithWhatDoesNotFitAndWhatFitsInstead() throws Exception {
        Path out = dir.resolve("answer");
        ReportCommandTest.Run r = run("answer", "--hardware", "dgx-spark", "--model", "llama-3.1-8b",
                "--sizes", "gpt2,llama-3.1-8b", "--compare", "h100", "--users", "2", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String first = answerList(Files.readString(out.resolve("index.html"))).split("<li>")[1];
        assertTrue(first.contains("<b>does not fit</b> as set up"), first);
        assertTrue(first.contains("it fits with"), "what to change comes with it\n" + first);
        assertTrue(first.indexOf("does not fit") < first.indexOf("tokens/s"), first);
    }

    @Test
    void shouldReportOnACatalogMachineWithoutAProfile() throws Exception {
        Path out = dir.resolve("report");
        ReportCommandTest.Run r = run("report", "--hardware", "dgx-spark", "--model", "gpt2", "--compare", "h100",
                "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String page = Files.readString(out.resolve("index.html"));
        assertTrue(page.contains("Memory bandwidth report: NVIDIA DGX Spark"), page.substring(0, 600));
        assertTrue(page.contains("give --profile PATH|latest for them"), "the profile's charts: why they are missing");
    }

    @Test
    void shouldPredictTheExampleProfileAsTheCatalogsSparkWithinTheirReadBandwidthsDifference() throws Exception {
        double example = totalSeconds("--profile", TestProfiles.example().toString());
        double catalog = totalSeconds("--hardware", "dgx-spark");
        // 232.0 GB/s in the example, 232.5 in the catalog's third-party figure: nothing else may differ.
        assertEquals(1, example / catalog, 0.01, "example " + example + " s, catalog " + catalog + " s");
    }

    private static double totalSeconds(String... machine) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("predict", "--model", "llama-3.1-8b", "--precision", "fp32",
                "--format", "json"));
        args.addAll(List.of(machine));
        ReportCommandTest.Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.both());
        JsonNode json = new ObjectMapper().readTree(r.out());
        return json.path("measured").path("totalSeconds").asDouble(Double.NaN);
    }

    @Test
    void shouldListTheCatalogWithAHeaderAndEachMachinesDeviceMemoryBandwidth() {
        ReportCommandTest.Run r = run("hardware", "--list");
        assertEquals(0, r.status(), r.both());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("id ") && lines.get(0).contains("device memory bandwidth"), lines.get(0));
        assertTrue(row(lines, "gh200").contains("4.90 TB/s"), "GH200's HBM3e, not its LPDDR5X: " + row(lines, "gh200"));
        assertTrue(row(lines, "h100-sxm").contains("3.35 TB/s"), row(lines, "h100-sxm"));
        assertTrue(row(lines, "dgx-spark").contains("273.0 GB/s"), row(lines, "dgx-spark"));
        int column = lines.get(0).indexOf("device memory bandwidth");
        for (String line : lines.subList(1, 12)) {
            assertTrue(line.length() > column && line.charAt(column - 1) == ' ' && line.charAt(column) != ' ',
                    "every row's bandwidth in the header's column: " + line);
        }
    }

    private static String row(List<String> lines, String id) {
        return lines.stream().filter(l -> l.startsWith(id + " ")).findFirst().orElse("missing " + id);
    }

    @Test
    void shouldSuggestPlatformForACatalogIdGivenWithoutIt() {
        ReportCommandTest.Run r = run("hardware", "h100-sxm");
        assertEquals(2, r.status(), r.both());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("did you mean scripts/membound hardware --platform h100-sxm?"), r.err());
    }

    @Test
    void shouldPrintHelpExamplesThatFitTheScreenAndPasteAsTheyAre() {
        for (String command : List.of("predict", "report", "answer")) {
            ReportCommandTest.Run r = run(command, "--help");
            assertEquals(0, r.status(), r.both());
            String examples = r.out().substring(r.out().indexOf("\nExample"));
            for (String line : examples.lines().skip(2).toList()) {
                assertTrue(line.length() <= 80, command + ": an example line picocli would wrap: " + line);
            }
            assertTrue(examples.contains("scripts/membound " + command), command + ": the command as typed\n" + examples);
            Matcher synopsis = Pattern.compile("\\.\\.\\.\\[").matcher(r.out());
            assertFalse(synopsis.find(), command + ": a list option's synopsis doubled\n" + r.out());
        }
    }

    @Test
    void shouldHintCommandsAsTheLauncherIsTyped() {
        ReportCommandTest.Run r = run("predict", "--model", "gpt2", "--hardware", "dgx-spark");
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("charts and a page of this: scripts/membound report --model gpt2 --hardware dgx-spark "
                + "--out report-gpt2"), r.out());
    }

    @Test
    void shouldImportACutOffNcclLogOnlyWithPartialAndFlagItsLargestSize() throws Exception {
        Path log = dir.resolve("nccl.txt");
        String whole = Files.readString(TestProfiles.root().resolve(
                "calibrator/src/test/resources/fixtures/nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt"));
        Files.writeString(log, String.join("\n", whole.lines().limit(26).toList()) + "\n");
        Path output = dir.resolve("pair.json");
        ReportCommandTest.Run r = run("import", "--format", "nccl-tests", log.toString(), "--into",
                TestProfiles.example().toString(), "--link", "spark-pair", "--partial", "--output", output.toString());
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("flag  partial-output: link spark-pair is from a nccl-tests output cut off inside "
                + "its table: its largest size is 65536 bytes"), r.out());
        assertTrue(Files.readString(output).contains("\"partial-output\""), "the flag is on the profile");
    }

    @Test
    void shouldLeaveTheExamplesOutOfAFleetOfTheProfilesDirectory() throws Exception {
        Path profiles = dir.resolve("profiles");
        Files.createDirectories(profiles.resolve("examples"));
        Files.copy(TestProfiles.example(), profiles.resolve("examples/dgx-spark-example.json"));
        String example = Files.readString(TestProfiles.example());
        Files.writeString(profiles.resolve("node-a.json"), example.replace("\"spark-example\"", "\"node-a\""));
        Files.writeString(profiles.resolve("node-b.json"), example.replace("\"spark-example\"", "\"node-b\""));
        ReportCommandTest.Run r = run("fleet", profiles.toString());
        assertEquals(0, r.status(), r.both());
        assertFalse(r.both().contains("dgx-spark-example.json") || r.both().contains("spark-example"), r.both());
        assertTrue(r.out().contains("node-a") && r.out().contains("node-b"), r.both());
    }

    @Test
    void shouldTellANewcomerWhatTheGpuNeedsAndWhatTheFirstBuildDownloads() throws Exception {
        String readme = Files.readString(TestProfiles.root().resolve("README.md"));
        String fresh = readme.substring(readme.indexOf("## On a fresh machine"), readme.indexOf("## The parts"));
        assertTrue(fresh.contains("JDK 22 or newer"), fresh);
        assertTrue(fresh.contains("downloads") && fresh.contains("~/.m2"), fresh);
        assertFalse(readme.contains("fleet results/fleet/"), "the README's fleet example names a directory that exists");
    }
}
