package membound.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import membound.report.chart.Figure;

/** A profile with one DRAM figure and nothing else: every chart is left out, each with its reason; none is invented. */
class OmittedChartsTest {

    static Path minimalProfile() throws URISyntaxException {
        return Path.of(OmittedChartsTest.class.getResource("/minimal-profile.json").toURI());
    }

    @Test
    void shouldLeaveOutEveryChartTheProfileHasNoDataForAndSayWhy() throws Exception {
        ReportInput input = Reports.profileOnly(minimalProfile());
        ReportRenderer.Rendered r = ReportRenderer.render(input);
        Map<String, String> reasons = new TreeMap<>();
        r.omitted().forEach(o -> reasons.put(o.stem(), o.reason()));
        assertEquals(0, r.drawn().size(), "nothing to draw, nothing drawn: " + r.drawn());
        assertEquals(Map.of(
                "roofline-cpu", "device cpu has no compute ceiling (compute[] is empty) and no known nominal peak: a roofline needs a roof",
                "time-breakdown", input.noWorkloadReason(),
                "bandwidth-sensitivity", input.noWorkloadReason(),
                "measured-vs-nominal", "the profile has no measured-over-nominal bandwidth (efficiency.bandwidth[] is empty); "
                        + "nominal bandwidth unknown for cpu: platform not recognised; give --nominal-bandwidth",
                "bandwidth-working-set-cpu", "device cpu has bandwidth at one working-set size only (1 GiB): a curve needs two "
                        + "or more (scripts/membound calibrate --standard measures L1 to DRAM)",
                "thread-scaling-cpu", "device cpu has no thread-scaling curve with two or more thread counts (threadScaling[] is empty): scripts/membound calibrate --standard measures it",
                "latency-cpu", "device cpu has no load-latency measurement (latency[] is empty): "
                        + "scripts/membound calibrate --standard measures it"), reasons);
        assertEquals(1, r.files().size(), "only index.html: " + r.files().keySet());
        String page = new String(r.files().get(ReportRenderer.INDEX), StandardCharsets.UTF_8);
        for (Figure.Omitted o : r.omitted()) {
            assertTrue(page.contains(o.title()), "page must name the chart left out: " + o.title());
        }
        assertTrue(page.contains("22.0 GB/s"), "the one DRAM figure is still shown");
    }
}
