package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.text.Numbers;

/**
 * The newcomer walk of issue 33 redone from a fresh clone: what a page says agrees with the command it tells the
 * reader to paste, one Spark per page, and a machine that cannot hold the setup says so before any time to train.
 */
class FreshCloneWalkTest {

    @TempDir
    Path dir;

    private static ReportCommandTest.Run run(String... args) {
        return ReportCommandTest.run(args);
    }

    private static String answerList(String page) {
        int at = page.indexOf("<ul class=\"answer\">");
        return page.substring(at, page.indexOf("</ul>", at));
    }

    private String answer(String... args) throws Exception {
        Path out = dir.resolve("answer-" + System.nanoTime());
        List<String> all = new java.util.ArrayList<>(List.of("answer"));
        all.addAll(List.of(args));
        all.addAll(List.of("--sizes", "gpt2,llama-3.1-8b", "--users", "2", "--out", out.toString()));
        ReportCommandTest.Run r = run(all.toArray(String[]::new));
        assertEquals(0, r.status(), r.both());
        return Files.readString(out.resolve("index.html"));
    }

    @Test
    void shouldDrawTheExampleSparkOnceWhenNoComparisonIsGiven() throws Exception {
        String page = answer("--profile", TestProfiles.example().toString(), "--model", "llama-3.1-8b");
        // The example profile is a Spark: the catalog's Spark is not drawn beside it as a second machine.
        assertFalse(page.contains("NVIDIA DGX Spark (GB10 Grace Blackwell)"), answerList(page));
        assertFalse(page.contains("answer-bandwidth-map-dgx-spark"), "no second Spark map");
        assertTrue(page.contains("NVIDIA GH200"), "the HBM machines are still compared");
    }

    @Test
    void shouldKeepTheCatalogsSparkWhenTheUserAsksForIt() throws Exception {
        String page = answer("--profile", TestProfiles.example().toString(), "--model", "llama-3.1-8b",
                "--compare", "dgx-spark,h100");
        assertTrue(page.contains("NVIDIA DGX Spark (GB10 Grace Blackwell)"), "--compare dgx-spark is the user's choice");
    }

    @Test
    void shouldSayAComparedMachineCannotHoldTheSetupBeforeItsTimeToTrain() throws Exception {
        String answer = answerList(answer("--hardware", "dgx-spark", "--model", "llama-3.1-8b", "--compare", "h100"));
        String h100 = List.of(answer.split("<li>")).stream().filter(l -> l.contains("H100") && !l.contains("unlimited")).findFirst().orElseThrow();
        assertTrue(h100.startsWith("On NVIDIA H100 SXM5 80GB it <b>does not fit</b> as set up (130.2 GiB of 74.5 GiB)"),
                h100);
        assertTrue(h100.indexOf("does not fit") < h100.indexOf("were it to fit, it would train it in "), h100);
        assertFalse(h100.matches("(?s).*trains it in [0-9.]+ h.*"), "no time to train said first for a setup that "
                + "cannot run\n" + h100);
    }

    @Test
    void shouldGiveTheExpectedStepPredictPrintsFirstAndCallEveryOtherFigureTheRooflineBound() throws Exception {
        String page = answer("--hardware", "dgx-spark", "--model", "llama-3.1-8b", "--compare", "h100");
        ReportCommandTest.Run predict = run("predict", "--hardware", "dgx-spark", "--model", "llama-3.1-8b",
                "--format", "json");
        assertEquals(0, predict.status(), predict.both());
        JsonNode json = new ObjectMapper().readTree(predict.out());
        String expected = Numbers.secondsOrMillis(json.path("expected").path("stepSeconds").asDouble());
        String bound = Numbers.secondsOrMillis(json.path("measured").path("stepSeconds").asDouble());
        String answer = answerList(page);
        assertTrue(answer.contains("the step is expected at <b>" + expected + "</b>"),
                "the page's expected step is predict's first block, " + expected + "\n" + answer);
        assertTrue(answer.contains("These are roofline bounds"), answer);
        assertTrue(page.contains("the step takes " + bound), "the bound is predict's roofline block, " + bound);
        assertTrue(page.contains("Every figure but the expected step in the answer is the roofline bound"), "footer");
    }

    @Test
    void shouldWordTheExampleReportAsExampleFiguresNeverAsMeasurements() throws Exception {
        Path out = dir.resolve("report");
        ReportCommandTest.Run r = run("report", "--profile", TestProfiles.example().toString(), "--model", "gpt2",
                "--compare", "h100", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String page = Files.readString(out.resolve("index.html"));
        assertTrue(page.contains("Example figures (made up, not measured): NVIDIA GB10 GPU"), "the device's group");
        assertFalse(page.contains("<th colspan=\"3\">Measured: "), "no example figure under a Measured heading");
        assertFalse(page.contains("measured: example"), "no source called measured and example at once");
        assertTrue(page.contains("Predicted step time (roofline bound), example ceilings"), "the step's row");
        assertTrue(page.contains("Expected step with trainer typical&#39;s overheads")
                || page.contains("Expected step with trainer typical's overheads"), "predict's first block is on the page");
    }

    @Test
    void shouldWordACatalogReportAsPublishedFiguresWithNoProfileToLack() throws Exception {
        Path out = dir.resolve("report");
        ReportCommandTest.Run r = run("report", "--hardware", "dgx-spark", "--model", "gpt2", "--out", out.toString());
        assertEquals(0, r.status(), r.both());
        String page = Files.readString(out.resolve("index.html"));
        assertTrue(page.contains("Predicted step time (roofline bound), published ceilings"), "the step's row");
        String key = page.substring(page.indexOf("id=\"key-figures\""), page.indexOf("</section>", page.indexOf("id=\"key-figures\"")));
        assertFalse(key.contains("the profile&#39;s"), "there is no profile to speak of\n" + key);
        assertTrue(page.contains("with none (--hardware), a profile's charts are not drawn"), "the charts not drawn");
        assertTrue(page.contains("not drawn: it needs a profile") || page.contains("not drawn: they need a profile"),
                "why charts are missing");
    }

    @Test
    void shouldImportTheRepositorysOwnReferenceOutputAndSayWhatPredictUses() throws Exception {
        Path written = dir.resolve("omp.json");
        ReportCommandTest.Run r = run("import", "--format", "stream-omp",
                TestProfiles.localFixture("stream-omp-2threads-16M.txt").toString(), "--into",
                TestProfiles.example().toString(), "--output", written.toString());
        assertEquals(0, r.status(), r.both());
        // The example's CPU has its own triad ceiling: the import keeps it and says how the imported figure compares.
        assertTrue(r.out().contains("ceiling cpu DRAM triad ceiling: 112.0 GB/s (median of entry "
                + "cpu-triad-double-t20-all-dram), kept: an import never replaces a ceiling the profile has; "
                + "cpu-stream-omp-triad-double-t2 median 7.8 GB/s = 0.07x it"), r.out());
        assertTrue(r.out().contains("next: scripts/membound show " + written), r.out());
    }

    @Test
    void shouldSayPredictUsesAnImportedFigureThatBecameTheCeiling() throws Exception {
        Path written = dir.resolve("stream.json");
        ReportCommandTest.Run r = run("import", "--format", "stream",
                TestProfiles.localFixture("stream-c-5.10-2threads-80M.txt").toString(), "--into",
                TestProfiles.example().toString(), "--device", "host2", "--device-name", "a second host",
                "--output", written.toString());
        assertEquals(0, r.status(), r.both());
        assertTrue(r.out().contains("ceiling host2 DRAM triad ceiling: 22.6 GB/s (best of entry "
                + "host2-stream-triad-double-t2), imported: predict uses it"), r.out());
    }

    @Test
    void shouldEndPredictWithAReportCommandThatRunsAsPasted() throws Exception {
        ReportCommandTest.Run predict = run("predict", "--model", "llama-3.2-1b", "--hardware", "dgx-spark", "--finetune",
                "lora", "--tokens", "2B");
        assertEquals(0, predict.status(), predict.both());
        String hint = predict.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        String command = hint.substring(hint.indexOf("scripts/membound ") + "scripts/membound ".length());
        assertFalse(command.contains("<") || command.contains("["), "no placeholder to fill in: " + hint);
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        assertEquals("report-llama-3.2-1b", args.get(args.size() - 1), hint);
        args.set(args.size() - 1, dir.resolve("pasted").toString());
        ReportCommandTest.Run report = run(args.toArray(String[]::new));
        assertEquals(0, report.status(), report.both());
        assertTrue(Files.exists(dir.resolve("pasted/index.html")), report.both());
    }

    @Test
    void shouldGiveAComparedMachinesMitigationACommandThatReproducesItsFigure() throws Exception {
        // The example profile with the catalog's Spark asked for: the Spark column's best mitigation names the Spark.
        String answer = answerList(answer("--profile", TestProfiles.example().toString(), "--model", "llama-3.1-8b",
                "--compare", "dgx-spark,h100"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("The mitigation that helps most on dgx-spark: <b>[^<]+"
                + "</b>, ([-+][0-9.]+%) time to train, [^<]*<code>scripts/membound ([^<]+)</code>").matcher(answer);
        assertTrue(m.find(), answer);
        String command = m.group(2);
        assertTrue(command.startsWith("predict --hardware dgx-spark "), "the command names the column's machine: " + command);
        assertFalse(command.contains("--profile"), command);
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--format", "json"));
        double mitigated = totalSeconds(args);
        double asGiven = totalSeconds(List.of("predict", "--hardware", "dgx-spark", "--model", "llama-3.1-8b", "--format",
                "json"));
        assertEquals(m.group(1), Numbers.signedPercent(mitigated / asGiven - 1),
                "the figure on the page is what the command it prints predicts");
    }

    private static double totalSeconds(List<String> args) throws Exception {
        ReportCommandTest.Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.both());
        return new ObjectMapper().readTree(r.out()).path("measured").path("totalSeconds").asDouble();
    }

    @Test
    void shouldTellANewcomerWhereToStartInTheTopLevelHelp() {
        ReportCommandTest.Run r = run("--help");
        assertEquals(0, r.status(), r.both());
        String start = r.out().substring(r.out().indexOf("Start here"));
        assertTrue(start.contains("  scripts/membound calibrate --quick\n"), start);
        assertTrue(start.contains("  scripts/membound predict --profile latest --model llama-3.1-8b\n"), start);
        for (String line : start.lines().toList()) {
            assertTrue(line.length() <= 80, "a line picocli would wrap: " + line);
        }
    }

    @Test
    void shouldPrintTheExportedToolsCommandToRunWhereTheFileIs() {
        Path file = dir.resolve("spark.genz.json");
        ReportCommandTest.Run r = run("export", "--to", "genz", "--hardware", "dgx-spark", "--out", file.toString());
        assertEquals(0, r.status(), r.both());
        String line = r.out().lines().filter(l -> l.startsWith("run   ")).findFirst().orElseThrow();
        // The command opens 'spark.genz.json' by its name: it runs in the directory the file was written to.
        assertTrue(line.startsWith("run   cd " + dir + " && python3 "), line);
        assertTrue(line.contains("open('spark.genz.json')"), line);
    }

    @Test
    void shouldNotGiveTheMapsLowestBandwidthAsWhereBandwidthStopsMattering() throws Exception {
        // A compute-bound CPU: even the map's lowest bandwidth is within 10% of unlimited, as the text says.
        String page = answer("--profile", TestProfiles.root().resolve("cli/src/test/resources/golden/profiles/"
                + "cpu-quick-v2.json").toString(), "--model", "llama-3.1-8b", "--compare", "h100");
        assertTrue(answerList(page).contains("even at the map's lowest bandwidth"), answerList(page));
        String table = page.substring(page.indexOf("id=\"bandwidth-map-table\""));
        String row = table.substring(table.indexOf("<tr><td>llama-3.1-8b</td>"), table.indexOf("</tr>",
                table.indexOf("<tr><td>llama-3.1-8b</td>")));
        assertTrue(row.contains("(the map&#39;s lowest)") || row.contains("(the map's lowest)"), row);
        assertTrue(row.contains(">below "), "not 'from' the lowest: below it\n" + row);
    }
}
