package membound.report.chart;

import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import membound.profile.Device;
import membound.profile.Profile;
import membound.profile.ScalingCurve;
import membound.report.Provenances;

/**
 * Bandwidth against thread count: where the curve flattens is how many cores it takes to reach the
 * memory's ceiling, and the gap to the dashed nominal line is what no number of threads recovers.
 */
public final class ThreadScalingChart {

    private ThreadScalingChart() {
    }

    static String stem(Device device) {
        return "thread-scaling-" + device.id();
    }

    public static Figure of(Profile profile, Device device) {
        String title = "Thread scaling: " + device.name();
        List<ScalingCurve> curves = device.threadScaling().stream().filter(c -> c.points().size() >= 2).toList();
        if (curves.isEmpty()) {
            return new Figure.Omitted(stem(device), title, "device " + device.id() + " has no thread-scaling curve with "
                    + "two or more thread counts (threadScaling[] " + (device.threadScaling().isEmpty() ? "is empty"
                    : "has single points only") + ")" + (device.kind() == membound.vocabulary.DeviceKind.CPU
                    ? ": " + membound.vocabulary.text.Launcher.command("calibrate --standard") + " measures it" : ""));
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        List<String> sources = new ArrayList<>();
        int maxThreads = 1;
        double high = 0;
        int i = 0;
        for (ScalingCurve c : curves) {
            String name = c.kernel() + ", " + c.elementType() + ", " + c.level()
                    + (c.placement() != null && !c.placement().equals("all") ? " (" + c.placement() + ")" : "");
            XYSeries s = new XYSeries(name, false, true);
            for (ScalingCurve.Point p : c.points()) {
                s.add(p.threads(), p.bytesPerSecond() / 1e9);
                maxThreads = Math.max(maxThreads, p.threads());
                high = Math.max(high, p.bytesPerSecond());
                String entry = p.bandwidthId() == null ? "no bandwidth entry named"
                        : device.bandwidthEntry(p.bandwidthId()).map(b -> "bandwidth entry " + b.id() + ", "
                        + Provenances.describe(b.provenance())).orElse("bandwidth entry " + p.bandwidthId());
                sources.add(String.format(Locale.ROOT, "%s, %d thread%s: %s \u2014 %s", name, p.threads(),
                        p.threads() == 1 ? "" : "s", ChartStyle.bandwidth(p.bytesPerSecond()), entry));
            }
            data.addSeries(s);
            renderer.setSeriesPaint(i, ChartStyle.color(i));
            renderer.setSeriesStroke(i, ChartStyle.LINE);
            renderer.setSeriesShape(i, new Ellipse2D.Double(-4.5, -4.5, 9, 9));
            i++;
        }
        Double nominal = profile.nominal().memoryBandwidthOf(device.id()).map(n -> n.bytesPerSecond()).orElse(null);
        if (nominal != null) {
            XYSeries n = new XYSeries("nominal memory bandwidth " + ChartStyle.bandwidth(nominal) + " (datasheet)", false, true);
            n.add(0, nominal / 1e9);
            n.add(maxThreads * 1.05, nominal / 1e9);
            data.addSeries(n);
            renderer.setSeriesPaint(i, ChartStyle.GREY);
            renderer.setSeriesStroke(i, ChartStyle.DASHED);
            renderer.setSeriesShapesVisible(i, false);
            high = Math.max(high, nominal);
            sources.add("nominal: " + Provenances.describe(profile.nominal().memoryBandwidthOf(device.id()).get().provenance()));
        }
        NumberAxis x = new NumberAxis("threads");
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setRange(0, maxThreads * 1.05);
        NumberAxis y = new NumberAxis("bandwidth, STREAM bytes (GB/s)");
        y.setRange(0, high / 1e9 * 1.12);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "Where a curve flattens, more threads stop helping: the memory, not the cores, sets the rate.");
        String caption = "Typical (median where measured) STREAM-convention bandwidth against the number of threads, "
                + "from the profile's thread-scaling curves of device " + device.id() + "; the dashed line is the datasheet "
                + "bandwidth of its memory where the profile knows one.";
        return new Figure.Drawn(stem(device), title, caption, sources, chart);
    }
}
