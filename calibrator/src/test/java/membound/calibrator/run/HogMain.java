package membound.calibrator.run;

import membound.benchmarks.stream.DoubleVectorKernels;

/**
 * A process that hogs memory bandwidth for {@link CalibrationReliabilityTest}: Triad over two 64 MiB arrays on
 * one thread, until it is killed (or a minute has passed, so a test that dies cannot leave it behind).
 */
public final class HogMain {

    public static void main(String[] args) {
        int n = 8 << 20;
        double[] a = new double[n];
        double[] b = new double[n];
        double[] c = new double[n];
        java.util.Arrays.fill(b, 1.0);
        java.util.Arrays.fill(c, 2.0);
        System.out.println("hogging");
        System.out.flush();
        long until = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < until) {
            DoubleVectorKernels.INSTANCE.triad(a, b, c, 3.0, n);
        }
    }
}
