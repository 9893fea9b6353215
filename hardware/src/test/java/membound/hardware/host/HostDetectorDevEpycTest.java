package membound.hardware.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import membound.vocabulary.units.Units;

class HostDetectorDevEpycTest {

    private static final Host EPYC = Fixtures.detect("dev-epyc");
    private static final long L3_FROM_GETCONF = 532676608L;

    @Test
    void shouldReadX86CpuWithAvx512() {
        assertEquals(CpuInfo.X86_64, EPYC.cpu().architecture());
        assertEquals("AuthenticAMD", EPYC.cpu().vendor());
        assertEquals("AMD EPYC", EPYC.cpu().modelName());
        assertEquals(2, EPYC.logicalCpus());
        assertEquals(512, EPYC.vectorBitWidth());
    }

    @Test
    void shouldHaveOneCoreTypeAndOneCluster() {
        assertFalse(EPYC.heterogeneous());
        assertEquals("AMD EPYC", EPYC.coreTypes().get(0).name());
        assertTrue(EPYC.coreTypes().get(0).armId().isEmpty());
        assertEquals(1, EPYC.clusters().size());
        assertEquals(List.of(0, 1), EPYC.clusters().get(0).cpus());
        assertEquals("package", EPYC.clusters().get(0).basis());
    }

    @Test
    void shouldTakeCacheSizesFromGetconfWhenSysfsHasNone() {
        assertTrue(EPYC.caches().stream().allMatch(c -> c.source().equals("getconf")), EPYC.caches()::toString);
        assertEquals(List.of(1, 2, 3), EPYC.dataCacheLevels());
        assertEquals(OptionalLong.of(48 * Units.KIB), EPYC.cacheBytesPerCore(1));
        assertEquals(OptionalLong.of(Units.MIB), EPYC.cacheBytesPerCore(2));
        assertEquals(OptionalLong.of(L3_FROM_GETCONF / 2), EPYC.cacheBytesPerCore(3));
        assertEquals(L3_FROM_GETCONF, EPYC.lastLevelCacheTotalBytes());
    }

    @Test
    void shouldWarnThatGetconfSharingIsAssumed() {
        assertTrue(EPYC.warnings().stream().anyMatch(w -> w.contains("sharing assumed")), EPYC.warnings()::toString);
        assertTrue(EPYC.warnings().stream().anyMatch(w -> w.contains("whole socket")), EPYC.warnings()::toString);
        assertTrue(EPYC.warnings().stream().anyMatch(w -> w.contains("'madvise'")), EPYC.warnings()::toString);
        assertFalse(EPYC.warnings().stream().anyMatch(w -> w.contains("must be")), EPYC.warnings()::toString);
    }

    @Test
    void shouldRecogniseNoPlatform() {
        assertTrue(EPYC.platform().isEmpty());
    }

    @Test
    void shouldReadMemoryAndJvmFacts() {
        assertEquals(24683620L * 1024, EPYC.memoryBytes());
        assertEquals(1, EPYC.numaNodes());
        assertEquals("vm", EPYC.hostname());
        assertEquals("17.0.15 (Debian)", EPYC.jdk());
    }

    @Test
    void shouldDetectTheRunningMachineWithoutFailing() {
        Host live = HostDetector.detect();
        assertTrue(live.logicalCpus() >= 1);
        assertTrue(live.vectorBitWidth() >= 64);
    }
}
