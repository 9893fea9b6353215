package membound.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;

import membound.profile.Device;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.report.Reports;

/** The working-set chart draws what was measured: no line across sizes nothing measured, no panel of one level. */
class WorkingSetChartTest {

    private static final Profile EXAMPLE = ProfileJson.read(Reports.exampleProfile());

    @Test
    void shouldJoinOnlySizesAtMostFourTimesApart() {
        Device cpu = EXAMPLE.device("cpu").orElseThrow();
        Figure.Drawn f = assertInstanceOf(Figure.Drawn.class, WorkingSetChart.of(EXAMPLE, cpu));
        XYDataset data = f.chart().getXYPlot().getDataset();
        int split = 0;
        for (int s = 0; s < data.getSeriesCount(); s++) {
            if (data.getSeriesKey(s).toString().startsWith("nominal")) {
                continue;
            }
            for (int i = 1; i < data.getItemCount(s); i++) {
                double ratio = data.getXValue(s, i) / data.getXValue(s, i - 1);
                assertTrue(ratio <= WorkingSetChart.JOINED_SIZE_RATIO, data.getSeriesKey(s) + " joins sizes " + ratio
                        + "x apart: a line through sizes nothing measured");
            }
            if (data.getSeriesKey(s).toString().endsWith(")") && data.getSeriesKey(s).toString().matches(".* \\(\\d+\\)")) {
                split++;
            }
        }
        // The example's 20-thread triad runs in L1, L2, L3 and DRAM: its figures stand apart, not on one curve.
        assertTrue(split > 0, "the example's triad has sizes far apart: its series is split");
        assertTrue(f.caption().contains("nothing was measured between them"), f.caption());
    }

    @Test
    void shouldListEachKernelOnceInTheLegendHoweverItsLineIsSplit() {
        Device cpu = EXAMPLE.device("cpu").orElseThrow();
        Figure.Drawn f = assertInstanceOf(Figure.Drawn.class, WorkingSetChart.of(EXAMPLE, cpu));
        XYPlot plot = f.chart().getXYPlot();
        java.util.List<String> labels = new java.util.ArrayList<>();
        for (int i = 0; i < plot.getLegendItems().getItemCount(); i++) {
            labels.add(plot.getLegendItems().get(i).getLabel());
        }
        assertEquals(labels.size(), new java.util.HashSet<>(labels).size(), labels.toString());
        assertTrue(labels.stream().noneMatch(l -> l.matches(".* \\(\\d+\\)")), labels.toString());
    }

    @Test
    void shouldLeaveOutADeviceWhoseFiguresAreAllInOneMemoryLevel() {
        Device gpu = EXAMPLE.device("gpu").orElseThrow();
        Figure.Omitted f = assertInstanceOf(Figure.Omitted.class, WorkingSetChart.of(EXAMPLE, gpu));
        assertTrue(f.reason().contains("one memory level only (DRAM, 2 GiB to 3 GiB)"), f.reason());
    }
}
