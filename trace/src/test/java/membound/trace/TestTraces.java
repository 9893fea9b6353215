package membound.trace;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The public traces kept in test resources (each with its source and commit in the README beside it). */
final class TestTraces {

    private TestTraces() {
    }

    static Path resource(String name) {
        try {
            java.net.URL url = TestTraces.class.getResource("/membound/trace/" + name);
            if (url == null) {
                throw new IllegalStateException("test resource missing: " + name);
            }
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path htaRank0() {
        return resource("hta/trace_filter/sampled_rank-0.json.gz");
    }

    static Path htaRank1() {
        return resource("hta/trace_filter/sampled_rank-1.json.gz");
    }

    static Path htaNsResolution() {
        return resource("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    }

    static Path htaNccl() {
        return resource("hta/nccl_parser_config/nccl_data.json.gz");
    }

    static Path htaAmd() {
        return resource("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    }

    static Path htaCpuOnly() {
        return resource("hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
    }

    static Path kinetoResnet() {
        return resource("kineto-tb-plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
    }

    static Path torchCpu() {
        return resource("torch-cpu/gpt-cpu.pt.trace.json.gz");
    }
}
