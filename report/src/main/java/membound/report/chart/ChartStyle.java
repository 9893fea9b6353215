package membound.report.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Stroke;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.TickUnits;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * One look for every chart: sizes, fonts, a colour-blind-safe palette (Okabe and Ito), dashed lines
 * for datasheet figures, and log axes whose ticks read in the unit of the axis.
 */
public final class ChartStyle {

    /** Chart size in the page and in the SVG; the PNG is drawn at {@link #PNG_SCALE} times this. */
    public static final int WIDTH_PIXELS = 960;
    public static final int HEIGHT_PIXELS = 580;
    /** PNGs at twice the page size stay sharp on high-density screens and in slides. */
    public static final int PNG_SCALE = 2;

    static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 19);
    static final Font SUBTITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font LEGEND_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font ANNOTATION_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    // Okabe-Ito: distinguishable with the common colour-vision deficiencies; yellow left out (unreadable on white).
    static final Color BLUE = new Color(0x00, 0x72, 0xB2);
    static final Color ORANGE = new Color(0xE6, 0x9F, 0x00);
    static final Color GREEN = new Color(0x00, 0x9E, 0x73);
    static final Color VERMILLION = new Color(0xD5, 0x5E, 0x00);
    static final Color SKY = new Color(0x56, 0xB4, 0xE9);
    static final Color PURPLE = new Color(0xCC, 0x79, 0xA7);
    static final Color BLACK = new Color(0x22, 0x22, 0x22);
    static final Color GREY = new Color(0x77, 0x77, 0x77);
    static final Color LIGHT_GREY = new Color(0xDD, 0xDD, 0xDD);
    static final Color[] PALETTE = {BLUE, VERMILLION, GREEN, ORANGE, PURPLE, SKY, BLACK};

    static final Stroke LINE = new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    /** Datasheet (nominal) figures are dashed everywhere, so "promised" never looks like "measured". */
    static final Stroke DASHED = new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {8f, 6f}, 0f);
    /** A ceiling the model used that the profile does not hold: neither measured nor a datasheet line of it. */
    static final Stroke DOTTED = new BasicStroke(2.0f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f,
            new float[] {1f, 5f}, 0f);
    static final Stroke MARKER = new BasicStroke(1.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {3f, 3f}, 0f);

    private ChartStyle() {
    }

    static Paint color(int index) {
        return PALETTE[Math.floorMod(index, PALETTE.length)];
    }

    /** Fonts, background, grid, the subtitle under the title, the legend at the bottom. */
    static JFreeChart finish(JFreeChart chart, String subtitle) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        // Room at the right for the last tick label of the x axis (10,000; 4 GiB), which is centred on the edge.
        chart.setPadding(new RectangleInsets(6, 6, 4, 28));
        chart.setTextAntiAlias(true);
        chart.getTitle().setFont(TITLE_FONT);
        chart.getTitle().setPaint(BLACK);
        chart.getTitle().setHorizontalAlignment(HorizontalAlignment.LEFT);
        chart.getTitle().setMargin(new RectangleInsets(4, 8, 0, 8));
        if (subtitle != null) {
            TextTitle sub = new TextTitle(subtitle, SUBTITLE_FONT);
            sub.setPaint(GREY);
            sub.setHorizontalAlignment(HorizontalAlignment.LEFT);
            sub.setTextAlignment(HorizontalAlignment.LEFT);
            sub.setMargin(new RectangleInsets(2, 8, 6, 8));
            chart.addSubtitle(0, sub);
        }
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setItemFont(LEGEND_FONT);
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setFrame(org.jfree.chart.block.BlockBorder.NONE);
            legend.setBackgroundPaint(Color.WHITE);
            legend.setItemLabelPadding(new RectangleInsets(2, 4, 2, 10));
        }
        Plot plot = chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlinePaint(LIGHT_GREY);
        if (plot instanceof XYPlot xy) {
            xy.setDomainGridlinePaint(LIGHT_GREY);
            xy.setRangeGridlinePaint(LIGHT_GREY);
            xy.setDomainGridlineStroke(new BasicStroke(0.6f));
            xy.setRangeGridlineStroke(new BasicStroke(0.6f));
            xy.setAxisOffset(RectangleInsets.ZERO_INSETS);
            style(xy.getDomainAxis());
            style(xy.getRangeAxis());
        } else if (plot instanceof CategoryPlot cat) {
            cat.setRangeGridlinePaint(LIGHT_GREY);
            cat.setRangeGridlineStroke(new BasicStroke(0.6f));
            style(cat.getDomainAxis());
            style(cat.getRangeAxis());
        }
        return chart;
    }

    private static void style(Axis axis) {
        if (axis == null) {
            return; // a combined plot's subplots carry their own axes
        }
        axis.setLabelFont(LABEL_FONT);
        axis.setTickLabelFont(TICK_FONT);
        axis.setLabelPaint(BLACK);
        axis.setTickLabelPaint(BLACK);
    }

    /** A base-10 log axis with ticks at round numbers in the axis unit (0.1, 1, 2, 5, 1,000), whatever its span. */
    static LogAxis decimalLogAxis(String label) {
        return new NiceLogAxis(label);
    }

    /** A base-2 log axis for sizes in bytes, ticks every power of 4 read as KiB, MiB, GiB. */
    static LogAxis bytesLogAxis(String label) {
        LogAxis axis = new LogAxis(label);
        axis.setBase(2);
        axis.setSmallestValue(1);
        TickUnits units = new TickUnits();
        for (int size : new int[] {2, 4, 6, 10}) {
            units.add(new NumberTickUnit(size));
        }
        axis.setStandardTickUnits(units);
        axis.setNumberFormatOverride(new BytesFormat());
        return axis;
    }

    /** Range of a log axis: a factor of margin beyond the lowest and highest value. */
    static void logRange(ValueAxis axis, double low, double high, double margin) {
        axis.setAutoRange(false);
        axis.setRange(low / margin, high * margin);
    }

    static void checkStem(String stem) {
        if (stem == null || !stem.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new BadInputException("stem must be lower-case words joined by '-': stem=" + stem);
        }
    }

    /** Plain numbers: 0.01, 0.5, 3, 1,000, 100,000; never scientific notation. */
    static final class PlainNumberFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            DecimalFormat f = new DecimalFormat(Math.abs(number) >= 1 || number == 0 ? "#,##0.##" : "0.0####",
                    DecimalFormatSymbols.getInstance(Locale.ROOT));
            return toAppendTo.append(f.format(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            throw new UnsupportedOperationException("format only");
        }
    }

    /** Bytes in binary units without trailing zeros: 64 KiB, 1 MiB, 4 GiB. */
    static final class BytesFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(bytes(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(bytes(number));
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            throw new UnsupportedOperationException("format only");
        }

        static String bytes(double value) {
            String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
            int unit = 0;
            while (value >= 1024 && unit < units.length - 1) {
                value /= 1024;
                unit++;
            }
            return new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(value) + " "
                    + units[unit];
        }
    }

    /** {@code 273 GB/s}, {@code 3.23 TB/s}: the hardware module's bandwidth format without a needless ".0". */
    static String bandwidth(double bytesPerSecond) {
        return Units.formatBandwidth(bytesPerSecond).replace(".0 ", " ");
    }

    static String flops(double flopsPerSecond) {
        return Units.formatFlops(flopsPerSecond).replace(".0 ", " ");
    }

    static String bytes(double bytes) {
        return BytesFormat.bytes(bytes);
    }
}
