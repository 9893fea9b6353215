package membound.export;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.model.machine.Link;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * ASTRA-sim's inputs for its analytical network backend, as one directory: {@code network.yml} with one entry per
 * dimension of {@code topology}, {@code npus_count} (each above 1), {@code bandwidth} in GB/s and {@code latency} in
 * ns (astra-network-analytical {@code common/network-parser/NetworkParser.cpp:66-140}); {@code system.json} with
 * {@code peak-perf} in TFLOP/s and {@code local-mem-bw} in GB/s for its roofline ({@code astra-sim/system/Sys.cc:
 * 383-394}) beside the collective settings; {@code memory.json} for the remote-memory backend; and
 * {@code membound.json}, the provenance (ASTRA-sim reads only the keys it names, but the network file is YAML and
 * the provenance is kept in one place).
 */
final class AstraSimExport {

    static final String NETWORK = "network.yml";
    static final String SYSTEM = "system.json";
    static final String MEMORY = "memory.json";
    static final String PROVENANCE = "membound.json";

    private AstraSimExport() {
    }

    static Export build(ExportInput input, String directoryName) {
        FigureLog log = new FigureLog(input, ExportTool.ASTRA_SIM);
        List<ExportLink> dims = new ArrayList<>();
        ExportLink peer = ExportLink.of(log, Link.Kind.PEER);
        if (peer != null) {
            dims.add(peer);
        }
        ExportLink network = ExportLink.of(log, Link.Kind.NETWORK);
        if (network != null) {
            dims.add(network);
        }
        if (dims.isEmpty()) {
            throw new BadInputException("astra-sim simulates the network between devices, and the machine has no "
                    + "link to another device (no measured one, no datasheet one): " + input.origin() + "; import "
                    + "nccl-tests output first (membound import --format nccl-tests FILE --into PROFILE)");
        }
        StringBuilder yml = new StringBuilder();
        yml.append("# membound export --to astra-sim from ").append(input.origin().replaceAll("[\\r\\n]", " "))
                .append(": provenance of every figure in ").append(PROVENANCE).append('\n');
        List<String> topology = new ArrayList<>();
        List<String> npus = new ArrayList<>();
        List<String> bandwidth = new ArrayList<>();
        List<String> latency = new ArrayList<>();
        for (int i = 0; i < dims.size(); i++) {
            ExportLink d = dims.get(i);
            topology.add("Switch");
            npus.add(Integer.toString(d.ranks()));
            log.figures().add(new ExportedFigure(NETWORK, "npus_count[" + i + "]", d.ranks(), "devices", d.ranks(),
                    "1", d.bandwidth().origin(), d.ranksSource()));
            bandwidth.add(log.write(NETWORK, "bandwidth[" + i + "]", d.bandwidth(), 1e9, "GB/s", "B/s")
                    .toPlainString());
            BigDecimal ns = d.latencyKnown()
                    ? log.write(NETWORK, "latency[" + i + "]", new FigureLog.Chosen(d.latencySeconds(),
                    d.bandwidth().origin(), d.latencySource()), 1e-9, "ns", "s")
                    : log.neutral(NETWORK, "latency[" + i + "]", 0, 1e-9, "ns", "s", "link " + d.id()
                    + " has no latency figure (" + d.latencySource() + ")");
            latency.add(ns.toPlainString());
        }
        yml.append("topology: [ ").append(String.join(", ", topology)).append(" ]\n");
        yml.append("npus_count: [ ").append(String.join(", ", npus)).append(" ]\n");
        yml.append("bandwidth: [ ").append(String.join(", ", bandwidth)).append(" ]  # GB/s\n");
        yml.append("latency: [ ").append(String.join(", ", latency)).append(" ]  # ns\n");

        ObjectNode system = ToolJson.object();
        system.put("scheduling-policy", "LIFO");
        system.put("endpoint-delay", 0);
        system.put("active-chunks-per-dimension", 1);
        system.put("preferred-dataset-splits", 1);
        for (String collective : List.of("all-reduce-implementation", "all-gather-implementation",
                "reduce-scatter-implementation", "all-to-all-implementation")) {
            ArrayNode impl = system.putArray(collective);
            dims.forEach(d -> impl.add("ring"));
        }
        system.put("collective-optimization", "localBWAware");
        FigureLog.Chosen memory = Rates.memory(log);
        system.put("local-mem-bw", log.write(SYSTEM, "local-mem-bw", memory, 1e9, "GB/s", "B/s"));
        FigureLog.Chosen bf16 = Rates.matrix(log, Precision.BF16, "peak-perf");
        system.put("peak-perf", log.write(SYSTEM, "peak-perf", bf16, 1e12, "TFLOP/s", "FLOP/s"));
        system.put("roofline-enabled", 1);
        log.note("system.json: endpoint-delay 0 (the link latency is in network.yml), one chunk per dimension, ring "
                + "collectives: ASTRA-sim's settings, not figures of the machine");

        ObjectNode memoryJson = ToolJson.object();
        memoryJson.put("memory-type", "NO_MEMORY_EXPANSION");

        String command = command(directoryName);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(NETWORK, yml.toString().getBytes(StandardCharsets.UTF_8));
        files.put(SYSTEM, ToolJson.bytes(system));
        files.put(MEMORY, ToolJson.bytes(memoryJson));
        files.put(PROVENANCE, ToolJson.bytes(ToolJson.provenance(ExportTool.ASTRA_SIM, input, log.figures(),
                log.notes(), command)));
        return new Export(ExportTool.ASTRA_SIM, files, log.figures(), log.notes(), command);
    }

    static String command(String dir) {
        return "AstraSim_Analytical_Congestion_Unaware --workload-configuration=WORKLOAD --system-configuration="
                + dir + "/" + SYSTEM + " --remote-memory-configuration=" + dir + "/" + MEMORY
                + " --network-configuration=" + dir + "/" + NETWORK;
    }
}
