package membound.model.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/** The sharing curve: the GPU's share between measured points, and --cpu-streams applying it to the machine. */
class SharingCurveTest {

    private static SharingCurve gb10Like() {
        TreeMap<Integer, Double> shares = new TreeMap<>();
        shares.put(0, 1.0);
        shares.put(10, 0.8);
        shares.put(20, 0.6);
        return new SharingCurve(shares, 20, 100e9, "synthetic curve (test)");
    }

    @Test
    void theShareIsLinearBetweenPointsAndFlatBeyondTheLast() {
        SharingCurve curve = gb10Like();
        assertEquals(1.0, curve.gpuShare(0));
        assertEquals(0.9, curve.gpuShare(5), 1e-12);
        assertEquals(0.6, curve.gpuShare(20));
        assertEquals(0.6, curve.gpuShare(64), "more threads than measured: the last point");
        assertEquals("80% with 10 CPU threads, 60% with 20 CPU threads", curve.describe());
    }

    @Test
    void aCurveNeedsTheGpuAloneAndAPointWithCpuThreads() {
        TreeMap<Integer, Double> alone = new TreeMap<>();
        alone.put(0, 1.0);
        assertThrows(BadInputException.class, () -> new SharingCurve(alone, 0, Double.NaN, "x"));
    }

    @Test
    void cpuStreamsScaleTheDevicesBandwidthByTheMeasuredShare() {
        Machine plain = TestMachines.simple(200e9, 100e12);
        Machine shared = new Machine(plain.id(), plain.name(), plain.source(), plain.device(), plain.host(),
                plain.links(), plain.tenants(), plain.notes(), gb10Like());
        Machine busy = shared.withCpuStreams(10);
        double before = shared.device().mainMemory().ceiling(AccessPattern.TRIAD).value(Basis.MEASURED);
        assertEquals(0.8 * before, busy.device().mainMemory().ceiling(AccessPattern.TRIAD).value(Basis.MEASURED),
                before * 1e-12);
        assertTrue(busy.notes().get(busy.notes().size() - 1).startsWith("10 CPU threads stream alongside training: "
                + "test GPU gets 80.0% of its memory bandwidth"), busy.notes().toString());
        assertSame(shared, shared.withCpuStreams(0));
        BadInputException e = assertThrows(BadInputException.class, () -> plain.withCpuStreams(4));
        assertTrue(e.getMessage().startsWith("--cpu-streams needs a measured sharing curve"), e.getMessage());
    }
}
