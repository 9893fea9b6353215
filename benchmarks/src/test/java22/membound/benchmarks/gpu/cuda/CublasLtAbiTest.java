package membound.benchmarks.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.bytedeco.cuda.global.cublas;
import org.junit.jupiter.api.Test;

/**
 * cuBLASLt's enumerators as the GEMMs pass them, against {@code cublasLt.h} and {@code cublas_api.h} of CUDA 13.1
 * as JavaCPP's CUDA presets (org.bytedeco:cuda 13.1-9.19-1.5.13) carry them: compile-time constants that javac copies
 * in here, so nothing of that library is loaded. No machine here has cuBLASLt's headers or library; a wrong value
 * would make a GEMM fail or, worse, measure another one on a GPU. The data types are checked against
 * {@code library_types.h} itself (CudaAbiTest).
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
        int[][] statuses = {{cublas.CUBLAS_STATUS_SUCCESS, 0}, {cublas.CUBLAS_STATUS_NOT_INITIALIZED, 1},
                {cublas.CUBLAS_STATUS_ALLOC_FAILED, 3}, {cublas.CUBLAS_STATUS_INVALID_VALUE, 7},
                {cublas.CUBLAS_STATUS_ARCH_MISMATCH, 8}, {cublas.CUBLAS_STATUS_MAPPING_ERROR, 11},
                {cublas.CUBLAS_STATUS_EXECUTION_FAILED, 13}, {cublas.CUBLAS_STATUS_INTERNAL_ERROR, 14},
                {cublas.CUBLAS_STATUS_NOT_SUPPORTED, 15}, {cublas.CUBLAS_STATUS_LICENSE_ERROR, 16}};
        String[] names = {"CUBLAS_STATUS_SUCCESS", "CUBLAS_STATUS_NOT_INITIALIZED", "CUBLAS_STATUS_ALLOC_FAILED",
                "CUBLAS_STATUS_INVALID_VALUE", "CUBLAS_STATUS_ARCH_MISMATCH", "CUBLAS_STATUS_MAPPING_ERROR",
                "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR", "CUBLAS_STATUS_NOT_SUPPORTED",
                "CUBLAS_STATUS_LICENSE_ERROR"};
        assertEquals(names.length, CublasLt.STATUS_NAMES.size(), "every status the binding names is checked");
        for (int i = 0; i < names.length; i++) {
            assertEquals(statuses[i][1], statuses[i][0], names[i] + " in cublas_api.h");
            assertEquals(names[i], CublasLt.statusName(statuses[i][0]));
        }
    }
}
