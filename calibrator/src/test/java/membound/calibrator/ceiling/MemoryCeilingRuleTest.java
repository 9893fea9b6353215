package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.profile.BandwidthEntry;
import membound.profile.CeilingRules;
import membound.profile.Distribution;
import membound.profile.LevelCeiling;
import membound.profile.Provenance;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;

/** The one rule that makes bandwidth entries the model's memory ceilings, by hand-built entries. */
class MemoryCeilingRuleTest {

    static BandwidthEntry entry(String kernel, int threads, Implementation implementation, double streamBytesPerSecond,
                                Double hardwareBytesPerSecond) {
        return entry(kernel, threads, implementation, MemoryLevel.DRAM, 4L << 30, streamBytesPerSecond,
                hardwareBytesPerSecond);
    }

    static BandwidthEntry entry(String kernel, int threads, Implementation implementation, MemoryLevel level,
                                long workingSetBytes, double streamBytesPerSecond, Double hardwareBytesPerSecond) {
        Optional<CeilingRules.KernelPattern> pattern = MemoryCeilingRule.patternOf(kernel);
        return new BandwidthEntry(kernel + "-" + threads + "-" + implementation + "-" + level.label().toLowerCase(java.util.Locale.ROOT) + "-" + workingSetBytes,
                kernel, pattern.map(CeilingRules.KernelPattern::pattern).orElse(null),
                pattern.map(CeilingRules.KernelPattern::standsIn).orElse(false), "double", implementation, threads,
                "all", workingSetBytes, level, Distribution.single(streamBytesPerSecond),
                hardwareBytesPerSecond == null ? null : Distribution.single(hardwareBytesPerSecond),
                Provenance.measured("StreamBenchmark " + kernel, null, Map.of()));
    }

    private static Map<AccessPattern, LevelCeiling> byPattern(List<LevelCeiling> ceilings) {
        return ceilings.stream().filter(c -> !c.standsIn())
                .collect(Collectors.toMap(LevelCeiling::access, c -> c));
    }

    @Test
    void shouldPreferTheKernelThatDefinesAPatternOverALargerTeamOfAStandIn() {
        Map<AccessPattern, LevelCeiling> ceilings = byPattern(MemoryCeilingRule.ceilings(List.of(
                entry("scale", 4, Implementation.VECTOR, 50e9, 75e9), entry("copy", 2, Implementation.VECTOR, 40e9, 60e9),
                entry("add", 2, Implementation.VECTOR, 45e9, 60e9), entry("dot", 2, Implementation.VECTOR, 48e9, null))));
        assertTrue(ceilings.get(AccessPattern.COPY).bandwidthId().startsWith("copy-2-"));
        assertTrue(ceilings.get(AccessPattern.TRIAD).bandwidthId().startsWith("add-2-"), "Add stands in for Triad");
        assertTrue(ceilings.get(AccessPattern.READ).bandwidthId().startsWith("dot-2-"), "Dot stands in for Sum");
        LevelCeiling update = ceilings.get(AccessPattern.UPDATE);
        assertEquals(60e9, update.bytesPerSecond(), "an update moves at copy's rate in hardware bytes");
        assertTrue(update.inHardwareBytes());
        assertTrue(update.bandwidthId().startsWith("copy-2-"));
        assertFalse(ceilings.get(AccessPattern.COPY).inHardwareBytes());
    }

    @Test
    void shouldTakeTheLargestTeamOfTheDefiningKernelAndNeverAScalarTwinNorAGpuPassOverHostMemory() {
        List<LevelCeiling> all = MemoryCeilingRule.ceilings(List.of(
                entry("sum", 1, Implementation.VECTOR, 20e9, null), entry("sum", 2, Implementation.VECTOR, 30e9, null),
                entry("sum", 8, Implementation.SCALAR, 35e9, null), entry("dot", 8, Implementation.VECTOR, 40e9, null),
                entry("sum", 16, Implementation.PTX_HOST_MEMORY, 90e9, null),
                entry("nstream", 2, Implementation.VECTOR, 50e9, null)));
        Map<AccessPattern, LevelCeiling> ceilings = byPattern(all);
        assertTrue(ceilings.get(AccessPattern.READ).bandwidthId().startsWith("sum-2-vector"));
        assertEquals(1, ceilings.size(), "Nstream stands for no pattern; no copy, so no update: " + ceilings);
    }

    @Test
    void shouldCompleteMainMemoryWithTheNearestMeasuredPatternSayingWhoseFigureItTook() {
        List<LevelCeiling> all = MemoryCeilingRule.ceilings(List.of(entry("sum", 2, Implementation.VECTOR, 30e9, null)));
        Map<AccessPattern, LevelCeiling> byAccess = all.stream().collect(Collectors.toMap(LevelCeiling::access, c -> c));
        assertEquals(AccessPattern.values().length, byAccess.size(), "every pattern in main memory: " + all);
        assertEquals(AccessPattern.READ, byAccess.get(AccessPattern.COPY).takenFrom());
        assertEquals(AccessPattern.COPY, byAccess.get(AccessPattern.TRIAD).takenFrom(), "a completed one stands in too");
        assertEquals(30e9, byAccess.get(AccessPattern.WRITE).bytesPerSecond());
        assertEquals(all, MemoryCeilingRule.complete(all), "completing twice changes nothing");
    }

    @Test
    void shouldCompleteACacheLevelFromWhatItMeasuredWithTheCopyFigureAsItIsForTheUpdate() {
        List<LevelCeiling> all = MemoryCeilingRule.ceilings(List.of(
                entry("copy", 2, Implementation.VECTOR, MemoryLevel.L2, 1 << 20, 300e9, null)));
        Map<AccessPattern, LevelCeiling> byAccess = all.stream().collect(Collectors.toMap(LevelCeiling::access, c -> c));
        assertEquals(AccessPattern.values().length, all.size(), "every pattern of the cache level: " + all);
        LevelCeiling update = byAccess.get(AccessPattern.UPDATE);
        assertEquals(AccessPattern.COPY, update.takenFrom());
        assertFalse(update.inHardwareBytes());
        assertEquals(AccessPattern.COPY, byAccess.get(AccessPattern.TRIAD).takenFrom(), "its nearest measured one");
        assertEquals(AccessPattern.COPY, byAccess.get(AccessPattern.WRITE).takenFrom());
    }

    @Test
    void shouldPreferTheRunSizedForMainMemoryToASweepPointBelowIt() {
        // A --full sweep's point between the LLC and 4x it is DRAM by its footprint; the DRAM run is larger.
        BandwidthEntry sweep = entry("triad", 2, Implementation.VECTOR, MemoryLevel.DRAM, 48L << 20, 95e9, null);
        BandwidthEntry dram = entry("triad", 2, Implementation.VECTOR, MemoryLevel.DRAM, 384L << 20, 80e9, null);
        for (List<BandwidthEntry> order : List.of(List.of(sweep, dram), List.of(dram, sweep))) {
            assertEquals(dram.id(), byPattern(MemoryCeilingRule.ceilings(order)).get(AccessPattern.TRIAD).bandwidthId());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void shufflingTheEntriesChangesNoCeiling(long seed) {
        Random random = new Random(seed);
        String[] kernels = {"copy", "scale", "add", "triad", "sum", "dot", "fill", "nstream"};
        MemoryLevel[] levels = {MemoryLevel.L1, MemoryLevel.L2, MemoryLevel.DRAM};
        Implementation[] implementations = {Implementation.VECTOR, Implementation.SCALAR, Implementation.PTX};
        List<BandwidthEntry> entries = new ArrayList<>();
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 40; i++) {
            BandwidthEntry e = entry(kernels[random.nextInt(kernels.length)], 1 + random.nextInt(4),
                    implementations[random.nextInt(implementations.length)], levels[random.nextInt(levels.length)],
                    (1L + random.nextInt(3)) << 20, 1e9 * (10 + random.nextInt(5)),
                    random.nextBoolean() ? null : 1e9 * (15 + random.nextInt(5)));
            if (ids.add(e.id())) {
                entries.add(e);
            }
        }
        java.util.Set<LevelCeiling> expected = new java.util.HashSet<>(MemoryCeilingRule.ceilings(entries));
        for (int round = 0; round < 10; round++) {
            List<BandwidthEntry> shuffled = new ArrayList<>(entries);
            Collections.shuffle(shuffled, random);
            assertEquals(expected, new java.util.HashSet<>(MemoryCeilingRule.ceilings(shuffled)));
        }
    }

    @Test
    void shouldNameOtherToolsKernelsByTheKernelTable() {
        assertEquals(Optional.of(AccessPattern.COPY), pattern("Mul"));
        assertEquals(Optional.of(AccessPattern.READ), pattern("load"));
        assertEquals(Optional.of(AccessPattern.WRITE), pattern("store"));
        assertEquals(Optional.of(AccessPattern.READ), pattern("dot"));
        assertEquals(Optional.empty(), pattern("nstream"));
        assertEquals(Optional.empty(), pattern("stream_avx_fma"));
        assertFalse(MemoryCeilingRule.patternOf("Copy").orElseThrow().standsIn());
        assertTrue(MemoryCeilingRule.patternOf("scale").orElseThrow().standsIn());
    }

    private static Optional<AccessPattern> pattern(String kernel) {
        return MemoryCeilingRule.patternOf(kernel).map(CeilingRules.KernelPattern::pattern);
    }
}
