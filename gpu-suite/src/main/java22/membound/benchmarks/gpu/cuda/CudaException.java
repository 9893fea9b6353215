package membound.benchmarks.gpu.cuda;

import membound.benchmarks.gpu.GpuUnavailableException;

/**
 * A CUDA driver call that returned an error, in one line: the call, the driver's error name and code, its
 * description ({@code cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected}).
 */
public final class CudaException extends GpuUnavailableException {

    private static final long serialVersionUID = 1L;

    private final int code;

    CudaException(String call, int code, String errorName, String description) {
        super(call + " failed: " + errorName + " (" + code + "): " + description, errorName);
        this.code = code;
    }

    /** The {@code CUresult}. */
    public int code() {
        return code;
    }
}
