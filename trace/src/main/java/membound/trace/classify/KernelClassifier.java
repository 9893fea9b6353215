package membound.trace.classify;

import java.util.Locale;
import java.util.regex.Pattern;

import membound.trace.TraceClass;

/**
 * Puts a kernel into its {@link TraceClass}: by the CPU operator that launched it where the trace links one (an
 * {@code aten::addmm} is a GEMM whatever library kernel runs it), else by the kernel's own name. The patterns are
 * the names CUDA and ROCm libraries give their kernels (cuBLAS/cuBLASLt/CUTLASS, cuDNN, FlashAttention, NCCL/RCCL,
 * PyTorch's own at::native kernels, rocBLAS/hipBLASLt {@code Cijk_}); a name none matches is {@code other}, never
 * an error.
 */
public final class KernelClassifier {

    private static final Pattern COMMUNICATION = Pattern.compile(
            "nccl|rccl|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|alltoall|c10d::|"
                    + "record_param_comms|cross_device_reduce|sendrecv|custom_ar");
    private static final Pattern OPTIMIZER = Pattern.compile(
            "adam|adagrad|\\blamb\\b|lamb_|sgd|multi_tensor_apply|optimizer|rmsprop");
    private static final Pattern FORWARD = Pattern.compile("forward|_fwd");
    private static final Pattern ATTENTION = Pattern.compile(
            "flash|fmha|attention|attn|sdpa|mha_|cudnn_mha|scaled_dot_product");
    private static final Pattern NORM = Pattern.compile(
            "layer_?norm|layernorm|rms_?norm|rmsnorm|batch_?norm|batchnorm|group_?norm|groupnorm|instance_?norm|"
                    + "cudnn::bn_|bn_fw|bn_bw|welford|native_norm");
    private static final Pattern GEMM = Pattern.compile(
            "gemm|gemv|matmul|cublas|cutlass|xmma|nvjet|cijk_|wmma|mma_|addmm|baddbmm|bmm|(^|[^a-z])mm([^a-z]|$)|"
                    + "linear|conv(olution|olve|_|\\d|\\b)|dgrad|wgrad|fprop|winograd|implicit_|"
                    + "(volta|turing|ampere|hopper|sm\\d\\d)_.*_(nn|nt|tn|tt)\\b|_tn_|_nt_|_nn_");
    private static final Pattern ELEMENTWISE = Pattern.compile(
            "elementwise|vectorized|unrolled|reduce|softmax|copy|fill|cat|index|gather|scatter|embedding|"
                    + "dropout|gelu|relu|silu|sigmoid|tanh|add|mul|div|sub|where|masked|clamp|pow|exp|sqrt|cast|"
                    + "transpose|permute|contiguous|arange|zero|to_copy|sum|mean|max|min|argmax|topk|sort|nll|"
                    + "cross_entropy|rotary|rope|at::native::");

    private KernelClassifier() {
    }

    /**
     * @param kernelName the kernel's name as the trace gives it
     * @param operatorName the launching CPU operator, or null where the trace links none
     * @param insideOptimizerStep true when the launch fell inside an {@code Optimizer.step} range
     */
    public static TraceClass classify(String kernelName, String operatorName, boolean insideOptimizerStep) {
        String kernel = kernelName == null ? "" : withoutArguments(kernelName).toLowerCase(Locale.ROOT);
        String operator = operatorName == null ? null : operatorName.toLowerCase(Locale.ROOT);
        if (COMMUNICATION.matcher(kernel).find() || operator != null && COMMUNICATION.matcher(operator).find()) {
            return TraceClass.COMMUNICATION;
        }
        if (insideOptimizerStep) {
            return TraceClass.OPTIMIZER;
        }
        if (operator != null) {
            TraceClass byOperator = byName(operator);
            // An operator named after the optimizer fused into its backward (FBGEMM's
            // split_embedding_codegen_lookup_rowwise_adagrad_function) also launches the forward lookup: a kernel
            // whose own name says forward is that lookup, not the update.
            if (byOperator == TraceClass.OPTIMIZER && FORWARD.matcher(kernel).find()) {
                return byName(kernel);
            }
            if (byOperator != TraceClass.OTHER) {
                return byOperator;
            }
        }
        return byName(kernel);
    }

    /** The class a CPU operator's own name puts it in, for traces with no GPU events; null where none. */
    public static TraceClass ofOperator(String operatorName) {
        TraceClass c = classify(null, operatorName, false);
        return c == TraceClass.OTHER ? null : c;
    }

    /**
     * A demangled kernel's name and template arguments without its parameter list: the parameters name the types a
     * kernel takes ({@code fbgemm_gpu::FixedDivisor} in an embedding lookup), not what it does.
     */
    private static final String ANONYMOUS = "(anonymous namespace)";

    static String withoutArguments(String kernelName) {
        int depth = 0;
        for (int i = 0; i < kernelName.length(); i++) {
            char c = kernelName.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>' && depth > 0) {
                depth--;
            } else if (c == '(' && depth == 0 && i > 0 && !kernelName.startsWith(ANONYMOUS, i)) {
                return kernelName.substring(0, i);
            }
        }
        return kernelName;
    }

    private static TraceClass byName(String name) {
        if (OPTIMIZER.matcher(name).find()) {
            return TraceClass.OPTIMIZER;
        }
        if (ATTENTION.matcher(name).find()) {
            return TraceClass.ATTENTION;
        }
        if (NORM.matcher(name).find()) {
            return TraceClass.NORM;
        }
        if (GEMM.matcher(name).find()) {
            return TraceClass.GEMM;
        }
        if (ELEMENTWISE.matcher(name).find()) {
            return TraceClass.ELEMENTWISE;
        }
        return TraceClass.OTHER;
    }
}
