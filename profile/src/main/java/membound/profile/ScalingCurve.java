package membound.profile;

import java.util.List;

import membound.vocabulary.MemoryLevel;

/**
 * Bandwidth against thread count for one kernel at one level: where it saturates tells how many cores
 * it takes to reach the memory's ceiling.
 *
 * @param kernel      the kernel
 * @param elementType "double", "float", ...
 * @param level       the memory level
 * @param placement   the cores used, if known
 * @param points      one per thread count, increasing
 */
public record ScalingCurve(String kernel, String elementType, MemoryLevel level, String placement,
                           List<Point> points) {

    public ScalingCurve {
        Checks.id("threadScaling.kernel", kernel);
        Checks.text("threadScaling.elementType", elementType);
        Checks.present("threadScaling.level", level);
        Checks.optionalText("threadScaling.placement", placement);
        points = Checks.list("threadScaling.points", points);
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i).threads() <= points.get(i - 1).threads()) {
                throw Checks.bad("threadScaling.points.threads", "increasing", points.get(i).threads());
            }
        }
    }

    /**
     * @param threads        thread count
     * @param bytesPerSecond the typical STREAM-convention bandwidth at that count
     * @param bandwidthId    the bandwidth entry it was taken from
     */
    public record Point(int threads, double bytesPerSecond, String bandwidthId) {
        public Point {
            Checks.positive("point.threads", threads);
            Checks.positive("point.bytesPerSecond", bytesPerSecond);
            Checks.optionalId("point.bandwidthId", bandwidthId);
        }
    }
}
