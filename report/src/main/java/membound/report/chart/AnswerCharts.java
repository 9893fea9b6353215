package membound.report.chart;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import membound.model.sweep.Sweeps;

/**
 * The charts of the one-page answer (membound answer): model size, the bandwidth map, precision,
 * sharing and mitigations. Each is drawn from the sweeps' predictions only; a sweep with no point to
 * draw gives an {@link Figure.Omitted} with the reason.
 */
public final class AnswerCharts {

    private static final double HOUR = 3600;

    private AnswerCharts() {
    }

    /**
     * A vertical line at a bandwidth on a map: a machine's main-memory bandwidth on the measured basis, or its
     * datasheet figure. A map draws its own machine's two (blue) and the other machines' measured ones (black).
     */
    public record Marker(String label, double bytesPerSecond, String machineId, boolean datasheet) {
    }

    /** Hours to train the setup's tokens against parameters, one line per machine; a point that does not fit is hollow. */
    public static Figure modelSize(List<Sweeps.Point> points, long tokens) {
        String stem = "answer-model-size";
        String title = "Time to train against model size";
        Map<String, XYSeries> fits = new LinkedHashMap<>();
        Map<String, XYSeries> doesNot = new LinkedHashMap<>();
        double low = Double.MAX_VALUE;
        double high = 0;
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (Sweeps.Point p : points) {
            fits.computeIfAbsent(p.machineLabel(), n -> new XYSeries(n + " (fits)", true, false));
            doesNot.computeIfAbsent(p.machineLabel(), n -> new XYSeries(n + " (does not fit in its memory)", true, false));
            if (!p.predicted()) {
                continue;
            }
            double hours = p.measured().totalSeconds() / HOUR;
            (p.memory().fits() ? fits : doesNot).get(p.machineLabel()).add(p.parameters(), hours);
            low = Math.min(low, hours);
            high = Math.max(high, hours);
            smallest = Math.min(smallest, p.parameters());
            largest = Math.max(largest, p.parameters());
        }
        if (high == 0) {
            return new Figure.Omitted(stem, title, "no model of the sweep could be predicted on any machine");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int machine = 0;
        for (String name : fits.keySet()) {
            // Machines whose times nearly coincide (an H200 on a GH200) would hide one line under the next: each
            // has its own marker, and the earlier ones are drawn larger and wider, so the later stay visible on them.
            java.awt.Shape dot = marker(machine);
            float width = Math.max(2.2f, 6.5f - 1.3f * machine);
            add(data, renderer, fits.get(name), ChartStyle.color(machine), new java.awt.BasicStroke(width,
                    java.awt.BasicStroke.CAP_ROUND, java.awt.BasicStroke.JOIN_ROUND), dot, true);
            if (doesNot.get(name).getItemCount() > 0) {
                add(data, renderer, doesNot.get(name), ChartStyle.color(machine), new java.awt.BasicStroke(width,
                        java.awt.BasicStroke.CAP_ROUND, java.awt.BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 2 * width},
                        0f), dot, false);
            }
            machine++;
        }
        XYPlot plot = new XYPlot(data, null, null, renderer);
        LogAxis x = ChartStyle.decimalLogAxis("parameters (log scale)");
        ChartStyle.logRange(x, smallest, largest, 1.4);
        x.setNumberFormatOverride(new ParametersFormat());
        LogAxis y = ChartStyle.decimalLogAxis(String.format(Locale.ROOT, "hours to train %s tokens (log scale)",
                ParametersFormat.short_(tokens)));
        ChartStyle.logRange(y, low, high, 1.6);
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "Same setup on every machine; hollow, dotted: the model does not fit in that machine's memory as set up.");
        return new Figure.Drawn(stem, title, "Each point is membound predict's measured-basis step times the steps to "
                + "train the tokens. Where a line turns hollow the machine stops fitting the model; the table below "
                + "says what fits instead.", List.of("every point: membound.model.Estimator.predict on the machine's "
                + "measured basis (profile: its measured ceilings; catalog machines: published third-party measurements "
                + "where the catalog has them, else datasheet figures, as the table's sources say)",
                "fit: membound.model.memory.MemoryModel against the machine's memory capacity"), chart);
    }

    /**
     * The step's slowdown over its compute-only floor across bandwidth (x, log) and model size (y), on
     * the profile's machine, with the measured, datasheet and HBM machines' bandwidths marked.
     */
    public static Figure bandwidthMap(Sweeps.BandwidthMap map, List<Marker> markers, String stem) {
        String title = "Where bandwidth becomes the bottleneck on " + map.machineName();
        int models = map.models().size();
        int columns = map.bandwidths().length;
        if (models == 0) {
            return new Figure.Omitted(stem, title, "no model of the sweep could be laid out on " + map.machineName());
        }
        double[] xs = new double[models * columns];
        double[] ys = new double[models * columns];
        double[] zs = new double[models * columns];
        double step = Math.log10(map.bandwidths()[1] / map.bandwidths()[0]);
        for (int m = 0; m < models; m++) {
            for (int c = 0; c < columns; c++) {
                int i = m * columns + c;
                xs[i] = Math.log10(map.bandwidths()[c] / 1e9);
                ys[i] = m;
                zs[i] = map.slowdown(m, c);
            }
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("slowdown", new double[][] {xs, ys, zs});
        XYBlockRenderer renderer = new XYBlockRenderer();
        renderer.setBlockWidth(step);
        renderer.setBlockHeight(1.0);
        LookupPaintScale scale = new LookupPaintScale(1.0, 10.0, new Color(0x8B, 0x00, 0x00));
        double[] bounds = {1.0, 1.1, 1.25, 1.5, 2, 3, 5};
        Color[] colors = {new Color(0xF7, 0xFB, 0xFF), new Color(0xDE, 0xEB, 0xF7), new Color(0xFD, 0xE0, 0xC5),
                new Color(0xFA, 0xBB, 0x8E), new Color(0xF2, 0x84, 0x5C), new Color(0xD9, 0x4E, 0x34),
                new Color(0xA5, 0x1C, 0x1C)};
        for (int i = 0; i < bounds.length; i++) {
            scale.add(bounds[i], colors[i]);
        }
        renderer.setPaintScale(scale);
        NumberAxis x = new NumberAxis("main-memory bandwidth (GB/s, log scale)");
        x.setNumberFormatOverride(new PowerOfTenFormat());
        x.setTickUnit(new NumberTickUnit(1));
        x.setRange(xs[0] - step / 2, xs[columns - 1] + step / 2);
        String[] names = new String[models];
        for (int m = 0; m < models; m++) {
            names[m] = map.models().get(m) + " (" + ParametersFormat.short_(map.parameters()[m]) + ")";
        }
        SymbolAxis y = new SymbolAxis("model", names);
        y.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        int shown = 0;
        List<Marker> drawn = new ArrayList<>();
        for (Marker marker : markers) {
            boolean own = marker.machineId().equals(map.machineId());
            double at = Math.log10(marker.bytesPerSecond() / 1e9);
            if (!own && marker.datasheet() || at < x.getLowerBound() || at > x.getUpperBound()) {
                continue;
            }
            ValueMarker line = new ValueMarker(at);
            line.setPaint(own ? ChartStyle.BLUE : ChartStyle.BLACK);
            line.setStroke(own && !marker.datasheet() ? ChartStyle.LINE : ChartStyle.DASHED);
            line.setLabel(marker.label());
            line.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 11));
            // Dark text on an almost opaque white box: readable over the map's darkest red and beside its lines.
            line.setLabelPaint(own ? ChartStyle.BLUE.darker() : ChartStyle.BLACK);
            line.setLabelBackgroundColor(new Color(255, 255, 255, 235));
            line.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            line.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
            // Staggered, so that close bandwidths (an H100's and a GH200's) keep readable labels.
            line.setLabelOffset(new RectangleInsets(4 + 14 * (shown % 4), 2, 2, 4));
            plot.addDomainMarker(line);
            drawn.add(marker);
            shown++;
        }
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, false), "Colour: step time over the same step with unlimited bandwidth (1.0: bandwidth costs "
                + "nothing; 2: it doubles the step). Compute ceilings stay as measured.");
        NumberAxis legendAxis = new NumberAxis("slowdown from memory bandwidth (x)");
        legendAxis.setRange(1.0, 6.0);
        PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setMargin(new RectangleInsets(8, 8, 30, 8));
        legend.setStripWidth(14);
        chart.addSubtitle(legend);
        List<String> sources = new ArrayList<>();
        sources.add(String.format(Locale.ROOT, "each row: membound.model.Estimator.bandwidthSweep on %s, every memory "
                + "bandwidth (device and host) scaled together from %s to %s; the floor is the step at %.0fx the measured "
                + "bandwidth", map.machineName(), ChartStyle.bandwidth(map.bandwidths()[0]),
                ChartStyle.bandwidth(map.bandwidths()[columns - 1]), Sweeps.UNLIMITED));
        sources.add("blue line: " + map.machineName() + "'s main-memory read bandwidth on the measured basis, "
                + ChartStyle.bandwidth(map.measuredBandwidth()) + " (" + map.measuredSource() + ")");
        for (Marker marker : drawn) {
            sources.add("line " + marker.label() + ": " + ChartStyle.bandwidth(marker.bytesPerSecond())
                    + (marker.datasheet() ? " (datasheet)" : " (measured basis: the machine's own measurement or the "
                    + "catalog's published one, as the Machines table says)"));
        }
        return new Figure.Drawn(stem, title, "Read a row from left to right: where its colour fades to white, more "
                + "bandwidth stops paying. HBM machines' lines mark their bandwidth only: the map keeps this machine's "
                + "compute, so it answers what this machine would do with their memory.", sources, chart);
    }

    /** Hours to train per precision (training and LoRA fine-tuning), one bar per machine. */
    public static Figure precision(List<Sweeps.VariantPoint> points, long tokens) {
        String stem = "answer-precision";
        String title = "Precision: time to train";
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        java.util.Set<String> missing = new java.util.HashSet<>();
        double low = Double.MAX_VALUE;
        double high = 0;
        for (Sweeps.VariantPoint v : points) {
            if (v.point().predicted()) {
                double hours = v.point().measured().totalSeconds() / HOUR;
                data.addValue(hours, v.point().machineLabel(), v.variant().label());
                if (!v.point().memory().fits()) {
                    missing.add(v.point().machineLabel() + "\u0000" + v.variant().label());
                }
                low = Math.min(low, hours);
                high = Math.max(high, hours);
            }
        }
        if (high == 0) {
            return new Figure.Omitted(stem, title, "no precision could be predicted on any machine");
        }
        LogAxis y = ChartStyle.decimalLogAxis(String.format(Locale.ROOT, "hours to train %s tokens (log scale)",
                ParametersFormat.short_(tokens)));
        ChartStyle.logRange(y, low, high, 1.6);
        // A setup that does not fit the machine's memory is drawn hollow, in its machine's colour: as on the
        // model-size chart, a time for a setup that cannot run is never shown as if it could.
        BarRenderer renderer = new BarRenderer() {
            private static final long serialVersionUID = 1L;

            private boolean fits(int row, int column) {
                return !missing.contains(data.getRowKey(row) + "\u0000" + data.getColumnKey(column));
            }

            @Override
            public java.awt.Paint getItemPaint(int row, int column) {
                return fits(row, column) ? super.getItemPaint(row, column) : Color.WHITE;
            }

            @Override
            public java.awt.Paint getItemOutlinePaint(int row, int column) {
                return fits(row, column) ? super.getItemOutlinePaint(row, column) : ChartStyle.color(row);
            }

            @Override
            public java.awt.Stroke getItemOutlineStroke(int row, int column) {
                return fits(row, column) ? super.getItemOutlineStroke(row, column) : new java.awt.BasicStroke(2.5f);
            }
        };
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDrawBarOutline(true);
        renderer.setItemMargin(0.04);
        for (int i = 0; i < data.getRowCount(); i++) {
            renderer.setSeriesPaint(i, ChartStyle.color(i));
            renderer.setSeriesOutlinePaint(i, ChartStyle.color(i));
        }
        CategoryAxis x = new CategoryAxis(null);
        x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        CategoryPlot plot = new CategoryPlot(data, x, y, renderer);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "Weights, activations and gradients at each precision (optimizer states and master weights as set); "
                        + "hollow: does not fit in that machine's memory.");
        return new Figure.Drawn(stem, title, "A lower precision moves fewer bytes and runs on faster tensor units "
                + "where the machine has them; a machine without a ceiling for a precision runs it at the nearest it has "
                + "(the table's notes say so).", List.of("every bar: membound.model.Estimator.predict with --precision P "
                + "(and --finetune lora for fine-tuning), measured basis"), chart);
    }

    /** Tokens/s of each user and of all together against the number of users, per machine. */
    public static Figure sharing(List<Sweeps.SharingPoint> points) {
        String stem = "answer-sharing";
        String title = "Several users on one machine";
        Map<String, XYSeries> each = new LinkedHashMap<>();
        Map<String, XYSeries> total = new LinkedHashMap<>();
        double high = 0;
        int most = 1;
        for (Sweeps.SharingPoint s : points) {
            String name = s.point().machineLabel() + (s.measuredCurve() ? " (measured tenants curve)" : " (even split)");
            each.computeIfAbsent(name, n -> new XYSeries(n + ": each user", true, false));
            total.computeIfAbsent(name, n -> new XYSeries(n + ": all users", true, false));
            if (s.point().predicted()) {
                each.get(name).add(s.tenants(), s.perUserTokensPerSecond());
                total.get(name).add(s.tenants(), s.totalTokensPerSecond());
                high = Math.max(high, s.totalTokensPerSecond());
                most = Math.max(most, s.tenants());
            }
        }
        if (high == 0) {
            return new Figure.Omitted(stem, title, "no number of users could be predicted on any machine");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int machine = 0;
        for (String name : each.keySet()) {
            add(data, renderer, each.get(name), ChartStyle.color(machine), ChartStyle.LINE, null, true);
            add(data, renderer, total.get(name), ChartStyle.color(machine), ChartStyle.DASHED, null, false);
            machine++;
        }
        NumberAxis x = new NumberAxis("users training at once");
        x.setTickUnit(new NumberTickUnit(1));
        x.setRange(0.8, most + 0.2);
        LogAxis y = ChartStyle.decimalLogAxis("tokens per second (log scale)");
        double low = Double.MAX_VALUE;
        for (XYSeries s : each.values()) {
            for (int i = 0; i < s.getItemCount(); i++) {
                low = Math.min(low, s.getY(i).doubleValue());
            }
        }
        ChartStyle.logRange(y, low, high, 1.5);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true),
                "Solid: each user's tokens/s; dashed: all users together. Each user trains the same workload.");
        return new Figure.Drawn(stem, title, "Users share the memory bandwidth by the machine's measured tenants curve "
                + "where the profile has one (an even split otherwise) and the compute evenly. The CPU/GPU sharing curve "
                + "of a unified-memory machine is not measured yet (the GPU suite has not run on one): no such line is drawn.",
                List.of("every point: membound.model.Estimator.predict with --tenants K, measured basis"), chart);
    }

    /** Change in the time to train per mitigation on one machine, against the setup as given. */
    public static Figure mitigations(List<Sweeps.VariantPoint> rows, Sweeps.Point base) {
        String stem = "answer-mitigations";
        String title = "Mitigations: change in time to train";
        if (base == null || !base.predicted()) {
            return new Figure.Omitted(stem, title, "the setup as given could not be predicted"
                    + (base == null ? "" : ": " + base.error()));
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double baseSeconds = base.measured().totalSeconds();
        int drawn = 0;
        for (Sweeps.VariantPoint v : rows) {
            if (v.point().predicted() && v.point().machineId().equals(base.machineId())) {
                double change = 100 * (v.point().measured().totalSeconds() - baseSeconds) / baseSeconds;
                data.addValue(change, v.point().memory().fits() ? "fits" : "does not fit", v.variant().label());
                drawn++;
            }
        }
        if (drawn == 0) {
            return new Figure.Omitted(stem, title, "no mitigation could be predicted on " + base.machineName());
        }
        NumberAxis y = new NumberAxis("change in time to train (%; negative is faster)");
        BarRenderer renderer = new BarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0);
        for (int i = 0; i < data.getRowCount(); i++) {
            renderer.setSeriesPaint(i, "fits".equals(data.getRowKey(i)) ? ChartStyle.GREEN : ChartStyle.VERMILLION);
        }
        CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(null), y, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        ValueMarker zero = new ValueMarker(0);
        zero.setPaint(ChartStyle.BLACK);
        plot.addRangeMarker(zero);
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title + " on " + base.machineName(), ChartStyle.TITLE_FONT,
                plot, true), "Against the setup as given; the table beside gives memory, the memory-bound share and the "
                + "command of each.");
        return new Figure.Drawn(stem, title, "Each bar is one change to the setup as given, predicted on the same "
                + "machine; green where the result fits in its memory.", List.of("every bar: membound.model.Estimator."
                + "predict with the row's flags added to the setup as given (the table lists each command)"), chart);
    }

    /** Adds one line to an XY chart, drawn in {@code paint} and {@code stroke} (with {@code shape}, or the default). */
    /** The i-th machine's marker: a circle, square, triangle, diamond, then an inverted triangle, largest first. */
    static java.awt.Shape marker(int i) {
        double r = Math.max(4, 8 - 1.2 * i);
        return switch (i % 5) {
            case 0 -> new Ellipse2D.Double(-r, -r, 2 * r, 2 * r);
            case 1 -> new java.awt.geom.Rectangle2D.Double(-r, -r, 2 * r, 2 * r);
            case 2 -> new java.awt.Polygon(new int[] {0, (int) Math.round(r), (int) -Math.round(r)},
                    new int[] {(int) -Math.round(r), (int) Math.round(r), (int) Math.round(r)}, 3);
            case 3 -> new java.awt.Polygon(new int[] {0, (int) Math.round(r), 0, (int) -Math.round(r)},
                    new int[] {(int) -Math.round(r), 0, (int) Math.round(r), 0}, 4);
            default -> new java.awt.Polygon(new int[] {0, (int) Math.round(r), (int) -Math.round(r)},
                    new int[] {(int) Math.round(r), (int) -Math.round(r), (int) -Math.round(r)}, 3);
        };
    }

    private static void add(XYSeriesCollection data, XYLineAndShapeRenderer renderer, XYSeries series,
                            java.awt.Paint paint, java.awt.Stroke stroke, java.awt.Shape shape, boolean filled) {
        int i = data.getSeriesCount();
        data.addSeries(series);
        renderer.setSeriesPaint(i, paint);
        renderer.setSeriesStroke(i, stroke);
        if (shape != null) {
            renderer.setSeriesShape(i, shape);
        }
        renderer.setSeriesShapesFilled(i, filled);
    }

    /** 124M, 1.5B, 70B, 405B; 1T: parameters and token counts as people write them. */
    static final class ParametersFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        static String short_(double value) {
            String[] units = {"", "K", "M", "B", "T", "P"};
            int unit = 0;
            double v = value;
            while (Math.abs(v) >= 1000 && unit < units.length - 1) {
                v /= 1000;
                unit++;
            }
            return (v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                    : v >= 10 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v)) + units[unit];
        }

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(short_(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            return null;
        }
    }

    /** An axis in log10 units read as plain numbers: 2 reads 100, 3 reads 1,000. */
    static final class PowerOfTenFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            double value = Math.pow(10, number);
            return toAppendTo.append(value >= 1 ? String.format(Locale.ROOT, "%,.0f", value)
                    : String.format(Locale.ROOT, "%.2g", value));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            return null;
        }
    }
}
