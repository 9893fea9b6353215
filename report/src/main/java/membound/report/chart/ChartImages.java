package membound.report.chart;

import java.awt.Rectangle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/** A chart as PNG and SVG bytes; nothing touches the disk here. */
public final class ChartImages {

    private ChartImages() {
    }

    /** PNG at {@link ChartStyle#PNG_SCALE} times the page size. */
    public static byte[] png(JFreeChart chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 * 1024);
        try {
            ChartUtils.writeScaledChartAsPNG(out, chart, ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS,
                    ChartStyle.PNG_SCALE, ChartStyle.PNG_SCALE);
        } catch (IOException e) {
            throw new UncheckedIOException("chart did not encode as PNG: title=" + chart.getTitle().getText(), e);
        }
        return out.toByteArray();
    }

    /** A standalone SVG document (UTF-8) drawn by JFreeChart on JFreeSVG's Graphics2D; text stays text. */
    public static byte[] svg(JFreeChart chart) {
        SVGGraphics2D g2 = new SVGGraphics2D(ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS);
        chart.draw(g2, new Rectangle(0, 0, ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS));
        return g2.getSVGDocument().getBytes(StandardCharsets.UTF_8);
    }
}
