package membound.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import javax.imageio.ImageIO;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import membound.report.chart.ChartStyle;
import membound.report.chart.Figure;

/** The files of a report made from the example profile: valid images, the expected series, a page that shows them. */
class RenderedReportTest {

    /** Every chart the example profile and a prediction can fill. */
    static final Set<String> EXPECTED_CHARTS = Set.of("roofline-gpu", "roofline-cpu", "time-breakdown",
            "bandwidth-sensitivity", "measured-vs-nominal", "bandwidth-working-set-cpu",
            "thread-scaling-cpu", "latency-cpu");

    @Test
    void shouldDrawEveryChartTheExampleHasDataFor() {
        ReportRenderer.Rendered r = Reports.example();
        Set<String> drawn = new TreeSet<>();
        r.drawn().forEach(d -> drawn.add(d.stem()));
        assertEquals(new TreeSet<>(EXPECTED_CHARTS), drawn);
        Set<String> omitted = new TreeSet<>();
        r.omitted().forEach(o -> omitted.add(o.stem()));
        assertEquals(new TreeSet<>(Set.of("thread-scaling-gpu", "latency-gpu", "bandwidth-working-set-gpu")), omitted,
                "the example has no GPU thread scaling or latency, and GPU bandwidth in DRAM alone");
    }

    @Test
    void shouldWriteEveryChartAsAPngAtTwiceThePageSize() throws Exception {
        for (Figure.Drawn d : Reports.example().drawn()) {
            byte[] png = Reports.example().files().get(d.stem() + ".png");
            assertNotNull(png, d.stem());
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertNotNull(image, d.stem() + ".png must decode");
            assertEquals(ChartStyle.WIDTH_PIXELS * ChartStyle.PNG_SCALE, image.getWidth(), d.stem());
            assertEquals(ChartStyle.HEIGHT_PIXELS * ChartStyle.PNG_SCALE, image.getHeight(), d.stem());
        }
    }

    @Test
    void shouldWriteEveryChartAsAnSvgDocument() throws Exception {
        for (Figure.Drawn d : Reports.example().drawn()) {
            byte[] svg = Reports.example().files().get(d.stem() + ".svg");
            assertNotNull(svg, d.stem());
            Document doc = xml(svg);
            assertEquals("svg", doc.getDocumentElement().getLocalName(), d.stem());
            assertEquals("http://www.w3.org/2000/svg", doc.getDocumentElement().getNamespaceURI(), d.stem());
        }
    }

    @Test
    void shouldDrawTheExpectedSeries() {
        Map<String, List<String>> expected = Map.of(
                "roofline-gpu", List.of("DRAM read 232 GB/s", "DRAM nominal 273 GB/s (datasheet)", "bf16 GEMM 92.3 TFLOP/s",
                        "fp4 nominal 500 TFLOP/s", "operations, memory-bound", "operations, compute-bound"),
                "roofline-cpu", List.of("L1 triad", "L2 triad", "L3 triad", "DRAM read 118.5 GB/s", "fp64 FMA peak"),
                "time-breakdown", List.of("forward", "backward", "optimizer"),
                "bandwidth-sensitivity", List.of("step time, measured compute ceilings", "measured bandwidth 232 GB/s",
                        "nominal bandwidth 273 GB/s", "datasheet prediction"),
                "measured-vs-nominal", List.of("measured (profile ceiling)", "nominal (datasheet)"),
                "bandwidth-working-set-cpu", List.of("triad, double, 20 threads", "copy, double, 20 threads",
                        "nominal memory bandwidth 273 GB/s"),
                "thread-scaling-cpu", List.of("triad, double, DRAM", "nominal memory bandwidth 273 GB/s"),
                "latency-cpu", List.of("p50 (median)", "p90", "p99"));
        for (Figure.Drawn d : Reports.example().drawn()) {
            List<String> legend = legend(d);
            String svg = new String(Reports.example().files().get(d.stem() + ".svg"), StandardCharsets.UTF_8);
            for (String series : expected.getOrDefault(d.stem(), List.of())) {
                assertTrue(legend.stream().anyMatch(l -> l.startsWith(series)), d.stem() + " lacks series '" + series
                        + "' in its legend " + legend);
                assertTrue(svg.contains(escapeXml(series)), d.stem() + ".svg lacks the text '" + series + "'");
            }
        }
    }

    @Test
    void shouldMarkCacheSizesOnTheWorkingSetChart() {
        String svg = new String(Reports.example().files().get("bandwidth-working-set-cpu.svg"), StandardCharsets.UTF_8);
        // The example's caches: L1 20 x 64 KiB, L2 10 x 2 MiB + 10 x 512 KiB, last level 16 MiB.
        for (String marker : new String[] {"L1 1.2 MiB", "L2 25 MiB", "4x last-level cache"}) {
            assertTrue(svg.contains(marker), "missing cache marker " + marker);
        }
    }

    @Test
    void shouldPutEveryMachineInAPanelOfItsOwnWithBothBases() {
        Figure.Drawn breakdown = drawn("time-breakdown");
        var combined = (org.jfree.chart.plot.CombinedDomainCategoryPlot) breakdown.chart().getCategoryPlot();
        List<String> panels = new ArrayList<>();
        for (Object subplot : combined.getSubplots()) {
            var panel = (org.jfree.chart.plot.CategoryPlot) subplot;
            assertEquals(List.of("datasheet", "measured"), panel.getDataset().getColumnKeys().stream()
                    .map(Object::toString).toList());
            double longest = 0;
            for (Object column : panel.getDataset().getColumnKeys()) {
                double total = 0;
                for (Object row : panel.getDataset().getRowKeys()) {
                    total += panel.getDataset().getValue((Comparable<?>) row, (Comparable<?>) column).doubleValue();
                }
                longest = Math.max(longest, total);
            }
            assertTrue(longest > 0.5 * panel.getRangeAxis().getUpperBound(),
                    "each panel's axis fits its own machine, so its bars read: " + panel.getRangeAxis().getLabel());
            panels.add(panel.getRangeAxis().getLabel());
        }
        assertEquals(List.of("spark-example (profile): seconds", "gh200: seconds", "h100-sxm: seconds"), panels);
    }

    @Test
    void shouldPlaceTheWorkloadsOperationsOnTheTrainingDevicesRooflineOnly() {
        assertTrue(legend(drawn("roofline-gpu")).stream().anyMatch(l -> l.startsWith("operations")));
        assertFalse(legend(drawn("roofline-cpu")).stream().anyMatch(l -> l.startsWith("operations")),
                "the prediction ran on the GPU");
    }

    @Test
    void shouldCurveThroughTheMeasuredAndNominalPoints() {
        SensitivityCurve curve = Reports.exampleInput().sensitivity();
        assertEquals(232e9, curve.measuredBytesPerSecond(), 1);
        assertEquals(273e9, curve.nominalBytesPerSecond(), 1);
        assertTrue(curve.nominalStepSeconds() < curve.measuredStepSeconds(), "more bandwidth must not be slower");
        for (int i = 1; i < curve.points().size(); i++) {
            assertTrue(curve.points().get(i).stepSeconds() <= curve.points().get(i - 1).stepSeconds() * (1 + 1e-12),
                    "step time must not grow with bandwidth: " + curve.points());
        }
        assertEquals(Reports.exampleInput().primary().measured().stepSeconds(), curve.measuredStepSeconds(), 0);
    }

    private static Figure.Drawn drawn(String stem) {
        return Reports.example().drawn().stream().filter(d -> d.stem().equals(stem)).findFirst().orElseThrow();
    }

    static List<String> legend(Figure.Drawn d) {
        LegendItemCollection items = d.chart().getPlot().getLegendItems();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < items.getItemCount(); i++) {
            LegendItem item = items.get(i);
            labels.add(item.getLabel());
        }
        return labels;
    }

    static Document xml(byte[] bytes) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        // A chart must stand alone: no DTD, no external entities.
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }

    static String escapeXml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
