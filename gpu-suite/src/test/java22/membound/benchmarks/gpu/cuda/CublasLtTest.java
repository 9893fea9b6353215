package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import membound.benchmarks.gpu.ComputeCapability;
import membound.benchmarks.gpu.GpuUnavailableException;
import membound.vocabulary.ProductShape;

/**
 * The cuBLASLt binding without a GPU: its error paths (no library, a library that is not cuBLASLt), the status
 * names, which precisions a device and library offer, and the known operands the GEMM check relies on, encoded in
 * every format and laid out as each layout says (decoded here by the formats' bit definitions, not by the tables
 * that encoded them).
 */
class CublasLtTest {

    @Test
    void noLibraryIsOneLineNamingWhatWasTried() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                () -> CublasLt.load(List.of("/nonexistent/libcublasLt.so.12", "libcublasLt-not-there.so.12")));
        assertEquals("no cuBLASLt, GEMM not measured: none of /nonexistent/libcublasLt.so.12 (not a file), "
                + "libcublasLt-not-there.so.12 could be loaded (it comes with the CUDA toolkit or PyTorch's "
                + "nvidia-cublas wheel; MEMBOUND_LIBCUBLASLT names one)", e.getMessage());
        assertTrue(e.cudaErrorName().isEmpty());
    }

    @Test
    void aLibraryThatIsNotCublasLtSaysWhichSymbolItLacks() {
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                () -> CublasLt.load(List.of("libc.so.6")));
        assertEquals("no cuBLASLt: libc.so.6 has no cublasLtGetVersion (not a cuBLASLt library, or one older than "
                + "CUDA 11)", e.getMessage());
    }

    @Test
    void statusesHaveTheirHeaderNames() {
        assertEquals("CUBLAS_STATUS_NOT_SUPPORTED", CublasLt.statusName(15));
        assertEquals("CUBLAS_STATUS_ARCH_MISMATCH", CublasLt.statusName(8));
        assertEquals("CUBLAS_STATUS 99", CublasLt.statusName(99));
        CudaException e = assertThrows(CudaException.class, () -> CublasLt.check(15, "cublasLtMatmul(bf16 64x64x64:nn)"));
        assertEquals("cublasLtMatmul(bf16 64x64x64:nn) failed: CUBLAS_STATUS_NOT_SUPPORTED (15): cuBLASLt refused the "
                + "call", e.getMessage());
        assertEquals("CUBLAS_STATUS_NOT_SUPPORTED", e.cudaErrorName().orElseThrow());
    }

    @Test
    void versionsReadAsPeopleWriteThem() {
        assertEquals("12.8.3", CublasLt.versionText(120803));
        assertEquals("11.8.0", CublasLt.versionText(110800));
    }

    @Test
    void eachDeviceGetsThePrecisionsItsTensorCoresHave() {
        long cuda13 = 130000;
        // H200 (9.0): no FP4; A100 (8.0): no FP8; GB10 (12.1) and B200 (10.0): everything.
        assertTrue(CudaGemm.Format.FP4.unsupported(new ComputeCapability(9, 0), cuda13).startsWith("compute capability 9.0 has no fp4"));
        assertNull(CudaGemm.Format.FP8.unsupported(new ComputeCapability(9, 0), cuda13));
        assertTrue(CudaGemm.Format.FP8.unsupported(new ComputeCapability(8, 0), cuda13).contains("it needs 8.9"));
        assertNull(CudaGemm.Format.FP8.unsupported(new ComputeCapability(8, 9), cuda13));
        for (CudaGemm.Format format : CudaGemm.Format.values()) {
            assertNull(format.unsupported(new ComputeCapability(12, 1), cuda13), format.name());
            assertNull(format.unsupported(new ComputeCapability(10, 0), cuda13), format.name());
        }
        assertEquals("cuBLASLt 12.4.5 has no fp4 GEMM (it needs 12.8.0)",
                CudaGemm.Format.FP4.unsupported(new ComputeCapability(12, 1), 120405));
        assertTrue(new ComputeCapability(10, 0).atLeast(new ComputeCapability(9, 0)), "compared as numbers, not text");
        assertTrue(new ComputeCapability(12, 1).compareTo(new ComputeCapability(12, 0)) > 0);
        assertEquals("12.1", new ComputeCapability(12, 1).toString());
    }

    @Test
    void knownOperandsAreSmallIntegersThatVaryAndPairAlongK() {
        Set<Integer> seen = new HashSet<>();
        for (int outer = 0; outer < 64; outer++) {
            for (int k = 0; k < 64; k += 2) {
                int v = CudaGemm.value(CudaGemm.SEED_A, 0, outer, k);
                assertTrue(v >= -2 && v <= 2, "in [-2, 2]: " + v);
                assertEquals(v, CudaGemm.value(CudaGemm.SEED_A, 0, outer, k + 1), "FP4 packs k and k+1 in one byte");
                seen.add(v);
            }
        }
        assertEquals(5, seen.size(), "all of -2..2 appear");
        assertFalse(CudaGemm.value(CudaGemm.SEED_A, 0, 1, 2) == CudaGemm.value(CudaGemm.SEED_B, 0, 1, 2)
                && CudaGemm.value(CudaGemm.SEED_A, 0, 2, 2) == CudaGemm.value(CudaGemm.SEED_B, 0, 2, 2)
                && CudaGemm.value(CudaGemm.SEED_A, 0, 3, 2) == CudaGemm.value(CudaGemm.SEED_B, 0, 3, 2),
                "A and B differ");
    }

    /** Every format, every layout: the product of the decoded storage, by ProductShape's definition, is what the check expects. */
    @ParameterizedTest
    @EnumSource(CudaGemm.Format.class)
    void theEncodedOperandsMultiplyToTheExpectedEntries(CudaGemm.Format format) {
        for (String text : List.of("2x48x32x64:nn", "2x48x32x64:nt", "2x48x32x64:tn")) {
            ProductShape shape = ProductShape.parse(text);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = CudaGemm.encode(arena, format, shape, true);
                MemorySegment b = CudaGemm.encode(arena, format, shape, false);
                for (int p = 0; p < shape.batch(); p++) {
                    for (int i = 0; i < shape.m(); i += 7) {
                        for (int j = 0; j < shape.n(); j += 5) {
                            long sum = 0;
                            for (int kk = 0; kk < shape.k(); kk++) {
                                long aIndex = (long) p * shape.m() * shape.k() + (shape.layout() == ProductShape.Layout.TN
                                        ? (long) kk * shape.m() + i : (long) i * shape.k() + kk);
                                long bIndex = (long) p * shape.k() * shape.n() + (shape.layout() == ProductShape.Layout.NT
                                        ? (long) j * shape.k() + kk : (long) kk * shape.n() + j);
                                sum += Math.round(decode(a, format, aIndex) * decode(b, format, bIndex));
                            }
                            assertEquals(sum, CudaGemm.expected(shape, p, i, j), format + " " + shape + " D[" + p + "]["
                                    + i + "][" + j + "]");
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 0, 1, 2})
    void eachFormatHoldsTheIntegersExactly(int v) {
        try (Arena arena = Arena.ofConfined()) {
            for (CudaGemm.Format format : CudaGemm.Format.values()) {
                MemorySegment host = arena.allocate(16);
                CudaGemm.put(host, format, 3, v);
                CudaGemm.put(host, format, 2, 1);
                assertEquals(v, decode(host, format, 3), format.name());
                assertEquals(1, decode(host, format, 2), format.name() + ": the neighbour is kept");
            }
        }
    }

    @Test
    void nvfp4ScalesFillWholeTilesOf128RowsBy4() {
        assertEquals(256 * 4, CudaGemm.scaleBytes(1, 256, 64), "64 / 16 = 4 scales per row");
        assertEquals(128 * 4, CudaGemm.scaleBytes(1, 100, 32), "rows padded to 128, scales to 4");
        assertEquals(16 * 256 * 4, CudaGemm.scaleBytes(16, 256, 64), "per product of a batch");
    }

    /** The element at {@code index} by the format's bit definition. */
    static double decode(MemorySegment host, CudaGemm.Format format, long index) {
        return switch (format) {
            case FP32, TF32 -> host.getAtIndex(JAVA_FLOAT, index);
            case BF16 -> Float.intBitsToFloat(host.getAtIndex(JAVA_SHORT, index) << 16);
            case FP16 -> Float.float16ToFloat(host.getAtIndex(JAVA_SHORT, index));
            case FP8 -> minifloat(host.get(JAVA_BYTE, index) & 0xFF, 4, 3, 7);
            case FP4 -> minifloat((host.get(JAVA_BYTE, index >>> 1) >>> ((index & 1) == 0 ? 0 : 4)) & 0xF, 2, 1, 1);
        };
    }

    /** A sign, {@code e} exponent bits and {@code m} mantissa bits with bias {@code bias} (no NaN among these values). */
    private static double minifloat(int bits, int e, int m, int bias) {
        int sign = bits >>> (e + m) & 1;
        int exponent = bits >>> m & ((1 << e) - 1);
        int mantissa = bits & ((1 << m) - 1);
        double magnitude = exponent == 0 ? mantissa / (double) (1 << m) * Math.pow(2, 1 - bias)
                : (1 + mantissa / (double) (1 << m)) * Math.pow(2, exponent - bias);
        return sign == 1 ? -magnitude : magnitude;
    }
}
