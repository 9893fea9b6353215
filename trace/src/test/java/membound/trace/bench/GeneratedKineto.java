package membound.trace.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * Writes a large Kineto trace of the shape torch.profiler writes for a transformer's training steps: per launch a
 * {@code cpu_op} with its input shapes, a {@code cuda_runtime} launch and the kernel it launched (names from the
 * usual libraries, nanosecond fractions in {@code ts} and {@code dur}), a {@code ProfilerStep#N} every 20,000
 * launches. Seeded: the same size gives the same file.
 */
public final class GeneratedKineto {

    private static final String[] KERNELS = {
        "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
                + "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
        "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, "
                + "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
        "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
                + "cutlass::bfloat16_t> >(pytorch_flash::Flash_fwd_params)",
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    };
    private static final String[] OPERATORS = {"aten::mm", "aten::add", "aten::native_layer_norm",
        "aten::_scaled_dot_product_flash_attention", "record_param_comms"};
    private static final String[] DIMS = {"[[8192, 4096], [4096, 4096]]", "[[8, 1024, 4096], [8, 1024, 4096], []]",
        "[[8, 1024, 4096], [4096], [4096], [4096], []]", "[[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024, 128]]",
        "[[33554432]]"};

    private GeneratedKineto() {
    }

    /** Writes at least {@code bytes} bytes of trace to {@code file}; returns the size written. */
    public static long write(Path file, long bytes) throws IOException {
        Random random = new Random(42);
        long written = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            String head = "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA GH200 480GB\"}], "
                    + "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8}, \"record_shapes\": 1, "
                    + "\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
            out.write(head);
            written += head.length();
            long cpuNs = 1_700_000_000_000_000L;
            long gpuNs = cpuNs;
            long id = 1;
            int step = 0;
            boolean first = true;
            StringBuilder b = new StringBuilder(4096);
            while (written < bytes) {
                b.setLength(0);
                if (id % 20_000 == 1) {
                    b.append(first ? "" : ",\n").append(String.format(Locale.ROOT, "{\"ph\": \"X\", \"cat\": "
                            + "\"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 1, \"tid\": 1, \"ts\": %s, "
                            + "\"dur\": %s, \"args\": {\"External id\": %d}}", step++, micros(cpuNs),
                            micros(20_000L * 9_000), id * 3));
                    first = false;
                }
                int k = random.nextInt(KERNELS.length);
                long opDur = 4_000 + random.nextInt(6_000);
                long kernelDur = 1_000 + random.nextInt(40_000);
                gpuNs = Math.max(gpuNs, cpuNs + 2_000) + random.nextInt(500);
                b.append(first ? "" : ",\n").append("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"")
                        .append(OPERATORS[k]).append("\", \"pid\": 1, \"tid\": 1, \"ts\": ").append(micros(cpuNs))
                        .append(", \"dur\": ").append(micros(opDur)).append(", \"args\": {\"External id\": ").append(id)
                        .append(", \"Record function id\": 0, \"Input Dims\": ").append(DIMS[k])
                        .append(", \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]}}");
                b.append(",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
                        + "\"tid\": 1, \"ts\": ").append(micros(cpuNs + 1_000)).append(", \"dur\": 2.5, \"args\": "
                        + "{\"External id\": ").append(id).append(", \"cbid\": 211, \"correlation\": ").append(id)
                        .append("}}");
                b.append(",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"").append(KERNELS[k])
                        .append("\", \"pid\": 0, \"tid\": 7, \"ts\": ").append(micros(gpuNs)).append(", \"dur\": ")
                        .append(micros(kernelDur)).append(", \"args\": {\"External id\": ").append(id)
                        .append(", \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": ").append(k == 4 ? 13 : 7)
                        .append(", \"correlation\": ").append(id).append(", \"registers per thread\": 128, "
                        + "\"shared memory\": 49152, \"blocks per SM\": 1.5, \"warps per SM\": 6.0, \"grid\": [132, 1, 1], "
                        + "\"block\": [128, 1, 1], \"est. achieved occupancy %\": 12}}");
                first = false;
                gpuNs += kernelDur;
                cpuNs += opDur;
                id++;
                out.append(b);
                written += b.length();
            }
            out.write("\n]}\n");
            written += 4;
        }
        return Files.size(file);
    }

    private static String micros(long ns) {
        return (ns / 1000) + "." + String.format(Locale.ROOT, "%03d", ns % 1000);
    }
}
