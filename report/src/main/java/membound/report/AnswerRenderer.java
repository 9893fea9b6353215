package membound.report;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import membound.model.sweep.Sweeps;
import membound.report.chart.AnswerCharts;
import membound.report.chart.ChartImages;
import membound.report.chart.Figure;
import membound.report.html.AnswerPage;

/**
 * Turns the answer's input into its files, in memory: index.html and each chart as PNG and SVG.
 * Nothing is written here ({@link ReportFiles} writes).
 */
public final class AnswerRenderer {

    private AnswerRenderer() {
    }

    public static ReportRenderer.Rendered render(AnswerInput input) {
        List<Figure> figures = figures(input);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(ReportRenderer.INDEX, AnswerPage.html(input, figures).getBytes(StandardCharsets.UTF_8));
        for (Figure f : figures) {
            if (f instanceof Figure.Drawn d) {
                files.put(d.stem() + ".png", ChartImages.png(d.chart()));
                files.put(d.stem() + ".svg", ChartImages.svg(d.chart()));
            }
        }
        return new ReportRenderer.Rendered(files, figures);
    }

    /** The charts in page order: model size, the bandwidth map, precision, sharing, mitigations. */
    public static List<Figure> figures(AnswerInput input) {
        List<Figure> figures = new ArrayList<>();
        figures.add(AnswerCharts.modelSize(input.sizes(), input.tokens()));
        for (int i = 0; i < input.maps().size(); i++) {
            figures.add(AnswerCharts.bandwidthMap(input.maps().get(i), input.markers(), i == 0 ? "answer-bandwidth-map"
                    : "answer-bandwidth-map-" + input.maps().get(i).machineId().replaceAll("[^a-z0-9]+", "-")));
        }
        figures.add(AnswerCharts.precision(input.precisions(), input.tokens()));
        figures.add(AnswerCharts.sharing(input.sharing()));
        Sweeps.Point base = input.profile();
        figures.add(AnswerCharts.mitigations(input.mitigations(), base));
        return figures;
    }
}
