package membound.trace.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.trace.TraceClass;
import membound.vocabulary.Precision;

class ClassifierTest {

    @ParameterizedTest(name = "{0} / {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn||GEMM",
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64||GEMM",
            "nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN||GEMM",
            "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32||GEMM",
            "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>||GEMM",
            "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>||ATTENTION",
            "fmha_cutlassF_bf16_aligned_64x128_rf_sm80||ATTENTION",
            "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>||NORM",
            "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>||NORM",
            "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>||ELEMENTWISE",
            "void at::native::elementwise_kernel<128, 2, {lambda(int)#1}>(int, {lambda(int)#1})||ELEMENTWISE",
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<FusedAdamMathFunctor>||OPTIMIZER",
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)||COMMUNICATION",
            "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL||COMMUNICATION",
            "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>||COMMUNICATION",
            "mystery_kernel_v2||OTHER",
            "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>|aten::addmm|GEMM",
            "void at::native::vectorized_elementwise_kernel<4>|aten::native_layer_norm|NORM",
            "void at::native::reduce_kernel<512, 1>|record_param_comms|COMMUNICATION",
            "void split_embedding_codegen_forward_unweighted_kernel<c10::Half, float, 2ul>(at::GenericPackedTensorAccessor<c10::Half, 1ul>, fbgemm_gpu::FixedDivisor)||ELEMENTWISE",
            "void split_embedding_codegen_forward_unweighted_kernel<c10::Half>|fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function|ELEMENTWISE",
            "void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel|fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function|OPTIMIZER",
    })
    void putsKernelsInTheirClass(String kernel, String operator, TraceClass expected) {
        assertEquals(expected, KernelClassifier.classify(kernel, operator, false));
    }

    @Test
    void anythingLaunchedInsideOptimizerStepIsTheOptimizersButCommunication() {
        assertEquals(TraceClass.OPTIMIZER, KernelClassifier.classify("void at::native::vectorized_elementwise_kernel",
                "aten::mul_", true));
        assertEquals(TraceClass.COMMUNICATION, KernelClassifier.classify("ncclKernel_AllReduce", null, true));
    }

    @Test
    void aMatrixProductsCostComesFromItsShapes() {
        OperatorCosts.Cost addmm = OperatorCosts.of("aten::addmm", List.of(new long[] {4096}, new long[] {2048, 1024},
                new long[] {1024, 4096}), List.of("c10::BFloat16", "c10::BFloat16", "c10::BFloat16"));
        assertEquals(2.0 * 2048 * 1024 * 4096, addmm.flops());
        assertEquals(2.0 * (2048 * 1024 + 1024 * 4096 + 2048 * 4096), addmm.bytes());
        assertEquals(Precision.BF16, addmm.precision());
        OperatorCosts.Cost linear = OperatorCosts.of("aten::linear", List.of(new long[] {8, 128, 256},
                new long[] {768, 256}, new long[] {768}), List.of("float", "float", "float"));
        assertEquals(2.0 * 8 * 128 * 256 * 768, linear.flops());
        OperatorCosts.Cost bmm = OperatorCosts.of("aten::bmm", List.of(new long[] {32, 128, 64},
                new long[] {32, 64, 128}), List.of("float", "float"));
        assertEquals(2.0 * 32 * 128 * 64 * 128, bmm.flops());
    }

    @Test
    void attentionsCostIsFourBhtsdForward() {
        List<long[]> qkv = List.of(new long[] {2, 8, 1024, 64}, new long[] {2, 8, 1024, 64}, new long[] {2, 8, 1024, 64});
        OperatorCosts.Cost fwd = OperatorCosts.of("aten::_scaled_dot_product_flash_attention", qkv,
                List.of("c10::Half", "c10::Half", "c10::Half"));
        assertEquals(4.0 * 2 * 8 * 1024 * 1024 * 64, fwd.flops());
        assertEquals(Precision.FP16, fwd.precision());
    }

    @Test
    void aNormReadsItsTensorsAndWritesItsOutput() {
        OperatorCosts.Cost norm = OperatorCosts.of("aten::native_layer_norm", List.of(new long[] {8, 128, 256},
                new long[] {}, new long[] {256}, new long[] {256}, new long[] {}),
                List.of("float", "ScalarList", "float", "float", "Scalar"));
        assertEquals(4.0 * (8 * 128 * 256 + 256 + 256) + 4.0 * 8 * 128 * 256, norm.bytes());
    }

    @Test
    void anOperatorWhoseShapesFixNoCostHasNone() {
        assertFalse(OperatorCosts.of("aten::unique", List.<long[]>of(new long[] {10}), List.of("float")).known());
        assertFalse(OperatorCosts.of("aten::mm", List.of(new long[] {3, 4}, new long[] {5, 6}),
                List.of("float", "float")).known(), "inner extents disagree: no cost, no guess");
    }
}
