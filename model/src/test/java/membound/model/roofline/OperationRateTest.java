package membound.model.roofline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Machine;
import membound.model.machine.OperationRate;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.RowOperation;

/**
 * Elementwise operations of a measured kind, timed at the measured rate where it is slower than their bytes
 * (hand-worked: 1 TB/s copy, softmax measured at 2 G elements/s on rows of 1024 and 4 G on rows of 64).
 */
class OperationRateTest {

    static final OperationRate SOFTMAX_1024 = new OperationRate(RowOperation.SOFTMAX, 1024, 2e9, "test softmax 1024");
    static final OperationRate SOFTMAX_64 = new OperationRate(RowOperation.SOFTMAX, 64, 4e9, "test softmax 64");

    static Machine machine(boolean datasheetGemm) {
        Machine base = TestMachines.machine(Map.of(AccessPattern.COPY, 1e12, AccessPattern.READ, 1e12), 200e9, false);
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        for (Precision p : Precision.TRAINING) {
            Ceiling gemm = datasheetGemm ? new Ceiling(200e9, "test datasheet gemm", 200e9, "test gemm")
                    : Ceiling.measured(200e9, "test gemm");
            compute.put(p, new ComputeCeiling(p, gemm, gemm, null, List.of(), List.of(SOFTMAX_1024, SOFTMAX_64)));
        }
        return base.withDevice(base.device().withCompute(compute), "with measured operations");
    }

    static Operation softmax(double scores, double keys) {
        return OperationList.elementwise("softmax", OperationClass.FORWARD, AccessPattern.COPY, 2, 5 * scores,
                4 * scores, 4 * scores).withRowWork(new Operation.RowWork(RowOperation.SOFTMAX, scores, keys));
    }

    @Test
    void shouldTimeATaggedOperationAtTheRateOfTheNearestRowLength() {
        Ceilings ceilings = Ceilings.of(machine(false), Basis.MEASURED, 1, null);
        // 1e9 scores on rows of 512: ln 2 from 1024, ln 8 from 64: 2 x 1e9 / 2e9 = 1 s, slower than 8e9 B at 1 TB/s.
        OperationTime t = Roofline.time(softmax(1e9, 512), ceilings);
        assertEquals(1.0, t.computeSeconds(), 1e-12);
        assertEquals(2 * 8e9 / 1e12, t.memorySeconds(), 1e-12);
        assertEquals(1.0, t.seconds(), 1e-12);
        assertEquals(Bound.COMPUTE, t.bound());
        assertEquals(2 * 1e9 / 4e9, ceilings.computeSeconds(softmax(1e9, 100)), 1e-12);
    }

    @Test
    void shouldTimeAnUntaggedOrUnmeasuredOperationByItsFlops() {
        Ceilings ceilings = Ceilings.of(machine(false), Basis.MEASURED, 1, null);
        Operation plain = OperationList.elementwise("softmax", OperationClass.FORWARD, AccessPattern.COPY, 2, 5e9, 4e9, 4e9);
        // The test machine's vector rate is a tenth of its GEMM rate: 20 GFLOP/s.
        assertEquals(2 * 5e9 / 20e9, ceilings.computeSeconds(plain), 1e-12);
        Operation gelu = plain.withRowWork(new Operation.RowWork(RowOperation.GELU, 1e9, 1024));
        assertEquals(2 * 5e9 / 20e9, ceilings.computeSeconds(gelu), 1e-12);
    }

    @Test
    void shouldKeepAGpusDatasheetBasisOffTheMeasuredRates() {
        Operation op = softmax(1e9, 1024);
        assertEquals(2 * 5e9 / 20e9, Ceilings.of(machine(true), Basis.DATASHEET, 1, null).computeSeconds(op), 1e-12);
        assertEquals(1.0, Ceilings.of(machine(true), Basis.MEASURED, 1, null).computeSeconds(op), 1e-12);
        assertEquals(1.0, Ceilings.of(machine(false), Basis.DATASHEET, 1, null).computeSeconds(op), 1e-12);
    }

    @Test
    void shouldFindTheNearestRowLengthOfTheSameOperation() {
        List<OperationRate> rates = List.of(SOFTMAX_1024, SOFTMAX_64);
        assertSame(SOFTMAX_1024, OperationRate.nearest(rates, RowOperation.SOFTMAX, 4096));
        assertSame(SOFTMAX_64, OperationRate.nearest(rates, RowOperation.SOFTMAX, 200));
        assertNull(OperationRate.nearest(rates, RowOperation.RMS_NORM, 1024));
    }
}
