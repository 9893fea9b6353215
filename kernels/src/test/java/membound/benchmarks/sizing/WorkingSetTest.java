package membound.benchmarks.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.vocabulary.BadInputException;

class WorkingSetTest {

    /** A GB10-like X925 core: 64 KiB L1d, 2 MiB L2, 24 MiB of L3 in total. */
    static final CacheSizes CACHES = new CacheSizes(Map.of(1, 64L << 10, 2, 2L << 20, 3, 8L << 20), 24L << 20, "test");

    @Test
    void shouldSizeDramSoEveryArrayIsFourTimesTheLastLevelCache() {
        WorkingSet dram = WorkingSet.resolve("DRAM", 2, () -> CACHES);

        assertEquals(4 * (24L << 20), dram.arrayBytes());
        assertEquals("DRAM:" + (96L << 20), dram.parameter());
        assertTrue(dram.isDram(CACHES));
    }

    @Test
    void shouldFillHalfOfEachThreadsShareOfACacheLevelWithThreeArrays() {
        WorkingSet l2 = WorkingSet.resolve("l2", 4, () -> CACHES);

        assertEquals("L2", l2.label());
        assertEquals((long) ((2L << 20) * 0.5 / 3) * 4, l2.arrayBytes());
    }

    @Test
    void shouldGiveAPointerChaseHalfOfOneCoresShare() {
        assertEquals(32L << 10, WorkingSet.resolveSingle("L1", () -> CACHES).arrayBytes());
    }

    @Test
    void shouldTakeExplicitAndAlreadyResolvedSizesWithoutAskingForCaches() {
        assertEquals(64L << 20, WorkingSet.resolve("64MiB", 2, () -> {
            throw new AssertionError("caches asked for");
        }).arrayBytes());
        WorkingSet resolved = WorkingSet.resolve("DRAM:123456", 2, () -> {
            throw new AssertionError("caches asked for");
        });
        assertEquals(new WorkingSet("DRAM", 123456), resolved);
    }

    @Test
    void shouldSweepFromCacheSizesUpToDram() {
        List<WorkingSet> sweep = WorkingSet.sweep(1, CACHES);

        assertEquals("DRAM", sweep.get(sweep.size() - 1).label());
        for (int i = 1; i < sweep.size(); i++) {
            assertTrue(sweep.get(i).arrayBytes() > sweep.get(i - 1).arrayBytes());
        }
        assertTrue(sweep.get(0).arrayBytes() * 3 <= 64L << 10, "the sweep starts inside L1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"L4", "ram", "-1", "64XB", ""})
    void shouldRejectUnknownLevelsAndMalformedSizesNamingTheValue(String spec) {
        BadInputException e = assertThrows(BadInputException.class, () -> WorkingSet.resolve(spec, 1, () -> CACHES));
        assertTrue(e.getMessage().contains("workingSet"), e.getMessage());
        assertTrue(e.getMessage().endsWith("=" + spec), e.getMessage());
    }

    @Test
    void shouldRejectThreadCountsThatAreNotCounts() {
        assertEquals(3, Threads.resolve("3"));
        assertEquals(Runtime.getRuntime().availableProcessors(), Threads.resolve("all"));
        assertThrows(BadInputException.class, () -> Threads.resolve("0"));
        assertThrows(BadInputException.class, () -> Threads.resolve("two"));
    }
}
