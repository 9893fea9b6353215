package membound.benchmarks.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ComputeKernelTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 1000})
    void shouldAgreeWithScalarFmaInBothPrecisions(int steps) {
        double[] doubles = new double[FmaPeak.ACCUMULATORS];
        float[] floats = new float[FmaPeak.ACCUMULATORS];

        FmaPeak.runDouble(steps, doubles);
        FmaPeak.runFloat(steps, floats);

        for (int k = 0; k < FmaPeak.ACCUMULATORS; k++) {
            assertEquals(FmaPeak.expectedDouble(k, steps), doubles[k], 0.0, "double accumulator " + k);
            assertEquals(FmaPeak.expectedFloat(k, steps), floats[k], 0.0f, "float accumulator " + k);
        }
    }

    @Test
    void shouldCountTwoFlopsPerLanePerAccumulatorPerStep() {
        assertEquals(2L * FmaPeak.lanes(true) * 12 * 10, FmaPeak.flops(true, 10));
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {1, 7, 33, 64, 259, 300})
    void shouldMultiplyLikeTheScalarTwinAndTheClosedFormAtAwkwardSizes(int n) {
        int rows = n - n / 3;
        double[] a = Gemm.fillA(n, 0, rows, new double[rows * n]);
        double[] b = Gemm.fillB(n, new double[n * n]);
        double[] vector = new double[rows * n];
        double[] scalar = new double[rows * n];
        Gemm.multiply(a, b, vector, rows, n);
        Gemm.multiplyScalar(a, b, scalar, rows, n);

        assertArrayEquals(scalar, vector, 0.0);
        for (int i = 0; i < rows; i += Math.max(1, rows / 5)) {
            for (int j = 0; j < n; j += Math.max(1, n / 5)) {
                assertEquals(Gemm.expected(n, i, j), vector[i * n + j], 0.0, "C[" + i + "][" + j + "]");
            }
        }

        float[] af = Gemm.fillA(n, 0, rows, new float[rows * n]);
        float[] bf = Gemm.fillB(n, new float[n * n]);
        float[] vf = new float[rows * n];
        float[] sf = new float[rows * n];
        Gemm.multiply(af, bf, vf, rows, n);
        Gemm.multiplyScalar(af, bf, sf, rows, n);
        assertArrayEquals(sf, vf, 0.0f);
    }

    @Test
    void shouldSplitRowsIntoWholeTilesAcrossTheTeam() {
        assertEquals(0, GemmBenchmark.rowStart(100, 3, 0));
        assertEquals(32, GemmBenchmark.rowStart(100, 3, 1));
        assertEquals(64, GemmBenchmark.rowStart(100, 3, 2));
        assertEquals(100, GemmBenchmark.rowStart(100, 3, 3));
    }
}
