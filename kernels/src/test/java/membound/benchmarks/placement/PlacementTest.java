package membound.benchmarks.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import membound.benchmarks.TestHosts;
import membound.vocabulary.BadInputException;
import membound.hardware.host.Host;

class PlacementTest {

    private static final Host SPARK = TestHosts.dgxSpark();
    private static final Host EPYC = TestHosts.devEpyc();

    private static List<Integer> cpus(int... ids) {
        return IntStream.of(ids).boxed().toList();
    }

    @Test
    void shouldMeasureEachCoreTypeThenAllOnADgxSpark() {
        List<Placement> placements = Placement.perCoreType(SPARK, false);

        assertEquals(List.of("Cortex-X925", "Cortex-A725", "all"), placements.stream().map(Placement::name).toList());
        assertEquals(cpus(5, 6, 7, 8, 9, 15, 16, 17, 18, 19), placements.get(0).cpus());
        assertEquals(cpus(0, 1, 2, 3, 4, 10, 11, 12, 13, 14), placements.get(1).cpus());
        assertEquals(20, placements.get(2).cpus().size());
        assertEquals("5-9,15-19", placements.get(0).cpuList());
        assertTrue(placements.get(0).confinesFork());
        assertFalse(placements.get(2).confinesFork(), "all cpus need no taskset");
    }

    @Test
    void shouldMeasureOnceOnAHostWithOneCoreType() {
        assertEquals(List.of("all"), Placement.perCoreType(EPYC, true).stream().map(Placement::name).toList());
        assertTrue(Placement.perCoreType(EPYC, true).get(0).pinned());
    }

    @Test
    void shouldOfferEachClusterOfADgxSpark() {
        List<Placement> clusters = Placement.perCluster(SPARK, false);

        assertEquals(List.of("cluster0", "cluster1"), clusters.stream().map(Placement::name).toList());
        assertEquals("10-19", clusters.get(1).cpuList());
        assertEquals(List.of(), Placement.perCluster(EPYC, false), "one cluster is all cpus");
    }

    @Test
    void shouldResolveCoreTypesIgnoringCaseAndByTheEndOfTheirName() {
        assertEquals("Cortex-X925", Placement.resolve("cortex-x925", SPARK, false).name());
        assertEquals("Cortex-A725", Placement.resolve("A725", SPARK, false).name());
        assertEquals("cluster1", Placement.resolve("cluster1", SPARK, false).name());
        assertEquals(Placement.Kind.ALL, Placement.resolve(" ALL ", SPARK, false).kind());
    }

    @Test
    void shouldNameThePlacementsAHostHasWhenOneIsUnknown() {
        BadInputException e = assertThrows(BadInputException.class, () -> Placement.resolve("X4", SPARK, false));

        assertEquals("placement must be all, Cortex-X925, Cortex-A725, cluster0, cluster1: placement=X4",
                e.getMessage());
    }

    @Test
    void shouldGiveEachPinnedThreadItsOwnCpuAndWrapAround() {
        Placement x925 = Placement.resolve("x925", SPARK, true);

        assertEquals(5, x925.cpuOfThread(0));
        assertEquals(15, x925.cpuOfThread(5));
        assertEquals(5, x925.cpuOfThread(10));
        assertEquals("Cortex-X925 (cpus 5-9,15-19, one thread per cpu)", x925.describe());
    }

    @Test
    void shouldRejectPlacementsThatContradictThemselves() {
        assertThrows(IllegalArgumentException.class, () -> new Placement("all", Placement.Kind.CORE_TYPE, cpus(0), false));
        assertThrows(IllegalArgumentException.class, () -> new Placement("big", Placement.Kind.CORE_TYPE, cpus(), false));
        assertThrows(IllegalArgumentException.class, () -> new Placement("a,b", Placement.Kind.CLUSTER, cpus(0), false));
    }
}
