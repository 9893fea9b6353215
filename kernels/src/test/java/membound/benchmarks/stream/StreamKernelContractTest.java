package membound.benchmarks.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import membound.vocabulary.Implementation;

/**
 * The contract every kernel implementation passes (as JCTools' QueueSanityTest is for queues): for each
 * kernel, element type and implementation, at lengths around the lane count, the result agrees with
 * STREAM's closed form, and the Vector API twin agrees with the scalar one on random data.
 */
class StreamKernelContractTest {

    /** Elementwise kernels round each lane exactly as the scalar loop does: no tolerance at all. */
    private static final double ELEMENTWISE_TOLERANCE = 0.0;
    /** Reductions add in another order: STREAM's epsilon per element type, relative. */
    private static final double DOUBLE_REDUCTION_TOLERANCE = 1e-13;
    private static final double FLOAT_REDUCTION_TOLERANCE = 1e-5;

    static List<Integer> awkwardLengths(ElementType type) {
        int lanes = type == ElementType.DOUBLE ? DoubleVectorKernels.lanes() : FloatVectorKernels.lanes();
        return List.of(0, 1, 7, lanes - 1, lanes, lanes + 1, 259, 1023, 4 * lanes + 3,
                FloatVectorKernels.REDUCTION_BLOCK + lanes + 1);
    }

    static Stream<Arguments> everyKernelTypeImplementationAndLength() {
        List<Arguments> cases = new ArrayList<>();
        for (StreamKernel kernel : StreamKernel.values()) {
            for (ElementType type : ElementType.CPU) {
                for (Implementation implementation : Implementation.KERNEL_TWINS) {
                    for (int length : awkwardLengths(type)) {
                        cases.add(Arguments.of(kernel, type, implementation, length));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} n={3}")
    @MethodSource("everyKernelTypeImplementationAndLength")
    void shouldMatchStreamClosedFormAfterRepeatedApplications(StreamKernel kernel, ElementType type,
            Implementation implementation, int length) {
        StreamSlice slice = StreamSlice.allocate(kernel, type, implementation, length);
        StreamValues start = StreamValues.start(type);
        slice.fill(start);

        double reduction = slice.run(3);

        assertNull(slice.check(start.after(kernel, 3)), () -> kernel + " disagrees with the closed form");
        if (kernel.isReduction()) {
            assertEquals(start.reduction(kernel, length), reduction, 0.0);
        }
    }

    static Stream<Arguments> everyKernelTypeAndLength() {
        List<Arguments> cases = new ArrayList<>();
        for (StreamKernel kernel : StreamKernel.values()) {
            for (ElementType type : ElementType.CPU) {
                for (int length : awkwardLengths(type)) {
                    cases.add(Arguments.of(kernel, type, length));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} n={2}")
    @MethodSource("everyKernelTypeAndLength")
    void shouldAgreeWithScalarTwinOnRandomData(StreamKernel kernel, ElementType type, int length) {
        SplittableRandom random = new SplittableRandom(42 + length);
        if (type == ElementType.DOUBLE) {
            double[][] vector = randomDoubles(random, length);
            double[][] scalar = copies(vector);
            double v = kernel.apply(DoubleVectorKernels.INSTANCE, vector[0], vector[1], vector[2], length);
            double s = kernel.apply(DoubleScalarKernels.INSTANCE, scalar[0], scalar[1], scalar[2], length);
            assertAgree(kernel, v, s, DOUBLE_REDUCTION_TOLERANCE * length);
            for (int array = 0; array < 3; array++) {
                for (int i = 0; i < length; i++) {
                    assertEquals(scalar[array][i], vector[array][i], ELEMENTWISE_TOLERANCE,
                            kernel + " array " + "abc".charAt(array) + "[" + i + "]");
                }
            }
        } else {
            float[][] vector = randomFloats(random, length);
            float[][] scalar = copies(vector);
            double v = kernel.apply(FloatVectorKernels.INSTANCE, vector[0], vector[1], vector[2], length);
            double s = kernel.apply(FloatScalarKernels.INSTANCE, scalar[0], scalar[1], scalar[2], length);
            assertAgree(kernel, v, s, FLOAT_REDUCTION_TOLERANCE * Math.max(1, Math.sqrt(length)));
            for (int array = 0; array < 3; array++) {
                for (int i = 0; i < length; i++) {
                    assertEquals(scalar[array][i], vector[array][i], ELEMENTWISE_TOLERANCE,
                            kernel + " array " + "abc".charAt(array) + "[" + i + "]");
                }
            }
        }
    }

    @Test
    void shouldStartFromStreamValuesAfterOneIterationOfItsRecurrence() {
        // STREAM: a=1, b=2, c=0, then a=2a, then c=a; b=3c; c=a+b; a=b+3c.
        int n = 13;
        double[] a = new double[n];
        double[] b = new double[n];
        double[] c = new double[n];
        java.util.Arrays.fill(a, 2.0);
        java.util.Arrays.fill(b, 2.0);
        DoubleKernels kernels = DoubleVectorKernels.INSTANCE;
        kernels.copy(a, c, n);
        kernels.scale(b, c, 3.0, n);
        kernels.add(a, b, c, n);
        kernels.triad(a, b, c, 3.0, n);

        StreamValues start = StreamValues.start(ElementType.DOUBLE);
        assertEquals(new StreamValues(ElementType.DOUBLE, 30, 6, 8), start);
        assertEquals(start.a(), a[n - 1]);
        assertEquals(start.b(), b[0]);
        assertEquals(start.c(), c[7]);
    }

    @Test
    void shouldReportAnElementAPassSkipped() {
        StreamSlice slice = StreamSlice.allocate(StreamKernel.TRIAD, ElementType.DOUBLE, Implementation.VECTOR, 100);
        StreamValues start = StreamValues.start(ElementType.DOUBLE);
        slice.fill(start);

        String problem = slice.check(start.after(StreamKernel.TRIAD, 1));

        assertNotNull(problem);
        assertEquals("a[0]=NaN but the closed form gives 30.0", problem);
    }

    @Test
    void shouldReportAnNstreamThatRanOnceTooOften() {
        StreamSlice slice = StreamSlice.allocate(StreamKernel.NSTREAM, ElementType.FLOAT, Implementation.VECTOR, 50);
        StreamValues start = StreamValues.start(ElementType.FLOAT);
        slice.fill(start);
        slice.run(4);

        assertNull(slice.check(start.after(StreamKernel.NSTREAM, 4)));
        assertNotNull(slice.check(start.after(StreamKernel.NSTREAM, 3)));
    }

    private static void assertAgree(StreamKernel kernel, double vector, double scalar, double relative) {
        if (kernel.isReduction()) {
            assertEquals(scalar, vector, relative * Math.max(1.0, Math.abs(scalar)), kernel + " reduction");
        }
    }

    private static double[][] randomDoubles(SplittableRandom random, int n) {
        double[][] x = new double[3][n];
        for (double[] array : x) {
            for (int i = 0; i < n; i++) {
                array[i] = random.nextDouble(-1, 1);
            }
        }
        return x;
    }

    private static float[][] randomFloats(SplittableRandom random, int n) {
        float[][] x = new float[3][n];
        for (float[] array : x) {
            for (int i = 0; i < n; i++) {
                array[i] = (float) random.nextDouble(-1, 1);
            }
        }
        return x;
    }

    private static double[][] copies(double[][] x) {
        return new double[][] {x[0].clone(), x[1].clone(), x[2].clone()};
    }

    private static float[][] copies(float[][] x) {
        return new float[][] {x[0].clone(), x[1].clone(), x[2].clone()};
    }
}
