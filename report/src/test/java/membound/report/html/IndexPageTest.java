package membound.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.report.ReportRenderer;
import membound.report.Reports;
import membound.report.TrainingRun;
import membound.report.chart.Figure;
import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;

/** index.html of the example report: every chart referred to, the key figures shown with their sources, nothing fetched. */
class IndexPageTest {

    private static String page() {
        return new String(Reports.example().files().get(ReportRenderer.INDEX), StandardCharsets.UTF_8);
    }

    @Test
    void shouldReferToEveryChartAsSvgAndPng() {
        String page = page();
        for (Figure.Drawn d : Reports.example().drawn()) {
            assertTrue(page.contains("<img src=\"" + d.stem() + ".svg\""), "page must show " + d.stem());
            assertTrue(page.contains("href=\"" + d.stem() + ".png\""), "page must link " + d.stem() + ".png");
            assertTrue(page.contains("href=\"#" + d.stem() + "\""), "contents must list " + d.stem());
            assertTrue(page.contains(Html.escape(d.caption())), "page must caption " + d.stem());
        }
    }

    @Test
    void shouldSayWhyAChartIsNotDrawn() {
        String page = page();
        for (Figure.Omitted o : Reports.example().omitted()) {
            assertTrue(page.contains(Html.escape(o.reason())), "page must give the reason for " + o.stem());
            assertFalse(Reports.example().files().containsKey(o.stem() + ".png"), o.stem() + " must not be drawn");
        }
    }

    @Test
    void shouldShowTheKeyFiguresOfTheProfile() {
        String page = page();
        // The example's CPU DRAM triad: median 112 GB/s of bandwidth entry cpu-triad-double-t20-all-dram, 41% of 273 GB/s.
        assertTrue(page.contains("DRAM triad bandwidth, median"), "triad row");
        assertTrue(page.contains("112.0 GB/s (p5\u2013p95 106.8\u2013116.0 GB/s), 41% of nominal"), "cpu triad median");
        assertTrue(page.contains("cpu-triad-double-t20-all-dram"), "triad provenance: its bandwidth entry");
        assertTrue(page.contains("Nominal memory bandwidth (cpu, gpu)</td><td class=\"value\">273.0 GB/s"), "nominal");
        assertTrue(page.contains("NVIDIA DGX Spark datasheet (273 GB/s LPDDR5x, 256-bit)"), "nominal source");
        assertTrue(page.contains("NVIDIA publishes no dense BF16 figure for GB10"), "an unknown nominal says why");
        // One bf16 peak on the page: the profile lacks it, and the row says which figure the MFU divides by instead.
        String mfuPeak = Units.formatFlops(Reports.exampleInput().primary().measured().peakFlopsPerSecond());
        assertTrue(page.contains("Nominal bf16 dense peak (gpu)</td><td class=\"value\">not in the profile; " + mfuPeak
                + " stands in (the MFU above)"), "the bf16 peak row names the MFU's peak");
        assertFalse(page.contains("Nominal bf16 dense peak (gpu)</td><td class=\"value\">unknown"), "never unknown beside it");
        assertTrue(page.contains("hand-written example"), "the profile's quality flags are shown");
    }

    @Test
    void shouldShowThePredictionsKeyFigures() {
        String page = page();
        TrainingRun run = Reports.exampleInput().primary();
        assertTrue(page.contains("Predicted step time (roofline bound), example ceilings</td><td class=\"value\">"
                + Numbers.roundedDuration(run.measured().stepSeconds())), "the example's step time");
        assertTrue(page.contains("Expected step with trainer typical&#39;s overheads</td><td class=\"value\">"
                + Numbers.roundedDuration(run.expected().stepSeconds())), "predict's first block, the expected step");
        // What each of the trainer's terms adds, largest first, as predict prints it.
        var largest = run.expected().added().get(0);
        assertTrue(page.contains("What trainer typical&#39;s terms add to the step</td><td class=\"value\">"
                + largest.term() + " +" + Numbers.roundedDuration(largest.seconds())), "the breakdown's largest term");
        assertTrue(page.contains("Predicted step time (roofline bound), datasheet ceilings</td><td class=\"value\">"
                + Numbers.roundedDuration(run.datasheet().stepSeconds())), "datasheet step time");
        assertTrue(page.contains(Numbers.percent(run.measured().mfu())), "MFU");
        assertTrue(page.contains(String.format(java.util.Locale.ROOT, "elasticity %.2f", run.sensitivity().elasticity())),
                "elasticity");
        for (String machine : new String[] {"gh200", "h100-sxm"}) {
            assertTrue(page.contains(">" + machine + "<br>"), "machines table must list " + machine);
        }
        assertTrue(page.contains("Slowest operations (12 of "), "operations table, 12 rows by default");
    }

    @Test
    void shouldSayUnknownWhereTheMachineHasNoDatasheetAndNeverRepeatTheMeasuredFigure(@TempDir Path dir)
            throws Exception {
        membound.profile.Profile example = membound.profile.ProfileJson.read(Reports.exampleProfile());
        membound.profile.Profile bare = new membound.profile.Profile(example.host(),
                membound.profile.Nominal.unknown("no catalog entry matches this host", "cpu", "gpu"), example.devices(),
                example.links(), example.efficiency(), example.quality(), example.provenance());
        Path file = dir.resolve("bare.json");
        Files.write(file, membound.profile.ProfileJson.toBytes(bare));
        ReportRenderer.Rendered rendered = ReportRenderer.render(Reports.withWorkload(file, "llama-3.2-1b", "h100"));
        String page = new String(rendered.files().get(ReportRenderer.INDEX), StandardCharsets.UTF_8);

        assertTrue(page.contains("<td>Predicted step time (roofline bound), datasheet ceilings</td><td class=\"value\">"
                + "unknown</td>"), page);
        assertTrue(page.contains(" example, unknown datasheet"), "the total and the shares say unknown too");
        String breakdown = new String(rendered.files().get("time-breakdown.svg"), StandardCharsets.UTF_8);
        assertTrue(breakdown.contains("datasheet: unknown"), "the chart's datasheet bar of the profile says unknown");
    }

    @Test
    void shouldBeSelfContained() {
        String page = page();
        assertFalse(page.contains("<script"), "no script");
        assertFalse(page.contains("<link"), "no external stylesheet");
        assertFalse(page.contains("url("), "no CSS fetches");
        Matcher refs = Pattern.compile("(?:src|href)=\"([^\"]*)\"").matcher(page);
        int count = 0;
        while (refs.find()) {
            String ref = refs.group(1);
            count++;
            assertTrue(ref.startsWith("#") || ref.matches("[a-z0-9-]+\\.(png|svg)"), "relative references only: " + ref);
            if (!ref.startsWith("#")) {
                assertTrue(Reports.example().files().containsKey(ref), "reference to a file the report has: " + ref);
            }
        }
        assertTrue(count > 2 * Reports.example().drawn().size(), "page must refer to its charts");
    }

    @Test
    void shouldEscapeWhatComesFromFiles() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;", Html.escape("a <b> & \"c\" 'd'"));
    }

    @Test
    void shouldFormatDurationsForPeople() {
        assertEquals("840 ms", Numbers.roundedDuration(0.84));
        assertEquals("2.34 s", Numbers.roundedDuration(2.3378));
        assertEquals("14.5 min", Numbers.roundedDuration(870));
        assertEquals("6.2 h", Numbers.roundedDuration(6.2 * 3600));
        assertEquals("13.2 days", Numbers.roundedDuration(13.2 * 86400));
    }

}
