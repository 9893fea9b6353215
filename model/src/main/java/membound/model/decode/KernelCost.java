package membound.model.decode;

/**
 * A decode step's fixed cost: the kernels an engine launches per step times what each kernel boundary costs (launch or
 * graph-node dispatch, a short kernel's ramp and tail), never less per kernel than the device's measured launch
 * interval. {@link #NONE}: the roofline alone, each operation at least one measured launch where the device has one.
 *
 * @param kernelsPerStep kernels of one step ({@code membound.model.engine.EngineKernels})
 * @param secondsPerKernel what one kernel boundary costs (an engine's fitted term)
 * @param source where both come from, as the output prints it
 */
public record KernelCost(double kernelsPerStep, double secondsPerKernel, String source) {

    public static final KernelCost NONE = new KernelCost(0, 0, "none");

    public KernelCost {
        if (!(kernelsPerStep >= 0) || Double.isInfinite(kernelsPerStep)) {
            throw new IllegalArgumentException("kernels per step must be >= 0 and finite: kernelsPerStep="
                    + kernelsPerStep);
        }
        if (!(secondsPerKernel >= 0) || Double.isInfinite(secondsPerKernel)) {
            throw new IllegalArgumentException("seconds per kernel must be >= 0 and finite: secondsPerKernel="
                    + secondsPerKernel);
        }
    }

    public boolean present() {
        return kernelsPerStep > 0;
    }

    /** The step's fixed seconds on a device whose measured launch interval is {@code launchSeconds} (0: none). */
    public double seconds(double launchSeconds) {
        return kernelsPerStep * Math.max(secondsPerKernel, launchSeconds);
    }
}
