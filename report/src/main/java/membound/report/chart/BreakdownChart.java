package membound.report.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.CategoryTextAnnotation;
import org.jfree.chart.axis.CategoryAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

import membound.model.StepResult;
import membound.model.roofline.OperationClass;
import membound.report.MachineOutcome;
import membound.report.TrainingRun;

/**
 * Where a training step's time goes, by operation class, on datasheet and on measured ceilings, for
 * the profile's machine and the ones it is compared with: one horizontal bar per machine and basis.
 */
public final class BreakdownChart {

    static final String STEM = "time-breakdown";
    static final String TITLE = "Training step by operation class: datasheet against measured";

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
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<String> sources = new ArrayList<>();
        TrainingRun first = machines.get(0).run();
        java.util.Map<String, Double> totals = new java.util.LinkedHashMap<>();
        boolean firstMachine = true;
        for (MachineOutcome outcome : machines) {
            TrainingRun run = outcome.run();
            if (run == null) {
                continue;
            }
            String label = firstMachine ? profileLabel : run.machine();
            firstMachine = false;
            for (StepResult step : List.of(run.datasheet(), run.measured())) {
                String category = label + " \u00b7 " + step.basis().name().toLowerCase(Locale.ROOT);
                for (OperationClass c : OperationClass.values()) {
                    data.addValue(step.time(c.label()).seconds(), c.label(), category);
                }
                totals.put(category, step.stepSeconds());
            }
            sources.add(String.format(Locale.ROOT, "%s: step %.3g s measured, %.3g s datasheet \u2014 membound predict on %s (%s)",
                    label, run.measured().stepSeconds(), run.datasheet().stepSeconds(), run.machine(), run.machineSource()));
        }
        // Leave out classes no machine spends time in, so the legend names only what is drawn.
        for (OperationClass c : OperationClass.values()) {
            boolean used = false;
            for (Object column : data.getColumnKeys()) {
                used |= data.getValue(c.label(), (Comparable<?>) column).doubleValue() > 0;
            }
            if (!used) {
                data.removeRow(c.label());
            }
        }
        StackedBarRenderer renderer = new StackedBarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setMaximumBarWidth(0.12);
        for (int row = 0; row < data.getRowCount(); row++) {
            String cls = (String) data.getRowKey(row);
            renderer.setSeriesPaint(row, ChartStyle.color(OperationClass.valueOf(
                    cls.toUpperCase(Locale.ROOT).replace(' ', '_')).ordinal()));
        }
        CategoryAxis x = new CategoryAxis(null);
        x.setCategoryMargin(0.25);
        x.setMaximumCategoryLabelWidthRatio(0.35f);
        NumberAxis y = new NumberAxis(String.format(Locale.ROOT, "seconds per optimizer step (%,.0f tokens)",
                first.measured().tokensPerStep()));
        CategoryPlot plot = new CategoryPlot(data, x, y, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(org.jfree.chart.axis.AxisLocation.BOTTOM_OR_LEFT);
        double longest = totals.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
        y.setRange(0, longest * 1.12);
        // The step time at the end of each bar: the number the bar is about.
        totals.forEach((category, seconds) -> {
            CategoryTextAnnotation total = new CategoryTextAnnotation(SensitivityChart.seconds(seconds), category,
                    seconds + longest * 0.01);
            total.setTextAnchor(TextAnchor.CENTER_LEFT);
            total.setFont(ChartStyle.ANNOTATION_FONT);
            total.setCategoryAnchor(CategoryAnchor.MIDDLE);
            plot.addAnnotation(total);
        });
        JFreeChart chart = ChartStyle.finish(new JFreeChart(TITLE, ChartStyle.TITLE_FONT, plot, true),
                String.format(Locale.ROOT, "%s, the same setup on every machine; the step time at the end of each bar.",
                        first.workload()));
        String caption = "Seconds per optimizer step by operation class, as membound predict gives them on each machine's "
                + "datasheet ceilings and on its measured ones (the profile's for the profile's machine; for a catalog "
                + "entry, published third-party measurements where the model knows them, else the datasheet again).";
        return new Figure.Drawn(STEM, TITLE, caption, sources, chart);
    }
}
