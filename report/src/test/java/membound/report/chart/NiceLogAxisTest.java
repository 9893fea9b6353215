package membound.report.chart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.ui.TextAnchor;
import org.junit.jupiter.api.Test;

import membound.report.Reports;

/** Log axes label round numbers whatever their span, and charts come out the same every time. */
class NiceLogAxisTest {

    private static String[] labels(double low, double high) {
        NiceLogAxis axis = new NiceLogAxis("x");
        axis.setRange(low, high);
        return axis.ticks(TextAnchor.TOP_CENTER).stream().map(NumberTick::getText).toArray(String[]::new);
    }

    @Test
    void shouldLabelDecadesOverManyDecades() {
        assertArrayEquals(new String[] {"0.1", "1", "10", "100", "1,000", "10,000"}, labels(0.08, 12000));
    }

    @Test
    void shouldLabelOneTwoFiveOverAFewDecades() {
        assertArrayEquals(new String[] {"20", "50", "100", "200", "500", "1,000", "2,000", "5,000"}, labels(15, 6000));
    }

    @Test
    void shouldLabelDigitsWithinADecadeSoAShortAxisIsNeverBlank() {
        assertArrayEquals(new String[] {"2", "3", "4", "5", "6", "7", "8"}, labels(1.5, 8.5));
        assertArrayEquals(new String[] {"1.2", "1.5", "2", "2.5"}, labels(1.1, 2.9));
    }

    @Test
    void shouldDrawTheSameSvgForTheSameChart() {
        Figure.Drawn roofline = Reports.example().drawn().get(0);
        assertEquals(new String(ChartImages.svg(roofline.chart()), StandardCharsets.UTF_8),
                new String(ChartImages.svg(roofline.chart()), StandardCharsets.UTF_8));
    }
}
