package membound.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.benchmarks.training.TrainingWorkload;

/** Timing a workload alone: only the timed steps' phases count, per step, and the optimizer restarts as in its benchmark. */
class BreakdownTest {

    /** Each step takes 10 ns of "norm" and 30 of "update" while phases are timed. */
    private static final class Counted implements TrainingWorkload {
        int steps;
        int sinceRestart;
        int longestRun;
        Map<String, Long> nanos;

        @Override
        public double step() {
            steps++;
            longestRun = Math.max(longestRun, ++sinceRestart);
            if (nanos != null) {
                nanos.merge("norm", 10L, Long::sum);
                nanos.merge("update", 30L, Long::sum);
            }
            return 1;
        }

        @Override
        public void timePhases(boolean on) {
            nanos = on ? new LinkedHashMap<>() : null;
        }

        @Override
        public Map<String, Long> phaseNanos() {
            return nanos == null ? Map.of() : nanos;
        }

        @Override
        public void restart() {
            sinceRestart = 0;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void shouldCountOnlyTheTimedStepsAndRestartEveryTwentySteps() {
        Counted workload = new Counted();
        StringWriter progress = new StringWriter();
        Breakdown.Phases phases = Breakdown.run(workload, 0.05, 0, new PrintWriter(progress, true));
        assertEquals(3, phases.steps(), "no timed seconds: the three steps at least");
        assertEquals(Map.of("norm", 30L, "update", 90L), phases.nanos());
        assertEquals(10e-9, phases.secondsPerStep("norm"), 1e-18);
        assertNull(phases.secondsPerStep("attention"));
        assertEquals("3 steps", progress.toString().strip());
        assertTrue(workload.steps > 2 * Breakdown.STEPS_PER_RESTART, "50 ms of warm-up: " + workload.steps + " steps");
        assertEquals(Breakdown.STEPS_PER_RESTART, workload.longestRun,
                "a restart after every " + Breakdown.STEPS_PER_RESTART + " steps");
    }
}
