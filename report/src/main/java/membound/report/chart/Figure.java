package membound.report.chart;

import org.jfree.chart.JFreeChart;

import membound.vocabulary.BadInputException;

/**
 * One chart of a report: drawn, or left out with the reason (a chart whose data the profile lacks is
 * never drawn empty or from invented figures).
 */
public sealed interface Figure permits Figure.Drawn, Figure.Omitted {

    /** File name without extension: {@code roofline-gpu} gives roofline-gpu.png and roofline-gpu.svg. */
    String stem();

    String title();

    /**
     * A chart and what a reader needs beside it.
     *
     * @param caption what it shows and how to read it
     * @param sources where its numbers come from (profile entries with their provenance, the model's formulas)
     */
    record Drawn(String stem, String title, String caption, java.util.List<String> sources, JFreeChart chart)
            implements Figure {
        public Drawn {
            ChartStyle.checkStem(stem);
            sources = java.util.List.copyOf(sources);
            if (chart == null) {
                throw new BadInputException("drawn figure needs a chart: stem=" + stem);
            }
        }
    }

    /** A chart left out, with the one-line reason the page gives. */
    record Omitted(String stem, String title, String reason) implements Figure {
        public Omitted {
            ChartStyle.checkStem(stem);
            if (reason == null || reason.isBlank()) {
                throw new BadInputException("omitted figure must say why: stem=" + stem);
            }
        }
    }
}
