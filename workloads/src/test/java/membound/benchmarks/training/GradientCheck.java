package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleSupplier;

/**
 * Holds a training step's gradients to central finite differences of its loss, computed in float as the
 * step is: {@code (L(θ + ε) − L(θ − ε)) / 2ε} for each parameter checked.
 *
 * <p>A ReLU network's loss has kinks: when a pre-activation somewhere changes sign within the step, the
 * difference mixes two slopes and says nothing about the gradient. Such a point shows itself by one-sided
 * differences ({@code L(θ+ε) − L(θ)} and {@code L(θ) − L(θ−ε)}) that disagree by more than curvature
 * explains; it is skipped, and only a small share of the parameters may be.
 */
final class GradientCheck {

    /**
     * Step of the difference: large enough that float rounding of the loss (about 1e-7 of it) stays well below
     * the change it measures.
     */
    static final float EPSILON = 1e-3f;
    /** Agreement: absolute, for gradients near zero (where rounding dominates), plus relative. */
    static final double ABSOLUTE = 5e-4;
    static final double RELATIVE = 3e-2;
    /** One-sided differences further apart than this (curvature times ε is far smaller) mark a kink. */
    static final double KINK_ABSOLUTE = 1e-3;
    static final double KINK_RELATIVE = 0.05;
    /** Share of the checked parameters that may sit at a kink. */
    static final double MAX_KINK_SHARE = 0.1;

    private GradientCheck() {
    }

    /**
     * @param every check parameters {@code 0, every, 2·every, ...} (1 for all)
     * @return how many parameters were compared (kinks not counted)
     */
    static int assertGradientsMatch(float[] parameters, float[] gradients, DoubleSupplier loss, int every) {
        float[] analytic = gradients.clone();
        int compared = 0;
        int kinks = 0;
        double center = loss.getAsDouble();
        for (int i = 0; i < parameters.length; i += every) {
            float saved = parameters[i];
            parameters[i] = saved + EPSILON;
            double plus = loss.getAsDouble();
            parameters[i] = saved - EPSILON;
            double minus = loss.getAsDouble();
            parameters[i] = saved;
            double numeric = (plus - minus) / (2 * EPSILON);
            double forward = (plus - center) / EPSILON;
            double backward = (center - minus) / EPSILON;
            if (Math.abs(forward - backward) > KINK_ABSOLUTE + KINK_RELATIVE * Math.abs(numeric)) {
                kinks++;
                continue;
            }
            int index = i;
            assertTrue(Math.abs(numeric - analytic[i]) <= ABSOLUTE + RELATIVE * Math.abs(numeric),
                    () -> "gradient of parameter " + index + ": analytic " + analytic[index] + ", finite difference "
                            + numeric);
            compared++;
        }
        int skipped = kinks;
        int total = compared + kinks;
        assertTrue(kinks <= MAX_KINK_SHARE * total, () -> skipped + " of " + total + " parameters sit at a kink");
        return compared;
    }
}
