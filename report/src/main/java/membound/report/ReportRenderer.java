package membound.report;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import membound.profile.Device;
import membound.report.chart.BreakdownChart;
import membound.report.chart.ChartImages;
import membound.report.chart.Figure;
import membound.report.chart.LatencyChart;
import membound.report.chart.NominalChart;
import membound.report.chart.RooflineChart;
import membound.report.chart.SensitivityChart;
import membound.report.chart.ThreadScalingChart;
import membound.report.chart.WorkingSetChart;
import membound.report.html.IndexPage;

/**
 * Turns a report's input into its files, in memory: every chart as PNG and SVG, and index.html. Nothing
 * is written here, so a failure leaves no half-made directory behind ({@link ReportFiles} writes).
 */
public final class ReportRenderer {

    public static final String INDEX = "index.html";

    private ReportRenderer() {
    }

    /**
     * The report's files, in page order.
     *
     * @param files   file name to contents: index.html first, then NAME.png and NAME.svg per drawn chart
     * @param figures every chart the page mentions, drawn or left out with the reason
     */
    public record Rendered(Map<String, byte[]> files, List<Figure> figures) {
        public Rendered {
            files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
            figures = List.copyOf(figures);
        }

        public List<Figure.Drawn> drawn() {
            return figures.stream().filter(f -> f instanceof Figure.Drawn).map(f -> (Figure.Drawn) f).toList();
        }

        public List<Figure.Omitted> omitted() {
            return figures.stream().filter(f -> f instanceof Figure.Omitted).map(f -> (Figure.Omitted) f).toList();
        }
    }

    public static Rendered render(ReportInput input) {
        List<Figure> figures = figures(input);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(INDEX, IndexPage.html(input, figures).getBytes(StandardCharsets.UTF_8));
        for (Figure f : figures) {
            if (f instanceof Figure.Drawn d) {
                files.put(d.stem() + ".png", ChartImages.png(d.chart()));
                files.put(d.stem() + ".svg", ChartImages.svg(d.chart()));
            }
        }
        return new Rendered(files, figures);
    }

    /** The charts in the order the page shows them: the workload first, then the profile device by device. */
    public static List<Figure> figures(ReportInput input) {
        List<Figure> figures = new ArrayList<>();
        List<Device> devices = input.hasProfile() ? new ArrayList<>(input.profile().devices()) : new ArrayList<>();
        // The device the prediction ran on leads: its roofline carries the workload's operations.
        devices.sort((a, b) -> Boolean.compare(!a.id().equals(input.trainingDeviceId()), !b.id().equals(input.trainingDeviceId())));
        TrainingRun run = input.primary();
        for (Device d : devices) {
            figures.add(RooflineChart.of(input.profile(), d, d.id().equals(input.trainingDeviceId()) ? run : null));
        }
        figures.add(BreakdownChart.of(input.machines(), profileLabel(input), input.noWorkloadReason()));
        figures.add(SensitivityChart.of(input.sensitivity(), run, input.noWorkloadReason()));
        if (input.hasProfile()) {
            figures.add(NominalChart.of(input.profile()));
        } else {
            figures.add(new Figure.Omitted("measured-vs-nominal", "Measured against nominal memory bandwidth and the "
                    + "profile's other charts", "no profile: a catalog entry has no measurements of its own to draw "
                    + "(rooflines, working sets, thread scaling, latency); give --profile PATH|latest for them"));
        }
        for (Device d : devices) {
            figures.add(WorkingSetChart.of(input.profile(), d));
        }
        for (Device d : devices) {
            figures.add(ThreadScalingChart.of(input.profile(), d));
        }
        for (Device d : devices) {
            figures.add(LatencyChart.of(input.profile(), d));
        }
        return figures;
    }

    /** What the page and the charts call the profile's machine: its host name. */
    public static String profileLabel(ReportInput input) {
        return input.hasProfile() ? input.profile().host().hostname() + " (profile)" : input.primary().machineName();
    }
}
