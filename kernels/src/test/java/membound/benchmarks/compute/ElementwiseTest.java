package membound.benchmarks.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each elementwise operation against its scalar twin at lengths around the lane count, and against a closed
 * form where there is one. Lane-for-lane arithmetic agrees bit for bit; reductions and the vector math
 * library's exp and tanh agree to {@link #ROUNDING}.
 */
class ElementwiseTest {

    /** Relative difference allowed where lanes reduce in another order or exp/tanh come from another library. */
    private static final float ROUNDING = 2e-6f;

    static List<Integer> awkwardLengths() {
        int lanes = Elementwise.SPECIES.length();
        return List.of(1, 7, lanes - 1, lanes, lanes + 1, 259, 1023);
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldComputeActivationsAndTheirGradientsLikeTheScalarTwins(int n) {
        SplittableRandom random = new SplittableRandom(n);
        float[] z = gaussian(random, n + 1, 2);
        float[] da = gaussian(random, n + 1, 1);

        float[] vector = new float[n + 1];
        float[] scalar = new float[n + 1];
        Elementwise.relu(z, 1, vector, 0, n);
        Elementwise.reluScalar(z, 1, scalar, 0, n);
        assertArrayEquals(scalar, vector, 0f, "relu");

        Elementwise.reluBackward(da, 1, z, 1, vector, 0, n);
        Elementwise.reluBackwardScalar(da, 1, z, 1, scalar, 0, n);
        assertArrayEquals(scalar, vector, 0f, "relu backward");

        Elementwise.gelu(z, 1, vector, 0, n);
        Elementwise.geluScalar(z, 1, scalar, 0, n);
        assertClose(scalar, vector, "gelu");

        Elementwise.geluBackward(da, 1, z, 1, vector, 0, n);
        Elementwise.geluBackwardScalar(da, 1, z, 1, scalar, 0, n);
        assertClose(scalar, vector, "gelu backward");

        Elementwise.add(z, 1, da, 0, vector, 0, n);
        Elementwise.addScalar(z, 1, da, 0, scalar, 0, n);
        assertArrayEquals(scalar, vector, 0f, "add");
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldNormalizeAndPropagateThroughRmsNormLikeTheScalarTwin(int n) {
        SplittableRandom random = new SplittableRandom(n + 100);
        float[] x = gaussian(random, n, 3);
        float[] gamma = gaussian(random, n, 1);
        float[] dy = gaussian(random, n, 1);
        float[] yVector = new float[n];
        float[] yScalar = new float[n];

        float rVector = Elementwise.rmsNorm(x, 0, gamma, 0, yVector, 0, n, 1e-5f);
        float rScalar = Elementwise.rmsNormScalar(x, 0, gamma, 0, yScalar, 0, n, 1e-5f);
        assertEquals(rScalar, rVector, ROUNDING * rScalar);
        assertClose(yScalar, yVector, "rms norm");

        float[] dxVector = new float[n];
        float[] dxScalar = new float[n];
        float[] dGammaVector = new float[n];
        float[] dGammaScalar = new float[n];
        Elementwise.rmsNormBackward(dy, 0, x, 0, gamma, 0, rScalar, dxVector, 0, dGammaVector, 0, n);
        Elementwise.rmsNormBackwardScalar(dy, 0, x, 0, gamma, 0, rScalar, dxScalar, 0, dGammaScalar, 0, n);
        assertClose(dxScalar, dxVector, "rms norm backward");
        assertClose(dGammaScalar, dGammaVector, "rms norm scale gradient");
    }

    @Test
    void shouldScaleAConstantRowToUnitRms() {
        float[] x = {2f, 2f, 2f, 2f};
        float[] y = new float[4];
        float r = Elementwise.rmsNorm(x, 0, new float[] {1f, 1f, 1f, 1f}, 0, y, 0, 4, 0f);
        assertEquals(0.5f, r, 1e-7f);
        assertArrayEquals(new float[] {1f, 1f, 1f, 1f}, y, 1e-7f);
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldKeepOnlyTheVisibleKeysInACausalSoftmaxThatSumsToOne(int n) {
        SplittableRandom random = new SplittableRandom(n + 200);
        float[] vector = gaussian(random, n + 2, 4);
        float[] scalar = vector.clone();
        int valid = (n + 1) / 2;

        Elementwise.causalSoftmax(vector, 1, n, valid, 0.125f);
        Elementwise.causalSoftmaxScalar(scalar, 1, n, valid, 0.125f);

        assertClose(scalar, vector, "causal softmax");
        double sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += vector[i];
            if (i - 1 >= valid) {
                assertEquals(0f, vector[i], "masked key " + (i - 1));
            }
        }
        assertEquals(1.0, sum, 1e-5);

        float[] dpVector = gaussian(random, n + 2, 1);
        float[] dpScalar = dpVector.clone();
        Elementwise.softmaxBackward(vector, 1, dpVector, 1, n, 0.125f);
        Elementwise.softmaxBackwardScalar(vector, 1, dpScalar, 1, n, 0.125f);
        assertCloseAbsolute(dpScalar, dpVector, 1e-6f, "softmax backward");
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldGiveTheCrossEntropyOfUniformLogitsAsTheLogOfTheClassCount(int n) {
        float[] logits = new float[n];
        java.util.Arrays.fill(logits, 3f);
        float[] probabilities = new float[n];
        double loss = Elementwise.softmaxCrossEntropy(logits, 0, probabilities, 0, n, n / 2);
        assertEquals(Math.log(n), loss, 1e-5);

        float[] vector = new float[n];
        float[] scalar = new float[n];
        Elementwise.crossEntropyBackward(probabilities, 0, vector, 0, n, n / 2, 0.5f);
        Elementwise.crossEntropyBackwardScalar(probabilities, 0, scalar, 0, n, n / 2, 0.5f);
        assertArrayEquals(scalar, vector, 0f);
        assertEquals((1f / n - 1f) * 0.5f, vector[n / 2], 1e-6f);
    }

    @ParameterizedTest(name = "n={0}")
    @MethodSource("awkwardLengths")
    void shouldComputeCrossEntropyLikeTheScalarTwin(int n) {
        float[] logits = gaussian(new SplittableRandom(n + 300), n, 3);
        float[] vector = new float[n];
        float[] scalar = new float[n];
        double lossVector = Elementwise.softmaxCrossEntropy(logits, 0, vector, 0, n, n - 1);
        double lossScalar = Elementwise.softmaxCrossEntropyScalar(logits, 0, scalar, 0, n, n - 1);
        assertEquals(lossScalar, lossVector, 1e-5 * Math.max(1, lossScalar));
        assertClose(scalar, vector, "softmax");
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            float tolerance = ROUNDING * Math.max(1f, Math.abs(expected[i]));
            assertEquals(expected[i], actual[i], tolerance, what + " element " + i);
        }
    }

    private static void assertCloseAbsolute(float[] expected, float[] actual, float tolerance, String what) {
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tolerance, what + " element " + i);
        }
    }

    private static float[] gaussian(SplittableRandom random, int n, double scale) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (random.nextGaussian() * scale);
        }
        return values;
    }
}
