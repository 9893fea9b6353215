package membound.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
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
 * @param datasheetStepSeconds   the step on datasheet bandwidth and datasheet compute (predict's datasheet column);
 *                               NaN where the machine has no datasheet compute
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

    /** Sweep points: bandwidth from 1/4 to 4 times the measured one, four points per doubling. */
    public static final int SWEEP_STEPS_PER_DOUBLING = 4;
    public static final int SWEEP_DOUBLINGS = 2;

    /**
     * Step time from a quarter to four times the measured main-memory bandwidth, plus the nominal
     * bandwidth: {@code stepSecondsAt} predicts one point (the caller runs predict), in increasing
     * bandwidth order, then the nominal point; the measured point is the run's own.
     *
     * @param read the main memory's read ceiling of the profile's machine
     * @param run  the prediction on the profile's machine at its measured bandwidth
     */
    public static SensitivityCurve sweep(Ceiling read, TrainingRun run, DoubleUnaryOperator stepSecondsAt) {
        double measured = read.value(Basis.MEASURED);
        Map<Double, Double> steps = new TreeMap<>();
        int n = SWEEP_STEPS_PER_DOUBLING * SWEEP_DOUBLINGS;
        for (int k = -n; k <= n; k++) {
            double bandwidth = k == 0 ? measured : measured * Math.pow(2, (double) k / SWEEP_STEPS_PER_DOUBLING);
            steps.put(bandwidth, k == 0 ? run.measured().stepSeconds() : stepSecondsAt.applyAsDouble(bandwidth));
        }
        Double nominal = read.hasDatasheet() ? read.datasheet() : null;
        Double nominalStep = null;
        if (nominal != null) {
            nominalStep = stepSecondsAt.applyAsDouble(nominal);
            steps.put(nominal, nominalStep);
        }
        List<Point> points = new ArrayList<>();
        steps.forEach((bw, s) -> points.add(new Point(bw, s)));
        return new SensitivityCurve(points, measured, run.measured().stepSeconds(), nominal, nominalStep,
                run.datasheetKnown() ? run.datasheet().stepSeconds() : Double.NaN, run.sensitivity().elasticity());
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
