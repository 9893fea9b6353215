package membound.model.roofline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Device;
import membound.model.machine.Machine;
import membound.model.machine.ProductCeiling;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape.Layout;
import membound.vocabulary.ProductShape;

/**
 * GEMMs with shapes on a device that measured its products at some: each is timed at the nearest measured shape
 * of its layout, by hand-worked figures (square GEMM 200 GFLOP/s; products 100, 150 and 250 GFLOP/s).
 */
class ProductShapeTest {

    static final double RELATIVE = 1e-12;
    static final ProductCeiling SQUARE_NN = product(1024, 1024, 1024, Layout.NN, 250e9);
    static final ProductCeiling NARROW_TN = product(256, 1024, 1024, Layout.TN, 100e9);
    static final ProductCeiling HEAD_NT = product(256, 256, 64, Layout.NT, 150e9);

    static ProductCeiling product(int m, int n, int k, Layout layout, double rate) {
        return new ProductCeiling(new ProductShape(m, n, k, layout), rate, "test product " + m + "x" + n + "x" + k);
    }

    /** The test machine with its FP32 GEMM measured only (a CPU's: no datasheet GEMM) and the three products. */
    static Machine measuredMachine(boolean datasheetGemm) {
        Machine base = TestMachines.machine(Map.of(AccessPattern.READ, 1e12), 200e9, false);
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        for (Precision p : Precision.TRAINING) {
            Ceiling gemm = datasheetGemm ? new Ceiling(200e9, "test datasheet gemm", 200e9, "test gemm")
                    : Ceiling.measured(200e9, "test gemm");
            compute.put(p, new ComputeCeiling(p, gemm, gemm, null, List.of(SQUARE_NN, NARROW_TN, HEAD_NT), List.of()));
        }
        Device device = base.device().withCompute(compute);
        return base.withDevice(device, "with measured products");
    }

    @Test
    void shouldPreferTheNearestShapeOfTheSameLayoutInLogSpace() {
        List<ProductCeiling> all = List.of(SQUARE_NN, NARROW_TN, HEAD_NT);
        // A 256 x 768 x 1024 weight gradient: 256 x 1024 x 1024 tn is ln(4/3) away; the square nn is not its layout.
        assertSame(NARROW_TN, ProductCeiling.nearest(all, new OperationShape(256, 768, 1024, Layout.TN)));
        // A 1024 x 256 x 256 forward product: the only nn shape.
        assertSame(SQUARE_NN, ProductCeiling.nearest(all, new OperationShape(1024, 256, 256, Layout.NN)));
        // An nt product finds the only nt shape, however far; with no nt shape measured, the nearest of any layout.
        assertSame(HEAD_NT, ProductCeiling.nearest(all, new OperationShape(1024, 1024, 1024, Layout.NT)));
        assertSame(SQUARE_NN, ProductCeiling.nearest(List.of(SQUARE_NN, NARROW_TN),
                new OperationShape(1024, 512, 1024, Layout.NT)));
        assertNull(ProductCeiling.nearest(List.of(), new OperationShape(1, 1, 1, Layout.NN)));
        // A batch of 16 head products is nearer a measured batch of 8 than one product of the same shape.
        ProductCeiling batched = product(256, 256, 64, Layout.NT, 120e9);
        ProductCeiling eight = new ProductCeiling(new ProductShape(8, 256, 256, 64, Layout.NT), 170e9, "test batch");
        assertSame(eight, ProductCeiling.nearest(List.of(batched, eight), new OperationShape(16, 256, 256, 64, Layout.NT)));
        assertEquals(Math.log(2), new OperationShape(16, 256, 256, 64, Layout.NT).distance(eight.shape()), 1e-15);
    }

    @Test
    void shouldTimeAShapedGemmAtItsNearestMeasuredProduct() {
        Ceilings ceilings = Ceilings.of(measuredMachine(false), Basis.MEASURED, 1, null);
        Operation weightGradient = OperationList.gemmBytes("w", OperationClass.BACKWARD, Precision.FP32, 3,
                2.0 * 256 * 1024 * 1024, 0, 0, OperationList.weightGradient(1024, 256, 1024));
        assertEquals(3 * 2.0 * 256 * 1024 * 1024 / 100e9, ceilings.computeSeconds(weightGradient),
                1e-3 * RELATIVE);
        // Without a shape the square GEMM rate stands.
        Operation unshaped = OperationList.gemmBytes("u", OperationClass.BACKWARD, Precision.FP32, 1, 4e9, 0, 0);
        assertEquals(4e9 / 200e9, ceilings.computeSeconds(unshaped), 1e-3 * RELATIVE);
    }

    @Test
    void shouldSplitTheFlopsOfTwoProductsByTheirVolume() {
        Ceilings ceilings = Ceilings.of(measuredMachine(false), Basis.MEASURED, 1, null);
        // One 256x256x64 nt product and one 256x1024x1024 tn product: 4,194,304 and 268,435,456 m·n·k.
        OperationShape head = new OperationShape(256, 256, 64, Layout.NT);
        OperationShape narrow = new OperationShape(256, 1024, 1024, Layout.TN);
        double flops = 2 * (head.volume() + narrow.volume());
        Operation both = OperationList.gemmBytes("both", OperationClass.BACKWARD, Precision.FP32, 1, flops, 0, 0,
                head, narrow);
        double expected = 2 * head.volume() / 150e9 + 2 * narrow.volume() / 100e9;
        assertEquals(expected, ceilings.computeSeconds(both), expected * RELATIVE);
        assertEquals(expected, Roofline.time(both, ceilings).computeSeconds(), expected * RELATIVE);
    }

    @Test
    void shouldKeepTheDatasheetBasisOnTheDatasheetGemmRate() {
        Machine machine = measuredMachine(true);
        Operation weightGradient = OperationList.gemmBytes("w", OperationClass.BACKWARD, Precision.FP32, 1,
                2.0 * 256 * 1024 * 1024, 0, 0, OperationList.weightGradient(1024, 256, 1024));
        assertEquals(2.0 * 256 * 1024 * 1024 / 200e9,
                Ceilings.of(machine, Basis.DATASHEET, 1, null).computeSeconds(weightGradient), 1e-15);
        assertEquals(2.0 * 256 * 1024 * 1024 / 100e9,
                Ceilings.of(machine, Basis.MEASURED, 1, null).computeSeconds(weightGradient), 1e-15);
        // A CPU-like device with no datasheet GEMM keeps its measured products on both bases.
        assertEquals(2.0 * 256 * 1024 * 1024 / 100e9,
                Ceilings.of(measuredMachine(false), Basis.DATASHEET, 1, null).computeSeconds(weightGradient), 1e-15);
    }

    @Test
    void shouldGiveEachTenantItsShareOfAProductsRate() {
        Ceilings two = Ceilings.of(measuredMachine(false), Basis.MEASURED, 2, null);
        Operation weightGradient = OperationList.gemmBytes("w", OperationClass.BACKWARD, Precision.FP32, 1,
                2.0 * 256 * 1024 * 1024, 0, 0, OperationList.weightGradient(1024, 256, 1024));
        assertEquals(2.0 * 256 * 1024 * 1024 / 50e9, two.computeSeconds(weightGradient), 1e-15);
    }

    @Test
    void shouldRejectAShapeWithoutSizeOrLayout() {
        assertThrows(IllegalArgumentException.class, () -> new OperationShape(0, 1, 1, Layout.NN));
        assertThrows(IllegalArgumentException.class, () -> new OperationShape(1, Double.NaN, 1, Layout.NN));
        assertThrows(IllegalArgumentException.class, () -> new OperationShape(1, 1, 1, null));
    }
}
