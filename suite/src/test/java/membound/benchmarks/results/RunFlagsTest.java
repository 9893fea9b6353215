package membound.benchmarks.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One threshold and one wording per flag, for calibrate's profile and jmh:run's table alike. */
class RunFlagsTest {

    @Test
    void shouldCallNoisyOnlyASpreadAboveTenPercent() {
        assertFalse(RunFlags.noisy(null), "one sample has no spread");
        assertFalse(RunFlags.noisy(0.10));
        assertTrue(RunFlags.noisy(0.1001));
        assertEquals("its rate varies by 33.7% (std/mean over 145 passes), above the 10% threshold: rerun on a quieter "
                + "machine", RunFlags.noisyMessage(0.337, 145));
    }

    @Test
    void shouldCallLoadSeenOnlyMoreThanAQuarterOfACpuOfOthers() {
        assertFalse(RunFlags.loadSeen(0.25));
        assertTrue(RunFlags.loadSeen(0.26));
        assertTrue(RunFlags.loadSeenMessage(1.18).startsWith("other processes used 1.18 cpus while it ran"));
    }
}
