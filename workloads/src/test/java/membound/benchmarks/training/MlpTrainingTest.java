package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.benchmarks.compute.Elementwise;

class MlpTrainingTest {

    /** Wider than two vector tiles, so the products and passes run their vector loops as well as their tails. */
    private static final int[] WIDTHS = {37, 2 * Elementwise.SPECIES.length() + 5, 33, 7};
    private static final int BATCH = 13;

    @Test
    void shouldComputeGradientsThatAgreeWithFiniteDifferences() {
        try (MlpTraining mlp = new MlpTraining(WIDTHS, BATCH, 2, AdamWSettings.DEFAULTS, 1, true)) {
            mlp.computeGradients();
            int checked = GradientCheck.assertGradientsMatch(mlp.parameters(), mlp.gradients(), mlp::loss, 3);
            // Every third parameter, all but the few at a ReLU kink (the count follows the vector width: WIDTHS).
            assertTrue(checked >= 0.9 * Math.ceil(mlp.parameters().length / 3.0) && checked > 300,
                    "checked " + checked + " of " + mlp.parameters().length);
        }
    }

    @Test
    void shouldLowerTheLossOverAFewSteps() {
        try (MlpTraining mlp = new MlpTraining(WIDTHS, BATCH, 2, AdamWSettings.DEFAULTS.withLearningRate(1e-2f), 2, true)) {
            double first = mlp.step();
            double last = first;
            for (int i = 0; i < 5; i++) {
                last = mlp.step();
            }
            assertTrue(last < 0.8 * first, "loss went from " + first + " to " + last);
        }
    }

    @Test
    void shouldTrainLikeTheScalarTwin() {
        try (MlpTraining vector = new MlpTraining(WIDTHS, BATCH, 3, AdamWSettings.DEFAULTS, 3, true);
             MlpTraining scalar = new MlpTraining(WIDTHS, BATCH, 1, AdamWSettings.DEFAULTS, 3, false)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(scalar.step(), vector.step(), 1e-5, "loss of step " + i);
            }
            float[] expected = scalar.parameters();
            float[] actual = vector.parameters();
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], actual[i], 1e-5f, "parameter " + i);
            }
        }
    }

    @Test
    void shouldCountTheProductFlopsTheModelCounts() {
        try (MlpTraining mlp = new MlpTraining(new int[] {4, 8, 2}, 3, 1, AdamWSettings.DEFAULTS, 1, true)) {
            // Layer 1: forward and weight gradient; layer 2 also its input gradient.
            assertEquals(2 * (2.0 * 3 * 8 * 4) + 3 * (2.0 * 3 * 2 * 8), mlp.productFlops());
        }
    }
}
