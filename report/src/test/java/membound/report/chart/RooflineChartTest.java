package membound.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.Test;

import membound.model.OperationRow;
import membound.model.Sensitivity;
import membound.model.StepResult;
import membound.model.machine.Basis;
import membound.model.roofline.CeilingLine;
import membound.profile.Device;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.report.Reports;
import membound.report.TrainingRun;

/** The roofline shows every operation, and names a ceiling the model used that the profile does not hold. */
class RooflineChartTest {

    private static final double DERIVED_GEMM_FLOPS_PER_SECOND = 97.5e12;

    private static TrainingRun run(List<OperationRow> operations, List<CeilingLine> ceilings) {
        StepResult step = new StepResult(Basis.MEASURED, 1, List.of(), 0.5, 2048, 2048, 10, 10, 1e12, 1e14, 0.3, 0.3);
        StepResult datasheet = new StepResult(Basis.DATASHEET, 1, List.of(), 0.5, 2048, 2048, 10, 10, 1e12, 1e14, 0.3, 0.3);
        return new TrainingRun("w", "test", 1, 1, null, "profile:x.json", "x (cpu)", "test", step, datasheet, 0.0,
                new Sensitivity(1, 1.5, 0.75, -0.5), null, operations, ceilings, ceilings, List.of(), null);
    }

    private static OperationRow gemm(double flopsPerSecond) {
        return new OperationRow("gemm", "forward", "gemm", "device", "compute", 1, 1e12, 2e9, 0,
                1e12 / flopsPerSecond, 0.5, 500.0);
    }

    private static OperationRow elementwise() {
        // 1 FLOP per byte on DRAM read (118.5 GB/s in the example): 118.5 GFLOP/s.
        return new OperationRow("add", "forward", "elementwise", "device", "memory", 1, 1e9, 1e9, 0, 1e9 / 118.5e9,
                0.5, 1.0);
    }

    private static List<String> legend(Figure figure) {
        LegendItemCollection items = ((Figure.Drawn) figure).chart().getPlot().getLegendItems();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < items.getItemCount(); i++) {
            labels.add(items.get(i).getLabel());
        }
        return labels;
    }

    @Test
    void shouldDrawTheModelsCeilingDottedWhenTheProfileHasNoneAtThatRate() {
        Profile profile = ProfileJson.read(Reports.exampleProfile());
        Device cpu = profile.device("cpu").orElseThrow();
        Figure f = RooflineChart.of(profile, cpu, run(List.of(gemm(DERIVED_GEMM_FLOPS_PER_SECOND), elementwise()),
                List.of(new CeilingLine("bf16 GEMM", DERIVED_GEMM_FLOPS_PER_SECOND, "FLOP/s", "derived, not published"))));
        assertTrue(legend(f).contains("bf16 GEMM 97.5 TFLOP/s (model; not in the profile)"), legend(f).toString());
        XYPlot plot = ((Figure.Drawn) f).chart().getXYPlot();
        assertTrue(plot.getRangeAxis().getUpperBound() >= 97.5, "no point may be clipped");
        assertTrue(((Figure.Drawn) f).caption().contains("Dotted lines are ceilings the model used"));
        assertEquals(List.of("operations, memory-bound (1 of 2)", "operations, compute-bound (1 of 2)"),
                legend(f).subList(legend(f).size() - 2, legend(f).size()));
    }

    @Test
    void shouldDrawAWhatIfBandwidthAsADottedDiagonal() {
        Profile profile = ProfileJson.read(Reports.exampleProfile());
        Device cpu = profile.device("cpu").orElseThrow();
        double whatIf = 200e9;
        OperationRow add = new OperationRow("add", "forward", "elementwise", "device", "memory", 1, 1e9, 1e9, 0,
                1e9 / whatIf, 1, 1.0);
        Figure f = RooflineChart.of(profile, cpu, run(List.of(add), List.of(new CeilingLine("DRAM read bandwidth", whatIf,
                "B/s", "set on the command line: --memory-bandwidth 200.0 GB/s"))));
        assertTrue(legend(f).contains("DRAM read bandwidth 200 GB/s (model; not in the profile)"), legend(f).toString());
    }

    @Test
    void shouldAddNoRoofWhenTheModelUsedTheProfilesOwn() {
        Profile profile = ProfileJson.read(Reports.exampleProfile());
        Device cpu = profile.device("cpu").orElseThrow();
        double profileGemm = cpu.measuredComputeCeiling(membound.vocabulary.Precision.FP32, membound.profile.ComputeEntry.Kind.GEMM)
                .orElseThrow().flopsPerSecond().typical();
        Figure f = RooflineChart.of(profile, cpu, run(List.of(gemm(profileGemm), elementwise()),
                List.of(new CeilingLine("fp32 GEMM", profileGemm, "FLOP/s", "the profile"))));
        assertFalse(legend(f).stream().anyMatch(l -> l.contains("(model;")), legend(f).toString());
    }

    @Test
    void shouldLeaveOutARooflineWithNoRoof() {
        Profile profile = ProfileJson.read(Reports.exampleProfile());
        Device cpu = profile.device("cpu").orElseThrow();
        Figure f = RooflineChart.of(profile, cpu.withComputeCeilings(List.of()).withCompute(List.of()), null);
        assertTrue(f instanceof Figure.Omitted o && o.reason().contains("no compute ceiling"), f.toString());
    }

    @Test
    void shouldNeverCallACeilingOfTheProfileNotInTheProfile() {
        Profile profile = ProfileJson.read(Reports.exampleProfile());
        Device gpu = profile.device("gpu").orElseThrow();
        TrainingRun run = Reports.withWorkload(Reports.exampleProfile(), "llama-3.2-1b").primary();
        List<String> legend = legend(RooflineChart.of(profile, gpu, run));
        // The example's GPU copy ceiling, 226 GB/s, is the profile's own: drawn dotted because one diagonal per level
        // (its read) is drawn, and said to be the profile's.
        assertTrue(legend.contains("DRAM copy bandwidth 226 GB/s (the profile's; the model's for these operations)"),
                legend.toString());
        assertTrue(legend.stream().noneMatch(l -> l.startsWith("DRAM copy") && l.endsWith("(model; not in the profile)")),
                legend.toString());
    }
}
