package membound.report.chart;

import java.awt.Color;
import java.awt.Paint;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYPointerAnnotation;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import membound.model.OperationRow;
import membound.model.roofline.CeilingLine;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.report.Provenances;
import membound.report.TrainingRun;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * The roofline of one device (Williams, Waterman and Patterson 2009), log-log: attainable FLOP/s
 * against arithmetic intensity. Each measured memory level is a diagonal (bandwidth x intensity),
 * each measured compute ceiling a horizontal roof; datasheet figures are dashed. The workload's
 * operations sit at their intensity and the rate the model gives them, so the ones left of the
 * ridge, on a diagonal, are the memory-bound ones.
 */
public final class RooflineChart {

    /** Operations labelled on the chart: the slowest few, enough to name what dominates. */
    static final int LABELLED_OPERATIONS = 3;
    /** Only an operation with at least this share of the step gets a label; smaller ones are in the table. */
    static final double LABELLED_SHARE = 0.05;
    // Roof labels are 11 px fonts in a plot about 420 px high (ChartStyle sizes): a label needs ~15 px.
    private static final double LABEL_HEIGHT_PIXELS = 15;
    private static final double PLOT_HEIGHT_PIXELS = 420;

    private static final Map<MemoryLevel, Color> LEVEL_COLORS = new EnumMap<>(Map.of(
            MemoryLevel.L1, ChartStyle.ORANGE,
            MemoryLevel.L2, ChartStyle.PURPLE,
            MemoryLevel.L3, ChartStyle.SKY,
            MemoryLevel.SLC, new Color(0x99, 0x66, 0x33),
            MemoryLevel.DRAM, ChartStyle.BLUE));
    // Dark hues for roofs, apart from the levels' colours and from the operations' vermillion and green.
    private static final Color[] COMPUTE_COLORS = {ChartStyle.BLACK, new Color(0x8C, 0x51, 0x0A),
            new Color(0x5E, 0x3C, 0x99), new Color(0x6B, 0x6B, 0x00), new Color(0x4D, 0x4D, 0x80)};
    // Order in which an access pattern stands for its level: read is what weights and GEMM operands see.
    private static final List<AccessPattern> ACCESS_PREFERENCE = List.of(AccessPattern.READ, AccessPattern.TRIAD, AccessPattern.COPY,
            AccessPattern.WRITE);

    private RooflineChart() {
    }

    static String stem(Device device) {
        return "roofline-" + device.id();
    }

    /** Where a roof's figure comes from, which sets how it is drawn. */
    enum Kind {
        /** In the profile as measured (or imported): solid. */
        MEASURED,
        /** In the profile as a datasheet figure: dashed. */
        NOMINAL,
        /** Not in the profile, but a ceiling the model gave operations of this device: dotted. */
        MODEL
    }

    record Roof(String label, double value, Kind kind, Paint paint, String source) {
    }

    /** Two rates this close are the same ceiling (the model's figures are the profile's, rounded through JSON). */
    private static final double SAME_CEILING = 0.02;

    /**
     * @param run the prediction, when it ran on this device (its operations are drawn); null otherwise
     */
    public static Figure of(Profile profile, Device device, TrainingRun run) {
        String title = "Roofline: " + device.name();
        List<Roof> bandwidths = bandwidthRoofs(profile, device);
        List<Roof> profileComputes = computeRoofs(profile, device);
        if (bandwidths.isEmpty()) {
            return new Figure.Omitted(stem(device), title, "device " + device.id()
                    + " has no bandwidth ceiling (levels[] is empty) and no nominal memory bandwidth");
        }
        if (profileComputes.isEmpty()) {
            return new Figure.Omitted(stem(device), title, "device " + device.id()
                    + " has no compute ceiling (compute[] is empty) and no known nominal peak: a roofline needs a roof");
        }
        List<OperationRow> points = new ArrayList<>();
        int notDrawn = 0;
        if (run != null) {
            for (OperationRow op : run.operations()) {
                if (op.arithmeticIntensity() != null && op.arithmeticIntensity() > 0 && op.flops() > 0 && op.seconds() > 0) {
                    points.add(op);
                } else {
                    notDrawn++;
                }
            }
        }
        List<Roof> computes = new ArrayList<>(profileComputes);
        int profileBandwidths = bandwidths.size();
        if (run != null) {
            computes.addAll(modelRoofs(run, profileComputes, points));
            bandwidths = new ArrayList<>(bandwidths);
            bandwidths.addAll(modelDiagonals(run, bandwidths, points, device));
        }
        double maxCompute = computes.stream().mapToDouble(Roof::value).max().orElseThrow();
        double maxBandwidth = bandwidths.stream().mapToDouble(Roof::value).max().orElseThrow();
        double minBandwidth = bandwidths.stream().mapToDouble(Roof::value).min().orElseThrow();
        double lowIntensity = 0.1;
        double highIntensity = 2 * maxCompute / minBandwidth;
        for (OperationRow op : points) {
            lowIntensity = Math.min(lowIntensity, op.arithmeticIntensity());
            highIntensity = Math.max(highIntensity, op.arithmeticIntensity() * 2);
        }
        double xLow = Math.pow(10, Math.floor(Math.log10(lowIntensity))) / 1.2;
        double xHigh = Math.pow(10, Math.ceil(Math.log10(highIntensity))) * 1.2;

        double unit = maxCompute >= 1e13 ? 1e12 : 1e9;
        String unitName = unit == 1e12 ? "TFLOP/s" : "GFLOP/s";
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        List<String> sources = new ArrayList<>();
        for (Roof b : bandwidths) {
            XYSeries s = new XYSeries(b.label(), false, true);
            double ridge = Math.min(xHigh, maxCompute / b.value());
            s.add(xLow, b.value() * xLow / unit);
            s.add(ridge, b.value() * ridge / unit);
            add(data, renderer, s, b.paint(), b.kind());
            sources.add(b.label() + ": " + b.source());
        }
        for (Roof c : computes) {
            XYSeries s = new XYSeries(c.label(), false, true);
            s.add(c.value() / maxBandwidth, c.value() / unit);
            s.add(xHigh, c.value() / unit);
            add(data, renderer, s, c.paint(), c.kind());
            sources.add(c.label() + ": " + c.source());
        }
        XYPlot plot = new XYPlot(data, null, null, renderer);
        if (run != null) {
            long memoryBound = points.stream().filter(op -> op.bound().equals("memory")).count();
            XYSeries memory = new XYSeries("operations, memory-bound (" + memoryBound + " of " + run.operations().size() + ")",
                    false, true);
            XYSeries compute = new XYSeries("operations, compute-bound (" + (points.size() - memoryBound) + " of "
                    + run.operations().size() + ")", false, true);
            for (OperationRow op : points) {
                (op.bound().equals("memory") ? memory : compute).add(op.arithmeticIntensity().doubleValue(), op.flops() / op.seconds() / unit);
            }
            int m = data.getSeriesCount();
            data.addSeries(memory);
            data.addSeries(compute);
            renderer.setSeriesLinesVisible(m, false);
            renderer.setSeriesShapesVisible(m, true);
            renderer.setSeriesPaint(m, ChartStyle.VERMILLION);
            renderer.setSeriesShape(m, new Ellipse2D.Double(-5, -5, 10, 10));
            renderer.setSeriesLinesVisible(m + 1, false);
            renderer.setSeriesShapesVisible(m + 1, true);
            renderer.setSeriesPaint(m + 1, ChartStyle.GREEN);
            renderer.setSeriesShape(m + 1, new Rectangle2D.Double(-4.5, -4.5, 9, 9));
            labelSlowest(plot, points, unit, xHigh);
            sources.add("operations: membound predict on " + run.machine() + " (docs/model.md): FLOPs and bytes of each "
                    + "operation of one step; height = its FLOPs over the time the roofline gives it on the measured ceilings");
        }

        LogAxis x = ChartStyle.decimalLogAxis("arithmetic intensity (FLOP per byte of memory traffic)");
        x.setAutoRange(false);
        x.setRange(xLow, xHigh);
        LogAxis y = ChartStyle.decimalLogAxis("attainable rate (" + unitName + ")");
        double yLow = minBandwidth * xLow / unit;
        double yHigh = maxCompute / unit;
        int aboveEveryRoof = 0;
        for (OperationRow op : points) {
            double rate = op.flops() / op.seconds();
            yLow = Math.min(yLow, rate / unit);
            yHigh = Math.max(yHigh, rate / unit);
            if (rate > maxCompute * (1 + SAME_CEILING)) {
                aboveEveryRoof++;
            }
        }
        // Never clip a point: the range takes the operations in as well as the roofs.
        ChartStyle.logRange(y, yLow, yHigh, 2.5);
        labelRoofs(plot, computes, unit, xHigh, Math.log10(y.getUpperBound() / y.getLowerBound()));
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        String subtitle = run != null
                ? "Points left of a roof's corner sit on a diagonal: memory-bound. Measured ceilings solid, datasheet dashed."
                : "Each diagonal is a memory level (bandwidth x intensity), each flat line a compute ceiling; datasheet dashed.";
        JFreeChart chart = ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE_FONT, plot, true), subtitle);
        StringBuilder caption = new StringBuilder(String.format(Locale.ROOT,
                "Attainable rate against arithmetic intensity on %s, from the ceilings in the profile (one diagonal per "
                        + "memory level, one roof per precision and kind).", device.name()));
        if (run != null) {
            long memoryBound = points.stream().filter(op -> op.bound().equals("memory")).count();
            caption.append(String.format(Locale.ROOT, " The %d operations of one training step of %s are drawn where the "
                    + "model puts them: %d memory-bound, %d compute-bound.", points.size(), run.workload(), memoryBound,
                    points.size() - memoryBound));
            if (notDrawn > 0) {
                caption.append(String.format(Locale.ROOT, " %d operation%s with no FLOPs (copies, zeroing) or no memory "
                        + "traffic (transfers) have no place on a log axis and are left out; the operations table lists them.",
                        notDrawn, notDrawn == 1 ? "" : "s"));
            }
            caption.append(" Operations that use another access pattern (copy, triad) or a fused-attention rate sit below "
                    + "the line drawn for their level.");
            if (computes.size() > profileComputes.size() || bandwidths.size() > profileBandwidths) {
                caption.append(" Dotted lines are ceilings the model used for this device that no line above draws: "
                        + "another access pattern of the profile's, or one the profile does not hold, such as a what-if "
                        + "from the command line (each says which; the table of ceilings the prediction used gives their "
                        + "source).");
            }
            if (aboveEveryRoof > 0) {
                caption.append(String.format(Locale.ROOT, " %d operation%s above every roof: the model gave %s a rate "
                        + "no ceiling here shows.", aboveEveryRoof, aboveEveryRoof == 1 ? " sits" : "s sit",
                        aboveEveryRoof == 1 ? "it" : "them"));
            }
        }
        return new Figure.Drawn(stem(device), title, caption.toString(), sources, chart);
    }

    private static void add(XYSeriesCollection data, XYLineAndShapeRenderer renderer, XYSeries s, Paint paint, Kind kind) {
        int i = data.getSeriesCount();
        data.addSeries(s);
        renderer.setSeriesPaint(i, paint);
        renderer.setSeriesStroke(i, switch (kind) {
            case MEASURED -> ChartStyle.LINE;
            case NOMINAL -> ChartStyle.DASHED;
            case MODEL -> ChartStyle.DOTTED;
        });
        renderer.setSeriesShapesVisible(i, false);
    }

    /**
     * The compute ceilings the model gave this device's operations that the profile does not hold (a
     * derived peak, a catalog figure, a what-if), so that no point floats above every roof unexplained.
     */
    static List<Roof> modelRoofs(TrainingRun run, List<Roof> drawn, List<OperationRow> points) {
        List<Roof> roofs = new ArrayList<>();
        for (CeilingLine line : run.measuredCeilings()) {
            if (!"FLOP/s".equals(line.unit())) {
                continue;
            }
            boolean inProfile = drawn.stream().anyMatch(r -> same(r.value(), line.value()));
            boolean reached = points.stream().anyMatch(op -> op.bound().equals("compute")
                    && same(op.flops() / op.seconds(), line.value()));
            boolean listed = roofs.stream().anyMatch(r -> same(r.value(), line.value()));
            if (!inProfile && reached && !listed) {
                roofs.add(new Roof(line.ceiling() + " " + ChartStyle.flops(line.value()) + " (model; not in the profile)",
                        line.value(), Kind.MODEL, ChartStyle.GREY, "the model's ceiling for this device: " + line.source()));
            }
        }
        return roofs;
    }

    /** The same for bandwidth: a diagonal the model's memory-bound operations sit on that the profile has not. */
    static List<Roof> modelDiagonals(TrainingRun run, List<Roof> drawn, List<OperationRow> points, Device device) {
        List<Roof> roofs = new ArrayList<>();
        for (CeilingLine line : run.measuredCeilings()) {
            if (!"B/s".equals(line.unit()) || line.ceiling().startsWith("link")) {
                continue;
            }
            boolean inProfile = drawn.stream().anyMatch(r -> same(r.value(), line.value()));
            boolean reached = points.stream().anyMatch(op -> op.bound().equals("memory")
                    && same(op.flops() / op.seconds() / op.arithmeticIntensity(), line.value()));
            boolean listed = roofs.stream().anyMatch(r -> same(r.value(), line.value()));
            if (!inProfile && reached && !listed) {
                // A ceiling of the profile's that is no diagonal here (one per level is drawn): said so, never "not in it".
                boolean held = device.levels().stream().anyMatch(c -> same(c.bytesPerSecond(), line.value()));
                roofs.add(new Roof(line.ceiling() + " " + ChartStyle.bandwidth(line.value())
                        + (held ? " (the profile's; the model's for these operations)" : " (model; not in the profile)"),
                        line.value(), Kind.MODEL, ChartStyle.GREY, "the model's ceiling for this device: " + line.source()));
            }
        }
        return roofs;
    }

    private static boolean same(double a, double b) {
        return Math.abs(a - b) <= SAME_CEILING * Math.max(a, b);
    }

    /**
     * Each roof's name at the right end of its line, just above it; where roofs are close, the lower
     * labels step down so that no two overlap.
     *
     * @param yDecades decades the y axis spans, to turn a label's height into a factor on the axis
     */
    private static void labelRoofs(XYPlot plot, List<Roof> computes, double unit, double xHigh, double yDecades) {
        List<Roof> byValue = new ArrayList<>(computes);
        byValue.sort(Comparator.comparingDouble(Roof::value).reversed());
        double labelFactor = Math.pow(10, yDecades * LABEL_HEIGHT_PIXELS / PLOT_HEIGHT_PIXELS);
        double previous = Double.MAX_VALUE;
        for (Roof c : byValue) {
            double y = Math.min(c.value() / unit * 1.06, previous / labelFactor);
            XYTextAnnotation label = new XYTextAnnotation(c.label(), xHigh / 1.1, y);
            label.setTextAnchor(TextAnchor.BOTTOM_RIGHT);
            label.setFont(ChartStyle.ANNOTATION_FONT);
            label.setPaint(c.paint());
            label.setBackgroundPaint(new Color(255, 255, 255, 130));
            plot.addAnnotation(label);
            previous = y;
        }
    }

    /** Names the slowest operations next to their points, skipping one that would sit on a label already there. */
    private static void labelSlowest(XYPlot plot, List<OperationRow> points, double unit, double xHigh) {
        List<OperationRow> slowest = new ArrayList<>(points);
        slowest.sort(Comparator.comparingDouble(OperationRow::seconds).reversed());
        List<double[]> placed = new ArrayList<>();
        for (OperationRow op : slowest) {
            if (placed.size() == LABELLED_OPERATIONS || op.share() < LABELLED_SHARE) {
                break;
            }
            double lx = Math.log10(op.arithmeticIntensity());
            double ly = Math.log10(op.flops() / op.seconds() / unit);
            boolean crowded = placed.stream().anyMatch(p -> Math.abs(p[0] - lx) < 0.6 && Math.abs(p[1] - ly) < 0.35);
            if (crowded) {
                continue;
            }
            placed.add(new double[] {lx, ly});
            // Labels go below the point (the roofs are above), towards the middle of the chart.
            boolean right = op.arithmeticIntensity() * 30 > xHigh;
            String text = String.format(Locale.ROOT, "%s: %.0f%% of the step", op.name(), 100 * op.share());
            XYPointerAnnotation label = new XYPointerAnnotation(text, op.arithmeticIntensity(),
                    op.flops() / op.seconds() / unit, right ? 0.75 * Math.PI : 0.25 * Math.PI);
            label.setTextAnchor(right ? TextAnchor.TOP_RIGHT : TextAnchor.TOP_LEFT);
            label.setBaseRadius(34);
            label.setTipRadius(8);
            label.setLabelOffset(2);
            label.setFont(ChartStyle.ANNOTATION_FONT);
            Color paint = op.bound().equals("memory") ? ChartStyle.VERMILLION : ChartStyle.GREEN.darker();
            label.setPaint(paint);
            label.setArrowPaint(paint);
            plot.addAnnotation(label);
        }
    }

    /** One diagonal per measured level (its read ceiling if measured, else the next pattern), and the nominal DRAM one. */
    static List<Roof> bandwidthRoofs(Profile profile, Device device) {
        List<Roof> roofs = new ArrayList<>();
        for (MemoryLevel level : MemoryLevel.values()) {
            Optional<LevelCeiling> chosen = ACCESS_PREFERENCE.stream().map(a -> device.ceiling(level, a))
                    .flatMap(Optional::stream).findFirst();
            chosen.ifPresent(c -> roofs.add(new Roof(String.format(Locale.ROOT, "%s %s %s (%s)", level, c.access(),
                    ChartStyle.bandwidth(c.bytesPerSecond()), c.statistic()), c.bytesPerSecond(),
                    Kind.MEASURED, LEVEL_COLORS.get(level), c.statistic() + (c.bandwidthId() != null ? " of bandwidth entry " + c.bandwidthId() : "")
                    + ", " + Provenances.describe(c.provenance()))));
        }
        profile.nominal().memoryBandwidthOf(device.id()).ifPresent(n -> roofs.add(new Roof(
                "DRAM nominal " + ChartStyle.bandwidth(n.bytesPerSecond()) + " (datasheet)", n.bytesPerSecond(), Kind.NOMINAL,
                LEVEL_COLORS.get(MemoryLevel.DRAM), Provenances.describe(n.provenance()))));
        return roofs;
    }

    /** One roof per measured (precision, kind), the best typical figure of each, and the known dense nominal peaks. */
    static List<Roof> computeRoofs(Profile profile, Device device) {
        List<Roof> roofs = new ArrayList<>();
        Map<membound.vocabulary.Precision, Paint> colors = new EnumMap<>(membound.vocabulary.Precision.class);
        for (membound.vocabulary.Precision p : membound.vocabulary.Precision.values()) {
            for (ComputeEntry.Kind kind : ComputeEntry.Kind.CEILINGS) {
                Optional<ComputeEntry> entry = device.measuredComputeCeiling(p, kind);
                if (entry.isEmpty()) {
                    continue;
                }
                ComputeEntry e = entry.get();
                // Every measured roof its own colour; a precision's nominal roof takes the colour of its first measured one.
                Paint paint = COMPUTE_COLORS[roofs.size() % COMPUTE_COLORS.length];
                colors.putIfAbsent(p, paint);
                String what = kind == ComputeEntry.Kind.GEMM ? "GEMM" : "FMA peak";
                roofs.add(new Roof(String.format(Locale.ROOT, "%s %s %s", p, what, ChartStyle.flops(e.flopsPerSecond().typical())),
                        e.flopsPerSecond().typical(), Kind.MEASURED, paint, statistic(e) + " of compute entry " + e.id()
                        + (e.matrixSize() != null ? " (n=" + e.matrixSize() + ")" : "") + ", " + Provenances.describe(e.provenance())));
            }
        }
        for (Nominal.Compute n : profile.nominal().compute()) {
            if (n.state() != Nominal.State.KNOWN || n.sparse() || !n.deviceId().equals(device.id())) {
                continue;
            }
            Paint paint = colors.getOrDefault(n.precision(), ChartStyle.GREY);
            roofs.add(new Roof(String.format(Locale.ROOT, "%s nominal %s (datasheet, dense)", n.precision(),
                    ChartStyle.flops(n.flopsPerSecond())), n.flopsPerSecond(), Kind.NOMINAL, paint,
                    Provenances.describe(n.provenance())));
        }
        return roofs;
    }

    private static String statistic(ComputeEntry e) {
        return e.flopsPerSecond().typicalStatistic().label();
    }

    static Color levelColor(MemoryLevel level) {
        return LEVEL_COLORS.get(level);
    }
}
