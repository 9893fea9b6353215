package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code membound answer} end to end: the page, every chart on it drawn and not empty, the written answer
 * and every section; and, where a Chromium is installed, the page as a browser shows it.
 */
class AnswerCommandTest {

    /** The charts the page draws for a profile compared with two machines. */
    static final List<String> CHARTS = List.of("answer-model-size", "answer-bandwidth-map",
            "answer-bandwidth-map-dgx-spark", "answer-precision", "answer-sharing", "answer-mitigations");

    @TempDir
    static Path dir;

    static Path out;
    static ReportCommandTest.Run run;

    @BeforeAll
    static void writeThePage() {
        out = dir.resolve("answer");
        run = ReportCommandTest.run("answer", "--profile", TestProfiles.example().toString(), "--model", "llama-3.2-1b",
                "--sizes", "gpt2,llama-3.2-1b,llama-3.1-8b", "--compare", "dgx-spark,h100", "--users", "3",
                "--out", out.toString());
    }

    @Test
    void shouldWriteThePageWithEveryChartDrawnAndNoneEmpty() throws Exception {
        assertEquals(0, run.status(), run.both());
        assertTrue(run.out().startsWith("wrote " + out + ": the answer and 6 charts"), run.both());
        String page = Files.readString(out.resolve("index.html"));
        List<String> images = new ArrayList<>();
        Matcher m = Pattern.compile("<img src=\"([^\"]+)\"").matcher(page);
        while (m.find()) {
            images.add(m.group(1));
        }
        List<String> expected = CHARTS.stream().map(c -> c + ".svg").toList();
        assertEquals(expected, images, "every chart on the page, in order");
        for (String chart : CHARTS) {
            assertTrue(Files.readString(out.resolve(chart + ".svg")).contains("<svg"), chart);
            BufferedImage png = ImageIO.read(out.resolve(chart + ".png").toFile());
            assertTrue(png.getWidth() >= 960 && png.getHeight() >= 580, chart + " " + png.getWidth());
            assertTrue(inkShare(png) > 0.02, chart + ": " + inkShare(png) + " of it drawn in colour, too little");
            assertTrue(colours(png) > 20, chart + " has " + colours(png) + " colours");
        }
    }

    @Test
    void shouldAnswerInWordsWithEverySectionAndTheCommandsThatReproduceIt() throws Exception {
        assertEquals(0, run.status(), run.both());
        String page = Files.readString(out.resolve("index.html"));
        for (String id : new String[] {"answer", "machines", "model-size-table", "bandwidth-map-table",
                "precision-table", "sharing-table", "mitigation-table"}) {
            assertTrue(page.contains("id=\"" + id + "\""), id);
        }
        String answer = page.substring(page.indexOf("<ul class=\"answer\">"), page.indexOf("</ul>",
                page.indexOf("<ul class=\"answer\">")));
        assertTrue(answer.split("<li>").length - 1 >= 7, answer);
        assertTrue(answer.contains("missing bandwidth costs"), "the Spark's datasheet gap is priced\n" + answer);
        assertTrue(answer.contains("trains it in"), "the compared machines\n" + answer);
        assertTrue(page.contains("membound predict --profile " + TestProfiles.example() + " --model llama-3.2-1b"),
                "every row's command");
        assertTrue(page.contains("--offload both"), "layer-wise offloading is a row");
        assertTrue(page.contains("adds no capacity"), "on unified memory offloading says it frees nothing");
        assertTrue(!page.contains("NaN") && !page.contains("Infinity"), "no number left unprinted");
    }

    @Test
    void shouldLookRightInARealBrowser() throws Exception {
        assertEquals(0, run.status(), run.both());
        String chromium = chromium();
        assumeTrue(chromium != null, "no chromium on PATH (or MEMBOUND_CHROMIUM): the browser check is skipped");
        Path shot = dir.resolve("answer-screenshot.png");
        Process p = new ProcessBuilder(chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--window-size=1100,2400", "--virtual-time-budget=5000", "--screenshot=" + shot,
                out.resolve("index.html").toUri().toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("chromium.log").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium took over two minutes");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("chromium.log")));
        BufferedImage png = ImageIO.read(shot.toFile());
        assertEquals(1100, png.getWidth());
        // The page's first screen: the title, the written answer (a tinted box) and the machines table; the
        // charts' colours show that the images loaded.
        assertTrue(inkShare(png) > 0.05, "the screenshot is " + inkShare(png) + " ink");
        assertTrue(colours(png) > 200, "the screenshot has " + colours(png) + " colours");
    }

    @Test
    void shouldScreenshotTheWholePageWithTheScript() throws Exception {
        assertEquals(0, run.status(), run.both());
        assumeTrue(chromium() != null, "no chromium on PATH (or MEMBOUND_CHROMIUM): the browser check is skipped");
        Path shot = dir.resolve("whole.png");
        Process p = new ProcessBuilder("bash", TestProfiles.root().resolve("scripts/answer-screenshot.sh").toString(),
                out.toString(), shot.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("shot.log").toFile())
                .start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the script took over three minutes");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("shot.log")));
        BufferedImage png = ImageIO.read(shot.toFile());
        // The page ends inside the shot: its last rows are the background below the page, none is cut off.
        int[] last = png.getRGB(0, png.getHeight() - 1, png.getWidth(), 1, null, 0, png.getWidth());
        for (int y = png.getHeight() - 30; y < png.getHeight(); y++) {
            assertTrue(java.util.Arrays.equals(last, png.getRGB(0, y, png.getWidth(), 1, null, 0, png.getWidth())),
                    "row " + y + " of " + png.getHeight() + " is page, not the background below it: the page is cut off");
        }
        assertTrue(Files.readString(dir.resolve("shot.log")).contains("(1100 x " + png.getHeight() + " px)"),
                Files.readString(dir.resolve("shot.log")));
    }

    static String chromium() {
        String given = System.getenv("MEMBOUND_CHROMIUM");
        if (given != null && !given.isBlank()) {
            return given;
        }
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(d, name))) {
                    return Path.of(d, name).toString();
                }
            }
        }
        return null;
    }

    /** Share of pixels that are neither white nor a near-white background. */
    static double inkShare(BufferedImage image) {
        long ink = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r < 235 || g < 235 || b < 235) {
                    ink++;
                }
            }
        }
        return ink / (double) ((image.getHeight() / 2) * (image.getWidth() / 2));
    }

    static int colours(BufferedImage image) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y) & 0xffffff);
            }
        }
        return seen.size();
    }
}
