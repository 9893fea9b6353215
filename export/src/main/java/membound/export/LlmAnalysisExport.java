package membound.export;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.model.machine.Link;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

/**
 * llm-analysis's GPU file: the keys of its {@code GPUConfig} dataclass ({@code llm_analysis/config.py:84-100}),
 * which it builds with {@code GPUConfig(**json)} (config.py:251), so an unknown key is a {@code TypeError} and
 * provenance goes to a sidecar. Capacity in GiB (analysis.py:1611 multiplies by 1024^3), bandwidths in GB/s (10^9,
 * analysis.py:204-214), latency in seconds, rates in TFLOP/s. The file is found by its {@code name} among the
 * package's {@code gpu_configs/} (config.py:318, 367), so the command copies it there.
 */
final class LlmAnalysisExport {

    private LlmAnalysisExport() {
    }

    static Export build(ExportInput input, String fileName) {
        FigureLog log = new FigureLog(input, ExportTool.LLM_ANALYSIS);
        ObjectNode gpu = ToolJson.object();
        String name = "membound-" + ToolJson.slug(input.fromProfile()
                ? stripJson(java.nio.file.Path.of(input.origin()).getFileName().toString()) + "-"
                + input.machine().device().id() : input.machine().id() + "-datasheet");
        gpu.put("name", name);
        if (input.machine().device().kind() == DeviceKind.CPU) {
            log.note("llm-analysis models GPUs: the " + input.machine().device().name() + " is written as one GPU "
                    + "(its memory, bandwidth and compute as measured)");
        }
        var device = input.machine().device();
        gpu.put("mem_per_GPU_in_GB", log.write(fileName, "mem_per_GPU_in_GB",
                new FigureLog.Chosen(device.capacityBytes(), capacityOrigin(input), device.capacitySource()),
                1L << 30, "GiB", "B"));
        FigureLog.Chosen memory = Rates.memory(log);
        gpu.put("hbm_bandwidth_in_GB_per_sec", log.write(fileName, "hbm_bandwidth_in_GB_per_sec", memory, 1e9, "GB/s",
                "B/s"));
        ExportLink peer = ExportLink.of(log, Link.Kind.PEER);
        ExportLink network = ExportLink.of(log, Link.Kind.NETWORK);
        if (peer == null && network != null) {
            // llm-analysis takes the intra-node figure for up to 8 GPUs (analysis.py:1249-1250): with one GPU per
            // machine, the network is the only way to another GPU.
            log.note("intra_node_*: no GPU-to-GPU link inside the machine: the network link " + network.id()
                    + " is written, the only way to another GPU");
            peer = network;
        }
        if (peer != null) {
            gpu.put("intra_node_bandwidth_in_GB_per_sec", log.write(fileName, "intra_node_bandwidth_in_GB_per_sec",
                    peer.bandwidth(), 1e9, "GB/s", "B/s"));
            gpu.put("intra_node_min_message_latency", latency(log, fileName, "intra_node_min_message_latency", peer));
        } else {
            String why = "no GPU-to-GPU link in " + input.origin() + ": one device moves nothing between GPUs; "
                    + "written as the device's own main-memory bandwidth, so a run with tp=dp=1 is unchanged";
            gpu.put("intra_node_bandwidth_in_GB_per_sec", log.neutral(fileName, "intra_node_bandwidth_in_GB_per_sec",
                    memory.value(), 1e9, "GB/s", "B/s", why));
            gpu.put("intra_node_min_message_latency", log.neutral(fileName, "intra_node_min_message_latency", 0, 1,
                    "s", "s", "no GPU-to-GPU link: no message latency"));
        }
        FigureLog.Chosen fp16 = Rates.matrix(log, Precision.BF16, "peak_fp16_TFLOPS");
        gpu.put("peak_fp16_TFLOPS", log.write(fileName, "peak_fp16_TFLOPS", fp16, 1e12, "TFLOP/s", "FLOP/s"));
        FigureLog.Chosen i8 = eightOrFourBit(log, Precision.INT8, Precision.FP8, "peak_i8_TFLOPS");
        gpu.put("peak_i8_TFLOPS", log.write(fileName, "peak_i8_TFLOPS", i8, 1e12, "TFLOP/s", "FLOP/s"));
        FigureLog.Chosen i4 = eightOrFourBit(log, Precision.INT4, Precision.FP4, "peak_i4_TFLOPS");
        gpu.put("peak_i4_TFLOPS", log.write(fileName, "peak_i4_TFLOPS", i4, 1e12, "TFLOP/s", "FLOP/s"));
        if (network != null) {
            gpu.put("inter_node_bandwidth_in_GB_per_sec", log.write(fileName, "inter_node_bandwidth_in_GB_per_sec",
                    network.bandwidth(), 1e9, "GB/s", "B/s"));
        } else {
            gpu.put("inter_node_bandwidth_in_GB_per_sec", log.neutral(fileName, "inter_node_bandwidth_in_GB_per_sec",
                    memory.value(), 1e9, "GB/s", "B/s", "no network link in " + input.origin()
                            + ": written as the device's main-memory bandwidth (llm-analysis's own default, 200 GB/s "
                            + "of HDR InfiniBand, is not this machine's)"));
        }
        String command = command(name, fileName);
        String sidecar = sidecarName(fileName);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(sidecar, ToolJson.bytes(ToolJson.provenance(ExportTool.LLM_ANALYSIS, input, log.figures(),
                log.notes(), command)));
        files.put(fileName, ToolJson.bytes(gpu));
        return new Export(ExportTool.LLM_ANALYSIS, files, log.figures(), log.notes(), command);
    }

    /**
     * The command that runs llm-analysis on the file: it is copied into the package's {@code gpu_configs/}, then
     * named by {@code --gpu_name}. The efficiency flags are 1 because the file's figures are already attained ones
     * (a measured GEMM rate, a measured bandwidth) or, from the catalog, the datasheet's to compare with;
     * llm-analysis would otherwise derate them with whatever efficiency is given.
     */
    static String command(String name, String fileName) {
        return String.format(Locale.ROOT, "cp %s \"$(python3 -c 'import llm_analysis, os; "
                + "print(os.path.dirname(llm_analysis.__file__))')/gpu_configs/\" && python3 -m llm_analysis.analysis "
                + "train --model_name MODEL --gpu_name %s --flops_efficiency 1 --hbm_memory_efficiency 1 "
                + "--intra_node_memory_efficiency 1 --inter_node_memory_efficiency 1", fileName, name);
    }

    /** The sidecar beside {@code gpu.json}: {@code gpu.membound.json}. */
    static String sidecarName(String fileName) {
        return stripJson(fileName) + ".membound.json";
    }

    static String stripJson(String name) {
        return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
    }

    private static Origin capacityOrigin(ExportInput input) {
        String source = input.machine().device().capacitySource();
        return source != null && source.startsWith("measured") ? Origin.MEASURED : Origin.DATASHEET;
    }

    private static java.math.BigDecimal latency(FigureLog log, String file, String key, ExportLink link) {
        if (link.latencyKnown()) {
            return log.write(file, key, new FigureLog.Chosen(link.latencySeconds(), link.bandwidth().origin(),
                    link.latencySource()), 1, "s", "s");
        }
        return log.neutral(file, key, 0, 1, "s", "s", "link " + link.id() + " has no latency figure ("
                + link.latencySource() + ")");
    }

    /** llm-analysis's 8- and 4-bit rates: the integer ceiling where the device has one, else the float one. */
    private static FigureLog.Chosen eightOrFourBit(FigureLog log, Precision integer, Precision floating, String key) {
        var device = log.input().machine().device();
        if (device.compute().containsKey(integer)) {
            return Rates.matrix(log, device.compute().get(integer));
        }
        if (device.compute().containsKey(floating)) {
            log.note(key + ": no " + integer.label() + " ceiling: the " + floating.label() + " one is written "
                    + "(llm-analysis uses it for " + integer.bits() + "-bit weights and activations)");
            return Rates.matrix(log, device.compute().get(floating));
        }
        return Rates.matrix(log, floating, key);
    }
}
