package membound.benchmarks.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.gpu.GpuSuites;
import membound.benchmarks.gpu.GpuUnavailableException;

/**
 * The driver binding's error paths against the real driver library: CI installs Debian's {@code libcuda1} and names
 * it in {@code MEMBOUND_LIBCUDA}; on a machine without a GPU its {@code cuInit(0)} returns CUDA_ERROR_NO_DEVICE.
 * Tests that need the library skip, saying why, where it is absent; those that need no device skip on a GPU.
 */
class CudaDriverTest {

    @Test
    void aMissingLibraryIsOneLineNamingIt() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                () -> CudaDriver.load("/nonexistent/libcuda.so.1"));
        assertTrue(e.getMessage().startsWith("no CUDA driver: /nonexistent/libcuda.so.1"), e.getMessage());
        assertOneLine(e.getMessage());
        assertTrue(e.cudaErrorName().isEmpty());
    }

    @Test
    void aLibraryTheLoaderCannotFindIsOneLineNamingIt() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                () -> CudaDriver.load("libcuda-that-is-not-there.so.1"));
        assertTrue(e.getMessage().contains("libcuda-that-is-not-there.so.1 could not be loaded"), e.getMessage());
        assertOneLine(e.getMessage());
    }

    @Test
    void cuInitWithoutADeviceNamesTheCallAndTheCudaError() {
        CudaDriver cuda = driverOrSkip();
        CudaException e;
        try {
            cuda.init();
            e = null;
        } catch (CudaException thrown) {
            e = thrown;
        }
        assumeTrue(e != null, "cuInit(0) succeeded: this machine has a GPU, the no-device path cannot be seen here");
        assertTrue(e.getMessage().startsWith("cuInit(0) failed: CUDA_ERROR_"), e.getMessage());
        assertOneLine(e.getMessage());
        assertEquals(e.cudaErrorName().orElseThrow(), cuda.errorName(e.code()).orElseThrow());
        if (e.code() == 100) {
            assertEquals("cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected",
                    e.getMessage());
        }
    }

    @Test
    void theDriverNamesItsErrors() {
        CudaDriver cuda = driverOrSkip();
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", cuda.errorName(2).orElseThrow());
        assertEquals("CUDA_ERROR_UNSUPPORTED_PTX_VERSION", cuda.errorName(222).orElseThrow());
        assertTrue(cuda.errorName(123456).isEmpty(), "an unknown code has no name");
    }

    @Test
    void theSuiteWithoutADeviceIsUnavailableInOneLine() {
        driverOrSkip();
        GpuUnavailableException e;
        try {
            GpuSuites.measure(GpuPlan.smokePlan());
            e = null;
        } catch (GpuUnavailableException thrown) {
            e = thrown;
        }
        assumeTrue(e != null, "the GPU suite ran: this machine has a GPU");
        assertOneLine(e.getMessage());
        assertTrue(e.cudaErrorName().isPresent(), e.getMessage());
    }

    private static CudaDriver driverOrSkip() {
        try {
            return CudaDriver.load();
        } catch (GpuUnavailableException e) {
            assumeTrue(false, "no CUDA driver library here (" + e.getMessage() + "); CI installs Debian's libcuda1 "
                    + "and sets " + CudaDriver.LIBRARY_ENVIRONMENT);
            throw e;
        }
    }

    private static void assertOneLine(String message) {
        assertFalse(message.contains("\n") || message.contains("\r"), "one line: " + message);
    }
}
