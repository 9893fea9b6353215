package membound.report.chart;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/**
 * A base-10 log axis with ticks at round numbers whatever its span: LogAxis puts ticks at powers of ten
 * only, so an axis spanning less than a decade (step time from 1.4 s to 4 s) would have no label at all.
 * Over many decades it keeps one tick per decade; over a few, 1-2-5; over less than one, 1 to 9.
 */
final class NiceLogAxis extends LogAxis {

    private static final long serialVersionUID = 1L;

    private static final double[] DECADES = {1};
    private static final double[] ONE_TWO_FIVE = {1, 2, 5};
    private static final double[] DIGITS = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    private static final double[] FINE = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9};

    NiceLogAxis(String label) {
        super(label);
        setBase(10);
        setSmallestValue(1e-15);
        setMinorTickMarksVisible(false);
        setNumberFormatOverride(new ChartStyle.PlainNumberFormat());
    }

    @Override
    protected List<NumberTick> refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return ticks(edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER);
    }

    @Override
    protected List<NumberTick> refreshTicksVertical(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return ticks(edge == RectangleEdge.RIGHT ? TextAnchor.CENTER_LEFT : TextAnchor.CENTER_RIGHT);
    }

    /** Round values inside the range; package-private so a test can check the spacing. */
    List<NumberTick> ticks(TextAnchor anchor) {
        double low = getLowerBound();
        double high = getUpperBound();
        double decades = Math.log10(high / low);
        double[] mantissas = decades > 3.5 ? DECADES : decades > 1.2 ? ONE_TWO_FIVE : decades > 0.6 ? DIGITS : FINE;
        List<NumberTick> ticks = new ArrayList<>();
        for (int exponent = (int) Math.floor(Math.log10(low)); exponent <= (int) Math.ceil(Math.log10(high)); exponent++) {
            for (double m : mantissas) {
                double value = m * Math.pow(10, exponent);
                // Rounding keeps 0.1 * 3 from printing as 0.30000000000000004.
                value = Double.parseDouble(String.format(java.util.Locale.ROOT, "%.6g", value));
                if (value >= low && value <= high) {
                    ticks.add(new NumberTick(TickType.MAJOR, value, getNumberFormatOverride().format(value), anchor,
                            anchor, 0.0));
                }
            }
        }
        return ticks;
    }
}
