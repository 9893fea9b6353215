package membound.report.chart;

import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

import membound.profile.Efficiency;
import membound.profile.LevelCeiling;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.report.Provenances;

/**
 * Measured DRAM bandwidth beside the datasheet figure, per device and access pattern, each measured bar
 * labelled with its share of the datasheet figure: the profile's efficiency section as a picture.
 */
public final class NominalChart {

    static final String STEM = "measured-vs-nominal";
    static final String MEASURED = "measured (profile ceiling)";
    static final String NOMINAL = "nominal (datasheet)";

    private NominalChart() {
    }

    public static Figure of(Profile profile) {
        String title = "Measured against nominal memory bandwidth";
        List<Efficiency.BandwidthRatio> ratios = profile.efficiency().bandwidth();
        if (ratios.isEmpty()) {
            List<String> reasons = new ArrayList<>();
            for (Nominal.MemoryBandwidth m : profile.nominal().memoryBandwidth()) {
                if (m.state() == Nominal.State.UNKNOWN) {
                    reasons.add(String.join(", ", m.deviceIds()) + ": " + m.reason());
                }
            }
            return new Figure.Omitted(STEM, title, "the profile has no measured-over-nominal bandwidth (efficiency.bandwidth[] "
                    + "is empty)" + (reasons.isEmpty() ? ": no DRAM ceiling with a known nominal figure"
                    : "; nominal bandwidth unknown for " + String.join("; ", reasons)));
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<String> sources = new ArrayList<>();
        double high = 0;
        for (Efficiency.BandwidthRatio r : ratios) {
            // The share of nominal goes into the category label: it is the number people quote.
            String category = String.format(Locale.ROOT, "%s %s: %.0f%%", r.deviceId(), r.access(), 100 * r.ratio());
            data.addValue(r.measuredBytesPerSecond() / 1e9, MEASURED, category);
            data.addValue(r.nominalBytesPerSecond() / 1e9, NOMINAL, category);
            high = Math.max(high, Math.max(r.measuredBytesPerSecond(), r.nominalBytesPerSecond()));
            String measuredFrom = profile.device(r.deviceId())
                    .flatMap(d -> d.ceiling(membound.vocabulary.MemoryLevel.DRAM, r.access()))
                    .map(NominalChart::describe).orElse("efficiency entry of the profile");
            String nominalFrom = profile.nominal().memoryBandwidthOf(r.deviceId())
                    .map(n -> Provenances.describe(n.provenance())).orElse("efficiency entry of the profile");
            sources.add(String.format(Locale.ROOT, "%s: measured %s (%s) of nominal %s (%s): %.1f%%", category,
                    ChartStyle.bandwidth(r.measuredBytesPerSecond()), measuredFrom,
                    ChartStyle.bandwidth(r.nominalBytesPerSecond()), nominalFrom, 100 * r.ratio()));
        }
        BarRenderer renderer = new BarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.04);
        renderer.setSeriesPaint(0, ChartStyle.BLUE);
        renderer.setSeriesPaint(1, ChartStyle.LIGHT_GREY);
        renderer.setSeriesOutlinePaint(1, ChartStyle.GREY);
        renderer.setDrawBarOutline(true);
        renderer.setSeriesOutlineStroke(1, ChartStyle.DASHED);
        renderer.setSeriesOutlinePaint(0, ChartStyle.BLUE);
        // Label each measured bar with its share of the datasheet figure, the number people quote.
        for (int series = 0; series < 2; series++) {
            renderer.setSeriesItemLabelGenerator(series, new GigabytesPerSecond());
            renderer.setSeriesItemLabelsVisible(series, true);
            renderer.setSeriesItemLabelFont(series, ChartStyle.ANNOTATION_FONT);
            renderer.setSeriesPositiveItemLabelPosition(series, new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12,
                    TextAnchor.BOTTOM_CENTER));
        }
        CategoryAxis x = new CategoryAxis("device and DRAM access pattern: measured as a share of nominal");
        NumberAxis y = new NumberAxis("bandwidth, STREAM bytes (GB/s)");
        y.setRange(0, high / 1e9 * 1.15);
        CategoryPlot plot = new CategoryPlot(data, x, y, renderer);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "What the memory delivers to each device and access pattern, as a share of what the datasheet promises.");
        String caption = "The DRAM ceilings of the profile (STREAM bytes) beside the nominal bandwidth of the memory each "
                + "device uses, from the profile's efficiency section. On a unified-memory machine the devices share one "
                + "nominal figure.";
        return new Figure.Drawn(STEM, title, caption, sources, chart);
    }

    /** "112 GB/s" above each bar, so the figure is read without following a grid line. */
    static final class GigabytesPerSecond extends StandardCategoryItemLabelGenerator {
        private static final long serialVersionUID = 1L;

        @Override
        public String generateLabel(CategoryDataset dataset, int row, int column) {
            return new DecimalFormat("0").format(dataset.getValue(row, column).doubleValue()) + " GB/s";
        }
    }

    private static String describe(LevelCeiling c) {
        return c.statistic() + (c.bandwidthId() != null ? " of " + c.bandwidthId() : "") + ", "
                + Provenances.describe(c.provenance());
    }
}
