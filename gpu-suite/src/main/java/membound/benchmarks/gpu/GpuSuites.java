package membound.benchmarks.gpu;

import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the GPU suite, a {@link ServiceLoader} provider of {@link GpuSuite}: its implementation calls the CUDA driver
 * through the FFM API, final in JDK 22, and it and its service entry are built only by a JDK 22 or newer
 * ({@code gpu-suite/pom.xml}, profile {@code gpu-suite}). On an older runtime, or from a build made on one, it says
 * so in one line.
 */
public final class GpuSuites {

    /** The first JDK whose FFM API ({@code java.lang.foreign}) the suite uses. */
    public static final int MINIMUM_JDK = 22;

    /** The provider a JDK 22+ build lists in {@code META-INF/services}. */
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
            return ServiceLoader.load(GpuSuite.class, GpuSuites.class.getClassLoader()).findFirst()
                    .orElseThrow(() -> new GpuUnavailableException("this build has no GPU suite (no provider of "
                            + GpuSuite.class.getName() + ", such as " + IMPLEMENTATION + ": it was built on a JDK older "
                            + "than " + MINIMUM_JDK + "); rebuild with JDK " + MINIMUM_JDK + " or newer", null));
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new GpuUnavailableException("this build has no GPU suite this runtime can load (" + IMPLEMENTATION
                    + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "); rebuild with JDK "
                    + MINIMUM_JDK + " or newer", null, e);
        }
    }
}
