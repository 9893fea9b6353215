package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.profile.BandwidthEntry;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.profile.WriteAllocation;
import membound.profile.WriteAllocation.Answer;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;

/** Whether a CPU's stores allocate, decided from hand-built Fill and Sum entries (and counters). */
class WriteAllocationRuleTest {

    private static BandwidthEntry entry(String kernel, int threads, MemoryLevel level, double streamBytesPerSecond,
                                        double coefficientOfVariation) {
        AccessPattern pattern = kernel.equals("sum") ? AccessPattern.READ : kernel.equals("fill") ? AccessPattern.WRITE
                : AccessPattern.COPY;
        double rate = streamBytesPerSecond;
        Distribution d = new Distribution(rate * 1.01, rate * 0.99, rate, rate, rate * 0.995, rate * 1.005,
                coefficientOfVariation, 20);
        return new BandwidthEntry(kernel + "-double-vector-" + threads + "t-" + level.label().toLowerCase(), kernel,
                pattern, false, "double", Implementation.VECTOR, threads, "all", 3L << 30, level, d, null,
                Provenance.measured("StreamBenchmark " + kernel, null, Map.of()));
    }

    private static BandwidthEntry dram(String kernel, int threads, double rate) {
        return entry(kernel, threads, MemoryLevel.DRAM, rate, 0.02);
    }

    private static WriteAllocation decide(BandwidthEntry... entries) {
        return WriteAllocationRule.decide(List.of(entries), null, "no memory counters: (test)");
    }

    @Test
    void aWriteStreamAtHalfTheReadRateMeansStoresAllocate() {
        WriteAllocation w = decide(dram("sum", 8, 100e9), dram("fill", 8, 48e9), dram("sum", 4, 96e9));

        assertEquals(Answer.YES, w.answer(), w.reason());
        assertEquals("sum-double-vector-8t-dram", w.readBandwidthId());
        assertEquals("fill-double-vector-8t-dram", w.writeBandwidthId());
        assertEquals(100e9 / 48e9, w.readOverWrite(), 1e-12);
        assertTrue(w.storesAllocate());
        assertTrue(w.reason().startsWith("Sum 100.0 GB/s, Fill 48.0 GB/s (medians, STREAM bytes, 8 threads, DRAM); "
                + "Sum with 4 threads 96.0 GB/s: Sum/Fill 2.08: >= 1.70"), w.reason());
        assertEquals("no memory counters: (test)", w.countersNote());
    }

    @Test
    void aWriteStreamNearTheReadRateOfASaturatedMemoryMeansStoresDoNotAllocate() {
        // Half the team already reached 92% of the full team's read rate: memory, not the cores, was the limit.
        WriteAllocation w = decide(dram("sum", 8, 100e9), dram("fill", 8, 95e9), dram("sum", 4, 92e9));

        assertEquals(Answer.NO, w.answer(), w.reason());
        assertEquals("sum-double-vector-4t-dram", w.halfTeamBandwidthId());
        assertEquals(100e9 / 92e9, w.teamGain(), 1e-12);
        assertTrue(!w.storesAllocate());
        assertTrue(w.reason().contains("<= 1.30 with memory saturated (1.09x the half team's Sum, at most 1.25x)"),
                w.reason());
    }

    @Test
    void nearTheReadRateWithoutSaturatingMemoryTellsNothing() {
        // Two cores of a large machine: each limited by its own line fills, allocating stores run Fill near Sum too.
        WriteAllocation unsaturated = decide(dram("sum", 2, 40e9), dram("fill", 2, 41e9), dram("sum", 1, 22e9));
        assertEquals(Answer.UNDETERMINED, unsaturated.answer(), unsaturated.reason());
        assertTrue(unsaturated.storesAllocate(), "write-allocate assumed");
        assertTrue(unsaturated.reason().contains("the team did not saturate memory (1.82x the half team's Sum"),
                unsaturated.reason());

        // As on the shared development VM: the full team read slower than its half, having lost cpus to others.
        WriteAllocation crowded = decide(dram("sum", 2, 8.41e9), dram("fill", 2, 8.38e9), dram("sum", 1, 10.32e9));
        assertEquals(Answer.UNDETERMINED, crowded.answer(), crowded.reason());
        assertTrue(crowded.reason().contains("the full team read slower than half of it (0.81x, below 0.90x)"),
                crowded.reason());

        WriteAllocation unknown = decide(dram("sum", 2, 40e9), dram("fill", 2, 41e9));
        assertEquals(Answer.UNDETERMINED, unknown.answer(), unknown.reason());
        assertNull(unknown.halfTeamBandwidthId());
        assertTrue(unknown.reason().contains("whether the team saturated memory is unknown (no Sum with half the team)"),
                unknown.reason());
    }

    @ParameterizedTest(name = "Sum/Fill {0}: {1}")
    @CsvSource({"2.0, YES", "1.7, YES", "1.69, UNDETERMINED", "1.5, UNDETERMINED", "1.31, UNDETERMINED", "1.3, NO",
            "1.0, NO", "0.8, NO"})
    void theRatioIsReadAgainstStatedThresholds(double ratio, Answer expected) {
        assertEquals(expected, decide(dram("sum", 8, 100e9), dram("fill", 8, 100e9 / ratio), dram("sum", 4, 95e9))
                .answer());
    }

    @Test
    void aNoisyFigureDecidesNothing() {
        BandwidthEntry noisyFill = entry("fill", 8, MemoryLevel.DRAM, 48e9, 0.15);
        WriteAllocation w = decide(dram("sum", 8, 100e9), noisyFill, dram("sum", 4, 96e9));

        assertEquals(Answer.UNDETERMINED, w.answer(), w.reason());
        assertTrue(w.reason().endsWith("Fill's CV 15.0% above 10%: too noisy to tell"), w.reason());
        assertEquals(100e9 / 48e9, w.readOverWrite(), 1e-12, "the evidence is kept");
    }

    @Test
    void withoutFillAndSumAtDramWithOneTeamNothingIsMeasured() {
        WriteAllocation w = decide(dram("sum", 8, 100e9), dram("fill", 4, 48e9),
                entry("fill", 8, MemoryLevel.L3, 300e9, 0.02), dram("copy", 8, 70e9));

        assertEquals(Answer.ASSUMED, w.answer());
        assertTrue(w.reason().startsWith("not measured: this calibration has no write-only (Fill) and read-only (Sum) "
                + "run at DRAM with one team"), w.reason());
        assertTrue(w.bandwidthIds().isEmpty());
    }

    @Test
    void theLargestTeamThatRanBothDecides() {
        WriteAllocation w = decide(dram("sum", 2, 60e9), dram("fill", 2, 58e9), dram("sum", 8, 100e9),
                dram("fill", 8, 45e9), dram("sum", 16, 101e9));

        assertEquals(Answer.YES, w.answer(), w.reason());
        assertEquals("sum-double-vector-8t-dram", w.readBandwidthId());
        assertEquals("sum-double-vector-2t-dram", w.halfTeamBandwidthId(), "the largest team up to half of 8");
    }

    @ParameterizedTest(name = "read {0} of {1} written: {2}")
    @CsvSource({"40e9, 41e9, YES", "28e9, 40e9, YES", "1e9, 40e9, NO", "12e9, 40e9, NO", "20e9, 40e9, UNDETERMINED"})
    void theMemoryControllersCountersDecideWhereTheyWereRead(double read, double written, Answer expected) {
        WriteAllocation.MemoryCounters counters = new WriteAllocation.MemoryCounters("perf stat -a",
                List.of("uncore_imc/cas_count_read/", "uncore_imc/cas_count_write/"), read, written, 2, "Fill");
        // The rates alone would say yes; the counters are the direct evidence.
        WriteAllocation w = WriteAllocationRule.decide(List.of(dram("sum", 8, 100e9), dram("fill", 8, 48e9)), counters,
                null);

        assertEquals(expected, w.answer(), w.reason());
        assertEquals(counters, w.counters());
        assertTrue(w.reason().startsWith("the memory controller read "), w.reason());
        assertTrue(w.reason().contains("; the rates: Sum 100.0 GB/s, Fill 48.0 GB/s"), w.reason());
    }

    @Test
    void theEntriesOrderChangesNothing() {
        List<BandwidthEntry> entries = new ArrayList<>(List.of(dram("sum", 8, 100e9), dram("fill", 8, 95e9),
                dram("sum", 4, 92e9), dram("sum", 2, 60e9), dram("fill", 2, 58e9), dram("copy", 8, 70e9),
                entry("sum", 8, MemoryLevel.L2, 400e9, 0.01)));
        WriteAllocation expected = WriteAllocationRule.decide(entries, null, null);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(entries, random);
            assertEquals(expected, WriteAllocationRule.decide(entries, null, null));
        }
    }
}
