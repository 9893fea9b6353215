package membound.report.chart;

import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import membound.profile.Device;
import membound.profile.LatencyEntry;
import membound.profile.Profile;
import membound.report.Provenances;

/**
 * Load-to-use latency against working set, one line per percentile (p50, p90, p99) and access
 * pattern: the steps are the cache levels, the gap between p50 and p99 is how uneven a level is.
 */
public final class LatencyChart {

    private static final java.awt.Color[][] SHADES = {
            {ChartStyle.BLUE, ChartStyle.SKY, ChartStyle.PURPLE},
            {ChartStyle.VERMILLION, ChartStyle.ORANGE, ChartStyle.BLACK}};

    private LatencyChart() {
    }

    static String stem(Device device) {
        return "latency-" + device.id();
    }

    public static Figure of(Profile profile, Device device) {
        String title = "Load latency by working set: " + device.name();
        if (device.latency().isEmpty()) {
            return new Figure.Omitted(stem(device), title, "device " + device.id() + " has no load-latency measurement "
                    + "(latency[] is empty)" + (device.kind() == membound.vocabulary.DeviceKind.CPU
                    ? ": " + membound.vocabulary.text.Launcher.command("calibrate --standard") + " measures it" : ""));
        }
        Map<String, List<LatencyEntry>> byPattern = new LinkedHashMap<>();
        for (LatencyEntry e : device.latency()) {
            byPattern.computeIfAbsent(e.pattern(), k -> new ArrayList<>()).add(e);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        List<String> sources = new ArrayList<>();
        double low = Double.MAX_VALUE;
        double high = 0;
        long minSize = Long.MAX_VALUE;
        long maxSize = 0;
        int i = 0;
        String[] names = {"p50 (median)", "p90", "p99"};
        int patternIndex = -1;
        for (Map.Entry<String, List<LatencyEntry>> pattern : byPattern.entrySet()) {
            patternIndex++;
            List<LatencyEntry> entries = new ArrayList<>(pattern.getValue());
            entries.sort(Comparator.comparingLong(LatencyEntry::workingSetBytes));
            for (int q = 0; q < names.length; q++) {
                String name = (byPattern.size() > 1 ? pattern.getKey() + " " : "") + names[q];
                XYSeries s = new XYSeries(name, false, true);
                for (LatencyEntry e : entries) {
                    LatencyEntry.Nanos n = e.nanosPerLoad();
                    double v = q == 0 ? n.p50() : q == 1 ? n.p90() : n.p99();
                    s.add(e.workingSetBytes(), v);
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                    minSize = Math.min(minSize, e.workingSetBytes());
                    maxSize = Math.max(maxSize, e.workingSetBytes());
                }
                data.addSeries(s);
                // One family of colours per access pattern: p50, p90, p99 from strong to pale.
                renderer.setSeriesPaint(i, SHADES[patternIndex % SHADES.length][q]);
                renderer.setSeriesStroke(i, ChartStyle.LINE);
                renderer.setSeriesShape(i, new Ellipse2D.Double(-4, -4, 8, 8));
                i++;
            }
            for (LatencyEntry e : entries) {
                LatencyEntry.Nanos n = e.nanosPerLoad();
                sources.add(String.format(Locale.ROOT, "%s, %s (%s): p50 %.1f ns, p90 %.1f ns, p99 %.1f ns over %d passes "
                        + "\u2014 latency entry %s, %s", pattern.getKey(), ChartStyle.bytes(e.workingSetBytes()), e.level(),
                        n.p50(), n.p90(), n.p99(), n.samples(), e.id(), Provenances.describe(e.provenance())));
            }
        }
        XYPlot plot = new XYPlot(data, null, null, renderer);
        LogAxis x = ChartStyle.bytesLogAxis("working set of the pointer chase (bytes, log scale)");
        double xLow = minSize / 4.0;
        double xHigh = maxSize * 4.0;
        x.setAutoRange(false);
        x.setRange(xLow, xHigh);
        LogAxis y = ChartStyle.decimalLogAxis("latency per load (ns, log scale)");
        ChartStyle.logRange(y, low, high, 1.8);
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        sources.addAll(WorkingSetChart.markCaches(plot, profile.host(), xLow, xHigh));
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "Dependent loads (each address comes from the previous load): one step per cache level, DRAM at the right.");
        String caption = "Percentiles of nanoseconds per load of a dependent pointer chase over each working set, from "
                + "the profile's latency entries of device " + device.id() + "; dotted lines mark the cache sizes.";
        return new Figure.Drawn(stem(device), title, caption, sources, chart);
    }
}
