package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import membound.profile.BandwidthEntry;
import membound.profile.Distribution;
import membound.profile.LevelCeiling;
import membound.profile.Provenance;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/** The one rule that makes bandwidth entries the model's ceilings, by hand-built entries. */
class CeilingRuleTest {

    private static BandwidthEntry entry(String kernel, int threads, String implementation, double streamBytesPerSecond,
                                        Double hardwareBytesPerSecond) {
        return new BandwidthEntry(kernel + "-" + threads + "-" + implementation, kernel, "double", threads, "all",
                4L << 30, MemoryLevel.DRAM, Distribution.single(streamBytesPerSecond),
                hardwareBytesPerSecond == null ? null : Distribution.single(hardwareBytesPerSecond),
                Provenance.measured("StreamBenchmark " + kernel, null, Map.of("param.implementation", implementation)));
    }

    private static Map<AccessPattern, LevelCeiling> byPattern(List<LevelCeiling> ceilings) {
        return ceilings.stream().collect(Collectors.toMap(LevelCeiling::access, c -> c));
    }

    @Test
    void shouldPreferTheKernelThatDefinesAPatternOverALargerTeamOfAStandIn() {
        Map<AccessPattern, LevelCeiling> ceilings = byPattern(CeilingRule.ceilings(List.of(
                entry("scale", 4, "vector", 50e9, 75e9), entry("copy", 2, "vector", 40e9, 60e9),
                entry("add", 2, "vector", 45e9, 60e9), entry("dot", 2, "vector", 48e9, null))));
        assertEquals("copy-2-vector", ceilings.get(AccessPattern.COPY).bandwidthId());
        assertEquals("add-2-vector", ceilings.get(AccessPattern.TRIAD).bandwidthId(), "Add stands in for Triad");
        assertEquals("dot-2-vector", ceilings.get(AccessPattern.READ).bandwidthId(), "Dot stands in for Sum");
        LevelCeiling update = ceilings.get(AccessPattern.UPDATE);
        assertEquals(60e9, update.bytesPerSecond(), "an update moves at copy's rate in hardware bytes");
        assertTrue(update.inHardwareBytes());
        assertEquals("copy-2-vector", update.bandwidthId());
        assertFalse(ceilings.get(AccessPattern.COPY).inHardwareBytes());
    }

    @Test
    void shouldTakeTheLargestTeamOfTheDefiningKernelAndNeverAScalarTwin() {
        Map<AccessPattern, LevelCeiling> ceilings = byPattern(CeilingRule.ceilings(List.of(
                entry("sum", 1, "vector", 20e9, null), entry("sum", 2, "vector", 30e9, null),
                entry("sum", 8, "scalar", 35e9, null), entry("dot", 8, "vector", 40e9, null),
                entry("nstream", 2, "vector", 50e9, null))));
        assertEquals("sum-2-vector", ceilings.get(AccessPattern.READ).bandwidthId());
        assertEquals(1, ceilings.size(), "Nstream stands for no pattern; no copy, so no update: " + ceilings);
    }

    @Test
    void shouldNameOtherToolsKernelsByTheKernelTable() {
        assertEquals(Optional.of(AccessPattern.COPY), CeilingRule.patternOf("Mul"));
        assertEquals(Optional.of(AccessPattern.READ), CeilingRule.patternOf("load"));
        assertEquals(Optional.of(AccessPattern.WRITE), CeilingRule.patternOf("store"));
        assertEquals(Optional.of(AccessPattern.READ), CeilingRule.patternOf("dot"));
        assertEquals(Optional.empty(), CeilingRule.patternOf("nstream"));
        assertEquals(Optional.empty(), CeilingRule.patternOf("stream_avx_fma"));
        assertTrue(CeilingRule.definesPattern("Copy"));
        assertFalse(CeilingRule.definesPattern("scale"));
    }
}
