package membound.report.chart;

import java.awt.Rectangle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

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

    /**
     * A standalone SVG document (UTF-8) drawn by JFreeChart on JFreeSVG's Graphics2D; text stays text. It has a
     * viewBox, so it scales with the page, and no DOCTYPE: JFreeSVG's names an SVG 1.0 DTD on the web, which a
     * validating reader would try to fetch (SVG 2 has no DTD).
     */
    public static byte[] svg(JFreeChart chart) {
        SVGGraphics2D g2 = new SVGGraphics2D(ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS);
        // A fixed prefix for clip-path ids (JFreeSVG's default is the clock), so the same chart gives the same file.
        g2.setDefsKeyPrefix("membound");
        chart.draw(g2, new Rectangle(0, 0, ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS));
        String element = g2.getSVGElement(null, true,
                new ViewBox(0, 0, ChartStyle.WIDTH_PIXELS, ChartStyle.HEIGHT_PIXELS), null, null);
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
