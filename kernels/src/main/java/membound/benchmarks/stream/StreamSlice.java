package membound.benchmarks.stream;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Implementation;

/**
 * One thread's slice of the arrays {@code a}, {@code b}, {@code c}: allocated, filled and streamed by that
 * thread only. Arrays the kernel does not touch are not allocated.
 */
public abstract sealed class StreamSlice permits StreamSlice.OfDouble, StreamSlice.OfFloat {

    protected final StreamKernel kernel;
    protected final Implementation implementation;
    protected final int length;
    private double lastReduction = Double.NaN;

    StreamSlice(StreamKernel kernel, Implementation implementation, int length) {
        this.kernel = kernel;
        this.implementation = implementation;
        this.length = length;
    }

    /** Allocates a slice of {@code length} elements per array, on the calling thread. */
    public static StreamSlice allocate(StreamKernel kernel, ElementType type, Implementation implementation,
            int length) {
        return switch (type) {
            case DOUBLE -> new OfDouble(kernel, implementation, length);
            case FLOAT -> new OfFloat(kernel, implementation, length);
            case BF16 -> throw new BadInputException("elementType bf16 has no CPU STREAM kernel (the Vector API has "
                    + "no bf16 arithmetic; the GPU suite has bf16 kernels): elementType=bf16");
        };
    }

    /** Sets every touched array to its start value; arrays the kernel only writes get NaN, so a skipped element shows. */
    public abstract void fill(StreamValues values);

    /** Applies the kernel {@code reps} times; returns the last reduction (Dot, Sum) or NaN. */
    public abstract double run(int reps);

    /** One pass of a team: {@link #run} and keep the reduction for {@link #lastReduction()}. */
    public void pass(int reps) {
        lastReduction = run(reps);
    }

    /** What Dot or Sum returned in this slice's last pass; NaN for other kernels. */
    public double lastReduction() {
        return lastReduction;
    }

    /**
     * Checks every element of every touched array against {@code expected}.
     *
     * @return null if all agree, else a one-line description of the first element that does not
     */
    public abstract String check(StreamValues expected);

    public int length() {
        return length;
    }

    static String mismatch(char array, int index, double actual, double expected) {
        return array + "[" + index + "]=" + actual + " but the closed form gives " + expected;
    }

    /** The double slice. */
    public static final class OfDouble extends StreamSlice {
        private final double[] a;
        private final double[] b;
        private final double[] c;
        private final DoubleKernels kernels;

        OfDouble(StreamKernel kernel, Implementation implementation, int length) {
            super(kernel, implementation, length);
            kernels = DoubleKernels.of(implementation);
            a = kernel.touches('a') ? new double[length] : null;
            b = kernel.touches('b') ? new double[length] : null;
            c = kernel.touches('c') ? new double[length] : null;
        }

        @Override
        public void fill(StreamValues values) {
            fillArray(a, 'a', values);
            fillArray(b, 'b', values);
            fillArray(c, 'c', values);
        }

        private void fillArray(double[] array, char name, StreamValues values) {
            if (array != null) {
                java.util.Arrays.fill(array, kernel.onlyWrites(name) ? Double.NaN : values.of(name));
            }
        }

        @Override
        public double run(int reps) {
            double result = Double.NaN;
            for (int r = 0; r < reps; r++) {
                result = kernel.apply(kernels, a, b, c, length);
            }
            return result;
        }

        @Override
        public String check(StreamValues expected) {
            String problem = checkArray(a, 'a', expected.a());
            if (problem == null) {
                problem = checkArray(b, 'b', expected.b());
            }
            return problem == null ? checkArray(c, 'c', expected.c()) : problem;
        }

        private static String checkArray(double[] array, char name, double expected) {
            if (array != null) {
                for (int i = 0; i < array.length; i++) {
                    if (array[i] != expected) {
                        return mismatch(name, i, array[i], expected);
                    }
                }
            }
            return null;
        }
    }

    /** The float slice. */
    public static final class OfFloat extends StreamSlice {
        private final float[] a;
        private final float[] b;
        private final float[] c;
        private final FloatKernels kernels;

        OfFloat(StreamKernel kernel, Implementation implementation, int length) {
            super(kernel, implementation, length);
            kernels = FloatKernels.of(implementation);
            a = kernel.touches('a') ? new float[length] : null;
            b = kernel.touches('b') ? new float[length] : null;
            c = kernel.touches('c') ? new float[length] : null;
        }

        @Override
        public void fill(StreamValues values) {
            fillArray(a, 'a', values);
            fillArray(b, 'b', values);
            fillArray(c, 'c', values);
        }

        private void fillArray(float[] array, char name, StreamValues values) {
            if (array != null) {
                java.util.Arrays.fill(array, kernel.onlyWrites(name) ? Float.NaN : (float) values.of(name));
            }
        }

        @Override
        public double run(int reps) {
            double result = Double.NaN;
            for (int r = 0; r < reps; r++) {
                result = kernel.apply(kernels, a, b, c, length);
            }
            return result;
        }

        @Override
        public String check(StreamValues expected) {
            String problem = checkArray(a, 'a', expected.a());
            if (problem == null) {
                problem = checkArray(b, 'b', expected.b());
            }
            return problem == null ? checkArray(c, 'c', expected.c()) : problem;
        }

        private static String checkArray(float[] array, char name, double expected) {
            if (array != null) {
                float want = (float) expected;
                for (int i = 0; i < array.length; i++) {
                    if (array[i] != want) {
                        return mismatch(name, i, array[i], want);
                    }
                }
            }
            return null;
        }
    }
}
