package membound.benchmarks.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.bytedeco.cuda.global.cublas;
import org.junit.jupiter.api.Test;

/**
 * cuBLASLt's enumerators as the GEMMs pass them, against {@code cublasLt.h} and {@code cublas_api.h} of CUDA 13.1
 * as JavaCPP's CUDA presets (org.bytedeco:cuda 13.1-9.19-1.5.13) carry them: compile-time constants that javac copies
 * in here, so nothing of that library is loaded. The headers CI has (CublasLtHeaderTest) are CUDA 11.8's, which
 * lack NVFP4's scale modes; this is where those are checked. A wrong value would make a GEMM fail or, worse, measure
 * another one on a GPU. The data types are checked against {@code library_types.h} itself (CudaAbiTest).
 */
class CublasLtAbiTest {

    @Test
    void computeTypesAndOperations() {
        assertEquals(cublas.CUBLAS_COMPUTE_32F, CublasLt.COMPUTE_32F);
        assertEquals(cublas.CUBLAS_COMPUTE_32F_FAST_TF32, CublasLt.COMPUTE_32F_FAST_TF32);
        assertEquals(cublas.CUBLAS_OP_N, CublasLt.OP_N);
        assertEquals(cublas.CUBLAS_OP_T, CublasLt.OP_T);
    }

    @Test
    void matmulDescriptorAttributesAndScaleModes() {
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_TRANSA, CublasLt.DESC_TRANSA);
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_TRANSB, CublasLt.DESC_TRANSB);
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CublasLt.DESC_A_SCALE_POINTER);
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, CublasLt.DESC_B_SCALE_POINTER);
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_A_SCALE_MODE, CublasLt.DESC_A_SCALE_MODE);
        assertEquals(cublas.CUBLASLT_MATMUL_DESC_B_SCALE_MODE, CublasLt.DESC_B_SCALE_MODE);
        assertEquals(cublas.CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3, CublasLt.SCALE_VEC16_UE4M3);
    }

    @Test
    void layoutAndPreferenceAttributes() {
        assertEquals(cublas.CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, CublasLt.LAYOUT_BATCH_COUNT);
        assertEquals(cublas.CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, CublasLt.LAYOUT_STRIDED_BATCH_OFFSET);
        assertEquals(cublas.CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, CublasLt.PREF_MAX_WORKSPACE_BYTES);
    }

    @Test
    void statusNames() {
        assertEquals(cublas.CUBLAS_STATUS_NOT_SUPPORTED, CublasLt.STATUS_NOT_SUPPORTED);
        Map<Integer, String> names = Map.ofEntries(Map.entry(cublas.CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS"),
                Map.entry(cublas.CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED"),
                Map.entry(cublas.CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED"),
                Map.entry(cublas.CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE"),
                Map.entry(cublas.CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH"),
                Map.entry(cublas.CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR"),
                Map.entry(cublas.CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED"),
                Map.entry(cublas.CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR"),
                Map.entry(cublas.CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED"),
                Map.entry(cublas.CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR"));
        assertEquals(names, CublasLt.STATUS_NAMES, "the binding names every status by cublas_api.h's value");
    }
}
