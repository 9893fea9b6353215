package membound.report.chart;

import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Host;
import membound.profile.Profile;
import membound.report.Provenances;

/**
 * Bandwidth against working-set size, one line per kernel (and element type and thread count), with
 * the host's cache sizes marked: the steps down are where the arrays stop fitting in a level. Bars
 * span the measured spread (p5 to p95, else worst to best).
 */
public final class WorkingSetChart {

    /** STREAM's rule: DRAM figures need every array at least 4x the last-level cache. */
    static final int STREAM_LAST_LEVEL_FACTOR = 4;
    /**
     * Two measured sizes of a series are joined by a line only when the larger is at most this many times the
     * smaller (a sweep's neighbours): a line across a wider gap would draw a curve through sizes nothing measured.
     */
    static final double JOINED_SIZE_RATIO = 4;

    private WorkingSetChart() {
    }

    static String stem(Device device) {
        return "bandwidth-working-set-" + device.id();
    }

    public static Figure of(Profile profile, Device device) {
        String title = "Bandwidth by working set: " + device.name();
        Map<String, List<BandwidthEntry>> groups = new LinkedHashMap<>();
        TreeSet<Long> sizes = new TreeSet<>();
        int withoutSize = 0;
        for (BandwidthEntry e : device.bandwidth()) {
            if (e.workingSetBytes() == null) {
                withoutSize++;
                continue;
            }
            sizes.add(e.workingSetBytes());
            groups.computeIfAbsent(seriesName(e), k -> new ArrayList<>()).add(e);
        }
        if (sizes.size() < 2) {
            return new Figure.Omitted(stem(device), title, "device " + device.id() + " has bandwidth at "
                    + (sizes.isEmpty() ? "no known working-set size" : "one working-set size only (" + ChartStyle.bytes(sizes.first()) + ")")
                    + ": a curve needs two or more (" + membound.vocabulary.text.Launcher.command("calibrate --standard")
                    + " measures L1 to DRAM)");
        }
        java.util.Set<membound.vocabulary.MemoryLevel> levels = new java.util.TreeSet<>();
        groups.values().forEach(list -> list.forEach(e -> levels.add(e.level())));
        if (levels.size() < 2) {
            // Sizes of one level only (a GPU's DRAM runs): no step to show, a near-empty panel; the figures are in the
            // key figures and the measured-against-nominal chart.
            return new Figure.Omitted(stem(device), title, "device " + device.id() + " has bandwidth in one memory level "
                    + "only (" + levels.iterator().next() + ", " + ChartStyle.bytes(sizes.first()) + " to "
                    + ChartStyle.bytes(sizes.last()) + "): a working-set curve needs figures in two or more levels; "
                    + "its figures are in the key figures above");
        }
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        XYErrorRenderer renderer = new XYErrorRenderer();
        renderer.setDrawXError(false);
        renderer.setDrawYError(true);
        renderer.setCapLength(6);
        renderer.setErrorPaint(ChartStyle.GREY);
        List<String> sources = new ArrayList<>();
        double low = Double.MAX_VALUE;
        double high = 0;
        int index = 0;
        int group = 0;
        int gaps = 0;
        for (Map.Entry<String, List<BandwidthEntry>> g : groups.entrySet()) {
            List<BandwidthEntry> entries = new ArrayList<>(g.getValue());
            entries.sort(Comparator.comparingLong(BandwidthEntry::workingSetBytes));
            YIntervalSeries s = null;
            long previous = 0;
            int part = 0;
            for (BandwidthEntry e : entries) {
                if (s == null || e.workingSetBytes() > JOINED_SIZE_RATIO * previous) {
                    // A new segment: the same kernel's figures, not joined across sizes nothing measured.
                    if (s != null) {
                        gaps++;
                    }
                    s = new YIntervalSeries(part == 0 ? g.getKey() : g.getKey() + " (" + (part + 1) + ")", false, true);
                    data.addSeries(s);
                    renderer.setSeriesPaint(index, ChartStyle.color(group));
                    renderer.setSeriesStroke(index, ChartStyle.LINE);
                    renderer.setSeriesShape(index, new Ellipse2D.Double(-4.5, -4.5, 9, 9));
                    renderer.setSeriesShapesVisible(index, true);
                    renderer.setSeriesLinesVisible(index, true);
                    renderer.setSeriesVisibleInLegend(index, part == 0);
                    index++;
                    part++;
                }
                previous = e.workingSetBytes();
                Distribution d = e.streamBytesPerSecond();
                double typical = d.typical() / 1e9;
                double from = d.low() != null && d.high() != null ? d.low() / 1e9 : typical;
                double to = d.low() != null && d.high() != null ? d.high() / 1e9 : typical;
                s.add(e.workingSetBytes(), typical, from, to);
                low = Math.min(low, from);
                high = Math.max(high, to);
                sources.add(String.format(Locale.ROOT, "%s at %s: %s (%s) \u2014 bandwidth entry %s, %s", g.getKey(),
                        ChartStyle.bytes(e.workingSetBytes()), ChartStyle.bandwidth(d.typical()), statistic(d), e.id(),
                        Provenances.describe(e.provenance())));
            }
            group++;
        }
        XYPlot plot = new XYPlot(data, null, null, renderer);
        LogAxis x = ChartStyle.bytesLogAxis("working set: all arrays of all threads (bytes, log scale)");
        double xLow = sizes.first() / 4.0;
        double xHigh = sizes.last() * 4.0;
        Double nominal = profile.nominal().memoryBandwidthOf(device.id()).map(n -> n.bytesPerSecond()).orElse(null);
        if (nominal != null) {
            YIntervalSeries n = new YIntervalSeries("nominal memory bandwidth " + ChartStyle.bandwidth(nominal) + " (datasheet)",
                    false, true);
            n.add(xLow, nominal / 1e9, nominal / 1e9, nominal / 1e9);
            n.add(xHigh, nominal / 1e9, nominal / 1e9, nominal / 1e9);
            data.addSeries(n);
            renderer.setSeriesPaint(index, ChartStyle.GREY);
            renderer.setSeriesStroke(index, ChartStyle.DASHED);
            renderer.setSeriesShapesVisible(index, false);
            // XYErrorRenderer draws no lines unless asked (its constructor turns them off).
            renderer.setSeriesLinesVisible(index, true);
            high = Math.max(high, nominal / 1e9);
            sources.add("nominal: " + Provenances.describe(profile.nominal().memoryBandwidthOf(device.id()).get().provenance()));
        }
        x.setAutoRange(false);
        x.setRange(xLow, xHigh);
        LogAxis y = ChartStyle.decimalLogAxis("bandwidth, STREAM bytes (GB/s, log scale)");
        ChartStyle.logRange(y, low, high, 1.6);
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        List<String> marked = markCaches(plot, profile.host(), xLow, xHigh);
        sources.addAll(marked);
        String subtitle = "Steps down where the arrays outgrow a cache; dotted lines: cache sizes (all instances of a level), bars: spread.";
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true), subtitle);
        String caption = "STREAM-convention bandwidth (bytes the kernel reads and writes; write-allocate traffic not counted) "
                + "against the working set, from the profile's bandwidth entries of device " + device.id()
                + ". Dotted vertical lines mark the host's cache sizes, each level's instances added together, since a "
                + "working set counts the arrays of all threads; DRAM figures need at least " + STREAM_LAST_LEVEL_FACTOR
                + "x the last-level cache (STREAM's rule). A line joins only sizes at most "
                + String.format(Locale.ROOT, "%.0f", JOINED_SIZE_RATIO) + "x apart"
                + (gaps > 0 ? "; points further apart stand alone: nothing was measured between them" : "") + "."
                + (withoutSize > 0 ? " " + withoutSize + " bandwidth entr" + (withoutSize == 1 ? "y has" : "ies have")
                + " no working-set size and are left out." : "");
        return new Figure.Drawn(stem(device), title, caption, sources, chart);
    }

    static String seriesName(BandwidthEntry e) {
        StringBuilder name = new StringBuilder(e.kernel()).append(", ").append(e.elementType());
        if (e.threads() != null) {
            name.append(", ").append(e.threads()).append(e.threads() == 1 ? " thread" : " threads");
        }
        if (e.placement() != null && !e.placement().equals("all")) {
            name.append(" (").append(e.placement()).append(')');
        }
        return name.toString();
    }

    static String statistic(Distribution d) {
        return d.typicalStatistic().label();
    }

    /**
     * Dotted vertical lines at each cache level's total size (and at 4x the last-level cache), with labels
     * at staggered heights so that levels of similar size stay readable.
     *
     * @return one source line per marker
     */
    static List<String> markCaches(XYPlot plot, Host host, double xLow, double xHigh) {
        Map<Integer, Long> totals = new TreeMap<>();
        Map<Integer, List<String>> parts = new TreeMap<>();
        for (Host.Cache c : host.caches()) {
            if ("instruction".equals(c.type())) {
                continue;
            }
            totals.merge(c.level(), c.totalBytes(), Long::sum);
            parts.computeIfAbsent(c.level(), k -> new ArrayList<>()).add(c.instances() + " x "
                    + ChartStyle.bytes(c.sizeBytes()) + (c.coreType() != null ? " (" + c.coreType() + ")" : "")
                    + " [" + c.source() + "]");
        }
        List<String> sources = new ArrayList<>();
        int row = 0;
        for (Map.Entry<Integer, Long> t : totals.entrySet()) {
            String name = t.getKey() == 4 ? "SLC" : "L" + t.getKey();
            String label = name + " " + ChartStyle.bytes(t.getValue());
            if (mark(plot, t.getValue(), label, row, xLow, xHigh)) {
                row++;
            }
            sources.add(label + ": " + String.join(" + ", parts.get(t.getKey())));
        }
        host.lastLevelCache().ifPresent(llc -> {
            long rule = STREAM_LAST_LEVEL_FACTOR * llc.totalBytes();
            String label = STREAM_LAST_LEVEL_FACTOR + "x last-level cache";
            if (mark(plot, rule, label, totals.size(), xLow, xHigh)) {
                sources.add(label + ": " + ChartStyle.bytes(rule) + " (STREAM's rule for DRAM figures)");
            }
        });
        return sources;
    }

    private static boolean mark(XYPlot plot, double x, String label, int row, double xLow, double xHigh) {
        if (x < xLow || x > xHigh) {
            return false;
        }
        ValueMarker m = new ValueMarker(x, ChartStyle.GREY, ChartStyle.MARKER);
        m.setLabel(label);
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        m.setLabelPaint(ChartStyle.GREY);
        m.setLabelBackgroundColor(new java.awt.Color(255, 255, 255, 210));
        m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        m.setLabelOffset(new RectangleInsets(4 + 15 * (row % 4), 3, 0, 0));
        plot.addDomainMarker(m, Layer.BACKGROUND);
        return true;
    }
}
