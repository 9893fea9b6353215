package membound.benchmarks.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.units.Units;

class GpuSuitesTest {

    @Test
    void aJdkOlderThan22IsToldInOneLine() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class, () -> GpuSuites.suite(17));
        assertEquals("the GPU suite needs JDK 22 or newer (the FFM API calls the CUDA driver): this is JDK 17",
                e.getMessage());
        assertTrue(e.cudaErrorName().isEmpty());
    }

    @Test
    void onJdk22OrNewerTheBuildHasTheSuiteOrSaysItWasBuiltWithout() {
        if (Runtime.version().feature() >= GpuSuites.MINIMUM_JDK) {
            assertEquals(GpuSuites.IMPLEMENTATION, GpuSuites.suite(Runtime.version().feature()).getClass().getName());
        } else {
            GpuUnavailableException e = assertThrows(GpuUnavailableException.class, () -> GpuSuites.suite(25));
            assertTrue(e.getMessage().startsWith("this build has no GPU suite"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void workingSetsGoFromInsideTheL2ToDramAtFourTimesTheL2AndAtLeastOneGib() {
        long l2 = 50 * Units.MIB;
        List<GpuPlan.WorkingSetSize> sizes = GpuPlan.of(false, 5).workingSets(l2);
        assertEquals(List.of("L2", "DRAM"), sizes.stream().map(GpuPlan.WorkingSetSize::label).toList());
        assertTrue(3 * sizes.get(0).arrayBytes() <= l2 / 2, "three arrays fill at most half the L2");
        assertEquals(MemoryLevel.L2, sizes.get(0).level());
        assertEquals(Units.GIB, sizes.get(1).arrayBytes(), "1 GiB is more than 4 x 50 MiB");
        long bigL2 = 512 * Units.MIB;
        assertEquals(4 * bigL2, GpuPlan.of(false, 5).workingSets(bigL2).get(1).arrayBytes(), "4 x L2 beyond 1 GiB");
    }

    @Test
    void aSweepDoublesBetweenTheL2AndDramAndEverySizeIsWholeVectors() {
        List<GpuPlan.WorkingSetSize> sizes = GpuPlan.of(true, 5).workingSets(24 * Units.MIB);
        assertTrue(sizes.size() > 4, "points between L2 and DRAM: " + sizes);
        for (int i = 1; i < sizes.size(); i++) {
            assertTrue(sizes.get(i).arrayBytes() > sizes.get(i - 1).arrayBytes(), "growing: " + sizes);
        }
        for (GpuPlan.WorkingSetSize size : sizes) {
            assertEquals(0, size.arrayBytes() % GpuPlan.VECTOR_BYTES, size.toString());
        }
        assertEquals(MemoryLevel.DRAM, sizes.get(sizes.size() - 1).level());
    }

    @Test
    void aDeviceWithoutAnL2SizeCannotBeSized() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                () -> GpuPlan.smokePlan().workingSets(0));
        assertTrue(e.getMessage().contains("CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 0"), e.getMessage());
    }

    @Test
    void aPlanRejectsKernelsTheDeviceDoesNotRun() {
        BadInputException e = assertThrows(BadInputException.class, () -> new GpuPlan(
                List.of(membound.benchmarks.stream.StreamKernel.NSTREAM), List.of(), false, false, 0, 1, 1, 16, GpuGemmPlan.none()));
        assertTrue(e.getMessage().startsWith("GPU kernels must be among"), e.getMessage());
    }

    @Test
    void aGemmPlanRefusesShapesCublasLtCannotAlignAndPrecisionsItHasNot() {
        BadInputException shape = assertThrows(BadInputException.class, () -> new GpuGemmPlan(List.of(4096),
                membound.vocabulary.ProductShape.parseList("100x64x64:nn"), GpuGemmPlan.PRECISIONS, 1, 1));
        assertTrue(shape.getMessage().endsWith("shape=100x64x64:nn"), shape.getMessage());
        BadInputException fp64 = assertThrows(BadInputException.class, () -> new GpuGemmPlan(List.of(4096),
                List.of(), List.of(membound.vocabulary.Precision.FP64), 1, 1));
        assertTrue(fp64.getMessage().endsWith("precision=fp64"), fp64.getMessage());
        BadInputException order = assertThrows(BadInputException.class, () -> new GpuGemmPlan(List.of(100),
                List.of(), GpuGemmPlan.PRECISIONS, 1, 1));
        assertTrue(order.getMessage().endsWith("order=100"), order.getMessage());
        assertEquals(List.of(4096, 8192), GpuGemmPlan.of(List.of(), 5).squareOrders());
        assertTrue(GpuPlan.of(false, 5).gemm().precisions().isEmpty(), "a plan asks for GEMMs explicitly");
    }
}
