package membound.calibrator.imports;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import membound.profile.Device;
import membound.profile.Link;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;
import membound.vocabulary.LinkKind;
import membound.vocabulary.Precision;

/**
 * llm-analysis's GPU file, read as llm-analysis reads it (cli99/llm-analysis @ d841e40a): {@code GPUConfig(**json)}
 * ({@code llm_analysis/config.py:251}), so every key must be one of the dataclass's fields (config.py:84-94) and the
 * six without a default must be there. Units as the tool multiplies them: {@code mem_per_GPU_in_GB} by 1024³ (GiB,
 * analysis.py:1611), the bandwidths by 10⁹ (GB/s, analysis.py:1075, 1102, 1223), the latency in seconds
 * (analysis.py:1227), the peaks by 10¹² (TFLOP/s, analysis.py:1070).
 *
 * <p>Every figure is a peak the tool derates with its efficiency flags ({@code --flops_efficiency},
 * {@code --hbm_memory_efficiency}, analysis.py:93-159), so the memory bandwidth and the compute peaks go to the
 * profile's nominal block (the datasheet basis); the file has no attained figure, so nothing goes to the measured
 * basis. The two links are imported figures (a profile's links have no datasheet slot).
 */
final class LlmAnalysisGpuFile {

    /** GPUConfig's fields without a default, in its order (config.py:86-91). */
    static final List<String> REQUIRED = List.of("name", "mem_per_GPU_in_GB", "hbm_bandwidth_in_GB_per_sec",
            "intra_node_bandwidth_in_GB_per_sec", "intra_node_min_message_latency", "peak_fp16_TFLOPS");

    /** GPUConfig's fields with a default (config.py:92-94). */
    static final List<String> OPTIONAL = List.of("peak_i8_TFLOPS", "peak_i4_TFLOPS",
            "inter_node_bandwidth_in_GB_per_sec");

    private LlmAnalysisGpuFile() {
    }

    static HardwareFileImport.Result read(JsonNode root, HardwareFileImport.Builder machine) {
        if (root.path("exportedBy").asText("").startsWith("membound export")) {
            throw new BadInputException("--format llm-analysis must name the GPU file, not the provenance sidecar of a "
                    + "membound export (" + root.path("exportedBy").asText() + "): file=" + machine.file()
                    + ", GPU file=" + root.path("figures").path(0).path("file").asText("beside it"));
        }
        if (root.has("Flops") && root.has("Memory_BW")) {
            throw new BadInputException("--format llm-analysis must name an llm-analysis GPU file: file="
                    + machine.file() + " is a GenZ system dictionary (Flops, Memory_BW), which membound import does "
                    + "not read");
        }
        Set<String> fields = new LinkedHashSet<>(REQUIRED);
        fields.addAll(OPTIONAL);
        HardwareFileImport.onlyKeys(root, "", fields, "llm-analysis builds GPUConfig(**json) (llm_analysis/config.py:251)"
                + " and stops on any other key with a TypeError", machine);
        for (String key : REQUIRED) {
            if (!root.has(key)) {
                throw new BadInputException(key + " must be given (GPUConfig has no default for it, "
                        + "llm_analysis/config.py:86-91): file=" + machine.file());
            }
        }
        JsonNode nameNode = root.get("name");
        if (!nameNode.isTextual() || nameNode.textValue().isBlank()) {
            throw new BadInputException("name must be the GPU's name, a text llm-analysis looks it up by (--gpu_name, "
                    + "config.py:367-371): name=" + HardwareFileImport.shown(nameNode) + ", file=" + machine.file());
        }
        String name = nameNode.textValue().strip();
        String id = machine.deviceId();

        BigDecimal memoryGiB = HardwareFileImport.positive(root.get("mem_per_GPU_in_GB"), "mem_per_GPU_in_GB", "GiB",
                machine);
        long capacity = capacityBytes(memoryGiB, machine);
        Provenance memoryProvenance = figure(machine, "mem_per_GPU_in_GB", memoryGiB, "GiB");
        machine.mainDevice(name + " (llm-analysis GPU file)", new Device.Memory(capacity, null, memoryProvenance));
        machine.read.add("mem_per_GPU_in_GB = " + HardwareFileImport.plain(memoryGiB) + " GiB (x 1024^3, analysis.py:"
                + "1611) -> " + id + " memory capacity " + capacity + " B");

        BigDecimal hbm = HardwareFileImport.positive(root.get("hbm_bandwidth_in_GB_per_sec"),
                "hbm_bandwidth_in_GB_per_sec", "GB/s", machine);
        double hbmBytes = hbm.doubleValue() * 1e9;
        machine.nominalMemory(id, hbmBytes, figure(machine, "hbm_bandwidth_in_GB_per_sec", hbm, "GB/s"));
        machine.read.add("hbm_bandwidth_in_GB_per_sec = " + HardwareFileImport.plain(hbm) + " GB/s (x 10^9) -> "
                + id + " nominal memory bandwidth " + HardwareFileImport.si(hbmBytes, "B/s"));

        BigDecimal fp16 = HardwareFileImport.positive(root.get("peak_fp16_TFLOPS"), "peak_fp16_TFLOPS", "TFLOP/s",
                machine);
        Provenance fp16Provenance = figure(machine, "peak_fp16_TFLOPS", fp16, "TFLOP/s");
        machine.nominalCompute(id, Precision.FP16, fp16.doubleValue() * 1e12, fp16Provenance);
        machine.nominalCompute(id, Precision.BF16, fp16.doubleValue() * 1e12, fp16Provenance);
        machine.read.add("peak_fp16_TFLOPS = " + HardwareFileImport.plain(fp16) + " TFLOP/s (x 10^12) -> " + id
                + " nominal fp16 and bf16 dense peak " + HardwareFileImport.si(fp16.doubleValue() * 1e12, "FLOP/s")
                + " (llm-analysis times all 16-bit math at it)");
        optionalPeak(root, machine, "peak_i8_TFLOPS", Precision.INT8, "2");
        optionalPeak(root, machine, "peak_i4_TFLOPS", Precision.INT4, "4");

        BigDecimal intra = HardwareFileImport.positive(root.get("intra_node_bandwidth_in_GB_per_sec"),
                "intra_node_bandwidth_in_GB_per_sec", "GB/s", machine);
        BigDecimal latency = HardwareFileImport.nonNegative(root.get("intra_node_min_message_latency"),
                "intra_node_min_message_latency", "s", machine);
        Provenance intraProvenance = machine.provenance("keys intra_node_bandwidth_in_GB_per_sec = "
                + HardwareFileImport.plain(intra) + " GB/s and intra_node_min_message_latency = "
                + HardwareFileImport.plain(latency) + " s", Map.of("keys",
                "intra_node_bandwidth_in_GB_per_sec,intra_node_min_message_latency"));
        Double latencyNanos = latency.signum() > 0 ? latency.doubleValue() * 1e9 : null;
        machine.link(new Link("intra-node", id, "peer", LinkKind.NVLINK,
                HardwareFileImport.Builder.single(intra.doubleValue() * 1e9), latencyNanos, List.of(), intraProvenance));
        machine.read.add("intra_node_bandwidth_in_GB_per_sec = " + HardwareFileImport.plain(intra) + " GB/s (x 10^9) "
                + "-> link intra-node bandwidth " + HardwareFileImport.si(intra.doubleValue() * 1e9, "B/s"));
        machine.read.add("intra_node_min_message_latency = " + HardwareFileImport.plain(latency) + " s -> link "
                + "intra-node latency " + (latencyNanos == null ? "none (0 s: a profile keeps no zero latency, and the "
                + "model takes a missing one as 0)" : HardwareFileImport.si(latencyNanos, "ns")));
        machine.inferred.add("link intra-node kind nvlink: llm-analysis times GPU-to-GPU traffic inside a node with "
                + "intra_node_* (analysis.py:1223-1227), the peer link of membound's model; the file does not say what "
                + "carries it");

        JsonNode inter = root.get("inter_node_bandwidth_in_GB_per_sec");
        if (inter == null) {
            machine.skipped.add("inter_node_bandwidth_in_GB_per_sec: absent; llm-analysis would take its default "
                    + "200 GB/s (config.py:94), which is no figure of this file: no network link imported");
        } else {
            BigDecimal interGBps = HardwareFileImport.positive(inter, "inter_node_bandwidth_in_GB_per_sec", "GB/s",
                    machine);
            machine.link(new Link("inter-node", id, "other-node", LinkKind.NETWORK,
                    HardwareFileImport.Builder.single(interGBps.doubleValue() * 1e9), null, List.of(),
                    figure(machine, "inter_node_bandwidth_in_GB_per_sec", interGBps, "GB/s")));
            machine.read.add("inter_node_bandwidth_in_GB_per_sec = " + HardwareFileImport.plain(interGBps)
                    + " GB/s (x 10^9) -> link inter-node (network) bandwidth "
                    + HardwareFileImport.si(interGBps.doubleValue() * 1e9, "B/s") + ", no latency (the file has none)");
        }
        machine.skipped.add("FP32: GPUConfig has no FP32 key; membound's model times elementwise work at the "
                + "nearest precision's peak, here peak_fp16_TFLOPS's");
        machine.read.add("name = " + name + " -> the machine's name");
        return machine.build(name, name + " (llm-analysis GPU file)");
    }

    /** peak_i8/peak_i4: the INT8/INT4 nominal peak where the file gives one; llm-analysis derives a missing one. */
    private static void optionalPeak(JsonNode root, HardwareFileImport.Builder machine, String key, Precision precision,
                                     String factor) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            machine.skipped.add(key + ": " + (node == null ? "absent" : "null") + "; llm-analysis takes " + factor
                    + " x peak_fp16_TFLOPS (config.py:96-100), which is no figure of this file: no "
                    + precision.label() + " peak imported");
            return;
        }
        BigDecimal value = HardwareFileImport.positive(node, key, "TFLOP/s", machine);
        machine.nominalCompute(machine.deviceId(), precision, value.doubleValue() * 1e12,
                figure(machine, key, value, "TFLOP/s"));
        machine.read.add(key + " = " + HardwareFileImport.plain(value) + " TFLOP/s (x 10^12) -> " + machine.deviceId()
                + " nominal " + precision.label() + " dense peak " + HardwareFileImport.si(value.doubleValue() * 1e12,
                "FLOP/s") + " (llm-analysis uses it for " + precision.bits() + "-bit weights and activations)");
    }

    static Provenance figure(HardwareFileImport.Builder machine, String key, BigDecimal value, String unit) {
        return machine.provenance("key " + key + " = " + HardwareFileImport.plain(value) + " " + unit,
                Map.of("key", key, "value", HardwareFileImport.plain(value), "unit", unit));
    }

    /** GiB as llm-analysis multiplies them (1024³), to whole bytes; a capacity beyond 8 EiB is no GPU's. */
    static long capacityBytes(BigDecimal gib, HardwareFileImport.Builder machine) {
        BigDecimal bytes = gib.multiply(BigDecimal.valueOf(1L << 30));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 || bytes.compareTo(BigDecimal.ONE) < 0) {
            throw new BadInputException("memory must be between 1 byte and 8 EiB (" + machine.what() + "): GiB="
                    + HardwareFileImport.plain(gib) + ", file=" + machine.file());
        }
        return bytes.setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
    }

    static List<String> fields() {
        List<String> all = new ArrayList<>(REQUIRED);
        all.addAll(OPTIONAL);
        return all;
    }
}
