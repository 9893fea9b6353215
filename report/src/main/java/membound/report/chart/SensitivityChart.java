package membound.report.chart;

import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import membound.report.SensitivityCurve;
import membound.report.TrainingRun;

/**
 * Step time against main-memory bandwidth on the profile's machine (log-log, so the slope is the
 * elasticity d ln T / d ln BW), with the measured and the nominal bandwidth marked: how much a faster
 * memory would buy, and how much the gap to the datasheet costs.
 */
public final class SensitivityChart {

    static final String STEM = "bandwidth-sensitivity";
    static final String TITLE = "Step time against memory bandwidth";

    private SensitivityChart() {
    }

    public static Figure of(SensitivityCurve curve, TrainingRun run, String noWorkloadReason) {
        if (noWorkloadReason != null) {
            return new Figure.Omitted(STEM, TITLE, noWorkloadReason);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        XYSeries line = new XYSeries("step time, measured compute ceilings", true, false);
        double low = Double.MAX_VALUE;
        double high = 0;
        for (SensitivityCurve.Point p : curve.points()) {
            line.add(p.bytesPerSecond() / 1e9, p.stepSeconds());
            low = Math.min(low, p.stepSeconds());
            high = Math.max(high, p.stepSeconds());
        }
        data.addSeries(line);
        renderer.setSeriesPaint(0, ChartStyle.BLUE);
        renderer.setSeriesStroke(0, ChartStyle.LINE);
        List<String> sources = new ArrayList<>();
        sources.add(String.format(Locale.ROOT, "curve: %d runs of membound predict with --memory-bandwidth from %s to %s "
                        + "(read ceiling set, other patterns keep their ratio to read; compute ceilings measured)",
                curve.points().size(), ChartStyle.bandwidth(curve.points().get(0).bytesPerSecond()),
                ChartStyle.bandwidth(curve.points().get(curve.points().size() - 1).bytesPerSecond())));
        point(data, renderer, String.format(Locale.ROOT, "measured bandwidth %s: %s per step",
                        ChartStyle.bandwidth(curve.measuredBytesPerSecond()), seconds(curve.measuredStepSeconds())),
                curve.measuredBytesPerSecond(), curve.measuredStepSeconds(), ChartStyle.VERMILLION,
                new Ellipse2D.Double(-7, -7, 14, 14), true);
        sources.add("measured point: the prediction's own main-memory read ceiling and step time");
        if (curve.nominalBytesPerSecond() != null) {
            point(data, renderer, String.format(Locale.ROOT, "nominal bandwidth %s: %s per step",
                            ChartStyle.bandwidth(curve.nominalBytesPerSecond()), seconds(curve.nominalStepSeconds())),
                    curve.nominalBytesPerSecond(), curve.nominalStepSeconds(), ChartStyle.GREEN,
                    new Rectangle2D.Double(-6, -6, 12, 12), true);
            low = Math.min(low, curve.nominalStepSeconds());
            high = Math.max(high, curve.nominalStepSeconds());
            if (!Double.isNaN(curve.datasheetStepSeconds())) {
                point(data, renderer, String.format(Locale.ROOT, "datasheet prediction (nominal bandwidth and peaks): %s",
                                seconds(curve.datasheetStepSeconds())),
                        curve.nominalBytesPerSecond(), curve.datasheetStepSeconds(), ChartStyle.GREY,
                        ShapeUtils.createDiamond(7), false);
                low = Math.min(low, curve.datasheetStepSeconds());
                high = Math.max(high, curve.datasheetStepSeconds());
            }
            sources.add("nominal point: membound predict --memory-bandwidth " + ChartStyle.bandwidth(curve.nominalBytesPerSecond())
                    + " (the datasheet bandwidth) on measured compute; datasheet prediction: predict's datasheet column");
        }
        XYPlot plot = new XYPlot(data, null, null, renderer);
        LogAxis x = ChartStyle.decimalLogAxis("main-memory read bandwidth (GB/s, log scale)");
        ChartStyle.logRange(x, curve.points().get(0).bytesPerSecond() / 1e9,
                curve.points().get(curve.points().size() - 1).bytesPerSecond() / 1e9, 1.05);
        LogAxis y = ChartStyle.decimalLogAxis("seconds per optimizer step (log scale)");
        ChartStyle.logRange(y, low, high, 1.25);
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(TITLE + ": " + run.workload(), ChartStyle.TITLE_FONT, plot, true),
                String.format(Locale.ROOT, "Slope = elasticity d ln T / d ln BW: %.2f at the measured point "
                        + "(-1: all memory-bound, 0: all compute-bound).", curve.elasticity()));
        String caption = "Predicted step time as the main memory's bandwidth varies and every compute ceiling stays as "
                + "measured. The gap between the measured and the nominal point is what the missing bandwidth costs; "
                + "the grey diamond is the prediction on datasheet figures for both bandwidth and compute.";
        return new Figure.Drawn(STEM, TITLE, caption, sources, chart);
    }

    private static void point(XYSeriesCollection data, XYLineAndShapeRenderer renderer, String name, double bytesPerSecond,
                              double seconds, java.awt.Paint paint, java.awt.Shape shape, boolean filled) {
        XYSeries s = new XYSeries(name, false, true);
        s.add(bytesPerSecond / 1e9, seconds);
        int i = data.getSeriesCount();
        data.addSeries(s);
        renderer.setSeriesLinesVisible(i, false);
        renderer.setSeriesShapesVisible(i, true);
        renderer.setSeriesShapesFilled(i, filled);
        renderer.setSeriesShape(i, shape);
        renderer.setSeriesPaint(i, paint);
        renderer.setSeriesStroke(i, ChartStyle.LINE);
    }

    static String seconds(double s) {
        return s >= 10 ? String.format(Locale.ROOT, "%.1f s", s) : s >= 1 ? String.format(Locale.ROOT, "%.2f s", s)
                : String.format(Locale.ROOT, "%.0f ms", s * 1000);
    }
}
