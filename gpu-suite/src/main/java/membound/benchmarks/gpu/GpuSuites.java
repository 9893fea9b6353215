package membound.benchmarks.gpu;

import java.lang.reflect.InvocationTargetException;

/**
 * Finds the GPU suite: its implementation calls the CUDA driver through the FFM API, final in JDK 22, and is built
 * only by a JDK 22 or newer ({@code benchmarks/pom.xml}, profile {@code gpu-suite}). On an older runtime, or from a
 * build made on one, it says so in one line.
 */
public final class GpuSuites {

    /** The first JDK whose FFM API ({@code java.lang.foreign}) the suite uses. */
    public static final int MINIMUM_JDK = 22;

    static final String IMPLEMENTATION = "membound.benchmarks.gpu.cuda.CudaGpuSuite";

    private GpuSuites() {
    }

    /** Runs the GPU suite on GPU 0 with the plan. */
    public static GpuRun measure(GpuPlan plan) {
        return suite(Runtime.version().feature()).measure(plan);
    }

    /** The suite on a runtime of JDK {@code feature}. */
    static GpuSuite suite(int feature) {
        if (feature < MINIMUM_JDK) {
            throw new GpuUnavailableException("the GPU suite needs JDK " + MINIMUM_JDK + " or newer (the FFM API "
                    + "calls the CUDA driver): this is JDK " + feature, null);
        }
        try {
            return (GpuSuite) Class.forName(IMPLEMENTATION).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | LinkageError e) {
            throw new GpuUnavailableException("this build has no GPU suite (" + IMPLEMENTATION + " is missing: it was "
                    + "built on a JDK older than " + MINIMUM_JDK + "); rebuild with JDK " + MINIMUM_JDK + " or newer",
                    null, e);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalStateException("cannot construct " + IMPLEMENTATION + ": " + e, e);
        }
    }
}
