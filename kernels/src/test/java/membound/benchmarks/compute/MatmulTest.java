package membound.benchmarks.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import membound.benchmarks.compute.Matmul.View;

/**
 * Every orientation of {@link Matmul} against its scalar twin, on small-integer matrices (every sum is an
 * exact float, so the two must agree bit for bit), at shapes around the tile sizes, on blocks of wider
 * matrices, on part of C's rows, overwriting and accumulating.
 */
class MatmulTest {

    enum Orientation { A_B, AT_B, A_BT }

    static Stream<Arguments> shapes() {
        int tile = 2 * Matmul.FLOATS.length();
        int[][] sizes = {{1, 1, 1}, {4, tile, 1}, {7, 33, 5}, {5, tile + 3, 259}, {37, 2 * tile, 300}, {64, 64, 64}};
        List<Arguments> cases = new ArrayList<>();
        for (Orientation orientation : Orientation.values()) {
            for (int[] s : sizes) {
                for (boolean accumulate : new boolean[] {false, true}) {
                    cases.add(Arguments.of(orientation, s[0], s[1], s[2], accumulate));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} m={1} n={2} k={3} accumulate={4}")
    @MethodSource("shapes")
    void shouldAgreeWithScalarTwinOnBlocksOfWiderMatrices(Orientation orientation, int m, int n, int k,
            boolean accumulate) {
        SplittableRandom random = new SplittableRandom(m * 1000 + n * 10 + k);
        // Operands are blocks of wider matrices with an offset, as one attention head is of a QKV activation.
        int aRows = orientation == Orientation.AT_B ? k : m;
        int aColumns = orientation == Orientation.AT_B ? m : k;
        int bRows = orientation == Orientation.A_BT ? n : k;
        int bColumns = orientation == Orientation.A_BT ? k : n;
        View a = new View(integers(random, 3 + aRows * (aColumns + 5)), 3, aColumns + 5);
        View b = new View(integers(random, 2 + bRows * (bColumns + 1)), 2, bColumns + 1);
        float[] start = integers(random, 1 + m * (n + 2));
        View vector = new View(start.clone(), 1, n + 2);
        View scalar = new View(start.clone(), 1, n + 2);

        multiply(orientation, a, b, vector, 0, m, n, k, accumulate, true);
        multiply(orientation, a, b, scalar, 0, m, n, k, accumulate, false);

        assertArrayEquals(scalar.data(), vector.data(), 0f);
        float before = accumulate ? start[1 + (m - 1) * (n + 2) + n - 1] : 0f;
        assertEquals(closedForm(orientation, a, b, m - 1, n - 1, k) + before,
                vector.get(m - 1, n - 1), 0f);
    }

    @ParameterizedTest(name = "{0} rows {1} to {2}")
    @MethodSource("rowRanges")
    void shouldWriteOnlyItsRowsSoThreadsCanSplitC(Orientation orientation, int rowFrom, int rowTo) {
        int m = 23;
        int n = 2 * Matmul.FLOATS.length() + 1;
        int k = 9;
        SplittableRandom random = new SplittableRandom(7);
        View a = View.of(integers(random, m * k), orientation == Orientation.AT_B ? m : k);
        View b = View.of(integers(random, n * k), orientation == Orientation.A_BT ? k : n);
        float[] whole = new float[m * n];
        float[] split = new float[m * n];
        java.util.Arrays.fill(split, -99f);

        multiply(orientation, a, b, View.of(whole, n), 0, m, n, k, false, true);
        multiply(orientation, a, b, View.of(split, n), rowFrom, rowTo, n, k, false, true);

        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float expected = i >= rowFrom && i < rowTo ? whole[i * n + j] : -99f;
                assertEquals(expected, split[i * n + j], 0f, "C[" + i + "][" + j + "]");
            }
        }
    }

    static Stream<Arguments> rowRanges() {
        List<Arguments> cases = new ArrayList<>();
        for (Orientation orientation : Orientation.values()) {
            cases.add(Arguments.of(orientation, 0, 12));
            cases.add(Arguments.of(orientation, 12, 23));
            cases.add(Arguments.of(orientation, 5, 6));
        }
        return cases.stream();
    }

    private static float closedForm(Orientation orientation, View a, View b, int i, int j, int k) {
        float sum = 0;
        for (int kk = 0; kk < k; kk++) {
            float x = orientation == Orientation.AT_B ? a.get(kk, i) : a.get(i, kk);
            float y = orientation == Orientation.A_BT ? b.get(j, kk) : b.get(kk, j);
            sum += x * y;
        }
        return sum;
    }

    private static void multiply(Orientation orientation, View a, View b, View c, int rowFrom, int rowTo, int n, int k,
            boolean accumulate, boolean vector) {
        switch (orientation) {
            case A_B -> {
                if (vector) {
                    Matmul.multiply(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
            case AT_B -> {
                if (vector) {
                    Matmul.multiplyTransposedA(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyTransposedAScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
            case A_BT -> {
                if (vector) {
                    Matmul.multiplyTransposedB(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyTransposedBScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
        }
    }

    /** Integers in [-3, 3]: every product and sum of a few hundred of them is exact in float. */
    private static float[] integers(SplittableRandom random, int length) {
        float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextInt(7) - 3;
        }
        return values;
    }
}
