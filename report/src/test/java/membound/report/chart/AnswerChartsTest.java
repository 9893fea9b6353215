package membound.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.CategoryItemRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;

import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.sweep.Sweeps;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;
import membound.report.Reports;
import membound.vocabulary.Precision;

/**
 * The answer page's charts keep machines apart and say what does not fit: two machines with the same figures (the
 * example Spark profile and the catalog's Spark, H200 beside GH200) stay two visible lines, and a setup that cannot
 * run is a hollow bar.
 */
class AnswerChartsTest {

    private static final List<Machine> MACHINES = List.of(
            Machines.profile(Reports.exampleProfile(), null, Overrides.NONE),
            Machines.datasheet("dgx-spark", Overrides.NONE), Machines.datasheet("gh200", Overrides.NONE),
            Machines.datasheet("h200", Overrides.NONE));

    @Test
    void shouldDrawEachMachineWithAMarkerAndWidthOfItsOwnSoCoincidingLinesStayVisible() {
        List<Workload> models = List.of(Presets.resolve("gpt2"), Presets.resolve("llama-3.2-1b"));
        Figure.Drawn f = assertInstanceOf(Figure.Drawn.class, AnswerCharts.modelSize(
                Sweeps.modelSize(models, TrainingSetup.builder().build(), MACHINES), 1_000_000_000L));
        XYLineAndShapeRenderer renderer = (XYLineAndShapeRenderer) f.chart().getXYPlot().getRenderer();
        XYDataset data = f.chart().getXYPlot().getDataset();
        Set<String> looks = new HashSet<>();
        List<String> machines = new ArrayList<>();
        for (int s = 0; s < data.getSeriesCount(); s++) {
            String key = data.getSeriesKey(s).toString();
            if (key.contains("does not fit")) {
                continue;
            }
            machines.add(key);
            java.awt.Shape shape = renderer.getSeriesShape(s);
            float width = ((BasicStroke) renderer.getSeriesStroke(s)).getLineWidth();
            looks.add(shape.getClass().getSimpleName() + "/" + shape.getBounds() + "/" + width);
        }
        assertEquals(MACHINES.size(), machines.size(), machines.toString());
        assertEquals(machines.size(), looks.size(), "every machine its own marker and line width: " + looks);
    }

    @Test
    void shouldDrawASetupThatDoesNotFitAsAHollowBar() {
        Workload model = Presets.resolve("llama-3.1-8b");
        List<Sweeps.Variant> variants = List.of(new Sweeps.Variant("training, fp32", "predict",
                TrainingSetup.builder().precision(Precision.FP32).build()));
        List<Sweeps.VariantPoint> points = Sweeps.variants(model, variants, List.of(MACHINES.get(1),
                Machines.datasheet("b200", Overrides.NONE)));
        Figure.Drawn f = assertInstanceOf(Figure.Drawn.class, AnswerCharts.precision(points, 1_000_000_000L));
        CategoryPlot plot = f.chart().getCategoryPlot();
        CategoryItemRenderer renderer = plot.getRenderer();
        CategoryDataset data = plot.getDataset();
        int spark = -1;
        int b200 = -1;
        for (int r = 0; r < data.getRowCount(); r++) {
            String key = data.getRowKey(r).toString();
            spark = key.contains("spark") ? r : spark;
            b200 = key.contains("b200") ? r : b200;
        }
        assertTrue(spark >= 0 && b200 >= 0, data.getRowKeys().toString());
        // Full fp32 training of an 8B model needs about 138 GiB: not on the Spark's 111.5 GiB, on a B200's 168.
        assertEquals(Color.WHITE, renderer.getItemPaint(spark, 0), "the Spark's bar is hollow");
        assertNotEquals(Color.WHITE, renderer.getItemPaint(b200, 0), "the B200's bar is filled");
        assertTrue(points.stream().anyMatch(p -> !p.point().memory().fits()), "the case has a setup that does not fit");
    }
}
