package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Statistic;

/** The ceilings a bandwidth entry gives, labelled with the statistic of the figure they take. */
class LevelCeilingTest {

    private static BandwidthEntry copy(Distribution stream, Distribution hardware) {
        return new BandwidthEntry("copy-double-vector-2t-dram", "copy", AccessPattern.COPY, false, "double",
                Implementation.VECTOR, 2, "all", 3L << 30, MemoryLevel.DRAM, stream, hardware,
                Provenance.measured("StreamBenchmark Copy (vector)", null, Map.of()));
    }

    @Test
    void theUpdateCeilingIsLabelledWithTheStatisticOfTheHardwareByteFigureItTakes() {
        // The code review of 3c4a3e8 found the update labelled with the STREAM distribution's statistic.
        Distribution stream = new Distribution(60e9, 40e9, 50e9, 50e9, 45e9, 55e9, 0.05, 20);
        Distribution hardware = Distribution.bestAndWorst(90e9, 60e9, 20);
        LevelCeiling update = LevelCeiling.updateOf(copy(stream, hardware)).orElseThrow();

        assertEquals(90e9, update.bytesPerSecond(), "the hardware figure's typical value: its best, all it has");
        assertEquals(Statistic.BEST, update.statistic(), "the statistic of that figure, not the STREAM one's median");
        assertTrue(update.inHardwareBytes());
        assertEquals(Statistic.MEDIAN, LevelCeiling.of(AccessPattern.COPY, copy(stream, hardware)).statistic());
    }
}
