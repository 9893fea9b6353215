package membound.report.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.CategoryTextAnnotation;
import org.jfree.chart.axis.CategoryAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

import membound.model.roofline.OperationClass;
import membound.report.MachineOutcome;
import membound.report.TrainingRun;
import membound.vocabulary.text.Numbers;

/**
 * Where a training step's time goes, by operation class, on datasheet and on measured ceilings, for
 * the profile's machine and the ones it is compared with: one panel per machine, each on its own time
 * axis, so that a CPU's minutes and an H100's tenth of a second both read as bars (on one shared axis
 * the fast machines' bars vanish; on a log axis stacked segments would lie about their shares).
 */
public final class BreakdownChart {

    static final String STEM = "time-breakdown";
    static final String TITLE = "Training step by operation class: datasheet against measured";
    private static final String DATASHEET = "datasheet";
    private static final String MEASURED = "measured";

    private BreakdownChart() {
    }

    /**
     * @param machines     the profile's machine first
     * @param profileLabel what to call the profile's machine ({@code spark-example (profile)})
     */
    public static Figure of(List<MachineOutcome> machines, String profileLabel, String noWorkloadReason) {
        if (noWorkloadReason != null) {
            return new Figure.Omitted(STEM, TITLE, noWorkloadReason);
        }
        List<String> sources = new ArrayList<>();
        TrainingRun first = machines.get(0).run();
        List<OperationClass> drawn = classesSpentIn(machines);
        CombinedDomainCategoryPlot combined = new CombinedDomainCategoryPlot(new CategoryAxis(null));
        combined.setOrientation(PlotOrientation.HORIZONTAL);
        combined.setGap(26);
        boolean firstMachine = true;
        for (MachineOutcome outcome : machines) {
            TrainingRun run = outcome.run();
            if (run == null) {
                continue;
            }
            String label = firstMachine ? profileLabel : run.machine();
            firstMachine = false;
            combined.add(panel(run, label, drawn));
            sources.add(String.format(Locale.ROOT, "%s: step %.3g s measured, %s datasheet \u2014 membound predict on %s (%s)",
                    label, run.measured().stepSeconds(), run.datasheetKnown()
                            ? String.format(Locale.ROOT, "%.3g s", run.datasheet().stepSeconds()) : Numbers.UNKNOWN,
                    run.machine(), run.machineSource()));
        }
        combined.setFixedLegendItems(legend(drawn));
        JFreeChart chart = ChartStyle.finish(new JFreeChart(TITLE, ChartStyle.TITLE_FONT, combined, true),
                String.format(Locale.ROOT, "%s, %,.0f tokens per optimizer step on every machine; each panel has its own "
                        + "time axis, the step time at the end of each bar.", first.workload(),
                        first.measured().tokensPerStep()));
        String caption = "Seconds per optimizer step by operation class, as membound predict gives them on each machine's "
                + "datasheet ceilings and on its measured ones (the profile's for the profile's machine; for a catalog "
                + "entry, published third-party measurements where the model knows them, else the datasheet again). "
                + "Each machine has its own panel and time axis; \"unknown\" where a machine has no datasheet figures.";
        return new Figure.Drawn(STEM, TITLE, caption, sources, chart);
    }

    /** One machine: its datasheet and measured bars by class on a time axis of its own. */
    private static CategoryPlot panel(TrainingRun run, String label, List<OperationClass> drawn) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (OperationClass c : drawn) {
            data.addValue(run.datasheetKnown() ? run.datasheet().time(c.label()).seconds() : 0, c.label(), DATASHEET);
            data.addValue(run.measured().time(c.label()).seconds(), c.label(), MEASURED);
        }
        StackedBarRenderer renderer = new StackedBarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setMaximumBarWidth(0.3);
        for (int row = 0; row < drawn.size(); row++) {
            renderer.setSeriesPaint(row, ChartStyle.color(drawn.get(row).ordinal()));
        }
        NumberAxis time = new NumberAxis(label + ": seconds");
        time.setLabelFont(ChartStyle.LABEL_FONT);
        time.setTickLabelFont(ChartStyle.TICK_FONT);
        CategoryPlot plot = new CategoryPlot(data, null, time, renderer);
        plot.setRangeGridlinePaint(ChartStyle.LIGHT_GREY);
        plot.setBackgroundPaint(java.awt.Color.WHITE);
        plot.setOutlinePaint(ChartStyle.LIGHT_GREY);
        double longest = Math.max(run.measured().stepSeconds(), run.datasheetKnown() ? run.datasheet().stepSeconds() : 0);
        time.setRange(0, longest * 1.45);
        annotate(plot, DATASHEET, run.datasheetKnown() ? SensitivityChart.seconds(run.datasheet().stepSeconds())
                : "datasheet: " + Numbers.UNKNOWN, run.datasheetKnown() ? run.datasheet().stepSeconds() : 0, longest);
        annotate(plot, MEASURED, SensitivityChart.seconds(run.measured().stepSeconds()), run.measured().stepSeconds(),
                longest);
        return plot;
    }

    /** The text at the end of a bar. */
    private static void annotate(CategoryPlot plot, String category, String text, double seconds, double longest) {
        CategoryTextAnnotation total = new CategoryTextAnnotation(text, category, seconds + longest * 0.02);
        total.setTextAnchor(TextAnchor.CENTER_LEFT);
        total.setFont(ChartStyle.ANNOTATION_FONT);
        total.setCategoryAnchor(CategoryAnchor.MIDDLE);
        plot.addAnnotation(total);
    }

    /** The classes some machine spends time in, so that the legend names only what is drawn. */
    private static List<OperationClass> classesSpentIn(List<MachineOutcome> machines) {
        List<OperationClass> used = new ArrayList<>();
        for (OperationClass c : OperationClass.values()) {
            for (MachineOutcome outcome : machines) {
                TrainingRun run = outcome.run();
                if (run != null && (run.measured().time(c.label()).seconds() > 0
                        || run.datasheetKnown() && run.datasheet().time(c.label()).seconds() > 0)) {
                    used.add(c);
                    break;
                }
            }
        }
        return used;
    }

    /** One legend entry per class drawn (every panel has the same classes, so the panels' own legends would repeat). */
    private static LegendItemCollection legend(List<OperationClass> drawn) {
        LegendItemCollection items = new LegendItemCollection();
        for (OperationClass c : drawn) {
            items.add(new LegendItem(c.label(), ChartStyle.color(c.ordinal())));
        }
        return items;
    }
}
