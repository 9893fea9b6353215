package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OptimizerStepTest {

    @Test
    void shouldAgreeWithTheScalarReplayAfterStepsAndResets() {
        try (OptimizerStep optimizer = new OptimizerStep(10_007, 3, AdamWSettings.DEFAULTS)) {
            optimizer.step();
            optimizer.step();
            assertDoesNotThrow(optimizer::check);
            optimizer.reset();
            assertEquals(0, optimizer.steps());
            optimizer.step();
            assertDoesNotThrow(optimizer::check);
        }
    }

    @Test
    void shouldClipWithTheNormOfEveryThreadsGradients() {
        try (OptimizerStep one = new OptimizerStep(5_000, 1, AdamWSettings.DEFAULTS);
             OptimizerStep three = new OptimizerStep(5_000, 3, AdamWSettings.DEFAULTS)) {
            one.step();
            three.step();
            assertEquals(one.lastGradientNorm(), three.lastGradientNorm(), 1e-6 * one.lastGradientNorm());
            assertTrue(one.lastGradientNorm() > 0);
        }
    }

    @Test
    void shouldLeaveZeroGradientsForTheNextStep() {
        try (OptimizerStep optimizer = new OptimizerStep(1_000, 2, AdamWSettings.DEFAULTS)) {
            assertNotEquals(0.0, firstStepNorm(optimizer));
            optimizer.step();
            assertEquals(0.0, optimizer.lastGradientNorm());
        }
    }

    @Test
    void shouldNoticeAParameterTheStepGotWrong() {
        try (OptimizerStep optimizer = new OptimizerStep(1_000, 2, AdamWSettings.DEFAULTS)) {
            optimizer.step();
            optimizer.corruptForTest();
            IllegalStateException failure = assertThrows(IllegalStateException.class, optimizer::check);
            assertTrue(failure.getMessage().contains("parameter[0]"), failure.getMessage());
        }
    }

    @Test
    void shouldRejectSizesItCannotSplit() {
        assertThrows(IllegalArgumentException.class, () -> new OptimizerStep(0, 1, AdamWSettings.DEFAULTS));
    }

    private static double firstStepNorm(OptimizerStep optimizer) {
        optimizer.step();
        return optimizer.lastGradientNorm();
    }
}
