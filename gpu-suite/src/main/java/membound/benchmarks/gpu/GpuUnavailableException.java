package membound.benchmarks.gpu;

/**
 * The GPU suite could not measure: no JDK 22+, no driver library, no device, a driver too old for the PTX, too
 * little device memory, a CUDA call that failed. The message is one line naming the cause and, where the driver
 * returned one, the CUDA error name ({@code cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is
 * detected}). A calibration goes on with the CPU suite and flags the profile {@code gpu-not-measured} with it.
 *
 * <p>A result that fails validation on the device is not this: it is a
 * {@link membound.benchmarks.stream.StreamValidationException}, an error and never a figure.
 */
public class GpuUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String cudaErrorName;

    /** @param cudaErrorName the driver's name for the error ({@code CUDA_ERROR_NO_DEVICE}), or null where none */
    public GpuUnavailableException(String message, String cudaErrorName) {
        super(message);
        this.cudaErrorName = cudaErrorName;
    }

    public GpuUnavailableException(String message, String cudaErrorName, Throwable cause) {
        super(message, cause);
        this.cudaErrorName = cudaErrorName;
    }

    /** The CUDA error name, if the driver returned an error. */
    public java.util.Optional<String> cudaErrorName() {
        return java.util.Optional.ofNullable(cudaErrorName);
    }
}
