package membound.calibrator.run;

import membound.vocabulary.Labelled;

/**
 * Whether a calibration measures the GPU ({@code calibrate --gpu}).
 *
 * <ul>
 *   <li>{@code auto} (the default): try the GPU suite; where it cannot run (no JDK 22+, no driver, no device, a
 *       failed CUDA call) say why in one line, measure the CPU and flag the profile {@code gpu-not-measured}.</li>
 *   <li>{@code required}: the same, but a GPU that cannot be measured is an error (exit 2) before anything runs.</li>
 *   <li>{@code off}: do not try; the profile is flagged {@code gpu-not-measured} with that reason.</li>
 * </ul>
 */
public enum GpuPolicy implements Labelled {
    AUTO("auto"),
    REQUIRED("required"),
    OFF("off");

    private final String label;

    GpuPolicy(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    /** The policy named {@code text} as {@code --gpu} takes it. */
    public static GpuPolicy of(String text) {
        return Labelled.parse(GpuPolicy.class, "--gpu", text);
    }
}
