package membound.model.roofline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.Device;
import membound.model.machine.Machine;
import membound.model.machine.MemoryTier;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;

/** Rooflines worked out by hand: 100 TFLOP/s GEMMs, 10 TFLOP/s vector, read 2 TB/s, copy 1 TB/s, triad 0.8 TB/s. */
class RooflineTest {

    static final double RELATIVE = 1e-12;
    final Machine machine = TestMachines.machine(Map.of(AccessPattern.READ, 2e12, AccessPattern.COPY, 1e12,
            AccessPattern.TRIAD, 0.8e12), 100e12, false);
    final Ceilings ceilings = Ceilings.of(machine, Basis.MEASURED, 1, null);

    @Test
    void shouldTimeALargeGemmByItsFlops() {
        Operation gemm = OperationList.gemm("4096 cube", OperationClass.FORWARD, Kernel.GEMM, Precision.BF16, 1,
                4096, 4096, 4096, 2, 4096.0 * 4096 * 2, 0);
        OperationTime t = Roofline.time(gemm, ceilings);
        // 2 x 4096^3 = 137,438,953,472 FLOP at 100 TFLOP/s; 3 x 4096^2 x 2 B = 100,663,296 B at 2 TB/s.
        assertEquals(137_438_953_472.0 / 100e12, t.seconds(), t.seconds() * RELATIVE);
        assertEquals(100_663_296.0 / 2e12, t.memorySeconds(), t.memorySeconds() * RELATIVE);
        assertEquals(Bound.COMPUTE, t.bound());
    }

    @Test
    void shouldTimeAOneTokenGemmByTheWeightsItReads() {
        Operation gemv = OperationList.gemm("one token", OperationClass.FORWARD, Kernel.GEMM, Precision.BF16, 1,
                1, 4096, 4096, 2, 4096.0 * 4096 * 2, 0);
        OperationTime t = Roofline.time(gemv, ceilings);
        // (4096 + 4096 x 4096 + 4096) x 2 B = 33,570,816 B at the read bandwidth.
        assertEquals(33_570_816.0 / 2e12, t.seconds(), t.seconds() * RELATIVE);
        assertEquals(Bound.MEMORY, t.bound());
    }

    @Test
    void shouldTimeAnElementwiseOperationAtTheBandwidthOfItsPattern() {
        double elements = 1e8;
        Operation norm = OperationList.elementwise("norm", OperationClass.FORWARD, AccessPattern.COPY, 1,
                5 * elements, 2 * elements, 2 * elements);
        OperationTime copy = Roofline.time(norm, ceilings);
        assertEquals(4e8 / 1e12, copy.seconds(), copy.seconds() * RELATIVE);
        assertEquals(5e8 / 10e12, copy.computeSeconds(), copy.computeSeconds() * RELATIVE);
        assertEquals(Bound.MEMORY, copy.bound());

        Operation add = OperationList.elementwise("residual", OperationClass.FORWARD, AccessPattern.TRIAD, 3,
                elements, 4 * elements, 2 * elements);
        assertEquals(3 * 6e8 / 0.8e12, Roofline.time(add, ceilings).seconds(), 1e-15);
    }

    @Test
    void shouldTimeATransferByTheLinkAndItsLatency() {
        Machine linked = machine;
        Ceilings withLink = Ceilings.of(linked, Basis.MEASURED, 1, linked.link("peer"));
        Operation allReduce = OperationList.transfer("all-reduce", OperationClass.COMMUNICATION,
                Placement.PARALLEL_LINK, 2, 1e9, 4, false);
        assertEquals(2 * 1e9 / 100e9, Roofline.time(allReduce, withLink).seconds(), 1e-15);
    }

    @Test
    void shouldUseTheBandwidthOfTheSmallestTierTheWorkingSetFits() {
        Map<AccessPattern, Ceiling> fast = new EnumMap<>(AccessPattern.class);
        fast.put(AccessPattern.COPY, Ceiling.measured(10e12, "test L2"));
        Device device = machine.device().withTiers(List.of(new MemoryTier("L2", 50_000_000L, fast),
                machine.device().mainMemory()));
        Ceilings tiered = Ceilings.of(machine.withDevice(device, "with an L2"), Basis.MEASURED, 1, null);
        Operation small = OperationList.elementwise("small", OperationClass.FORWARD, AccessPattern.COPY, 1, 0, 2e6, 2e6);
        Operation large = OperationList.elementwise("large", OperationClass.FORWARD, AccessPattern.COPY, 1, 0, 2e8, 2e8);
        assertEquals(4e6 / 10e12, Roofline.time(small, tiered).seconds(), 1e-18);
        assertEquals(4e8 / 1e12, Roofline.time(large, tiered).seconds(), 1e-15);
    }

    @Test
    void shouldRunSparseGemmsAtTheSparseRateScaledLikeTheDenseOne() {
        Operation sparse = OperationList.gemm("sparse", OperationClass.FORWARD, Kernel.SPARSE_GEMM, Precision.BF16, 1,
                4096, 4096, 4096, 2, 4096.0 * 4096 * 2, 0);
        // sparse peak 250 TFLOP/s x (100 / 125 attained by dense) = 200 TFLOP/s
        assertEquals(137_438_953_472.0 / 200e12, Roofline.time(sparse, ceilings).seconds(), 1e-15);
    }

    @Test
    void shouldGiveTheSameSecondsOperationByOperationAsTheWholeStep() {
        // Every operation of a real plan (forward, backward, optimizer, communication over 8 replicas) through both
        // entry points: the sweep's evaluate() and the breakdown's time() are one formula.
        Machine h100 = membound.model.machine.Machines.datasheet("h100");
        membound.model.training.TrainingSetup setup = membound.model.training.TrainingSetup.builder()
                .parallelism(new membound.model.training.Parallelism(8, 1, 1, 0, null)).build();
        List<Operation> operations = membound.model.training.StepPlanner.plan(
                membound.model.workload.Presets.get("llama-3.2-1b"), setup, h100).operations();
        Ceilings c = Ceilings.of(h100, Basis.MEASURED, 1, membound.model.Estimator.parallelLink(h100,
                setup.parallelism()));
        Roofline.Evaluation all = Roofline.evaluate(operations, c);
        for (int i = 0; i < operations.size(); i++) {
            OperationTime one = Roofline.time(operations.get(i), c);
            assertEquals(one.seconds(), all.seconds()[i], 0.0, operations.get(i).name());
            assertEquals(one.bound() == Bound.MEMORY, all.memoryBound()[i], operations.get(i).name());
        }
    }
}
