package membound.report;

import java.util.List;

import membound.vocabulary.BadInputException;

/**
 * Step time against main-memory bandwidth for the profile's machine, on measured compute ceilings:
 * each point is a {@code membound predict --memory-bandwidth RATE} run (the read ceiling becomes RATE,
 * the other access patterns keep their measured ratio to read).
 *
 * @param points                 increasing bandwidth
 * @param measuredBytesPerSecond the main memory's measured read ceiling (the prediction's own point)
 * @param measuredStepSeconds    the step at that bandwidth
 * @param nominalBytesPerSecond  the datasheet bandwidth, or null when the profile has none
 * @param nominalStepSeconds     the step at the datasheet bandwidth, compute still measured; null with it
 * @param datasheetStepSeconds   the step on datasheet bandwidth and datasheet compute (predict's datasheet column)
 */
public record SensitivityCurve(List<Point> points, double measuredBytesPerSecond, double measuredStepSeconds,
                               Double nominalBytesPerSecond, Double nominalStepSeconds, double datasheetStepSeconds,
                               double elasticity) {

    public SensitivityCurve {
        points = List.copyOf(points);
        if (points.size() < 2) {
            throw new BadInputException("curve must have at least 2 points: points=" + points.size());
        }
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i).bytesPerSecond() <= points.get(i - 1).bytesPerSecond()) {
                throw new BadInputException("points must increase in bandwidth: bytesPerSecond="
                        + points.get(i).bytesPerSecond());
            }
        }
        positive("measuredBytesPerSecond", measuredBytesPerSecond);
        positive("measuredStepSeconds", measuredStepSeconds);
        if ((nominalBytesPerSecond == null) != (nominalStepSeconds == null)) {
            throw new BadInputException("nominal point must have both coordinates: nominalBytesPerSecond="
                    + nominalBytesPerSecond + ", nominalStepSeconds=" + nominalStepSeconds);
        }
    }

    /** One prediction on the curve. */
    public record Point(double bytesPerSecond, double stepSeconds) {
        public Point {
            positive("bytesPerSecond", bytesPerSecond);
            positive("stepSeconds", stepSeconds);
        }
    }

    private static void positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new BadInputException(name + " must be a positive finite number: " + name + "=" + value);
        }
    }
}
