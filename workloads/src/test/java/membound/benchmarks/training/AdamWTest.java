package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AdamWTest {

    /** Relative tolerance of a float sum of squares against the double scalar twin. */
    private static final double SUM_TOLERANCE = 1e-5;

    static List<Integer> awkwardLengths() {
        int lanes = AdamW.SPECIES.length();
        return List.of(0, 1, 7, lanes - 1, lanes, lanes + 1, 259, 1023, AdamW.REDUCTION_BLOCK + lanes + 1);
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldUpdateBitForBitLikeTheScalarTwin(int n) {
        SplittableRandom random = new SplittableRandom(n);
        float[][] vector = state(random, n + 3);
        float[][] scalar = {vector[0].clone(), vector[1].clone(), vector[2].clone(), vector[3].clone()};
        AdamW.Update update = AdamW.Update.of(AdamWSettings.DEFAULTS, 3, 2.5);

        AdamW.update(vector[0], vector[1], vector[2], vector[3], 2, n + 2, update);
        AdamW.updateScalar(scalar[0], scalar[1], scalar[2], scalar[3], 2, n + 2, update);

        for (int a = 0; a < 4; a++) {
            for (int i = 0; i < n + 3; i++) {
                assertEquals(Float.floatToIntBits(scalar[a][i]), Float.floatToIntBits(vector[a][i]),
                        "array " + a + " element " + i);
            }
        }
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldSumSquaresLikeTheScalarTwinAndZeroOnlyItsRange(int n) {
        float[] g = state(new SplittableRandom(n + 1), n + 2)[1];
        double expected = AdamW.sumOfSquaresScalar(g, 1, n + 1);
        assertEquals(expected, AdamW.sumOfSquares(g, 1, n + 1), SUM_TOLERANCE * expected);

        float first = g[0];
        float last = g[n + 1];
        AdamW.zero(g, 1, n + 1);
        assertEquals(first, g[0]);
        assertEquals(last, g[n + 1]);
        for (int i = 1; i <= n; i++) {
            assertEquals(0f, g[i]);
        }
    }

    @Test
    void shouldMoveEachParameterByTheLearningRateOnTheFirstStep() {
        // Step 1 from zero moments: the bias-corrected m/sqrt(v) is g/|g|, so p moves by lr against the gradient.
        AdamWSettings settings = AdamWSettings.DEFAULTS;
        float[] p = {1f, 1f, -2f};
        float[] g = {0.5f, -0.25f, 0.125f};
        float[] m = new float[3];
        float[] v = new float[3];

        AdamW.updateScalar(p, g, m, v, 0, 3, AdamW.Update.of(settings, 1, 0.1));

        float lr = settings.learningRate();
        float decay = 1 - lr * settings.weightDecay();
        assertEquals(1f * decay - lr, p[0], 1e-6f);
        assertEquals(1f * decay + lr, p[1], 1e-6f);
        assertEquals(-2f * decay - lr, p[2], 1e-6f);
        assertEquals((1 - settings.beta1()) * 0.5f, m[0], 1e-7f);
        assertEquals((1 - settings.beta2()) * 0.25f, v[0], 1e-9f);
    }

    @Test
    void shouldScaleGradientsDownOnlyWhenTheirNormExceedsTheThreshold() {
        assertEquals(1f, AdamW.Update.of(AdamWSettings.DEFAULTS, 1, 0.5).clipScale());
        assertEquals(0.25f, AdamW.Update.of(AdamWSettings.DEFAULTS, 1, 4.0).clipScale(), 1e-6f);
    }

    @Test
    void shouldRejectAStepBeforeTheFirst() {
        assertThrows(IllegalArgumentException.class, () -> AdamW.Update.of(AdamWSettings.DEFAULTS, 0, 1.0));
    }

    private static float[][] state(SplittableRandom random, int n) {
        float[][] arrays = new float[4][n];
        for (int i = 0; i < n; i++) {
            arrays[0][i] = (float) random.nextGaussian();
            arrays[1][i] = (float) random.nextGaussian() * 0.1f;
            arrays[2][i] = (float) random.nextGaussian() * 0.01f;
            arrays[3][i] = (float) random.nextDouble() * 1e-3f;
        }
        return arrays;
    }
}
