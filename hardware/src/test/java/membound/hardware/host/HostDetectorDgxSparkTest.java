package membound.hardware.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.units.Units;

class HostDetectorDgxSparkTest {

    private static final Host SPARK = Fixtures.detect("dgx-spark");

    private static List<Integer> range(int fromInclusive, int toInclusive) {
        return IntStream.rangeClosed(fromInclusive, toInclusive).boxed().toList();
    }

    private static CoreType type(Host host, String name) {
        return host.coreTypes().stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no core type " + name + " in " + host.coreTypes()));
    }

    @Test
    void shouldReadAarch64CpuWithSveFlags() {
        assertEquals(CpuInfo.AARCH64, SPARK.cpu().architecture());
        assertEquals("ARM", SPARK.cpu().vendor());
        assertTrue(SPARK.cpu().hasFlag("sve2"));
        assertEquals(20, SPARK.logicalCpus());
    }

    @Test
    void shouldGroupHeterogeneousCoresByType() {
        assertTrue(SPARK.heterogeneous());
        assertEquals(2, SPARK.coreTypes().size());
        CoreType x925 = type(SPARK, "Cortex-X925");
        CoreType a725 = type(SPARK, "Cortex-A725");
        assertEquals(List.of(5, 6, 7, 8, 9, 15, 16, 17, 18, 19), x925.cpus());
        assertEquals(List.of(0, 1, 2, 3, 4, 10, 11, 12, 13, 14), a725.cpus());
        assertEquals(new ArmCoreId(0x41, 0xd85), x925.armId().orElseThrow());
        assertEquals(new ArmCoreId(0x41, 0xd87), a725.armId().orElseThrow());
        assertEquals(1024, x925.capacity().orElseThrow());
    }

    @Test
    void shouldGivePerCoreCachesOfEachCoreType() {
        CoreType x925 = type(SPARK, "Cortex-X925");
        CoreType a725 = type(SPARK, "Cortex-A725");
        assertEquals(64 * Units.KIB, x925.dataCache(1).orElseThrow().sizeBytes());
        assertEquals(2 * Units.MIB, x925.dataCache(2).orElseThrow().sizeBytes());
        assertEquals(512 * Units.KIB, a725.dataCache(2).orElseThrow().sizeBytes());
        assertEquals(10, x925.dataCache(2).orElseThrow().instances());
        assertTrue(x925.caches().stream().allMatch(c -> c.source().equals("sysfs")));
    }

    @Test
    void shouldFindTwoClustersWithTheirOwnL3() {
        assertEquals(2, SPARK.clusters().size());
        CpuCluster c0 = SPARK.clusters().get(0);
        CpuCluster c1 = SPARK.clusters().get(1);
        assertEquals(range(0, 9), c0.cpus());
        assertEquals(range(10, 19), c1.cpus());
        assertEquals("sysfs cluster_id", c0.basis());
        assertEquals(List.of(8 * Units.MIB), c0.caches().stream().map(Cache::sizeBytes).toList());
        assertEquals(List.of(16 * Units.MIB), c1.caches().stream().map(Cache::sizeBytes).toList());
    }

    @Test
    void shouldSumLastLevelCacheOverBothClusters() {
        assertEquals(24 * Units.MIB, SPARK.lastLevelCacheTotalBytes());
        assertEquals(List.of(1, 2, 3), SPARK.dataCacheLevels());
    }

    @Test
    void shouldGiveSmallestPerCoreShareWhereCoreTypesDiffer() {
        assertEquals(OptionalLong.of(512 * Units.KIB), SPARK.cacheBytesPerCore(2));
        assertEquals(OptionalLong.of(2 * Units.MIB), SPARK.cacheBytesPerCore(2, 5));
        assertEquals(OptionalLong.of(8 * Units.MIB / 10), SPARK.cacheBytesPerCore(3));
        assertEquals(OptionalLong.empty(), SPARK.cacheBytesPerCore(4));
    }

    @Test
    void shouldTakeSveDefaultVectorLengthAsVectorWidth() {
        assertEquals(128, SPARK.vectorBitWidth());
    }

    @Test
    void shouldRecogniseDgxSparkFromDmi() {
        PlatformMatch match = SPARK.platform().orElseThrow();
        assertEquals("dgx-spark", match.catalogId());
        assertEquals("DMI product_name \"NVIDIA_DGX_Spark\"", match.evidence());
    }

    @Test
    void shouldRecogniseGb10FromCpuPartsWithoutDmi(@TempDir Path tmp) throws IOException {
        Path copy = Fixtures.copy("dgx-spark", tmp);
        Files.delete(copy.resolve("sys/class/dmi/id/product_name"));
        PlatformMatch match = HostDetector.detect(SystemFiles.fixture(copy)).platform().orElseThrow();
        assertEquals("dgx-spark", match.catalogId());
        assertEquals("CPU parts 10x0xd85 Cortex-X925 + 10x0xd87 Cortex-A725", match.evidence());
    }

    @Test
    void shouldReadMemoryNumaAndSettings() {
        assertEquals(124878780L * 1024, SPARK.memoryBytes());
        assertEquals(1, SPARK.numaNodes());
        assertEquals("madvise", SPARK.transparentHugePages());
        assertEquals("spark-fixture", SPARK.hostname());
        assertEquals("Linux 6.11.0-1016-nvidia", SPARK.os());
        assertTrue(SPARK.warnings().stream().anyMatch(w -> w.contains("governor is 'schedutil' on cpus 0-19")),
                SPARK.warnings()::toString);
        assertFalse(SPARK.warnings().stream().anyMatch(w -> w.contains("unknown") || w.contains("must be")),
                SPARK.warnings()::toString);
    }
}
