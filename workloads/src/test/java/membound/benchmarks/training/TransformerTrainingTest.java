package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.benchmarks.compute.Elementwise;
import membound.vocabulary.BadInputException;

class TransformerTrainingTest {

    /** Hidden width of two vector tiles and heads of one vector, so every loop runs its vector part. */
    private static final TransformerShape TINY = new TransformerShape(37, 2 * 2 * Elementwise.SPECIES.length(), 4,
            3 * Elementwise.SPECIES.length() + 1, 9, 2);

    @Test
    void shouldComputeGradientsThatAgreeWithFiniteDifferences() {
        try (TransformerTraining transformer = new TransformerTraining(TINY, 2, AdamWSettings.DEFAULTS, 1, true)) {
            transformer.computeGradients();
            int checked = GradientCheck.assertGradientsMatch(transformer.parameters(), transformer.gradients(),
                    transformer::loss, 7);
            // Every seventh parameter, all but the few at a kink (the count follows the vector width: TINY).
            assertTrue(checked >= 0.9 * Math.ceil(transformer.parameters().length / 7.0) && checked > 300,
                    "checked " + checked + " of " + transformer.parameters().length);
        }
    }

    @Test
    void shouldLowerTheLossOverAFewSteps() {
        try (TransformerTraining transformer = new TransformerTraining(TINY, 2,
                AdamWSettings.DEFAULTS.withLearningRate(1e-2f), 2, true)) {
            double first = transformer.step();
            double last = first;
            for (int i = 0; i < 5; i++) {
                last = transformer.step();
            }
            assertEquals(Math.log(TINY.vocabulary()), first, 0.2, "an untrained model guesses uniformly");
            assertTrue(last < 0.8 * first, "loss went from " + first + " to " + last);
        }
    }

    @Test
    void shouldTrainLikeTheScalarTwin() {
        try (TransformerTraining vector = new TransformerTraining(TINY, 3, AdamWSettings.DEFAULTS, 3, true);
             TransformerTraining scalar = new TransformerTraining(TINY, 1, AdamWSettings.DEFAULTS, 3, false)) {
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
    void shouldParseTheBenchmarkParameterAndCountParameters() {
        TransformerShape shape = TransformerShape.parse("11,8,2,12,5,3");
        assertEquals(new TransformerShape(11, 8, 2, 12, 5, 3), shape);
        assertEquals("11,8,2,12,5,3", shape.toString());
        assertEquals(11 * 8 + 5 * 8 + 8 + 3 * 64 + 64 + 8 + 2 * 8 * 12 + 8 + 8 * 11, shape.parameters());
        assertEquals(15, shape.rows());
        assertEquals(4, shape.headDimension());
    }

    @Test
    void shouldRejectShapesThatDoNotSplitIntoHeads() {
        BadInputException failure = assertThrows(BadInputException.class,
                () -> TransformerShape.parse("11,10,3,12,5,3"));
        assertEquals("heads must divide hidden (10): heads=3", failure.getMessage());
        assertThrows(BadInputException.class, () -> TransformerShape.parse("11,10,5"));
    }
}
